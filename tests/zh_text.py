"""What counts as English on a Chinese learner's screen, and the text and glyphs of a figure drawn as SVG.

Shared by tests/test_zh_cn_outputs.py (stored outputs) and tests/test_zh_cn_figures.py (figures drawn again as
SVG). A run is three or more English words (one, for a figure's label) that no rule allows: identifiers, measure
names, acronyms, the names of people, libraries and data sets, and an English term in brackets just after its
Chinese are not words of a sentence.
"""

import functools
import html
import io
import re
import xml.etree.ElementTree as ElementTree

from matplotlib import font_manager
from matplotlib.font_manager import FontProperties
from matplotlib.ft2font import FT2Font

from ndcg_teach.plots import fonts
from ndcg_teach.runs import measures
from ndcg_teach.core.registry import metrics

# Proper names a Chinese text writes in Latin letters: people, libraries, data sets, tools.
NAMES = {
    "scikit-learn", "sklearn", "ranx", "torchmetrics", "recommenders", "Evidently", "LightGBM", "allRank", "pandas",
    "NumPy", "SciPy", "statsmodels", "matplotlib", "Jupyter", "JupyterLab", "Binder", "Python", "Kendall", "Cohen",
    "Cohen's", "Fleiss", "Fleiss'", "Tukey", "Hoeffding", "Wilcoxon", "Student", "Voorhees", "Landis", "Koch", "Yilmaz",
    "Aslam", "Robertson", "Järvelin", "Kekäläinen", "Sakai", "Burges", "Moffat", "Zobel", "Chapelle", "Carterette",
    "Krichene", "Rendle", "Joachims", "Buckley", "Manning", "Bonferroni", "Holm", "SciFact", "NFCorpus", "FiQA", "Cranfield",
    "Clarke", "ndeval", "gdeval", "qrels", "IPython",
    "Jaguar",  # the band of lesson 00's query "jaguar", an item's name
}
MATH = {"log", "exp", "ln", "min", "max", "argmin", "argmax", "sqrt", "diag", "rel", "Var", "df", "min-max"}  # in formulas
PYTHON = {"True", "False", "None", "np"}  # values as Python prints them, NumPy's usual alias
# The only other English words a Chinese learner meets at run time, each for its reason.
ALLOWED = {
    # the source documents' own notation, which lesson 07 quotes beside the course's: 004's CGk and reli, 003's
    # \text{relative}_i and its Query-Doc pairs with a label
    "CGk", "DCGk", "IDCGk", "NDCGk", "reli", "relative", "Query", "Doc", "Query-Doc", "label",
    "ana", "ben", "chi", "dev",  # lesson 14's users, the keys of its dicts
    "submitted", "variant",  # lesson 09's two evaluations, printed by the names of the variables that hold them
    "NDCGKMetric", "R-precision",  # Evidently's class, and the measure's name as papers write it
}
ITEM_ORDER = re.compile(r"(?!.*(.).*\1)[a-h]{3,8}")  # an order of items a, b, c, ... written as one word: "bacd"
WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’]*(?:[-_.@][A-Za-zÀ-ÿ0-9'’{}]+)*")
SEPARATOR = re.compile(r"[ \t,;:()\"'“”‘’/&+]*")
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")
# An English term in brackets right after its Chinese, 精确率（precision）: the issue allows it.
BRACKETED = re.compile(r"(?<=[\u3400-\u9fff])[（(][A-Za-z][A-Za-z '’-]*[）)]")


def measure_names():
    names = set()
    for spec in metrics():
        names |= {spec.key, spec.label.replace("@{k}", ""), *(name.split("@")[0].split(".")[0] for name in spec.names)}
    names |= {measure.name for measure in measures.TREC_EVAL}
    return {name.lower() for name in names}


MEASURES = measure_names()


def allowed(word):
    """True for what is not a word of an English sentence: identifiers, measure names, acronyms, proper names."""
    core = word.strip("'’.")
    return (
        len(core) == 1
        or re.search(r"[_@.\d{}]", core) is not None
        or re.fullmatch(r"[A-Z][A-Z0-9\-]+s?", core) is not None  # NDCG, IDCGs, BEIR, TREC-COVID
        or re.search(r"[a-z][A-Z]", core) is not None  # RankingExplorer, nDCG, HitRate
        or core.lower() in MEASURES
        or core in NAMES
        or core in MATH
        or core in PYTHON
    )


def english_runs(text, least=3):
    """Runs of ``least`` or more English words in ``text`` that no rule allows, line by line."""
    found = []
    for line in BRACKETED.sub("", text).splitlines():
        run, position = [], 0
        while position < len(line):
            word = WORD.match(line, position)
            if not word:
                separator = SEPARATOR.match(line, position)
                if separator.end() > position:
                    position = separator.end()
                    continue
                if len(run) >= least:
                    found.append(" ".join(run))
                run, position = [], position + 1
                continue
            if not allowed(word.group()):
                run.append(word.group())
            elif len(word.group().strip("'’.")) > 1:
                if len(run) >= least:
                    found.append(" ".join(run))
                run = []
            position = word.end()
        if len(run) >= least:
            found.append(" ".join(run))
    return found


def visible(markup):
    """The text a reader sees in HTML or SVG: no styles, scripts, comments, tags or entities."""
    markup = re.sub(r"<(style|script)\b.*?</\1>|<!--.*?-->|<metadata>.*?</metadata>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", markup))


# ---- a figure drawn as SVG: its text, and whether a font has every glyph of it -------------------------------------

SVG_TEXT = "{http://www.w3.org/2000/svg}text"
SVG_TSPAN = "{http://www.w3.org/2000/svg}tspan"
STAND_IN = "\N{CURRENCY SIGN}"  # what mathtext draws for a character no font of its own has
GLYPH_WARNINGS = re.compile(r".*(?:missing from font|does not have a glyph|No Chinese font found).*")


def families(style):
    """The font families of an SVG ``style`` attribute, in order ("font-family: 'DejaVu Sans', sans-serif, ...")."""
    found = re.search(r"font-family:\s*([^;]+)", style or "")
    return [name.strip().strip("'\"") for name in found.group(1).split(",")] if found else []


def figure_texts(svg):
    """[(text, families)] of every run of text a figure drawn with ``svg.fonttype = "none"`` holds.

    A label is one ``<text>``; a mathtext label is one ``<tspan>`` per character, each with its own font.
    """
    runs = []
    for element in ElementTree.fromstring(svg).iter(SVG_TEXT):
        spans = list(element.iter(SVG_TSPAN))
        if spans:
            runs += [(span.text or "", families(span.get("style"))) for span in spans]
        else:
            runs.append(("".join(element.itertext()), families(element.get("style"))))
    return runs


def label_texts(svg):
    """The text of each label as a reader reads it (a mathtext label's characters joined)."""
    labels = []
    for element in ElementTree.fromstring(svg).iter(SVG_TEXT):
        spans = list(element.iter(SVG_TSPAN))
        labels.append("".join(span.text or "" for span in spans) if spans else "".join(element.itertext()))
    return labels


@functools.cache
def characters(family):
    """The characters of the font matplotlib draws ``family`` with; empty when no font of that family is installed."""
    try:
        path = font_manager.findfont(FontProperties(family=family), fallback_to_default=False)
    except ValueError:
        return frozenset()
    return frozenset(chr(code) for code in FT2Font(path).get_charmap())


def glyph_faults(svg):
    """What would be drawn as a box: a character none of its fonts has, Chinese not given the course's font, a stand-in."""
    faults = []
    for text, named in figure_texts(svg):
        covered = frozenset().union(*(characters(family) for family in named))
        missing = sorted({char for char in text if not char.isspace() and char not in covered})
        if missing:
            faults.append(f"{text!r}: no font of {named} has {''.join(missing)!r}")
        if CJK.search(text) and fonts.PACKAGED_FONT not in named:
            faults.append(f"{text!r}: Chinese without the course's font {fonts.PACKAGED_FONT!r} ({named})")
        if STAND_IN in text:
            faults.append(f"{text!r}: matplotlib's stand-in for a missing glyph")
    return faults


def svg_too(publish):
    """From now on, every plot ndcg_teach.plots renders (as PNG) is handed to ``publish`` as SVG too.

    Its moving artists (bars, item labels, running totals) are included: a
    plain draw leaves out animated artists. Returns the function to restore.
    """
    from ndcg_teach import plots

    render = plots._Plot._render

    def rendering(plot, key, moving):
        png = render(plot, key, moving)
        for artist in moving:
            artist.set_animated(False)
        buffer = io.StringIO()
        plot.figure.savefig(buffer, format="svg")
        for artist in moving:
            artist.set_animated(True)
        publish(buffer.getvalue())
        return png

    plots._Plot._render = rendering
    return lambda: setattr(plots._Plot, "_render", render)


# ---- single English words: what a Chinese reader of the outputs may still meet -----------------------------------

# What a learner types, so the output shows it as typed: the text inside these is not a word of a sentence.
TYPED = re.compile(
    r"'[^'\n]*'|\"[^\"\n]*\""  # a Python string: 'linear', {'ana': 3}
    r"|\b[A-Za-z_][\w.]*(?==)"  # a keyword argument's name: threshold=1
    r"|\b[A-Za-z_][\w.]+\((?:[^()\n]|\([^()\n]*\))*\)"  # a call and its arguments (not P(...)): ndcg(relevances, k=3)
    r"|\b[A-Za-z_][\w.]*(?=[(\[])"  # a function or a variable indexed: confusion[i]
    r"|\\[A-Za-z]+"  # a LaTeX command quoted from a document: \\frac, \\text
    r"|\b\d\d-[a-z][a-z0-9-]*"  # an exercise's id: 02-jarvelin
    r"|[\w./-]+\.(?:txt|png|md|py|ipynb)\b"  # a file
    r"|\tall\t"  # trec_eval's summary line, whose query id is "all"
)


@functools.cache
def typed_values():
    """The named values a learner passes to the library and sees printed back: conventions (gain 'linear', discount
    'jarvelin', curve 'textbook'), lesson 17's collection names (keys of ``nt.rag_collections()``), and the keys of
    the exercises' inputs (lesson 17's 'small' and 'large' collections)."""
    from ndcg_teach.course import rag_data
    from ndcg_teach.exercises import EXERCISES, inputs
    from ndcg_teach.core.metrics.pr_curve import CURVE_CONVENTIONS

    values = {choice for spec in metrics() for param in spec.params.values() for choice in param.choices
              if isinstance(choice, str)}
    keys = {key for name in EXERCISES for value in inputs(name).values() if isinstance(value, dict)
            for key in value if isinstance(key, str)}
    return frozenset(values | set(CURVE_CONVENTIONS) | set(rag_data.rag_collections()) | keys)


def english_words(text):
    """The English words of ``text`` a Chinese reader would read as English, one by one (see :func:`english_runs`);
    what the learner types (strings, keywords, calls, exercise ids, files, convention names) is not counted."""
    words = " ".join(english_runs(TYPED.sub(" ", text), least=1)).split()
    return [word for word in words
            if word.strip("'’.") not in typed_values() | ALLOWED and not ITEM_ORDER.fullmatch(word)]

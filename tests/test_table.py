"""The one table renderer (ndcg_teach/core/table.py) and its stylesheet (ndcg_teach/core/static/table.css)."""

import importlib.util
import math
import re
from pathlib import Path

import pytest

import ndcg_teach as nt
from ndcg_teach.core.conventions import compare
from ndcg_teach.course.examples import audit
from ndcg_teach.core.table import LAYOUT, Cell, Table, styled, stylesheet, text


def test_cell_text():
    assert [text(v) for v in (None, True, False, 0.5, float("nan"), math.e, 2, "a b")] == [
        "", "yes", "no", "0.5000", "nan", "e", "2", "a b"]
    assert text(Cell("0.86", "0.8645478846264829")) == "0.86"


def test_text_columns_align_left_numbers_right_and_lines_are_stripped():
    table = Table("caption", ("name", "n", "last"), (("a", "1", ""), ("bbbb", "100", "x")), align="lrl")
    assert str(table).splitlines() == [
        "caption",
        "name    n  last",
        "----  ---  ----",
        "a       1",
        "bbbb  100  x",
    ]


def test_every_column_aligns_left_by_default_and_the_caption_is_optional():
    assert str(Table(None, ("a", "b"), ((1.0, "x"),))).splitlines() == ["a       b", "------  -", "1.0000  x"]


def test_indent_rule_and_notes():
    table = Table("c", ("q", "v"), (("x", "1"), ("y", "2")), notes=("word " * 30, None))
    lines = table.lines(indent="  ", rule=False)
    assert lines[:2] == ["  q  v", "  x  1"]
    assert lines[-1] == "  y  2"
    notes = lines[2:-1]
    assert len(notes) == 2 and all(line.startswith("      word") and len(line) <= 110 for line in notes)
    assert " ".join(notes).split() == ["word"] * 30


def test_lookup_by_first_column():
    table = Table("t", ("convention", "value"), (("a", 0.5), ("b", None)))
    assert table["a"] == 0.5 and table["b"] is None
    assert Table("t", ("convention", "gain"), (("a", "linear"),))["a"] == ("a", "linear")
    with pytest.raises(KeyError, match=r"no row named 'c'; rows are \['a', 'b'\]"):
        table["c"]


def test_html_escapes_every_text_and_carries_classes():
    table = Table(
        "<caption> & co",
        ("<item>", "value"),
        (("<b>A</b>", Cell("0.5", '"half"')), ("B & C", None)),
        align="lr",
        column_classes=("", "ndcg-ideal"),
        row_classes=("ndcg-relevant", ""),
        notes=(None, "it's <wrong>"),
    )
    html = table.html()
    assert html.startswith("<table><caption>&lt;caption&gt; &amp; co</caption>")
    left = 'style="text-align:left"'
    assert f'<th class="ndcg-text" {left}>&lt;item&gt;</th><th class="ndcg-ideal">value</th>' in html
    assert f'<tr class="ndcg-relevant"><td class="ndcg-text" {left}>&lt;b&gt;A&lt;/b&gt;</td>' in html
    assert '<td class="ndcg-ideal" title="&quot;half&quot;">0.5</td>' in html
    assert f'<tr><td class="ndcg-text" {left}>B &amp; C</td><td class="ndcg-ideal"></td></tr>' in html
    assert f'<tr class="ndcg-row-note"><td colspan="2" style="{LAYOUT["note"]}">it&#x27;s &lt;wrong&gt;</td></tr>' in html
    assert "<b>" not in html and "<wrong>" not in html


def test_styled_block_carries_the_stylesheet_once():
    style = f"<style>{stylesheet()}</style>"
    html = styled("<p>x</p>", title="T &amp; U", kind="ndcg-trace")
    assert html == f'<div class="ndcg-table ndcg-trace">{style}<div class="ndcg-title">T &amp; U</div><p>x</p></div>'
    table = Table("t", ("a",), ())
    assert table._repr_html_() == f'<div class="ndcg-table">{style}{table.html()}</div>'
    assert table.html() == ('<table><caption>t</caption><thead><tr><th class="ndcg-text" style="text-align:left">a</th></tr></thead>'
                            '<tbody></tbody></table>')


def test_trace_conventions_and_audit_share_one_stylesheet_and_no_inline_colour():
    outputs = [nt.explain_ndcg([3, 0], k=4, pool=[3, 0, 2, 3, 1])._repr_html_(), compare([3, 0, 2])._repr_html_(),
               audit("000")._repr_html_()]
    for html in outputs:
        assert html.count("<style>") == 1 and html.startswith('<div class="ndcg-table')
        styles = re.findall(r"<style>(.*?)</style>", html, re.S)
        assert styles == [stylesheet()]
        markup = html.replace(styles[0], "")
        # Inline styles carry layout only (what must hold when an untrusted notebook drops the stylesheet), never a colour.
        assert set(re.findall(r'style="([^"]*)"', markup)) <= set(LAYOUT.values())
        assert "color" not in markup
        assert not re.search(r"#[0-9a-fA-F]{3,8}\b|rgba?\(", markup)


def test_stylesheet_colours_are_theme_variables_with_fallbacks():
    css = re.sub(r"/\*.*?\*/", "", stylesheet(), flags=re.S)
    # Whatever is left once every var(--jp-..., fallback) is taken out must name no colour.
    bare = re.sub(r"var\(--jp-[a-z0-9-]+, (?:[^()]|\([^()]*\))+\)", "", css)
    assert not re.search(r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(|\b(?:white|black|gr[ae]y|red|blue|orange)\b(?!-)", bare)
    for selector in (".ndcg-trace-value", ".ndcg-notes", ".ndcg-relevant", ".ndcg-ideal", ".ndcg-audit-no", ".ndcg-beyond"):
        assert selector in css


# Contrast (WCAG 2): text needs 4.5:1 against what is behind it. JupyterLab stripes and highlights
# table rows itself (--jp-rendermime-table-row-background, ...-hover-background), and our tints lie
# over those, so every combination is checked, in the theme files of the installed JupyterLab.


def _jupyterlab():
    spec = importlib.util.find_spec("jupyterlab")
    if spec is None:
        pytest.skip("JupyterLab is not installed")
    return Path(spec.submodule_search_locations[0])


def _theme(name):
    root = _jupyterlab()
    css = (root / "themes" / "@jupyterlab" / f"theme-{name}-extension" / "index.css").read_text(encoding="utf-8")
    variables = dict(re.findall(r"(--jp-[a-z0-9-]+):\s*([^;}]+)", css))
    # The Material palette the themes name (--md-grey-100, ...) is defined in JupyterLab's core bundle.
    for bundle in (root / "static").glob("jlab_core.*.js"):
        variables.update(re.findall(r"(--md-[a-z-]+-\d+):\s*(#[0-9a-fA-F]{3,6});", bundle.read_text(encoding="utf-8")))
    return variables


def _colour(value, variables):
    """(r, g, b, alpha), channels 0-1, of a CSS colour with var() and color-mix(..., transparent) resolved."""
    value = value.strip()
    if match := re.fullmatch(r"var\((--[a-z0-9-]+)(?:,\s*(.+))?\)", value):
        name, fallback = match.groups()
        return _colour(variables[name] if name in variables else fallback, variables)
    if match := re.fullmatch(r"color-mix\(in srgb,\s*(.+)\s+(\d+)%,\s*transparent\)", value):
        r, g, b, alpha = _colour(match[1], variables)
        return r, g, b, alpha * int(match[2]) / 100
    value = {"white": "#fff", "black": "#000"}.get(value, value)
    if value.startswith("#"):
        digits = value[1:] if len(value) == 7 else "".join(2 * digit for digit in value[1:])
        return (*(int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)), 1.0)
    r, g, b, *alpha = (float(number) for number in re.findall(r"[\d.]+", value))
    return r / 255, g / 255, b / 255, alpha[0] if alpha else 1.0


def _over(top, bottom):
    return (*(t * top[3] + b * (1 - top[3]) for t, b in zip(top[:3], bottom[:3])), 1.0)


def _contrast(text_colour, background):
    def luminance(colour):
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in colour[:3]]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(_over(text_colour, background)), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_text_keeps_a_contrast_of_4_5_in_the_jupyterlab_theme(theme):
    variables = _theme(theme)
    css = stylesheet()
    palette = dict(re.findall(r"(--ndcg-table-[a-z]+):\s*([^;]+);", css))

    def colour(name):
        return _colour(palette[f"--ndcg-table-{name}"], variables)

    page = _colour("var(--jp-layout-color0)", variables)
    rows = [page] + [_over(_colour(f"var(--jp-rendermime-table-row-{kind}background)", variables), page)
                     for kind in ("", "hover-")]
    tints = [colour(name) for name in ("relevant", "ideal", "wrong")]
    for row in rows:
        for background in [row, *(_over(tint, row) for tint in tints)]:
            assert _contrast(colour("fg"), background) >= 4.5
    # The muted and accent colours are used only outside the table, on the page itself.
    for name, selector in (("muted", ".ndcg-notes"), ("accent", ".ndcg-trace-value")):
        assert re.findall(rf"([^{{}}]+)\{{[^}}]*var\(--ndcg-table-{name}\)", css) == [f"\n.ndcg-table {selector} "]
        assert _contrast(colour(name), page) >= 4.5


def test_wide_characters_take_two_columns_so_chinese_headers_line_up():
    from ndcg_teach.core.table import width

    table = Table(None, ("条目", "增益"), (("A", 5.0), ("（未检索到）", 4.0)), align="lr")
    lines = table.lines()
    # Right-aligned numbers end in the same terminal column on every line, and the rule is as wide as the header.
    assert len({width(line) for line in lines}) == 1
    assert [len(rule) for rule in lines[1].split("  ")] == [width("（未检索到）"), len("5.0000")]


def test_a_chinese_note_wraps_between_characters_and_never_starts_a_line_with_a_comma():
    from ndcg_teach.core.table import NOTE_WIDTH, width, wrap

    note = "折损用错：" + "，".join(["第 3 位的分母印成了 log2(6)"] * 12) + "。"
    lines = wrap(note, NOTE_WIDTH, "    ")
    assert len(lines) > 1 and all(line.startswith("    ") for line in lines)
    assert all(width(line) <= NOTE_WIDTH + 2 for line in lines)  # a closing comma may hang past the edge
    assert not any(line.strip()[0] in "，。" for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == note.replace(" ", "")


def test_narrow_text_wraps_exactly_as_textwrap_does():
    import textwrap

    from ndcg_teach.core.table import wrap

    note = "Wrong discount: " + "the printed denominator is log2(6), " * 8
    assert wrap(note, 40, "  ") == textwrap.wrap(note, width=40, initial_indent="  ", subsequent_indent="  ")


# ---- Long tables and formulas: what is shown stays small, the trace keeps everything ----------------------------


def test_a_long_table_shows_its_first_and_last_rows_and_how_many_are_hidden():
    from ndcg_teach.core.table import HEAD_ROWS, ROW_LIMIT, TAIL_ROWS

    rows = tuple((str(i), f"item {i}") for i in range(1, 1001))
    table = Table("long", ("i", "item"), rows, align="rl", notes=tuple(f"note {i}" for i in range(1, 1001)))
    lines = str(table).splitlines()
    assert lines[3:3 + HEAD_ROWS * 2:2] == [f"{i:>4}  item {i}" for i in range(1, HEAD_ROWS + 1)]
    assert lines[3 + HEAD_ROWS * 2] == "… 940 rows hidden …"
    assert lines[-2:] == ["1000  item 1000", "    note 1000"]
    assert sum(line.lstrip().startswith("note") for line in lines) == HEAD_ROWS + TAIL_ROWS
    html = table.html()
    assert html.count("<tr><td") == HEAD_ROWS + TAIL_ROWS
    assert '<tr class="ndcg-rows-hidden"><td colspan="2" style="text-align:center;font-style:italic">… 940 rows hidden …</td></tr>' in html
    assert "item 50<" in html and "item 51<" not in html and "item 991<" in html
    assert table.rows[599] == ("600", "item 600") and table["600"] == ("600", "item 600")  # every row is still there
    exactly = Table(None, ("i",), tuple((i,) for i in range(ROW_LIMIT)))
    assert len(exactly.lines()) == ROW_LIMIT + 2 and "hidden" not in exactly.html()


def test_a_trace_of_a_long_list_prints_and_renders_the_same_size_whatever_its_length():
    sizes = []
    for n in (1_000, 20_000):
        trace = nt.explain_ndcg([(i * 7) % 4 for i in range(n)])
        assert len(trace.rows) == n  # .rows keeps every position
        text, html = str(trace), trace._repr_html_()
        assert f"… {n - 60:,} rows hidden …" in text and f"… {n - 60:,} rows hidden …" in html
        assert f"… ({n - 11:,} more terms) …" in text
        assert f"\n{n:>{len(str(n))}}  #{n} " in text  # the last position is shown
        sizes.append((len(text), len(html)))
    (short_text, short_html), (long_text, long_html) = sizes
    assert long_text - short_text < 400 and long_html - short_html < 600  # a few more digits, nothing more


def test_a_long_formula_keeps_its_first_and_last_terms_and_its_total():
    from ndcg_teach.core.table import shortened

    trace = nt.explain_dcg([1] * 30)
    shown = shortened(trace.formula)
    symbols, numbers, total = shown.split(" = ")[1:]
    assert symbols.startswith("1/log2(2) + 1/log2(3) + ") and symbols.endswith(" + … (19 more terms) … + 1/log2(29) + 1/log2(30) + 1/log2(31)")
    assert numbers.count(" + ") == 8 + 3 and total == f"{trace.value:.4f}"
    assert trace.formula.count(" + ") == 2 * 29  # the trace itself keeps every term
    assert shortened("NDCG@3 = DCG@3 / IDCG@3 = 1.0000 / 1.0000 = 1.0000") == "NDCG@3 = DCG@3 / IDCG@3 = 1.0000 / 1.0000 = 1.0000"


def test_the_hidden_rows_line_speaks_the_trace_language():
    with nt.language_set("zh-CN"):
        trace = nt.explain_ndcg([1] * 150)
    assert "… 省略了 90 行 …" in str(trace) and "… 省略了 90 行 …" in trace._repr_html_()
    assert "… （省略了 139 项）…" in str(trace)


# ---- Display width: East Asian Width from the standard library, checked against the wcwidth package ------------


def test_width_counts_wide_characters_two_and_combining_marks_none():
    from ndcg_teach.core.table import width

    assert [width(text) for text in ("ndcg", "增益", "（", "ｱ", "r\u0303", "e\u0301", "a\u200bb", "")] == [4, 4, 2, 1, 1, 1, 2, 0]


def test_width_agrees_with_wcwidth_on_every_character_but_those_a_later_unicode_made_wide():
    import unicodedata

    import wcwidth

    from ndcg_teach.core.table import width

    disagree = []
    for code in range(0x20, 0x110000):
        char = chr(code)
        if unicodedata.category(char) in ("Cn", "Cs", "Co", "Cc"):
            continue  # unassigned in this Python's Unicode, surrogates, private use, control characters
        if width(char) != wcwidth.wcwidth(char):
            disagree.append(char)
    # wcwidth's tables follow a later Unicode than this Python's unicodedata: symbols it made wide (emoji-era
    # pictographs, U+2630 trigrams, U+1D360 counting rods) are 1 here and 2 there. Nothing else may differ.
    later = [char for char in disagree if unicodedata.east_asian_width(char) == "N" and wcwidth.wcwidth(char) == 2
             and unicodedata.category(char) in ("So", "No")]
    assert disagree == later and len(later) < 400


def test_width_agrees_with_wcwidth_on_every_line_the_lessons_print():
    import nbformat
    import wcwidth

    from ndcg_teach.core.table import width

    lines = set()
    for path in sorted(Path(__file__).resolve().parent.parent.glob("notebooks/**/*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            for output in cell.get("outputs", []):
                text = output.get("text", "") or output.get("data", {}).get("text/plain", "")
                lines |= {line.replace("\t", " ") for line in text.splitlines() if line.isprintable()}
    assert len(lines) > 1000
    assert [line for line in lines if width(line) != wcwidth.wcswidth(line)] == []


def test_aligned_pads_by_display_width_and_spans_columns():
    from ndcg_teach.core.table import Span, aligned, width

    text = aligned([["", Span("全部条目", 2), Span("100 个抽样负例", 2)],
                    ["模型", "命中率@10", "NDCG@10", "命中率@10", "NDCG@10"],
                    ["A", "0.3010", "0.1355", "0.3645", "0.3181"]], align="lrrrr")
    lines = text.splitlines()
    assert len({width(line) for line in lines[1:]}) == 1  # right-aligned numbers end together
    assert width(lines[0]) == width(lines[1])  # the last span ends over the last column
    assert lines[0].index("全部条目") > 0 and aligned([["a"], ["bb", "c"]]) == "a\nbb  c"

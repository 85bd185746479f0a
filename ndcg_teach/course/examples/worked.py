"""Every worked example of the five source documents, as data.

Each :class:`WorkedExample` holds what its document gives: the items, their
grades in ranked order, the cut-off ``k``, the convention it states, and every
number it prints about the example (:class:`Printed`, kept as printed, right or
wrong). :func:`ndcg_teach.course.examples.audit` recomputes each printed number with
ndcg_teach. Nothing here is computed: a number the document does not print is
not invented (document 003's examples are pictures the text lacks, so they are
listed with no numbers).

Quantity names
--------------
``CG@k``, ``DCG@k``, ``IDCG@k``, ``NDCG@k``, ``P@k``; ``relevant in top k``;
one step of a hand-computed sum as ``DCG@k gain i``, ``DCG@k denominator i``
(the printed value of log2(i + 1)), ``DCG@k discount i`` (its reciprocal) and
``DCG@k term i``, and the same for ``IDCG@k`` (``i`` counts positions of the
ideal list). Code outputs and claims made in words use plain descriptions.
"""

from dataclasses import dataclass

from .sources import source
from ...i18n import gettext

KINDS = ("hand", "code", "claim", "figure", "formula")


@dataclass(frozen=True)
class Printed:
    """One number a document prints: what it is and the text as printed.

    A claim made in words is written as a relation: ``"< 1/3"`` (less than one
    third), ``"= 0"`` (no difference).
    """

    quantity: str
    text: str


@dataclass(frozen=True)
class WorkedExample:
    """A worked example (or code, or claim) of one source document.

    Attributes
    ----------
    name : str
        Unique identifier saying what the example is.
    source : str
        File name of the document it comes from.
    section : str
        Where it is in the document: section number and line numbers.
    summary : str
        What the example does, in our words.
    kind : {"hand", "code", "claim", "figure", "formula"}
        Worked by hand, the document's code, a claim in prose, an example
        that exists only in a picture missing from the text, or a definition
        with no example (nothing printed to recompute; lesson 07 maps it to
        the course's metric).
    relevances : tuple of float
        Grades in ranked order, position 1 first (for code: the list the code receives).
    ranking : tuple of str
        Item labels in ranked order; empty when the document names no items.
    judgements : tuple of (str, float)
        The grades the document gives each item, as it lists them.
    labels : tuple of int
        Binary relevance labels the document itself assigns, in ranked order.
    scores : tuple of float
        Model scores, when the document ranks by scores.
    k : int or None
        Cut-off the document uses.
    gain, discount : str or None
        The document's convention in ndcg_teach's names ("linear" / "exponential",
        "log2" / "jarvelin").
    convention : str
        The convention as the document states it, in our words.
    ideal_ranking : tuple of str
        The ideal order the document prints, as item labels.
    ideal_relevances : tuple of float
        The ideal order the document prints or sums, as grades.
    figure : str or None
        The missing picture, for kind "figure".
    code_imports : tuple of str
        Names the document's code imports (``"np"`` for ``import numpy as np``).
    code_calls : tuple of str
        Module functions the code calls, as written (``"np.asfarray"``).
    printed : tuple of Printed
        Every number the document prints for this example, in reading order.
        A number repeated for the same quantity is listed once.
    """

    name: str
    source: str
    section: str
    summary: str
    kind: str
    relevances: tuple = ()
    ranking: tuple = ()
    judgements: tuple = ()
    labels: tuple = ()
    scores: tuple = ()
    k: int = None
    gain: str = None
    discount: str = None
    convention: str = ""
    ideal_ranking: tuple = ()
    ideal_relevances: tuple = ()
    figure: str = None
    code_imports: tuple = ()
    code_calls: tuple = ()
    printed: tuple = ()

    @property
    def title(self):
        """The document's title (or, when it has none, our English description)."""
        doc = source(self.source)
        return doc.title if doc.title is not None else doc.english_title

    @property
    def citation(self):
        """File name and title of the document, for citing the example."""
        return source(self.source).citation


def _steps(total, k, **parts):
    """Printed steps of one hand-computed sum: ``parts`` maps "gain", "term", ... to the printed texts."""
    return tuple(
        Printed(f"{total}@{k} {part} {position}", text)
        for part, texts in parts.items()
        for position, text in enumerate(texts, start=1)
    )


_PRODUCTS = (("A", 5), ("B", 4), ("C", 3), ("D", 2), ("E", 1))
_TRUE_SCORES = (2, 1.6, 1.8, 1.7, 1.75, 1.78, 1.7, 1.6, 1.7, 1.5, 1.5, 1.48, 1.43, 1.43, 1.5, 1.5, 1.2, 1, 0.9)
_PRED_SCORES = (1.51, 1, 1.36, 1.17, 1.16, 1.17, 1.166, 1.55, 1.161, 1.01, 1.05, 0.96, 0.94, 0.95, 1.04, 1.67,
                1.27, 1.21, 1.04)

EXAMPLES = (
    WorkedExample(
        name="web_search_p_at_10",
        source="000_6d16541d6fd5e69f.txt",
        section="§3.1, line 33",
        summary="Seven of the first ten web results are relevant; the order is not given, and P@10 does not need it.",
        kind="hand",
        relevances=(1, 1, 1, 1, 1, 1, 1, 0, 0, 0),
        k=10,
        convention="P@K = relevant items in the top K / K",
        printed=(Printed("P@10", "0.7"),),
    ),
    WorkedExample(
        name="products_p_at_k",
        source="000_6d16541d6fd5e69f.txt",
        section="§4 and §4.1, lines 61-84",
        summary="Five products graded A = 5 ... E = 1, ranked B, A, D, C, E; P@3 and P@5 by hand.",
        kind="hand",
        relevances=(4, 5, 2, 3, 1),
        ranking=("B", "A", "D", "C", "E"),
        judgements=_PRODUCTS,
        labels=(1, 1, 0, 1, 0),
        convention=(
            "P@K = relevant items in the top K / K. The prose never says which grades count as relevant; "
            "the document's own code (§5.1) labels this ranking [1, 1, 0, 1, 0]."
        ),
        printed=(
            Printed("relevant in top 3", "2"),
            Printed("P@3", "0.667"),
            Printed("relevant in top 5", "4"),
            Printed("P@5", "0.8"),
        ),
    ),
    WorkedExample(
        name="products_ndcg_exponential",
        source="000_6d16541d6fd5e69f.txt",
        section="§4.2, lines 86-110",
        summary="NDCG@5 of the products ranked B, A, D, C, E by hand, every gain, denominator and term printed.",
        kind="hand",
        relevances=(4, 5, 2, 3, 1),
        ranking=("B", "A", "D", "C", "E"),
        judgements=_PRODUCTS,
        k=5,
        gain="exponential",
        discount="log2",
        convention="DCG@K = sum of (2^rel_i - 1) / log2(i + 1); IDCG from the same items sorted by grade",
        ideal_relevances=(5, 4, 3, 2, 1),
        printed=(
            _steps("DCG", 5, gain=("15", "31", "3", "7", "1"), denominator=("1", "1.585", "2.585", "3.17", "3.459"),
                   term=("15", "19.57", "1.16", "2.21", "0.29"))
            + (Printed("DCG@5", "38.23"),)
            + _steps("IDCG", 5, gain=("31", "15", "7", "3", "1"), denominator=("1", "1.585", "2.585", "3.17", "3.459"),
                     term=("31", "9.46", "2.71", "0.95", "0.29"))
            + (Printed("IDCG@5", "44.41"), Printed("NDCG@5", "0.861"))
        ),
    ),
    WorkedExample(
        name="p_at_k_code",
        source="000_6d16541d6fd5e69f.txt",
        section="§5.1, lines 118-154",
        summary="A Python P@K function run on binary labels of the products, with the outputs its comments promise.",
        kind="code",
        relevances=(4, 5, 2, 3, 1),
        ranking=("B", "A", "D", "C", "E"),
        judgements=_PRODUCTS,
        labels=(1, 1, 0, 1, 0),
        convention="sum of the 0/1 labels in the top K, divided by K",
        printed=(Printed("P@3", "0.6666666666666666"), Printed("P@5", "0.8")),
    ),
    WorkedExample(
        name="ndcg_exponential_code",
        source="000_6d16541d6fd5e69f.txt",
        section="§5.2, lines 156-209",
        summary="Python DCG@K and NDCG@K functions (math.log2 only) run on [4, 5, 2, 3, 1], with the output its comment promises.",
        kind="code",
        relevances=(4, 5, 2, 3, 1),
        ranking=("B", "A", "D", "C", "E"),
        k=5,
        gain="exponential",
        discount="log2",
        convention="(2^rel - 1) / log2(i + 1); the ideal is the same list sorted",
        code_imports=("math",),
        code_calls=("math.log2",),
        printed=(Printed("NDCG@5", "0.8607594936708861"),),
    ),
    WorkedExample(
        name="ranking_ndcg_linear",
        source="001_647c40be77200e02.txt",
        section="§4.2, lines 85-121",
        summary="NDCG@5 by hand for items A-E in ranked order with grades 5, 3, 2, 1, 4; every term printed.",
        kind="hand",
        relevances=(5, 3, 2, 1, 4),
        ranking=("A", "B", "C", "D", "E"),
        judgements=(("A", 5), ("B", 3), ("C", 2), ("D", 1), ("E", 4)),
        k=5,
        gain="linear",
        discount="log2",
        convention="DCG_n = sum of rel_i / log2(i + 1); IDCG from the list sorted by grade",
        ideal_ranking=("A", "E", "B", "C", "D"),
        ideal_relevances=(5, 4, 3, 2, 1),
        printed=(
            _steps("DCG", 5, term=("5", "1.585", "0.861", "0.431", "0.861"))
            + (Printed("DCG@5", "8.738"),)
            + _steps("IDCG", 5, term=("5", "2.322", "1.585", "0.861", "0.431"))
            + (Printed("IDCG@5", "10.199"), Printed("NDCG@5", "0.857"))
        ),
    ),
    WorkedExample(
        name="ndcg_numpy_code",
        source="001_647c40be77200e02.txt",
        section="§5, lines 123-159",
        summary=(
            "NumPy DCG@k and NDCG@k functions; the document prints no output for them, so they are checked "
            "on its §4.2 list against its NDCG@5 for that list."
        ),
        kind="code",
        relevances=(5, 3, 2, 1, 4),
        ranking=("A", "B", "C", "D", "E"),
        k=5,
        gain="linear",
        discount="log2",
        convention="rel_i / log2(i + 1) over the first k; the ideal is the list sorted; 0.0 when the ideal is 0",
        code_imports=("math",),
        code_calls=("np.asfarray", "np.sum", "np.log2", "np.arange"),
        printed=(Printed("NDCG@5", "0.857"),),
    ),
    WorkedExample(
        name="nineteen_items_ndcg_code",
        source="002_9758a2ecd50742e5.txt",
        section="lines 21-84",
        summary=(
            "A Python NDCG@k program run on 19 true scores and 19 predicted scores with k = 19; "
            "the document says the result is 0.98, a good ranking."
        ),
        kind="code",
        relevances=_TRUE_SCORES,
        scores=_PRED_SCORES,
        k=19,
        gain="exponential",
        discount="log2",
        convention=(
            "both score lists min-max rescaled to [0, 1] (all 0.5 when equal); gain 2^x - 1 of the rescaled "
            "true score; discount 1/log2(i + 1); IDCG from the rescaled true scores sorted"
        ),
        code_imports=("np",),
        code_calls=("np.log2", "np.sort"),
        printed=(
            Printed("NDCG@19 the code prints", "0.98"),
            Printed("NDCG@19 of the ranking by pred_scores", "0.98"),
        ),
    ),
    WorkedExample(
        name="ndcg_formula_figure",
        source="003_96b46f85e61a2d0a.txt",
        section="line 18",
        summary="The NDCG formula split into N, D, C and G: a picture missing from the text.",
        kind="figure",
        figure="pics/NDCG.png",
    ),
    WorkedExample(
        name="cg_table_figure",
        source="003_96b46f85e61a2d0a.txt",
        section="line 28",
        summary="A CG table of URLs and their gains: a picture missing from the text, so no numbers can be checked.",
        kind="figure",
        figure="pics/cg1.png",
    ),
    WorkedExample(
        name="dcg_table_figure",
        source="003_96b46f85e61a2d0a.txt",
        section="line 42",
        summary="A DCG example: a picture missing from the text, so no numbers can be checked.",
        kind="figure",
        figure="pics/dcg1.png",
    ),
    WorkedExample(
        name="ndcg_example_figure_1",
        source="003_96b46f85e61a2d0a.txt",
        section="line 54",
        summary="The first half of the NDCG example: a picture missing from the text, so no numbers can be checked.",
        kind="figure",
        figure="pics/ndcg1.png",
    ),
    WorkedExample(
        name="ndcg_example_figure_2",
        source="003_96b46f85e61a2d0a.txt",
        section="line 56",
        summary="The second half of the NDCG example: a picture missing from the text, so no numbers can be checked.",
        kind="figure",
        figure="pics/ndcg2.png",
    ),
    WorkedExample(
        name="ap_formula",
        source="003_96b46f85e61a2d0a.txt",
        section="lines 70-94",
        summary=(
            "AP of query i defined with P(j), the precision at pi_i(j), the position of result j, summed over the "
            "relevant results and divided by the relevant results in the list; the mean over queries is called AP "
            "too. No list is worked."
        ),
        kind="formula",
        convention="binary labels y_{i,j}; denominator: the relevant results among the query's n_i results",
    ),
    WorkedExample(
        name="binary_grades_claim",
        source="003_96b46f85e61a2d0a.txt",
        section="lines 34-40",
        summary=(
            "The claim that, with grades of only 0 and 1, the Järvelin form rel_1 + sum rel_i / log2(i) and "
            "the form sum (2^rel_i - 1) / log2(1 + i) give the same result."
        ),
        kind="claim",
        convention="first form: discount='jarvelin', linear gain; second form: exponential gain, discount='log2'",
        printed=(
            Printed("DCG, Järvelin form minus (2^rel - 1) form, on 0/1 grades", "= 0"),
            Printed("NDCG, Järvelin form minus (2^rel - 1) form, on 0/1 grades", "= 0"),
        ),
    ),
    WorkedExample(
        name="cg_5_2_3",
        source="004_064288211b98ea25.txt",
        section="line 10",
        summary="CG@3 of the grades [5, 2, 3].",
        kind="hand",
        relevances=(5, 2, 3),
        k=3,
        convention="CG@k = sum of rel_i over the first k",
        printed=(Printed("CG@3", "10"),),
    ),
    WorkedExample(
        name="position_10_discount",
        source="004_064288211b98ea25.txt",
        section="line 15",
        summary="The claim that an item at position 10 counts less than a third of one at position 1.",
        kind="claim",
        discount="log2",
        convention="discount 1/log2(i + 1)",
        printed=(Printed("discount at position 10 / discount at position 1", "< 1/3"),),
    ),
    WorkedExample(
        name="dcg_5_2_3",
        source="004_064288211b98ea25.txt",
        section="lines 16-20",
        summary="DCG@3 of [5, 2, 3], each discount factor and contribution printed.",
        kind="hand",
        relevances=(5, 2, 3),
        k=3,
        gain="linear",
        discount="log2",
        convention="DCG@k = sum of rel_i / log2(i + 1)",
        printed=_steps("DCG", 3, discount=("1", "0.631", "0.5"), term=("5", "1.262", "1.5")) + (Printed("DCG@3", "7.762"),),
    ),
    WorkedExample(
        name="dcg_2_3_5",
        source="004_064288211b98ea25.txt",
        section="lines 21-25",
        summary="DCG@3 of the worse order [2, 3, 5], each contribution printed.",
        kind="hand",
        relevances=(2, 3, 5),
        k=3,
        gain="linear",
        discount="log2",
        convention="DCG@k = sum of rel_i / log2(i + 1)",
        printed=_steps("DCG", 3, term=("2", "1.893", "2.5")) + (Printed("DCG@3", "6.393"),),
    ),
    WorkedExample(
        name="ndcg_5_2_3",
        source="004_064288211b98ea25.txt",
        section="lines 32-46",
        summary="NDCG@3 of [5, 2, 3]: the ideal order [5, 3, 2], its IDCG term by term, and the ratio.",
        kind="hand",
        relevances=(5, 2, 3),
        k=3,
        gain="linear",
        discount="log2",
        convention="IDCG from every relevant item of the user sorted by grade (here the three listed)",
        ideal_relevances=(5, 3, 2),
        printed=_steps("IDCG", 3, term=("5.0", "1.893", "1.0")) + (Printed("IDCG@3", "7.893"), Printed("NDCG@3", "0.983")),
    ),
)


def examples(source_name=None, kind=None):
    """The worked examples, optionally of one document or of one kind.

    Parameters
    ----------
    source_name : str or None, default None
        A document's file name or its first digits (``"004"``); None for all five.
    kind : {"hand", "code", "claim", "figure", "formula"} or None, default None
        Keep only examples of this kind.

    Returns
    -------
    tuple of WorkedExample

    Examples
    --------
    >>> [example.name for example in examples("004", kind="hand")]
    ['cg_5_2_3', 'dcg_5_2_3', 'dcg_2_3_5', 'ndcg_5_2_3']
    >>> [example.figure for example in examples("003", kind="figure")][:2]
    ['pics/NDCG.png', 'pics/cg1.png']
    """
    if kind is not None and kind not in KINDS:
        raise ValueError(gettext("kind must be one of {names} or None. Got {kind!r} instead.")
                                .format(names=', '.join(map(repr, KINDS)), kind=kind))
    file = None if source_name is None else source(source_name).file
    return tuple(
        example for example in EXAMPLES
        if (file is None or example.source == file) and (kind is None or example.kind == kind)
    )


def example(name):
    """The worked example called ``name``.

    Examples
    --------
    >>> worked = example("products_ndcg_exponential")
    >>> worked.ranking, worked.relevances, worked.gain
    (('B', 'A', 'D', 'C', 'E'), (4, 5, 2, 3, 1), 'exponential')
    >>> worked.citation
    '000_6d16541d6fd5e69f.txt «排序模型评估:准确率@K和NDCG»'
    """
    for candidate in EXAMPLES:
        if candidate.name == name:
            return candidate
    raise ValueError(gettext("name must be the name of a worked example, e.g. 'ndcg_5_2_3'. Got {name!r} instead.")
                            .format(name=name))


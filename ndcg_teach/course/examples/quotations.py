"""Short quotations of the lines lesson 07 corrects, so a learner sees what each document claimed.

The documents are other people's posts and are not part of this package: only
the few lines that lesson 07 checks are quoted here, verbatim, each with its
document's title, the line it comes from and our English translation.
Formulas and code are quoted as printed; only the Chinese words are translated.
"""

from dataclasses import dataclass

from ...i18n import language
from .sources import source
from .worked import example as worked_example


@dataclass(frozen=True)
class Quotation:
    """One quoted line of a source document.

    Attributes
    ----------
    source : str
        File name of the document, as in :data:`~ndcg_teach.course.examples.SOURCES`.
    line : int
        Line number in that file (1 = first line).
    chinese : str
        The line as printed (verbatim, Chinese and formulas).
    english : str
        Our translation; formulas and code are repeated as printed.
    example : str
        Name of the worked example (:func:`~ndcg_teach.course.examples.example`) the line belongs to.
    """

    source: str
    line: int
    chinese: str
    english: str
    example: str

    @property
    def citation(self):
        """The document's file name and title, and the line: ``000_….txt «…», line 84`` (``第 84 行`` in Chinese)."""
        if language() == "zh-CN":
            return f"{source(self.source).citation}，第 {self.line} 行"
        return f"{source(self.source).citation}, line {self.line}"

    def __str__(self):
        """The citation and the line as printed; an English reader gets our translation under it, a Chinese one does not."""
        if language() == "zh-CN":
            return f"{self.citation}\n  {self.chinese}"
        return f"{self.citation}\n  {self.chinese}\n  {self.english}"


QUOTATIONS = (
    Quotation(
        "000_6d16541d6fd5e69f.txt", 83,
        "- Precision@3 = 2/3 = 0.667 (前3个结果中有2个相关结果)",
        "- Precision@3 = 2/3 = 0.667 (2 of the first 3 results are relevant)",
        "products_p_at_k",
    ),
    Quotation(
        "000_6d16541d6fd5e69f.txt", 84,
        "- Precision@5 = 4/5 = 0.8 (前5个结果中有4个相关结果)",
        "- Precision@5 = 4/5 = 0.8 (4 of the first 5 results are relevant)",
        "products_p_at_k",
    ),
    Quotation(
        "000_6d16541d6fd5e69f.txt", 92,
        r"&= \frac{15}{1} + \frac{31}{1.585} + \frac{3}{2.585} + \frac{7}{3.17} + \frac{1}{3.459} " "\\",
        r"(DCG@5, second line) = 15/1 + 31/1.585 + 3/2.585 + 7/3.17 + 1/3.459",
        "products_ndcg_exponential",
    ),
    Quotation(
        "000_6d16541d6fd5e69f.txt", 108,
        r"$$\text{NDCG@5} = \frac{\text{DCG@5}}{\text{IDCG@5}} = \frac{38.23}{44.41} = 0.861$$",
        "NDCG@5 = DCG@5 / IDCG@5 = 38.23 / 44.41 = 0.861",
        "products_ndcg_exponential",
    ),
    Quotation(
        "000_6d16541d6fd5e69f.txt", 208,
        'print(f"NDCG@5: {ndcg_5}")  # 输出: NDCG@5: 0.8607594936708861',
        'print(f"NDCG@5: {ndcg_5}")  # output: NDCG@5: 0.8607594936708861',
        "ndcg_exponential_code",
    ),
    Quotation(
        "001_647c40be77200e02.txt", 104,
        "&= 5 + 1.585 + 0.861 + 0.431 + 0.861 \\\\",
        "(DCG_5, second line) = 5 + 1.585 + 0.861 + 0.431 + 0.861",
        "ranking_ndcg_linear",
    ),
    Quotation(
        "001_647c40be77200e02.txt", 120,
        r"NDCG_5 = \frac{DCG_5}{IDCG_5} = \frac{8.738}{10.199} = 0.857",
        "NDCG_5 = DCG_5 / IDCG_5 = 8.738 / 10.199 = 0.857",
        "ranking_ndcg_linear",
    ),
    Quotation(
        "001_647c40be77200e02.txt", 141,
        "r = np.asfarray(r)[:k]",
        "r = np.asfarray(r)[:k]   (the code imports math, never numpy)",
        "ndcg_numpy_code",
    ),
    Quotation(
        "002_9758a2ecd50742e5.txt", 55,
        "dcg_k += (2 ** true_scores_norm[i] - 1) / np.log2(i + 2)",
        "dcg_k += (2 ** true_scores_norm[i] - 1) / np.log2(i + 2)   (the true scores in their input order)",
        "nineteen_items_ndcg_code",
    ),
    Quotation(
        "002_9758a2ecd50742e5.txt", 84,
        "最后得分0.98,排序结果较好.",
        "The final score is 0.98: the ranking is good.",
        "nineteen_items_ndcg_code",
    ),
    Quotation(
        "003_96b46f85e61a2d0a.txt", 38,
        "或者另一个更强调相关性的DCG公式(若分级相关度只在0和1取二值的话, 二公式效果相同):",
        "Or another DCG formula that stresses relevance more (if the relevance grades take only the two values "
        "0 and 1, the two formulas give the same result):",
        "binary_grades_claim",
    ),
    Quotation(
        "003_96b46f85e61a2d0a.txt", 52,
        "例子如下:",
        "Here is an example: (followed by two pictures, pics/ndcg1.png and pics/ndcg2.png, that the text does not contain)",
        "ndcg_example_figure_1",
    ),
    Quotation(
        "003_96b46f85e61a2d0a.txt", 78,
        r"AP_i = \frac{\sum\limits_{j=1}^{n_i}P(j) \cdot y_{i,j}}{\sum\limits_{j=1}^{n_i}\cdot y_{i,j}}",
        "AP_i = (sum over j = 1..n_i of P(j) · y_{i,j}) / (sum over j = 1..n_i of y_{i,j})   (the denominator "
        "printed with a stray \\cdot)",
        "ap_formula",
    ),
    Quotation(
        "003_96b46f85e61a2d0a.txt", 82,
        "$$i$$表示第$$i$$个Query, $$n_i$$是这个Query中结果的总数量; $$y_{ij}$$即这个Query-Doc对的**label**, 0或1.",
        "i is the i-th query, n_i the total number of results of this query; y_{ij} is the label of this "
        "query-doc pair, 0 or 1.",
        "ap_formula",
    ),
    Quotation(
        "003_96b46f85e61a2d0a.txt", 88,
        r"P(j) = \frac{\sum\limits_{k:\pi_i(k)\le\pi_i(j)}y_{i,k}}{\pi_i(j)}",
        "P(j) = (sum of y_{i,k} over the k with pi_i(k) <= pi_i(j)) / pi_i(j)",
        "ap_formula",
    ),
    Quotation(
        "003_96b46f85e61a2d0a.txt", 92,
        "$$\\pi_i(j)$$是Doc $$d_{ij}$$在排序中的位置.",
        "pi_i(j) is the position of doc d_ij in the ranking.",
        "ap_formula",
    ),
    Quotation(
        "003_96b46f85e61a2d0a.txt", 94,
        "然后再对所有Query计算平均值得到最后的AP值.",
        "Then the mean over all queries gives the final AP value.",
        "ap_formula",
    ),
    Quotation(
        "004_064288211b98ea25.txt", 42,
        "- IDCG3=5.0+1.893+1.0=7.893。",
        "- IDCG3 = 5.0 + 1.893 + 1.0 = 7.893.",
        "ndcg_5_2_3",
    ),
    Quotation(
        "004_064288211b98ea25.txt", 45,
        "- NDCG3=IDCG3DCG3=7.8937.762≈0.983。",
        "- NDCG3 = DCG3 / IDCG3 = 7.762 / 7.893 ≈ 0.983.   (the fractions lost their bars when the page was copied)",
        "ndcg_5_2_3",
    ),
)


def quotations(source_name=None, example=None):
    """The quotations of one document, or of one worked example, in line order.

    Parameters
    ----------
    source_name : str or None, default None
        A file name such as ``"001_647c40be77200e02.txt"`` or its first digits, ``"001"``; None for every document.
    example : str or None, default None
        A worked example's name (see :func:`~ndcg_teach.course.examples.examples`); None for every example.

    Returns
    -------
    tuple of Quotation

    Examples
    --------
    Lesson 07 shows, before recomputing it, the line of document 002 that claims a score:

    >>> quote = quotations("002", example="nineteen_items_ndcg_code")[-1]
    >>> print(quote)
    002_9758a2ecd50742e5.txt «nDCG搜索引擎中排序模块的评价指标(理论及实战)», line 84
      最后得分0.98,排序结果较好.
      The final score is 0.98: the ranking is good.
    """
    file = None if source_name is None else source(source_name).file
    if example is not None:
        worked_example(example)
    return tuple(
        quote
        for quote in QUOTATIONS
        if (file is None or quote.source == file) and (example is None or quote.example == example)
    )

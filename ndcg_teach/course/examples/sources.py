"""The five documents ndcg_teach starts from, and what each one covers.

They are Chinese blog posts and study notes on NDCG, P@K and MAP, kept beside
the repository in ``../shared/seeds/``. Their worked examples live in
:mod:`ndcg_teach.course.examples.worked` and are checked by
:func:`ndcg_teach.course.examples.audit`. Titles are the documents' own; the English
titles and summaries are ours.
"""

from dataclasses import dataclass

from ...i18n import chosen_language, gettext, mark


@dataclass(frozen=True)
class Source:
    """One source document.

    Attributes
    ----------
    file : str
        File name in ``../shared/seeds/``; every example and audit record cites it.
    title : str or None
        The document's own title, or None when it opens without one.
    english_title : str
        Our English title (a translation, or a description for untitled documents).
    language : str
        ISO 639-1 code of the document's language.
    covers : tuple of str
        The metrics and formulas it explains.
    summary : str
        What it contains, in our words.
    missing_figures : tuple of str
        Pictures the text refers to but does not contain.
    first_line : str
        The start of the document's first line (its first sentence), verbatim:
        how a reader of an untitled document recognises it (the Chinese
        edition cites it by that line).
    """

    file: str
    title: str
    english_title: str
    language: str
    covers: tuple
    summary: str
    missing_figures: tuple = ()
    first_line: str = ""

    @property
    def citation(self):
        """File name and title, the way examples and notes cite the document, in the learner's language."""
        return self.citation_in()

    def citation_in(self, language=None):
        """The citation in ``language`` (the current one when None): an untitled document by its first line in Chinese.

        Examples
        --------
        >>> source("004").citation_in("en")
        '004_064288211b98ea25.txt [untitled: NDCG for recommender systems, built up from CG and DCG]'
        >>> source("001").citation_in("zh-CN")
        '001_647c40be77200e02.txt［无标题，首行：“## 1. 背景介绍”］'
        """
        chinese = chosen_language(language) == "zh-CN"
        if self.title is not None:
            return f"{self.file} 《{self.title}》" if chinese else f"{self.file} «{self.title}»"
        if chinese:
            return f"{self.file}［无标题，首行：“{self.first_line}”］"
        return f"{self.file} [untitled: {self.english_title}]"

    def heading(self, language=None):
        """How lesson 07 names the document: its title (with our translation in English), or, untitled, our English
        title in English and its own first line in Chinese.

        >>> source("000").heading("en")
        '排序模型评估:准确率@K和NDCG (Evaluating ranking models: Precision@K and NDCG)'
        >>> source("004").heading("zh-CN")
        '［无标题，首行：“评估推荐系统通常需要比单纯判断相关条目是否存在更为细致的指标。”］'
        """
        chinese = chosen_language(language) == "zh-CN"
        if self.title is not None:
            return f"《{self.title}》" if chinese else f"{self.title} ({self.english_title})"
        return f"［无标题，首行：“{self.first_line}”］" if chinese else f"(untitled) {self.english_title}"

    def figures_missing(self, language=None):
        """The pictures the text refers to but does not contain, in ``language`` (file names as they are)."""
        return "、".join(gettext(figure, language) for figure in self.missing_figures) if chosen_language(language) == \
            "zh-CN" else ", ".join(self.missing_figures)


SOURCES = (
    Source(
        file="000_6d16541d6fd5e69f.txt",
        title="排序模型评估:准确率@K和NDCG",
        english_title="Evaluating ranking models: Precision@K and NDCG",
        language="zh",
        covers=("P@K", "DCG", "IDCG", "NDCG"),
        summary=(
            "Blog post. Defines P@K, and DCG with the exponential gain 2^rel - 1 and the "
            "1/log2(i+1) discount; works P@3, P@5 and NDCG@5 by hand for five products ranked "
            "B, A, D, C, E (A = 5 ... E = 1); then gives Python functions with the outputs they "
            "are said to print. The text stops mid-sentence in its section 6."
        ),
    ),
    Source(
        file="001_647c40be77200e02.txt",
        title=None,
        english_title="NDCG for evaluating recommender systems",
        language="zh",
        covers=("CG", "DCG", "IDCG", "NDCG"),
        summary=(
            "Article that opens at its section 1 without a title. Gives CG, DCG with the linear "
            "gain and the 1/log2(i+1) discount, IDCG and NDCG; works NDCG@5 by hand for items "
            "A-E ranked with grades 5, 3, 2, 1, 4; then gives NumPy functions for DCG@k and NDCG@k."
        ),
        first_line="## 1. 背景介绍",
    ),
    Source(
        file="002_9758a2ecd50742e5.txt",
        title="nDCG搜索引擎中排序模块的评价指标(理论及实战)",
        english_title="nDCG, the evaluation metric of a search engine's ranking module (theory and practice)",
        language="zh",
        covers=("DCG", "IDCG", "NDCG"),
        summary=(
            "CSDN blog post. States NDCG@K = DCG@K / IDCG@K in words, then one Python program "
            "that min-max rescales 19 true and 19 predicted scores, uses the gain 2^x - 1, and is "
            "said to score 0.98."
        ),
        missing_figures=(mark("the data-layout picture (only its placeholder text is left)"),),
    ),
    Source(
        file="003_96b46f85e61a2d0a.txt",
        title="评价指标",
        english_title="Evaluation metrics",
        language="zh",
        covers=("CG", "DCG", "IDCG", "NDCG", "AP", "MAP"),
        summary=(
            "Study notes. Formulas for CG, two forms of DCG (Järvelin and Kekäläinen's "
            "rel_1 + sum rel_i / log2(i), and sum (2^rel - 1) / log2(i + 1)), NDCG, and AP with "
            "the relevant items retrieved as its denominator, averaged over queries into MAP. "
            "Every worked example is a picture that the text does not contain."
        ),
        missing_figures=("pics/NDCG.png", "pics/cg1.png", "pics/dcg1.png", "pics/ndcg1.png", "pics/ndcg2.png"),
    ),
    Source(
        file="004_064288211b98ea25.txt",
        title=None,
        english_title="NDCG for recommender systems, built up from CG and DCG",
        language="zh",
        covers=("CG", "DCG", "IDCG", "NDCG"),
        summary=(
            "Tutorial without a title. Builds CG, DCG (linear gain, 1/log2(i+1)) and NDCG on the "
            "grades [5, 2, 3], compares the worse order [2, 3, 5], and builds the ideal ranking "
            "from every relevant item of the user."
        ),
        first_line="评估推荐系统通常需要比单纯判断相关条目是否存在更为细致的指标。",
    ),
)


def source(name):
    """The :class:`Source` with file name ``name``, or whose name starts with it.

    Parameters
    ----------
    name : str
        A file name such as ``"000_6d16541d6fd5e69f.txt"``, or its first digits, ``"000"``.

    Returns
    -------
    Source

    Examples
    --------
    >>> source("000").title
    '排序模型评估:准确率@K和NDCG'
    >>> source("003_96b46f85e61a2d0a.txt").missing_figures[:2]
    ('pics/NDCG.png', 'pics/cg1.png')
    """
    if isinstance(name, str) and name:
        found = [doc for doc in SOURCES if doc.file == name or doc.file.startswith(name)]
        if len(found) == 1:
            return found[0]
    files = ", ".join(repr(doc.file) for doc in SOURCES)
    raise ValueError(gettext("name must be one of {files}, or its first digits such as '000'. Got {name!r} "
                             "instead.").format(files=files, name=name))

"""The course's terms in English and Chinese, with the variants the source documents print.

Both editions of the course use these terms, and a test checks that the
Chinese lessons do. The five source documents (lesson 07) are Chinese posts
that name the same ideas in different ways, and three of their words are
traps for a learner moving between them and English material:

- 准确率@K in document 000, and 准确率 in document 003's AP, is precision
  (P@k), not accuracy;
- 相关性得分 / 相关度得分 / 得分 in documents 001, 002 and 004 is a relevance
  grade, while this course keeps "score" (打分) for a model's output;
- 归一化 in document 002 also names min-max scaling of grades, which the N of
  NDCG is not (NDCG divides by IDCG).

Where the course once wrote one concept two ways (评估 / 评价, 条目 / 物品,
排序模型 / 排序器, ...), one term was chosen, for the reasons in its
``chosen_because``, and the others are its ``rejected`` variants: a test keeps
them out of the Chinese lessons, their outputs, the catalogue and the README.

>>> from ndcg_teach.glossary import term
>>> term("precision@k").chinese
'精确率@k'
>>> term("精确率@k").english
'precision@k'
>>> "准确率@K" in term("precision@k").variants
True
>>> term("排序器").chinese
'排序模型'
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import gettext as _
from .i18n import language
from .table import Table


@dataclass(frozen=True)
class Term:
    """One term of the course.

    Attributes
    ----------
    english, chinese : str
        The term as the course writes it in each edition.
    meaning, meaning_zh : str
        One line on what it means, in English and in Chinese.
    variants : tuple of str
        Other Chinese names for it, as the source documents (and other Chinese
        material) print them; a learner should read them as this term.
    trap : str
        Empty, or the misreading a variant invites and which documents use it
        (in English; ``trap_zh`` in Chinese).
    trap_zh : str
        The trap in Chinese.
    rejected : tuple of str
        Chinese names the course does not write for it (not in prose, outputs,
        the catalogue or README.zh-CN), outside a quotation of a source document.
    chosen_because : str
        Why ``chinese`` was chosen over the rejected names (empty when none is rejected).
    """

    english: str
    chinese: str
    meaning: str
    meaning_zh: str
    variants: tuple = ()
    trap: str = ""
    trap_zh: str = ""
    rejected: tuple = ()
    chosen_because: str = ""


TERMS = (
    Term("evaluation", "评估",
         "Measuring how well a ranking serves its users, with judged queries and metrics.",
         "用已判断的查询和指标衡量排序对用户有多大用处。",
         ("评价", "评测"),
         rejected=("评价", "评测"),
         chosen_because="The source documents write 评估 (38 times, 评价 10); 评价 also means a user's review, which "
                        "lesson 14's recommenders meet. IIR's Chinese translation writes 评价: read it as 评估."),
    Term("item", "条目",
         "One thing a ranking lists: a document, a passage, a product.",
         "排序列出的一个对象：文档、段落或商品。",
         ("项目", "物品", "文档"),
         rejected=("物品", "项目"),
         chosen_because="One word for documents, passages and products alike, as every table of the course writes it; "
                        "recommender-system texts say 物品."),
    Term("ranker", "排序模型",
         "The system that orders the items for a query, by the scores it gives them.",
         "为查询给条目打分并按分排序的系统。",
         ("排序器", "排序系统"),
         rejected=("排序器",),
         chosen_because="The source documents write 排序模型, and a score is 模型打分: the ranker is that model."),
    Term("relevance grade", "相关性等级",
         "How useful a judge found an item for the query: 0 for not relevant, higher for better.",
         "评审员判断某个结果对查询有多有用：0 表示不相关，数越大越相关。",
         ("相关性得分", "相关度得分", "相关度", "得分", "相关性分数"),
         "Documents 001, 002 and 004 call grades 得分 (score); in this course a score is a model's output, never a grade.",
         "文档 001、002、004 把等级叫作“得分”；本课程中的“打分”只指模型的输出，从不指相关性等级。"),
    Term("score", "模型打分",
         "The number a model gives an item; the ranking sorts items by it, highest first.",
         "模型给每个结果打出的数值；排序按它从高到低排列。",
         ("预测相关度得分", "分数", "预测分数")),
    Term("ranking", "排序",
         "The list of results in the order a system shows them, position 1 first.",
         "系统展示结果的顺序，第 1 位在最前。",
         ("排序列表", "排名")),
    Term("position", "位置",
         "Where an item sits in the ranking, counted from 1.",
         "结果在排序中所处的名次，从 1 开始数。",
         ("排序位置", "排名位置", "rank")),
    Term("cut-off k", "截断位置 k",
         "How many top positions a metric looks at: @k.",
         "指标只看排在最前面的 k 个位置，写作 @k。",
         ("前K个", "Top-K")),
    Term("gain", "增益",
         "What one item adds to the sum: its grade (linear gain) or 2^grade − 1 (exponential gain).",
         "一个结果对总和的贡献：等级本身（线性增益）或 2^等级 − 1（指数增益）。",
         ("收益",)),
    Term("cumulative gain (CG)", "累积增益（CG）",
         "The sum of the gains of the first k items, blind to their order.",
         "前 k 个结果的增益之和，与它们的先后顺序无关。",
         ("累计增益", "累计收益")),
    Term("discount", "折损",
         "The factor a gain is multiplied by at its position: 1 / log2(position + 1) in DCG.",
         "增益在某个位置要乘上的系数：DCG 中为 1 / log2(位置 + 1)。",
         ("折扣", "折损因子", "折扣因子", "衰减")),
    Term("discounted cumulative gain (DCG)", "折损累积增益（DCG）",
         "The sum of the discounted gains of the first k items: order matters.",
         "前 k 个结果折损后的增益之和：顺序会影响结果。",
         ("折扣累积增益", "折扣累计增益", "折损累计增益", "折扣累计收益"),
         "The documents mix 折扣/折损 and 累积/累计; all four spellings mean DCG.",
         "各文档混用“折扣/折损”和“累积/累计”，四种写法都指 DCG。"),
    Term("original discount", "原始折损",
         "Järvelin and Kekäläinen's first discount: no discount before position b, then 1 / log_b(i).",
         "Järvelin 和 Kekäläinen 最早提出的折损：位置 b 之前不折损，之后为 1 / log_b(i)。",
         ("最初折损",),
         rejected=("最初折损", "最初的折损"),
         chosen_because="原始 says it is the first published form, as the library's trace and the lessons call it."),
    Term("running total", "累加和",
         "The sum so far, from position 1 to position i: running DCG, running IDCG.",
         "从第 1 位加到第 i 位为止的和：DCG 累加值、IDCG 累加值。",
         ("累计和", "累加值"),
         rejected=("累积 DCG", "累积 IDCG", "累积值"),
         chosen_because="累积 is already the C of CG and DCG (累积增益): 累积 DCG read as a second accumulation."),
    Term("ideal ranking", "理想排序",
         "The judged items sorted by grade, best first: the best order possible.",
         "把已判断的结果按等级从高到低排好：可能达到的最好顺序。",
         ("理想排列", "理想顺序", "理想列表"),
         rejected=("理想顺序", "理想列表", "理想排列"),
         chosen_because="排序 is the course's word for a ranking; 顺序 and 列表 made the ideal one look like another object."),
    Term("ideal DCG (IDCG)", "理想 DCG（IDCG）",
         "The DCG of the ideal ranking, cut at the same k.",
         "理想排序在同一截断位置 k 上的 DCG。",
         ("理想折扣累积增益", "理想折损累计增益", "理想折扣累计收益")),
    Term("normalised DCG (NDCG)", "归一化折损累积增益（NDCG）",
         "DCG divided by IDCG: between 0 and 1, comparable across queries.",
         "DCG 除以 IDCG：介于 0 和 1 之间，可以在不同查询之间比较。",
         ("归一化折损累计增益", "归一化折扣累积增益", "标准化折损累计增益"),
         "Document 002 also says 归一化 for min-max scaling of the grades; the N of NDCG divides by IDCG, a different thing.",
         "文档 002 还用“归一化”指对相关性等级做 min-max 缩放；NDCG 中的“归一化”是除以 IDCG，两者不是一回事。",
         chosen_because="The Chinese translation of Manning et al.'s IIR writes 折损累积增益; the documents split between 折扣累积 and 折损累计."),
    Term("query", "查询",
         "One information need with its own judged items; metrics are averaged over queries.",
         "一个信息需求及其已判断的结果；指标在多个查询上取平均。",
         ("请求", "用户")),
    Term("pool", "判断池",
         "Every item judged for a query, retrieved or not; the ideal ranking is built from it.",
         "某个查询所有被判断过的结果，无论是否被检索到；理想排序由它构成。",
         ("候选集", "标注集")),
    Term("unjudged item", "未判断结果",
         "An item no judge looked at; trec_eval counts it as not relevant.",
         "没有评审员看过的结果；trec_eval 把它当作不相关。",
         ("未标注", "未评估")),
    Term("relevance threshold", "相关性阈值",
         "The lowest grade counted as relevant by the binary metrics (P@k, R@k, AP, RR).",
         "二元指标（P@k、R@k、AP、RR）中算作相关的最低等级。",
         ("阈值",)),
    Term("precision@k", "精确率@k",
         "The share of the first k items that are relevant.",
         "前 k 个结果中相关结果所占的比例。",
         ("准确率@K", "查准率", "精度", "正确率", "Precision@K"),
         "Documents 000 and 003 write 准确率 (accuracy) for precision: 000 as 准确率@K, 003 inside AP; accuracy is a different measure.",
         "文档 000 和 003 把精确率写成“准确率”：000 写作“准确率@K”，003 用在 AP 里；准确率（accuracy）是另一个指标。"),
    Term("recall@k", "召回率@k",
         "The share of all the query's relevant items found in the first k.",
         "查询的全部相关结果中，出现在前 k 个里的比例。",
         ("查全率", "Recall@K")),
    Term("average precision (AP)", "平均精确率（AP）",
         "The mean of P@i at the positions i of the relevant items, over all relevant items of the query.",
         "在每个相关结果所在位置 i 上取 P@i，再对查询的全部相关结果求平均。",
         ("平均准确率", "平均精度", "平均正确率"),
         "Document 003 calls AP 准确率的平均值 (the mean of accuracy); it is a mean of precisions.",
         "文档 003 把 AP 说成“准确率的平均值”；它其实是精确率的平均。"),
    Term("mean average precision (MAP)", "平均精确率均值（MAP）",
         "AP averaged over queries.",
         "AP 在多个查询上的平均值。",
         ("平均准确率均值", "平均精度均值", "平均正确率均值")),
    Term("reciprocal rank (RR)", "倒数排名（RR）",
         "1 / the position of the first relevant item; 0 when there is none.",
         "第一个相关结果位置的倒数；没有相关结果时为 0。",
         ("排名倒数",)),
    Term("mean reciprocal rank (MRR)", "平均倒数排名（MRR）",
         "RR averaged over queries.",
         "RR 在多个查询上的平均值。",
         ("平均排名倒数",)),
    Term("ties", "并列",
         "Items with the same score, whose order a library must choose.",
         "模型打分相同的结果，库必须为它们选定一个顺序。",
         ("同分", "平局")),
    Term("R-precision", "R-精确率",
         "Precision at k = R, the number of relevant items of the query.",
         "在 k = R（查询的相关结果数）处的精确率。",
         ("R-准确率",)),
    Term("precision-recall curve", "精确率–召回率曲线",
         "Precision plotted against recall as the list is read from the top.",
         "从上往下读排序时，精确率随召回率变化的曲线。",
         ("P-R 曲线", "PR 曲线")),
    Term("interpolated precision", "插值精确率",
         "The highest precision at this recall or any higher recall.",
         "在该召回率及更高召回率处能达到的最高精确率。"),
    Term("F-measure", "F 值",
         "The weighted harmonic mean of precision and recall.",
         "精确率与召回率的加权调和平均。",
         ("F1 值", "F 分数")),
    Term("expected reciprocal rank (ERR)", "期望倒数排名（ERR）",
         "The expected 1 / position at which a cascading user stops, satisfied.",
         "级联浏览的用户在满意后停下时，停下位置倒数的期望值。"),
    Term("rank-biased precision (RBP)", "秩偏精确率（RBP）",
         "A user reads on with probability p; the expected rate of relevant items read.",
         "用户以概率 p 继续往下看；读到的相关结果的期望比例。"),
    Term("widget", "交互部件",
         "An interactive control in the notebook: drag, press keys, and watch the numbers change.",
         "笔记本中可以操作的控件：拖动、按键，看数字随之变化。",
         ("交互组件", "小部件", "小组件"),
         rejected=("交互组件",),
         chosen_because="JupyterLab's Chinese interface (the language pack the course installs) says 小部件; the lessons "
                        "already wrote 部件."),
    Term("step table", "计算步骤表",
         "The table of a trace: one row per position with every number of the sum.",
         "计算过程的表格：每个位置一行，列出求和中的每个数。",
         ("计算过程表",),
         rejected=("计算过程表",),
         chosen_because="Each row is one step of the sum, as the library's traces print it."),
    Term("significance test", "显著性检验",
         "Asks how likely a difference this large is if the two systems were equally good.",
         "如果两个系统其实一样好，出现这么大差异的可能性有多大。",
         ("统计检验",)),
    Term("effect size", "效应量",
         "How large a difference is compared with its spread over queries.",
         "差异的大小相对于它在各查询间波动的程度。"),
    Term("swapped pair", "先后颠倒的系统对",
         "A pair of systems that two evaluations order the other way round (Kendall's discordant pair); τ counts them.",
         "两次评估给出相反先后的一对系统（Kendall 所说的不一致对）；τ 数的就是它们。",
         ("不一致对", "异序对"),
         rejected=("交换了先后", "交换了位置", "交换的对数", "交换的比例", "交换的系统对"),
         chosen_because="颠倒 says what τ counts, a pair whose order in one evaluation is the reverse of its order in the "
                        "other, and is the word lesson 14 already writes for two models' order reversed; 交换 stays the "
                        "word for an action on one ranking (lesson 06: swap two results), which τ does not count."),
    Term("hit rate@k", "命中率@k",
         "The share of users whose held-out item appears in their first k recommendations.",
         "留出的条目出现在推荐列表前 k 个中的用户比例。",
         ("HitRate@K", "HR@K")),
    Term("nugget", "信息块",
         "One fact a good answer to the query should contain; answers are scored by the nuggets they support.",
         "好答案应当包含的一条事实；按答案支持了哪些信息块给答案打分。",
         ("信息片段", "信息点", "信息单元", "要点"),
         rejected=("信息片段",),
         chosen_because="Lesson 17 already wrote 信息块, a unit of information as nugget is; 片段 is what a passage "
                        "(段落) is, a piece of text, and a nugget is a fact that many passages may state."),
    Term("vital nugget", "关键信息块",
         "A nugget a good answer must contain (TREC's vital).",
         "好答案必须包含的信息块（TREC 所说的 vital）。",
         ("必要信息块", "核心信息块")),
    Term("okay nugget", "次要信息块",
         "A nugget worth having in an answer but not essential (TREC's okay).",
         "答案里有了更好、但并非必不可少的信息块（TREC 所说的 okay）。",
         ("一般信息块", "可选信息块")),
    Term("partial support", "部分支持",
         "An answer states only part of a nugget: half credit in the TREC 2024 RAG track's nugget scores, none in the strict ones.",
         "答案只陈述了信息块的一部分：在 TREC 2024 RAG 赛道的信息块分数中计一半分，在严格分数中不计分。",
         ("部分支撑",)),
    Term("faithfulness", "忠实度",
         "The share of an answer's statements that the passages its generator read support, cited or not.",
         "答案的陈述中，生成器读到的段落（无论是否被引用）能够支持的比例。",
         ("忠实性", "有据性", "事实一致性", "可信度"),
         rejected=("可信度",),
         chosen_because="可信度 is credibility, how far a reader trusts an answer; faithfulness asks whether the "
                        "context supports it, which a wrong passage can give and a true memory cannot."),
    Term("citation recall", "引用召回率",
         "The share of an answer's sentences that the passages they cite, together, support (ALCE).",
         "答案的句子中，被它引用的段落合起来能够支持的比例（ALCE）。",
         ("引文召回率",)),
    Term("citation precision", "引用精确率",
         "The share of an answer's citations that are not irrelevant to the sentence citing them (ALCE).",
         "答案的引用中，对引用它的句子并非无关的引用所占的比例（ALCE）。",
         ("引文精确率",)),
    Term("LLM judge", "LLM 评审员",
         "A large language model used in place of a person to judge relevance, nuggets or support.",
         "代替人来判断相关性、信息块或支持情况的大语言模型。",
         ("LLM 裁判", "大模型评委", "LLM-as-a-judge")),
)


def term(name: str) -> Term:
    """The term named ``name`` in English or Chinese (with or without its abbreviation), or a variant of it.

    >>> term("得分").english
    'relevance grade'
    >>> term("NDCG").chinese
    '归一化折损累积增益（NDCG）'
    """
    if not isinstance(name, str):
        raise TypeError(_("name must be a term as a string, such as 'gain' or '增益'. Got {name!r} ({kind}) "
                          "instead.").format(name=name, kind=type(name).__name__))
    wanted = name.strip().lower()
    for entry in TERMS:
        names = {entry.english, entry.chinese, *_short_names(entry.english), *_short_names(entry.chinese), *entry.variants}
        if wanted in {candidate.lower() for candidate in names}:
            return entry
    raise ValueError(_("name must be a term of the glossary, in English or Chinese, such as 'gain' or "
                             "'增益'. Got {name!r} instead.").format(name=name))


def _short_names(name: str) -> tuple:
    """``"average precision (AP)"`` -> ``("average precision", "AP")``; Chinese full-width brackets too."""
    for opening, closing in (("（", "）"), (" (", ")")):
        if name.endswith(closing) and opening in name:
            head, _, tail = name.partition(opening)
            return head.strip(), tail[: -len(closing)]
    return ()


class Glossary(tuple):
    """The terms as a table: printed as text, shown as HTML in a notebook, in the learner's language."""

    def table(self) -> Table:
        zh = language() == "zh-CN"
        rows = tuple(
            (entry.english, entry.chinese, "、".join(entry.variants), entry.meaning_zh if zh else entry.meaning)
            for entry in self
        )
        notes = tuple((entry.trap_zh if zh else entry.trap) or None for entry in self)
        headers = (_("English"), _("Chinese"), _("Also written (source documents)"), _("Meaning"))
        return Table(_("Glossary: the course's terms, and the traps in the source documents"), headers, rows, notes=notes)

    def __str__(self):
        return str(self.table())

    __repr__ = __str__

    def _repr_html_(self):
        return self.table()._repr_html_()


def glossary() -> Glossary:
    """Every term of the course, in course order; traps are shown as notes under their term.

    >>> print(str(glossary()).splitlines()[0])
    Glossary: the course's terms, and the traps in the source documents
    >>> len(glossary()) == len(TERMS)
    True
    """
    return Glossary(TERMS)

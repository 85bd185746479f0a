"""The course's terms (the data of :mod:`ndcg_teach.course.glossary`), and where each other Chinese name of a term comes from.

A term's ``variants`` are the names the five source documents (lesson 07) print: a test reads the documents and
finds every one of them there. Names met elsewhere are its ``elsewhere`` entries, each with the key of its source
in :data:`SOURCES`: a named textbook, a field's usage, JupyterLab's language pack, or this course's own earlier
drafts. What could not be checked against the book itself says so.
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCES = {
    "common": ("common usage", "常见写法"),
    "lis": ("library and information science", "图书情报学"),
    "zhou": ("Zhou Zhihua, Machine Learning, as notes on the book quote it", "周志华《机器学习》，据读书笔记转引"),
    "iir": ("Introduction to Information Retrieval in Chinese, unverified", "《信息检索导论》中译本，未核实"),
    "recsys": ("recommender-system writing", "推荐系统文章"),
    "cv": ("computer-vision writing", "计算机视觉文章"),
    "jupyterlab": ("JupyterLab 4.5's language pack", "JupyterLab 4.5 中文语言包"),
    "drafts": ("this course's earlier drafts", "本课程早期稿件"),
}
"""Where a name of ``Term.elsewhere`` comes from: key -> (English, Chinese). Library and information science's
journals write 查准率 and 查全率 (checked in their abstracts); Zhou Zhihua's 机器学习 (2016) was not at hand, and
what it writes (精度 for accuracy, 查准率, 查全率, P-R 曲线) is taken from study notes that quote it; what the Chinese
translation of Manning, Raghavan and Schütze's Introduction to Information Retrieval writes could not be checked;
JupyterLab's language pack (jupyterlab-language-pack-zh-CN 4.5) was read: 小部件 for its own panels, 小组件 for
Jupyter widgets."""


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
        Other Chinese names for it that the source documents print; a
        learner should read them as this term.
    trap : str
        Empty, or the misreading a variant invites and which documents use it
        (in English; ``trap_zh`` in Chinese).
    trap_zh : str
        The trap in Chinese.
    rejected : tuple of str
        Chinese names the course does not write for it (not in prose, outputs,
        the catalogue, the READMEs, hub/, docs/ or the site), outside a
        quotation of a source document.
    chosen_because : str
        Why ``chinese`` was chosen over the rejected names (empty when none is rejected).
    elsewhere : tuple of (str, str)
        Other names met outside the source documents, each with the key of
        its source in :data:`SOURCES`.
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
    elsewhere: tuple = ()

    def names(self) -> tuple:
        """Every Chinese name a learner may meet for this term: the source documents' and the others."""
        return (*self.variants, *(name for name, _ in self.elsewhere))


TERMS = (
    Term("evaluation", "评估",
         "Measuring how well a ranking serves its users, with judged queries and metrics.",
         "用已判断的查询和指标衡量排序对用户有多大用处。",
         ("评价",),
         rejected=("评价", "评测"),
         chosen_because="The source documents write 评估 (38 times, 评价 10); 评价 also means a user's review, which "
                        "lesson 14's recommenders meet.",
         elsewhere=(("评测", "common"),)),
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
         rejected=("排序器",),
         chosen_because="The source documents write 排序模型, and a score is 模型打分: the ranker is that model.",
         elsewhere=(("排序器", "common"), ("排序系统", "common"))),
    Term("relevance judge", "评审员",
         "A person who reads an item for a query and gives it a relevance grade.",
         "针对某个查询阅读条目、给出相关性等级的人。",
         rejected=("判断者",),
         chosen_because="Every lesson writes 评审员 (lesson 15 over a hundred times); 判断者 appeared twice in lesson 12.",
         elsewhere=(("判断者", "drafts"), ("标注员", "common"), ("评估员", "common"))),
    Term("relevance grade", "相关性等级",
         "How useful a judge found an item for the query: 0 for not relevant, higher for better.",
         "评审员判断某个结果对查询有多有用：0 表示不相关，数越大越相关。",
         ("相关性得分", "相关度得分", "相关度", "得分", "相关性分数"),
         "Documents 001, 002 and 004 call grades 得分 (score); in this course a score is a model's output, never a grade.",
         "文档 001、002、004 把等级叫作“得分”；本课程中的“打分”只指模型的输出，从不指相关性等级。"),
    Term("score", "模型打分",
         "The number a model gives an item; the ranking sorts items by it, highest first.",
         "模型给每个结果打出的数值；排序按它从高到低排列。",
         ("预测相关度得分", "分数"),
         elsewhere=(("预测分数", "common"),)),
    Term("ranking", "排序",
         "The list of results in the order a system shows them, position 1 first.",
         "系统展示结果的顺序，第 1 位在最前。",
         ("排名",),
         elsewhere=(("排序列表", "common"),)),
    Term("position", "位置",
         "Where an item sits in the ranking, counted from 1.",
         "结果在排序中所处的名次，从 1 开始数。",
         ("排序位置", "排名位置")),
    Term("cut-off k", "截断位置 k",
         "How many top positions a metric looks at: @k.",
         "指标只看排在最前面的 k 个位置，写作 @k。",
         ("前K个",),
         elsewhere=(("Top-K", "common"),)),
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
         ("折扣", "折损因子", "折扣因子"),
         elsewhere=(("衰减", "common"),)),
    Term("discounted cumulative gain (DCG)", "折损累积增益（DCG）",
         "The sum of the discounted gains of the first k items: order matters.",
         "前 k 个结果折损后的增益之和：顺序会影响结果。",
         ("折扣累积增益", "折损累计增益", "折扣累计收益"),
         "The documents mix 折扣/折损 and 累积/累计; all these spellings mean DCG.",
         "各文档混用“折扣/折损”和“累积/累计”，这些写法都指 DCG。",
         elsewhere=(("折扣累计增益", "common"),)),
    Term("original discount", "原始折损",
         "Järvelin and Kekäläinen's first discount: no discount before position b, then 1 / log_b(i).",
         "Järvelin 和 Kekäläinen 最早提出的折损：位置 b 之前不折损，之后为 1 / log_b(i)。",
         rejected=("最初折损", "最初的折损"),
         chosen_because="原始 says it is the first published form, as the library's trace and the lessons call it.",
         elsewhere=(("最初折损", "drafts"),)),
    Term("running total", "累加和",
         "The sum so far, from position 1 to position i: running DCG, running IDCG.",
         "从第 1 位加到第 i 位为止的和：DCG 累加和、IDCG 累加和。",
         rejected=("累积 DCG", "累积 IDCG", "累积值", "累加值"),
         chosen_because="累积 is already the C of CG and DCG (累积增益): 累积 DCG read as a second accumulation; 累加值 "
                        "stood beside 累加和 in one trace table, where a learner took them for two columns.",
         elsewhere=(("累计和", "common"), ("累加值", "drafts"))),
    Term("ideal ranking", "理想排序",
         "The judged items sorted by grade, best first: the best order possible.",
         "把已判断的结果按等级从高到低排好：可能达到的最好顺序。",
         ("理想列表",),
         rejected=("理想顺序", "理想列表", "理想排列"),
         chosen_because="排序 is the course's word for a ranking; 顺序 and 列表 made the ideal one look like another object.",
         elsewhere=(("理想排列", "drafts"), ("理想顺序", "drafts"))),
    Term("ideal DCG (IDCG)", "理想 DCG（IDCG）",
         "The DCG of the ideal ranking, cut at the same k.",
         "理想排序在同一截断位置 k 上的 DCG。",
         ("理想折扣累积增益", "理想折损累计增益", "理想折扣累计收益")),
    Term("normalised DCG (NDCG)", "归一化折损累积增益（NDCG）",
         "DCG divided by IDCG: between 0 and 1, comparable across queries.",
         "DCG 除以 IDCG：介于 0 和 1 之间，可以在不同查询之间比较。",
         ("归一化折损累计增益", "归一化折扣累积增益"),
         "Document 002 also says 归一化 for min-max scaling of the grades; the N of NDCG divides by IDCG, a different thing.",
         "文档 002 还用“归一化”指对相关性等级做 min-max 缩放；NDCG 中的“归一化”是除以 IDCG，两者不是一回事。",
         chosen_because="折损 and 累积 are each the spelling most of the documents use for their half of the name "
                        "(折损 in 002 and 004, 累积 in 000 and 001); 折损累积增益 is also said to be the IIR "
                        "translation's (unverified).",
         elsewhere=(("标准化折损累计增益", "common"),)),
    Term("query", "查询",
         "One information need with its own judged items; metrics are averaged over queries.",
         "一个信息需求及其已判断的结果；指标在多个查询上取平均。",
         ("用户",),
         elsewhere=(("请求", "common"),)),
    Term("pool", "判断池",
         "Every item judged for a query, retrieved or not; the ideal ranking is built from it.",
         "某个查询所有被判断过的结果，无论是否被检索到；理想排序由它构成。",
         elsewhere=(("候选集", "common"), ("标注集", "common"))),
    Term("unjudged item", "未判断结果",
         "An item no judge looked at; trec_eval counts it as not relevant.",
         "没有评审员看过的结果；trec_eval 把它当作不相关。",
         elsewhere=(("未标注", "common"), ("未评估", "common"))),
    Term("relevance threshold", "相关性阈值",
         "The lowest grade counted as relevant by the binary metrics (P@k, R@k, AP, RR).",
         "二元指标（P@k、R@k、AP、RR）中算作相关的最低等级。",
         elsewhere=(("阈值", "common"),)),
    Term("precision@k", "精确率@k",
         "The share of the first k items that are relevant.",
         "前 k 个结果中相关结果所占的比例。",
         ("准确率@K", "Precision@K"),
         "Documents 000 and 003 write 准确率 (accuracy) for precision: 000 as 准确率@K, 003 inside AP; accuracy is a "
         "different measure. 查准率 (library science, Zhou's Machine Learning) is precision too.",
         "文档 000 和 003 把精确率写成“准确率”：000 写作“准确率@K”，003 用在 AP 里；准确率（accuracy）是另一个指标。"
         "“查准率”（图书情报学、周志华《机器学习》）也是精确率。",
         elsewhere=(("查准率", "lis"), ("正确率", "iir"))),
    Term("accuracy", "准确率",
         "The share of all items, relevant or not, that a classifier labels correctly; not a ranking measure, and not "
         "precision.",
         "分类器判对的条目（无论相关与否）占全部条目的比例；不是排序指标，也不是精确率。",
         trap="精度 is accuracy in Zhou's Machine Learning (错误率与精度), but precision in computer vision's 平均精度 "
              "(AP); the IIR translation is said to write 精确率 for accuracy (unverified). Read each by its formula.",
         trap_zh="周志华《机器学习》中的“精度”是准确率（“错误率与精度”），而计算机视觉文章的“平均精度”（AP）里"
                 "“精度”是精确率；据说《信息检索导论》中译本把准确率译作“精确率”（未核实）。遇到这些词，按公式判断。",
         elsewhere=(("精度", "zhou"),)),
    Term("recall@k", "召回率@k",
         "The share of all the query's relevant items found in the first k.",
         "查询的全部相关结果中，出现在前 k 个里的比例。",
         elsewhere=(("查全率", "lis"), ("Recall@K", "common"))),
    Term("average precision (AP)", "平均精确率（AP）",
         "The mean of P@i at the positions i of the relevant items, over all relevant items of the query.",
         "在每个相关结果所在位置 i 上取 P@i，再对查询的全部相关结果求平均。",
         ("准确率的平均值",),
         "Document 003 calls AP 准确率的平均值 (the mean of accuracy); it is a mean of precisions.",
         "文档 003 把 AP 说成“准确率的平均值”；它其实是精确率的平均。",
         elsewhere=(("平均准确率", "common"), ("平均精度", "cv"), ("平均正确率", "iir"))),
    Term("mean average precision (MAP)", "平均精确率均值（MAP）",
         "AP averaged over queries.",
         "AP 在多个查询上的平均值。",
         elsewhere=(("平均准确率均值", "common"), ("平均精度均值", "cv"), ("平均正确率均值", "iir"))),
    Term("reciprocal rank (RR)", "倒数排名（RR）",
         "1 / the position of the first relevant item; 0 when there is none.",
         "第一个相关结果位置的倒数；没有相关结果时为 0。",
         elsewhere=(("排名倒数", "common"),)),
    Term("mean reciprocal rank (MRR)", "平均倒数排名（MRR）",
         "RR averaged over queries.",
         "RR 在多个查询上的平均值。",
         elsewhere=(("平均排名倒数", "common"),)),
    Term("ties", "并列",
         "Items with the same score, whose order a library must choose.",
         "模型打分相同的结果，库必须为它们选定一个顺序。",
         elsewhere=(("同分", "common"), ("平局", "common"))),
    Term("R-precision", "R-精确率",
         "Precision at k = R, the number of relevant items of the query.",
         "在 k = R（查询的相关结果数）处的精确率。",
         elsewhere=(("R-准确率", "common"),)),
    Term("precision-recall curve", "精确率–召回率曲线",
         "Precision plotted against recall as the list is read from the top.",
         "从上往下读排序时，精确率随召回率变化的曲线。",
         elsewhere=(("P-R 曲线", "zhou"), ("PR 曲线", "common"))),
    Term("interpolated precision", "插值精确率",
         "The highest precision at this recall or any higher recall.",
         "在该召回率及更高召回率处能达到的最高精确率。"),
    Term("F-measure", "F 值",
         "The weighted harmonic mean of precision and recall.",
         "精确率与召回率的加权调和平均。",
         elsewhere=(("F1 值", "common"), ("F 分数", "common"))),
    Term("expected reciprocal rank (ERR)", "期望倒数排名（ERR）",
         "The expected 1 / position at which a cascading user stops, satisfied.",
         "级联浏览的用户在满意后停下时，停下位置倒数的期望值。"),
    Term("rank-biased precision (RBP)", "秩偏精确率（RBP）",
         "A user reads on with probability p; the expected rate of relevant items read.",
         "用户以概率 p 继续往下看；读到的相关结果的期望比例。"),
    Term("widget", "交互部件",
         "An interactive control in the notebook: drag, press keys, and watch the numbers change.",
         "笔记本中可以操作的控件：拖动、按键，看数字随之变化。",
         rejected=("交互组件", "组件"),
         chosen_because="JupyterLab's Chinese language pack says 小部件 for its own panels and 小组件 for Jupyter widgets; "
                        "交互部件 keeps 部件, which the lessons already wrote, and says what the learner does with it.",
         elsewhere=(("小部件", "jupyterlab"), ("小组件", "jupyterlab"), ("交互组件", "drafts"))),
    Term("explorer", "探索器",
         "The course's widget that shows a ranking to drag, with its step table and plots (RankingExplorer and its kin).",
         "课程中展示一个可拖动排序及其计算步骤表和图的交互部件（RankingExplorer 等）。",
         rejected=("排序浏览器", "排序探索器"),
         chosen_because="Every lesson with a widget wrote 探索器; 浏览器 is a web browser, the very program the "
                        "explorer runs in.",
         elsewhere=(("排序浏览器", "drafts"),)),
    Term("step table", "计算步骤表",
         "The table of a trace: one row per position with every number of the sum.",
         "计算过程的表格：每个位置一行，列出求和中的每个数。",
         rejected=("计算过程表",),
         chosen_because="Each row is one step of the sum, as the library's traces print it.",
         elsewhere=(("计算过程表", "drafts"),)),
    Term("significance test", "显著性检验",
         "Asks how likely a difference this large is if the two systems were equally good.",
         "如果两个系统其实一样好，出现这么大差异的可能性有多大。",
         elsewhere=(("统计检验", "common"),)),
    Term("effect size", "效应量",
         "How large a difference is compared with its spread over queries.",
         "差异的大小相对于它在各查询间波动的程度。"),
    Term("swapped pair", "先后颠倒的系统对",
         "A pair of systems that two evaluations order the other way round (Kendall's discordant pair); τ counts them.",
         "两次评估给出相反先后的一对系统（Kendall 所说的不一致对）；τ 数的就是它们。",
         rejected=("交换了先后", "交换了位置", "交换的对数", "交换的比例", "交换的系统对"),
         chosen_because="颠倒 says what τ counts, a pair whose order in one evaluation is the reverse of its order in the "
                        "other, and is the word lesson 14 already writes for two models' order reversed; 交换 stays the "
                        "word for an action on one ranking (lesson 06: swap two results), which τ does not count.",
         elsewhere=(("不一致对", "common"), ("异序对", "common"))),
    Term("sampling", "抽样",
         "Drawing some of the items (or queries, or users) at random instead of taking them all.",
         "随机取出一部分条目（或查询、用户），而不是全部都用。",
         rejected=("采样",),
         chosen_because="Statistics writes 抽样 (抽样分布, 有放回/无放回抽样), and lessons 13, 15, 18 and 19 already "
                        "did; lesson 14 wrote 采样 and 抽样 for the same draw of negatives.",
         elsewhere=(("采样", "recsys"),)),
    Term("negative item", "负例",
         "An item the user did not choose (here: not the held-out item), ranked against the one that counts.",
         "用户没有选中的条目（这里指留出条目以外的条目），与要找的那个条目一起排序。",
         rejected=("负样本",),
         chosen_because="负例 pairs with 正例, the names of classification's two classes; lesson 14 wrote 负例 and 负样本 "
                        "side by side.",
         elsewhere=(("负样本", "recsys"),)),
    Term("full catalogue", "全部条目",
         "Every item a recommender could show, each ranked, not only a sample of them.",
         "推荐系统能展示的每一个条目都参与排序，而不只是抽出的一部分。",
         rejected=("全集", "完整候选目录", "完整候选集"),
         chosen_because="条目 is the course's word for an item; 全集 is set theory's universal set, and 候选目录 "
                        "appeared once, for the same thing.",
         elsewhere=(("全集", "drafts"), ("完整候选目录", "drafts"))),
    Term("rank estimate", "位置估计",
         "A sampled metric corrected by estimating the held-out item's position in the full ranking from its "
         "position among the sample.",
         "校正抽样指标的一种方法：由留出条目在抽样中的位置估计它在全部条目中的位置。",
         rejected=("排名估计",),
         chosen_because="位置 is the glossary's word for where an item sits; 排名 is kept for names such as 倒数排名.",
         elsewhere=(("排名估计", "drafts"),)),
    Term("hit rate@k", "命中率@k",
         "The share of users whose held-out item appears in their first k recommendations.",
         "留出的条目出现在推荐列表前 k 个中的用户比例。",
         rejected=("HitRate@",),
         chosen_because="The Chinese edition names measures in Chinese where the course has a term; HitRate@10 was "
                        "printed beside 命中率@10 in prose.",
         elsewhere=(("HitRate@K", "recsys"), ("HR@K", "recsys"))),
    Term("attractiveness", "吸引度",
         "In a click model, the probability that a user who looks at an item clicks it (α).",
         "点击模型中，用户看到一个条目后点击它的概率（α）。",
         rejected=("吸引力",),
         chosen_because="It is a probability, a degree (度) between 0 and 1; 吸引力 is everyday appeal, and lessons 18 "
                        "and 19 wrote both.",
         elsewhere=(("吸引力", "drafts"),)),
    Term("treatment group", "实验组",
         "The users an A/B test shows the new ranker.",
         "A/B 测试中看到新排序模型的那部分用户。",
         rejected=("处理组",),
         chosen_because="实验组 and 对照组 are the pair Chinese A/B-testing writing uses; 处理 (a statistician's "
                        "treatment) read as 'handling' in lesson 18's prose, beside 实验组 in its table.",
         elsewhere=(("处理组", "drafts"),)),
    Term("control group", "对照组",
         "The users an A/B test keeps on the current ranker.",
         "A/B 测试中继续使用现有排序模型的那部分用户。"),
    Term("ground truth", "真值",
         "The value a measure would have with every judgement known, which an estimate is compared with.",
         "所有判断都已知时指标的取值，估计值与之比较。",
         rejected=("真相", "真实值"),
         chosen_because="真值 is the measurement word (true value) lesson 19 writes; 真相 is the truth of an event, "
                        "and lesson 17 wrote it for the same thing; 真实值 said it in two more characters in lessons "
                        "11, 12, 14 and 17.",
         elsewhere=(("真相", "drafts"), ("真实值", "common"))),
    Term("error mean square", "误差均方",
         "In an analysis of variance, the sum of squared residuals divided by their degrees of freedom.",
         "方差分析中，残差平方和除以其自由度。",
         chosen_because="Statistics names ANOVA's mean squares 均方 (组间均方, 误差均方); 均方误差 is an "
                        "estimator's mean squared error, lesson 19's MSE, another quantity.",
    ),
    Term("mean squared error (MSE)", "均方误差（MSE）",
         "An estimator's expected squared distance from the true value: its variance plus its bias squared.",
         "估计量与真值之差的平方的期望：方差加上偏差的平方。"),
    Term("nugget", "信息块",
         "One fact a good answer to the query should contain; answers are scored by the nuggets they support.",
         "好答案应当包含的一条事实；按答案支持了哪些信息块给答案打分。",
         rejected=("信息片段",),
         chosen_because="Lesson 17 already wrote 信息块, a unit of information as nugget is; 片段 is what a passage "
                        "(段落) is, a piece of text, and a nugget is a fact that many passages may state.",
         elsewhere=(("信息片段", "common"), ("信息点", "common"), ("信息单元", "common"), ("要点", "common"))),
    Term("vital nugget", "关键信息块",
         "A nugget a good answer must contain (TREC's vital).",
         "好答案必须包含的信息块（TREC 所说的 vital）。",
         elsewhere=(("必要信息块", "common"), ("核心信息块", "common"))),
    Term("okay nugget", "次要信息块",
         "A nugget worth having in an answer but not essential (TREC's okay).",
         "答案里有了更好、但并非必不可少的信息块（TREC 所说的 okay）。",
         elsewhere=(("一般信息块", "common"), ("可选信息块", "common"))),
    Term("partial support", "部分支持",
         "An answer states only part of a nugget: half credit in the TREC 2024 RAG track's nugget scores, none in the "
         "strict ones.",
         "答案只陈述了信息块的一部分：在 TREC 2024 RAG 赛道的信息块分数中计一半分，在严格分数中不计分。",
         elsewhere=(("部分支撑", "common"),)),
    Term("faithfulness", "忠实度",
         "The share of an answer's statements that the passages its generator read support, cited or not.",
         "答案的陈述中，生成器读到的段落（无论是否被引用）能够支持的比例。",
         rejected=("可信度",),
         chosen_because="可信度 is credibility, how far a reader trusts an answer; faithfulness asks whether the "
                        "context supports it, which a wrong passage can give and a true memory cannot.",
         elsewhere=(("忠实性", "common"), ("有据性", "common"), ("事实一致性", "common"), ("可信度", "common"))),
    Term("citation recall", "引用召回率",
         "The share of an answer's sentences that the passages they cite, together, support (ALCE).",
         "答案的句子中，被它引用的段落合起来能够支持的比例（ALCE）。",
         elsewhere=(("引文召回率", "common"),)),
    Term("citation precision", "引用精确率",
         "The share of an answer's citations that are not irrelevant to the sentence citing them (ALCE).",
         "答案的引用中，对引用它的句子并非无关的引用所占的比例（ALCE）。",
         elsewhere=(("引文精确率", "common"),)),
    Term("LLM judge", "LLM 评审员",
         "A large language model used in place of a person to judge relevance, nuggets or support.",
         "代替人来判断相关性、信息块或支持情况的大语言模型。",
         elsewhere=(("LLM 裁判", "common"), ("大模型评委", "common"), ("LLM-as-a-judge", "common"))),
)

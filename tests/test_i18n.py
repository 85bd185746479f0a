"""The message catalogues: every marked message has its translation, and English output is the code's own text."""

import ast
import functools
import html
import io
import re
import string
from pathlib import Path

import pytest

import ndcg_teach as nt
from ndcg_teach import i18n
from ndcg_teach.course.examples import CAUSES, audit
from ndcg_teach.exercises import EXERCISES, check

PACKAGE = Path(nt.__file__).resolve().parent
MARKERS = {"_", "gettext", "mark", "N_"}


def marked_messages():
    """Every string literal passed to ``_``, ``gettext``, ``mark`` or ``N_`` in the package, with where it is."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            first = node.args[0]
            if name in MARKERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def placeholders(message):
    return sorted(field for _, field, _, _ in string.Formatter().parse(message) if field is not None)


MESSAGES = marked_messages()
TRANSLATED = [language for language in i18n.LANGUAGES if language != "en"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_message_has_a_translation(language):
    catalogue = i18n.catalogue(language)
    missing = {message: where for message, where in MESSAGES.items() if message not in catalogue}
    assert missing == {}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_holds_no_message_the_code_no_longer_marks(language):
    stale = sorted(set(i18n.catalogue(language)) - set(MESSAGES))
    assert stale == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_every_placeholder_and_are_not_left_in_english(language):
    for message, translation in i18n.catalogue(language).items():
        assert placeholders(translation) == placeholders(message), message
        assert translation.strip(), message
        if language == "zh-CN" and re.search(r"[A-Za-z]{4,}", re.sub(r"\{[^}]*\}", "", message)):
            assert re.search(r"[\u4e00-\u9fff]", translation), f"not translated: {message!r} -> {translation!r}"


def test_the_catalogues_are_po_files_of_the_course_languages_with_their_plural_rule():
    paths = sorted((PACKAGE / "i18n" / "locales").iterdir())
    assert [path.name for path in paths] == [f"{language}.po" for language in TRANSLATED]
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert '"Language: zh_CN\\n"' in text and '"Plural-Forms: nplurals=1; plural=0;\\n"' in text


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_course_reads_its_catalogue_as_babel_does(language):
    # Babel (the translators' tool chain, beside Sphinx) as the oracle of the .po format.
    from babel.messages.pofile import read_po

    text = (PACKAGE / "i18n" / "locales" / f"{language}.po").read_bytes()
    babel = {message.id: message.string for message in read_po(io.BytesIO(text)) if message.id and message.string}
    assert i18n.catalogue(language) == babel and len(babel) == len(MESSAGES)


def test_english_is_the_code_text_and_the_default():
    assert nt.language() == "en"
    for message in MESSAGES:
        assert i18n.gettext(message) == message


def test_language_set_restores_the_previous_language_even_after_an_error():
    with pytest.raises(RuntimeError), nt.language_set("zh-CN"):
        assert nt.language() == "zh-CN"
        raise RuntimeError("inside")
    assert nt.language() == "en"


def test_a_missing_translation_falls_back_to_english():
    assert i18n.gettext("a message nobody marked", "zh-CN") == "a message nobody marked"


@pytest.mark.parametrize(
    ("value", "error", "match"),
    [
        ("zh", ValueError, r"language must be one of 'en', 'zh-CN'\. Got 'zh' instead\."),
        ("fr", ValueError, r"Got 'fr' instead"),
        (None, TypeError, r"language must be one of .* Got None \(NoneType\) instead\."),
    ],
)
def test_an_unknown_language_is_refused_by_name(value, error, match):
    with pytest.raises(error, match=match):
        nt.set_language(value)
    assert nt.language() == "en"


# ---- What a Chinese learner reads: the same numbers, in Chinese ----------------------------------------------------

NUMBER = re.compile(r"\d+(?:\.\d+)?")
CJK = re.compile(r"[\u4e00-\u9fff]")


def numbers(text):
    """The number tokens of ``text``, sorted: a translation may move them, never add, drop or change one."""
    return sorted(NUMBER.findall(text))


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_keeps_every_number_of_its_message(language):
    for message, translation in i18n.catalogue(language).items():
        strip = functools.partial(re.sub, r"\{[^}]*\}", "")
        assert numbers(strip(translation)) == numbers(strip(message)), (message, translation)


def both(build):
    """``build()`` in English and in Chinese."""
    english = build()
    with nt.language_set("zh-CN"):
        chinese = build()
    return english, chinese


TRACES = [
    lambda: nt.explain_cg([5, 2, 3], k=5, ranking=["A", "B", "C"]),
    lambda: nt.explain_dcg([3, 0, 2, 1], gain="exponential", discount="jarvelin"),
    lambda: nt.explain_dcg([1, 2], gain={1: 4, 2: 2}),
    lambda: nt.explain_idcg([5, 2, 3], k=4, pool=[5, 4, 3, 2], ranking=["A", "B", "C"]),
    lambda: nt.explain_ndcg([5, 2, 3], k=4, pool=[5, 4, 3, 2], ranking=["A", "B", "C"]),
    lambda: nt.explain_ndcg([0, 0], zero_idcg=1.0),
    lambda: nt.explain_cg([], k=2),
    lambda: nt.explain_precision_at_k([1, 0, 1], 5),
    lambda: nt.explain_precision_at_k([1, 0, 1], 5, adaptive_k=True),
    lambda: nt.explain_precision_at_k([], 2),
    lambda: nt.explain_recall_at_k([1, 0, 1, 1], 2),
    lambda: nt.explain_recall_at_k([0, 0], 2, n_relevant=0),
    lambda: nt.explain_average_precision([1, 0, 1], n_relevant=3),
    lambda: nt.explain_average_precision([0, 0], 2),
    lambda: nt.explain_reciprocal_rank([0, 0, 2]),
    lambda: nt.explain_reciprocal_rank([0, 0], 2),
    lambda: nt.explain_r_precision([1, 0, 1], n_relevant=5),
    lambda: nt.explain_f_measure([1, 0, 1, 1], 2, beta=2),
    lambda: nt.explain_f_measure([0, 0], 2),
    lambda: nt.explain_success_at_k([0, 0, 2, 0], k=3),
    lambda: nt.explain_success_at_k([0, 0], k=2),
    lambda: nt.explain_expected_reciprocal_rank([2, 0, 1]),
    lambda: nt.explain_expected_reciprocal_rank([2, 0, 1], max_grade=3),
    lambda: nt.explain_rank_biased_precision([1, None, 0], p=0.5),
    lambda: nt.explain_rank_biased_precision([1, 0], p=0.5),
    lambda: nt.explain_bpref([1, None, 0, 1]),
    lambda: nt.explain_bpref([0, None], 2, n_relevant=0),
    lambda: nt.explain_precision_recall_curve([1, 0, 1, 0, 1], n_relevant=4),
]


@pytest.mark.parametrize("build", TRACES)
def test_a_chinese_trace_shows_the_same_numbers_in_chinese(build):
    english, chinese = both(build)
    # Every number is the same; only an item label may be a translated word, "(not retrieved)".
    unlabelled = [[{key: None if key in ("item", "ideal_item") else value for key, value in row.as_dict().items()}
                   for row in trace.rows] for trace in (english, chinese)]
    assert (chinese.value, chinese.latex, unlabelled[1]) == (english.value, english.latex, unlabelled[0])
    assert (english.language, chinese.language) == ("en", "zh-CN")
    for text_of in (str, lambda trace: html.unescape(trace._repr_html_())):
        assert numbers(text_of(chinese)) == numbers(text_of(english))
        assert CJK.search(text_of(chinese)) and not CJK.search(text_of(english))
    assert CJK.search(chinese.formula + "".join(chinese.notes))


def test_a_trace_keeps_the_language_it_was_built_in():
    with nt.language_set("zh-CN"):
        chinese = nt.explain_precision_at_k([1, 0], 3)
    english = nt.explain_precision_at_k([1, 0], 3)
    assert "注：" in str(chinese) and "相关" in chinese._repr_html_()
    assert "note: relevant means grade >= 1" in str(english) and "注" not in str(english)


def test_a_chinese_trace_header_names_the_columns_in_the_course_terms():
    with nt.language_set("zh-CN"):
        header = nt.explain_ndcg([5, 2, 3]).table().splitlines()[0].split()
    assert header[:7] == ["i", "条目", "等级", "增益", "折损", "贡献", "累加和"]


# Answers that reach each kind of feedback: none, right, a judge's hint, a recognised slip, the wrong type.
FEEDBACK = [
    ("01-cg", ...), ("01-cg", 6), ("01-cg", 3), ("01-cg", 5), ("01-cg", "six"),
    ("02-dcg-linear", 4.4307), ("02-dcg-linear", 4.43), ("02-gains-agree", {0}), ("02-gains-agree", {0, 1, 2}),
    ("02-gains-agree", "0, 1"), ("02-gains-agree", {"a"}), ("02-log-base", "both"), ("02-log-base", "maybe"),
    ("04-threshold", 2 / 3), ("06-high-ndcg-low-precision", ["B", "C", "A", "D", "E", "F"]),
    ("06-high-ndcg-low-precision", ["A", "B"]), ("06-high-ndcg-low-precision", "ABCDEF"),
]


@pytest.mark.parametrize(("key", "answer"), FEEDBACK)
def test_chinese_feedback_says_the_same_in_chinese(key, answer):
    english, chinese = both(lambda: check(key, answer))
    assert chinese.correct == english.correct
    assert numbers(chinese.message) == numbers(english.message)
    assert CJK.search(chinese.message) and chinese.message.startswith(f"{key}：")
    assert CJK.search(chinese._repr_html_())


def test_every_exercise_has_a_chinese_right_answer_text():
    for key, exercise in EXERCISES.items():
        if exercise.right:
            assert CJK.search(i18n.gettext(exercise.right, "zh-CN")), key


def test_the_chinese_audit_gives_every_cause_in_chinese_with_the_same_numbers():
    english, chinese = both(audit)
    assert numbers(chinese.summary) == numbers(english.summary) and CJK.search(chinese.summary)
    assert [record.agrees for record in chinese] == [record.agrees for record in english]
    for mine, theirs in zip(chinese, english):
        assert mine.quantity == theirs.quantity and mine.computed == theirs.computed
        if theirs.note is not None:
            assert numbers(mine.note) == numbers(theirs.note), theirs.note
            cause = next(cause for cause in CAUSES if theirs.note.lower().startswith(cause))
            assert mine.note.startswith(i18n.gettext(cause, "zh-CN")) and CJK.search(mine.note)
    # a view keeps the report's language, whatever is set when it is shown
    assert "不一致" in str(chinese.disagreements()) and "printed numbers audited" in str(english.for_source("004"))
    # an untitled document is cited by its own first line in Chinese ("## 1. 背景介绍"): quoted words, not numbers
    assert numbers(re.sub(r"“[^”]*”", "", str(chinese))) == numbers(str(english))


def test_the_chinese_conventions_table_keeps_its_lookups_and_numbers():
    from ndcg_teach.core.conventions import compare, facts

    english, chinese = both(lambda: compare([3, -1, 2, 1], k=3, metric="ndcg"))
    assert chinese.headers == english.headers and chinese["trec_eval ndcg_cut"] == english["trec_eval ndcg_cut"]
    assert numbers(str(chinese)) == numbers(str(english))
    assert "拒绝负的相关性等级" in str(chinese) and "refuses negative grades" in str(english)
    english, chinese = both(lambda: facts("ap"))
    assert chinese["recommenders map_at_k"][chinese.headers.index("AP denominator")] == "min(R, k)"
    assert "AP 分母" in str(chinese) and numbers(str(chinese)) == numbers(str(english))


def test_a_library_refusal_speaks_the_learner_language_with_the_library_and_the_grades_intact():
    from ndcg_teach.core.conventions import CONVENTIONS_BY_NAME

    convention = CONVENTIONS_BY_NAME["scikit-learn ndcg_score"]
    with pytest.raises(ValueError, match=r"^scikit-learn ndcg_score refuses negative grades. Got relevances=\[3, -1\]"):
        convention.value([3, -1])
    with nt.language_set("zh-CN"), pytest.raises(ValueError) as caught:
        convention.value([3, -1])
    assert str(caught.value) == "scikit-learn ndcg_score 拒绝负的相关性等级。传入的是 relevances=[3, -1]。"


def test_chinese_significance_results_give_the_same_numbers_and_keep_english_keys():
    from ndcg_teach.statistics import significance

    a, b = [0.5, 0.6, 0.7, 0.9, 0.3, 0.2], [0.4, 0.4, 0.6, 0.9, 0.35, 0.1]
    tests = [lambda: significance.paired_t_test(a, b), lambda: significance.wilcoxon_test(a, b),
             lambda: significance.randomisation_test(a, b), lambda: significance.randomisation_test(a * 3, b * 3, n=99),
             lambda: significance.bootstrap_interval(a, b, n=200)]
    for run in tests:
        english, chinese = both(run)
        assert english == chinese  # the same result; only how it reads differs
        assert numbers(str(chinese)) == numbers(str(english)) and CJK.search(str(chinese))
        assert numbers(html.unescape(chinese._repr_html_())) == numbers(html.unescape(english._repr_html_()))
        assert not CJK.search(str(english) + english._repr_html_())
    assert both(tests[2])[1].details == "all 64 sign assignments (exact)"


def test_evaluation_and_comparison_tables_name_their_columns_in_chinese():
    from ndcg_teach.runs.evaluation import compare

    qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d1": 1, "d4": 3}}
    run_a = {"q1": {"d1": 0.9, "d2": 0.5, "d3": 0.1}, "q2": {"d4": 0.3, "d1": 0.2}}
    run_b = {"q1": {"d3": 0.9, "d2": 0.5, "d1": 0.1}, "q2": {"d1": 0.3, "d4": 0.2}}
    result_a, result_b = nt.evaluate(qrels, run_a, ["ndcg_cut.3"]), nt.evaluate(qrels, run_b, ["ndcg_cut.3"])
    english, chinese = both(lambda: (str(result_a.table()), str(compare(result_a, result_b))))
    for mine, theirs in zip(chinese, english):
        assert numbers(mine) == numbers(theirs) and "查询" in mine and not CJK.search(theirs)


def test_a_records_causes_are_the_same_keys_in_both_languages_and_match_the_english_note():
    english, chinese = both(audit)
    assert [record.causes for record in chinese] == [record.causes for record in english]
    for record in english:
        # The causes lesson 07 counted by searching the note for each cause's words.
        assert record.causes == tuple(cause for cause in CAUSES if record.note and cause in record.note.lower())
    assert sum(bool(record.causes) for record in english) == sum(not record.agrees for record in english)


def test_a_missing_ideal_item_stays_english_as_data_and_is_shown_in_chinese():
    # Lesson 09 counts trace.ideal_items.count("(not retrieved)"): a lookup that must not depend on the language.
    with nt.language_set("zh-CN"):
        trace = nt.explain_ndcg([0, 2, 1], k=3, pool=[3, 2, 1, 0])
    assert trace.ideal_items.count("(not retrieved)") == 1
    assert "（未检索到）" in str(trace) and "(not retrieved)" not in str(trace)
    assert "(not retrieved)" in str(nt.explain_ndcg([0, 2, 1], k=3, pool=[3, 2, 1, 0]))


@pytest.mark.parametrize(
    ("call", "english", "chinese"),
    [
        (lambda: nt.ndcg([3, 2, 1], k=0), "k must be a positive integer", "k 必须是一个正整数（截断位置"),
        (lambda: nt.precision_at_k([1, 0], 2, threshold=-1), "threshold must be a positive finite number", "threshold 必须是一个有限的正数"),
        (lambda: nt.rank_biased_precision([1, 0], p=1.5), "p must be a number strictly between 0 and 1: the chance", "p 必须是严格介于 0 和 1 之间的数：读者从一个条目"),
        (lambda: nt.average_precision([1, 1], n_relevant=1), "n_relevant must be at least the number", "n_relevant 必须是一个不小于列表中已有相关条目数（2）的整数"),
    ],
)
def test_a_validation_error_speaks_the_learner_language_and_keeps_its_structure(call, english, chinese):
    with pytest.raises((TypeError, ValueError)) as caught:
        call()
    assert str(caught.value).startswith(english) and str(caught.value).endswith("instead.")
    with nt.language_set("zh-CN"), pytest.raises(caught.type) as translated:
        call()
    message = str(translated.value)
    assert message.startswith(chinese) and message.endswith("。") and "传入的是" in message
    # the parameter, the requirement, then what was given: the same value at the end of both
    assert numbers(message.split("传入的是")[1]) == numbers(str(caught.value).split("Got")[1])

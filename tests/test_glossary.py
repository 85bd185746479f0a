"""The glossary: one entry per term, every name finds its term, and the source documents' traps are spelled out."""

import re

import pytest

import ndcg_teach as nt
from ndcg_teach.course.glossary import SOURCES, TERMS, glossary, term
from seeds import SEEDS, needs_seeds

CJK = re.compile(r"[\u4e00-\u9fff]")


def all_names(entry):
    return [entry.english, entry.chinese, *entry.names()]


def test_no_name_belongs_to_two_terms():
    seen = {}
    for entry in TERMS:
        for name in all_names(entry):
            assert seen.setdefault(name.lower(), entry.english) == entry.english, name


@pytest.mark.parametrize("entry", TERMS, ids=[entry.english for entry in TERMS])
def test_every_name_of_a_term_finds_it_and_both_meanings_are_written(entry):
    for name in all_names(entry):
        assert term(name) == entry
    assert CJK.search(entry.chinese) and CJK.search(entry.meaning_zh)
    assert not CJK.search(entry.meaning) and entry.meaning.endswith(".")
    assert bool(entry.trap) == bool(entry.trap_zh)


@pytest.mark.parametrize(
    ("variant", "english", "documents"),
    [
        ("准确率@K", "precision@k", ("000", "003")),
        ("得分", "relevance grade", ("001", "002", "004")),
    ],
)
def test_the_three_traps_the_issue_names_are_spelled_out(variant, english, documents):
    entry = term(variant)
    assert entry.english == english
    for document in documents:
        assert document in entry.trap and document in entry.trap_zh


def test_the_min_max_trap_of_document_002_is_spelled_out_beside_ndcg():
    entry = term("NDCG")
    assert "002" in entry.trap and "min-max" in entry.trap and "归一化" in entry.trap_zh and "IDCG" in entry.trap_zh


@pytest.mark.parametrize("entry", [entry for entry in TERMS if entry.rejected], ids=lambda entry: entry.english)
def test_a_rejected_variant_has_its_reason_and_names_no_other_term(entry):
    assert entry.chosen_because.endswith(".") and not CJK.sub("", entry.chosen_because).isspace()
    others = {name for other in TERMS if other is not entry for name in (other.chinese, *_chinese_heads(other))}
    for variant in entry.rejected:
        assert variant not in entry.chinese and variant not in others, variant


def _chinese_heads(entry):
    return [re.sub(r"（.*）$", "", entry.chinese)]


def test_the_course_term_of_a_rejected_variant_is_found_from_it():
    assert term("排序器").chinese == "排序模型" and term("评价").chinese == "评估" and term("物品").chinese == "条目"


@needs_seeds
@pytest.mark.parametrize(
    ("printed", "english", "documents"),
    [
        ("准确率@K", "precision@k", ("000",)),
        ("准确率的平均值", "precision@k", ("003",)),
        ("得分", "relevance grade", ("001", "002", "004")),
        ("min-max", "normalised DCG (NDCG)", ("002",)),
    ],
)
def test_the_traps_name_the_documents_that_really_use_them(printed, english, documents):
    using = sorted(path.name[:3] for path in SEEDS.glob("*.txt") if printed in path.read_text(encoding="utf-8"))
    assert tuple(using) == documents
    assert all(document in term(english).trap for document in documents)


def test_the_table_follows_the_learner_language():
    english = str(glossary())
    with nt.language_set("zh-CN"):
        chinese = str(glossary())
    assert english.startswith("Glossary") and chinese.startswith("术语表")
    assert "precision: 000 as" in english and "另一个指标" in chinese
    assert "<table>" in glossary()._repr_html_()


@pytest.mark.parametrize(
    ("name", "error", "match"),
    [("banana", ValueError, r"name must be a term of the glossary.*Got 'banana' instead\."), (3, TypeError, r"Got 3 \(int\) instead\.")],
)
def test_an_unknown_name_is_refused_clearly(name, error, match):
    with pytest.raises(error, match=match):
        term(name)


@needs_seeds
@pytest.mark.parametrize("entry", [entry for entry in TERMS if entry.variants], ids=lambda entry: entry.english)
def test_every_name_said_to_come_from_the_source_documents_is_in_them(entry):
    documents = [path.read_text(encoding="utf-8") for path in sorted(SEEDS.glob("*.txt"))]
    assert len(documents) == 5
    assert [variant for variant in entry.variants if not any(variant in document for document in documents)] == []


@needs_seeds
def test_a_name_found_in_the_source_documents_is_not_said_to_come_from_elsewhere():
    documents = "\n".join(path.read_text(encoding="utf-8") for path in sorted(SEEDS.glob("*.txt")))
    elsewhere = [name for entry in TERMS for name, source in entry.elsewhere if source != "drafts" and name in documents]
    assert elsewhere == []


def test_every_other_name_says_where_it_comes_from_and_an_unchecked_book_says_so():
    assert all(source in SOURCES for entry in TERMS for _, source in entry.elsewhere)
    assert {source for entry in TERMS for _, source in entry.elsewhere} == set(SOURCES)
    assert "未核实" in SOURCES["iir"][1] and "unverified" in SOURCES["iir"][0]
    assert "转引" in SOURCES["zhou"][1] and "notes" in SOURCES["zhou"][0]
    # a claim about the IIR translation made anywhere in the glossary carries the same warning
    for entry in TERMS:
        for text in (entry.trap, entry.chosen_because):
            if "IIR" in text:
                assert "unverified" in text, entry.english


@pytest.mark.parametrize(("name", "english", "book"), [("精度", "accuracy", "周志华"), ("准确率@K", "precision@k", "000")])
def test_accuracy_and_its_false_friends_carry_trap_notes(name, english, book):
    entry = term(name)
    assert entry.english == english and book in entry.trap_zh + entry.trap
    assert "准确率" in term("accuracy").chinese and "精度" in term("accuracy").trap_zh
    assert "查准率" in term("precision@k").trap_zh


def test_the_table_shows_both_kinds_of_other_names():
    with nt.language_set("zh-CN"):
        text = str(glossary())
    assert "其他写法（源文档）" in text and "其他写法（其他出处）" in text and "查全率（图书情报学）" in text

"""The glossary: one entry per term, every name finds its term, and the source documents' traps are spelled out."""

import re

import pytest

import ndcg_teach as nt
from ndcg_teach.glossary import TERMS, glossary, term
from seeds import SEEDS, needs_seeds

CJK = re.compile(r"[\u4e00-\u9fff]")


def all_names(entry):
    return [entry.english, entry.chinese, *entry.variants]


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
    [("accuracy", ValueError, r"name must be a term of the glossary.*Got 'accuracy' instead\."), (3, TypeError, r"Got 3 \(int\) instead\.")],
)
def test_an_unknown_name_is_refused_clearly(name, error, match):
    with pytest.raises(error, match=match):
        term(name)

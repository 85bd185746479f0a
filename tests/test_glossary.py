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
        ("截断位置", "cut-off k", ("001",)),
    ],
)
def test_the_three_traps_the_issue_names_are_spelled_out(variant, english, documents):
    entry = term(variant)
    assert entry.english == english
    for document in documents:
        assert document in entry.trap and document in entry.trap_zh


@needs_seeds
@pytest.mark.parametrize(
    ("printed", "english", "documents"),
    [
        ("准确率@K", "precision@k", ("000",)),
        ("准确率的平均值", "precision@k", ("003",)),
        ("得分", "relevance grade", ("001", "002", "004")),
        ("截断位置", "cut-off k", ("001",)),
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

"""The source documents and their worked examples as data (ndcg_teach/course/examples/sources.py, worked.py)."""

import dataclasses
import math
import re

import pytest

import ndcg_teach as nt
from ndcg_teach.course.examples import EXAMPLES, KINDS, SOURCES, Printed, WorkedExample, example, examples, source
from seeds import SEEDS, needs_seeds


def seed_text(file):
    return (SEEDS / file).read_text(encoding="utf-8")


def test_five_sources_in_file_order():
    assert [doc.file[:3] for doc in SOURCES] == ["000", "001", "002", "003", "004"]
    assert len({doc.file for doc in SOURCES}) == 5
    assert all(doc.language == "zh" and doc.covers and doc.summary for doc in SOURCES)


@needs_seeds
def test_every_source_file_exists_and_its_title_is_in_it():
    assert sorted(path.name for path in SEEDS.iterdir() if path.suffix == ".txt") == sorted(doc.file for doc in SOURCES)
    for doc in SOURCES:
        text = seed_text(doc.file)
        if doc.title is not None:
            assert doc.title in text.splitlines()[0]
        for figure in doc.missing_figures:
            if figure.startswith("pics/"):
                assert f"]({figure})" in text


def test_source_lookup_by_name_or_prefix():
    assert source("002").file == "002_9758a2ecd50742e5.txt"
    assert source("002_9758a2ecd50742e5.txt") is source("002")
    assert source("000").citation == "000_6d16541d6fd5e69f.txt «排序模型评估:准确率@K和NDCG»"
    assert source("001").citation.startswith("001_647c40be77200e02.txt [untitled: ")


@pytest.mark.parametrize("name", ["", "00", "005", "nope.txt", None, 3])
def test_unknown_source_is_refused(name):
    with pytest.raises(ValueError, match=r"name must be one of .*Got .* instead\."):
        source(name)


def test_every_example_cites_an_existing_source():
    files = {doc.file for doc in SOURCES}
    for worked in EXAMPLES:
        assert worked.source in files
        assert worked.citation.startswith(worked.source)
        assert worked.title in worked.citation
    assert {worked.source for worked in EXAMPLES} == files


def test_names_are_unique_and_kinds_known():
    assert len({worked.name for worked in EXAMPLES}) == len(EXAMPLES)
    assert {worked.kind for worked in EXAMPLES} <= set(KINDS)
    assert all(worked.section and worked.summary for worked in EXAMPLES)


def test_examples_and_printed_numbers_are_immutable():
    worked = example("ndcg_5_2_3")
    with pytest.raises(dataclasses.FrozenInstanceError):
        worked.k = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        worked.printed[0].text = "1"
    assert all(isinstance(worked.printed, tuple) and isinstance(worked.relevances, tuple) for worked in EXAMPLES)


def test_lookups():
    assert example("dcg_2_3_5").relevances == (2, 3, 5)
    assert [w.name for w in examples("001")] == ["ranking_ndcg_linear", "ndcg_numpy_code"]
    assert {w.kind for w in examples(kind="code")} == {"code"}
    assert examples("003", kind="hand") == ()
    with pytest.raises(ValueError, match=r"name must be the name of a worked example.*Got 'nope' instead\."):
        example("nope")
    with pytest.raises(ValueError, match=r"kind must be one of .*Got 'table' instead\."):
        examples(kind="table")


def test_named_items_give_the_listed_grades():
    for worked in EXAMPLES:
        if worked.judgements:
            assert tuple(nt.relevances_from(list(worked.ranking), dict(worked.judgements))) == worked.relevances
        if worked.ranking:
            assert len(worked.ranking) == len(worked.relevances)


def test_printed_ideal_orders_are_what_the_library_builds():
    ranking = example("ranking_ndcg_linear")
    assert tuple(nt.ideal_order(list(ranking.ranking), dict(ranking.judgements))) == ranking.ideal_ranking == tuple("AEBCD")
    for worked in EXAMPLES:
        if worked.ideal_relevances:
            trace = nt.explain_idcg(worked.relevances, k=worked.k)
            assert tuple(row.grade for row in trace.rows) == worked.ideal_relevances


def test_document_003_has_only_missing_pictures_and_a_claim():
    pictures = examples("003", kind="figure")
    assert tuple(w.figure for w in pictures) == source("003").missing_figures
    for worked in pictures:
        assert worked.printed == () and worked.relevances == () and worked.k is None
    assert [w.kind for w in examples("003")].count("claim") == 1


def test_every_printed_text_is_a_number_or_a_relation():
    for worked in EXAMPLES:
        for printed in worked.printed:
            assert isinstance(printed, Printed)
            text = printed.text
            if text[:1] in "<=":
                assert text[:2] in ("< ", "= ")
            else:
                float(text)


@needs_seeds
def test_every_printed_number_and_input_is_in_its_document():
    for worked in EXAMPLES:
        text = seed_text(worked.source)
        for printed in worked.printed:
            if printed.text[:1] not in "<=":
                assert printed.text in text, (worked.name, printed)
        for value in worked.scores:
            assert f"{value:g}" in text


@needs_seeds
def test_cited_lines_exist():
    for worked in EXAMPLES:
        lines = seed_text(worked.source).splitlines()
        numbers = [int(part) for part in worked.section.replace("-", " ").replace(",", " ").split() if part.isdigit()]
        assert numbers and max(numbers) <= len(lines), worked.name


def test_worked_examples_at_full_precision():
    assert nt.ndcg(example("ndcg_5_2_3").relevances) == pytest.approx(0.98341147226327856, rel=1e-15, abs=0)
    products = example("products_ndcg_exponential")
    assert nt.ndcg(products.relevances, k=5, gain="exponential") == pytest.approx(0.86454788462648288, rel=1e-15, abs=0)
    assert nt.ndcg(products.relevances, k=5, gain="linear") == pytest.approx(0.95732117485131151, rel=1e-15, abs=0)
    ranking = example("ranking_ndcg_linear")
    dcg5 = 5 + 3 / math.log2(3) + 2 / 2 + 1 / math.log2(5) + 4 / math.log2(6)
    idcg5 = 5 + 4 / math.log2(3) + 3 / 2 + 2 / math.log2(5) + 1 / math.log2(6)
    assert nt.ndcg(ranking.relevances, k=5) == pytest.approx(dcg5 / idcg5, rel=1e-15, abs=0)
    assert nt.dcg(example("dcg_2_3_5").relevances) == pytest.approx(2 + 3 / math.log2(3) + 5 / 2, rel=1e-15, abs=0)
    assert nt.cg(example("cg_5_2_3").relevances) == 10.0


def test_example_type_fields():
    names = [field.name for field in dataclasses.fields(WorkedExample)]
    assert names[:5] == ["name", "source", "section", "summary", "kind"]
    assert "printed" in names


# Quotations (ndcg_teach/course/examples/quotations.py): what lesson 07 shows of each document.


@needs_seeds
def test_every_quotation_is_its_documents_line_verbatim():
    from ndcg_teach.course.examples import QUOTATIONS

    for quote in QUOTATIONS:
        lines = seed_text(quote.source).splitlines()
        assert lines[quote.line - 1].strip() == quote.chinese, quote


def test_quotations_are_short_translated_and_cite_a_worked_example():
    from ndcg_teach.course.examples import QUOTATIONS

    names = {worked.name for worked in EXAMPLES}
    for quote in QUOTATIONS:
        assert quote.example in names and example(quote.example).source == quote.source
        assert len(quote.chinese) <= 120 and quote.english and quote.english != quote.chinese or quote.chinese.isascii()
    # Every document that lesson 07 corrects or praises is quoted; the quotes stay a small part of each document.
    assert {quote.source for quote in QUOTATIONS} == {doc.file for doc in SOURCES}
    # (seven for document 003: the two lines lesson 07 corrects and the five of its AP definition)
    assert max(sum(1 for quote in QUOTATIONS if quote.source == doc.file) for doc in SOURCES) <= 7


def test_quotations_cite_the_document_title_and_line():
    from ndcg_teach.course.examples import quotations

    quote = quotations("000", example="products_p_at_k")[0]
    assert quote.citation == "000_6d16541d6fd5e69f.txt «排序模型评估:准确率@K和NDCG», line 83"
    assert str(quote).splitlines()[1:] == [f"  {quote.chinese}", f"  {quote.english}"]
    assert quotations("001")[0].citation.startswith("001_647c40be77200e02.txt [untitled: ")
    assert quotations() == tuple(sorted(quotations(), key=lambda q: (q.source, q.line)))


def test_quotations_refuse_unknown_documents_and_examples():
    from ndcg_teach.course.examples import quotations

    with pytest.raises(ValueError, match=r"name must be one of .*Got '009' instead\."):
        quotations("009")
    with pytest.raises(ValueError, match=r"name must be the name of a worked example, e\.g\. 'ndcg_5_2_3'\. Got 'nope' instead\."):
        quotations(example="nope")


def test_a_chinese_reader_gets_the_documents_own_words_and_lines_with_no_english_under_them():
    from ndcg_teach.course.examples import quotations

    with nt.language_set("zh-CN"):
        quote = quotations("000")[0]
        shown = str(quote)
        assert shown == f"{quote.citation}\n  {quote.chinese}" and quote.citation.endswith(f"，第 {quote.line} 行")
        assert source("004").citation == "004_064288211b98ea25.txt［无标题，首行：“评估推荐系统通常需要比单纯判断相关条目是否存在更为细致的指标。”］"
        assert source("001").heading() == "［无标题，首行：“## 1. 背景介绍”］" and source("000").heading() == f"《{source('000').title}》"
    assert str(quotations("000")[0]).endswith(quotations("000")[0].english) and source("004").heading().startswith("(untitled) ")


@needs_seeds
def test_an_untitled_documents_first_line_is_its_own():
    for document in SOURCES:
        lines = (SEEDS / document.file).read_text(encoding="utf-8").splitlines()
        assert document.title is not None or (document.first_line and lines[0].startswith(document.first_line))


# Notation (ndcg_teach/course/examples/notation.py): the documents' symbols, mapped to the course's.


@needs_seeds
def test_every_symbol_of_the_notation_table_is_printed_so_in_each_document_it_names():
    from ndcg_teach.course.examples import NOTATION

    for symbol in NOTATION:
        for form, numbers in symbol.printed:
            for number in numbers.split(", "):
                assert form in seed_text(source(number).file), (form, number)


def test_the_notation_table_names_calls_that_exist_and_speaks_the_learners_language():
    from ndcg_teach.course.examples import NOTATION, notation

    called = {name for symbol in NOTATION for name in re.findall(r"\bnt\.(\w+)\(", symbol.call)}
    assert called >= {"cg", "dcg", "idcg", "ndcg", "precision_at_k", "average_precision", "mean_average_precision"}
    assert all(callable(getattr(nt, name)) for name in called)
    chinese = notation("zh-CN")
    # The same symbols and documents, listed as each language lists them (、 between items in Chinese).
    listed = tuple(cell.replace("、", ", ") for cell in chinese.rows[0][:3])
    assert listed == tuple(notation("en").rows[0][:3]) and chinese.rows[0][3] != notation("en").rows[0][3]
    assert re.search(r"[\u4e00-\u9fff]", chinese.caption) and len(chinese.rows) == len(NOTATION)

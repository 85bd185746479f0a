"""Trace renderings: plain text, HTML and LaTeX tell the same story."""

import dataclasses

import pytest

import ndcg_teach as nt
from ndcg_teach.core.trace import GAIN, GRADE, POSITION, RELEVANT, Row, rows_of


def test_str_is_a_table_with_the_value_and_the_formula():
    text = str(nt.explain_dcg([5, 2, 3], ranking=["A", "B", "C"]))
    lines = text.splitlines()
    # Six decimals, as the HTML title shows: a float's 17th digit depends on the order of its additions (issue 28).
    assert lines[0] == "DCG@3 = 7.761860"
    assert lines[2].split() == ["i", "item", "grade", "gain", "discount", "contribution", "running", "total"]
    assert lines[4].split() == ["1", "A", "5", "5.0000", "1.0000", "5.0000", "5.0000"]
    assert "DCG@3 = 5/log2(2) + 2/log2(3) + 3/log2(4) = 5.0000 + 1.2619 + 1.5000 = 7.7619" in lines
    assert "note: linear gain (rel)" in lines


def test_the_headline_prints_six_decimals_where_repr_would_show_the_order_of_additions():
    trace = nt.explain_average_precision([1, 0, 0, 1, 1, 0], n_relevant=5)
    assert repr(trace.value) == "0.42000000000000004"
    assert str(trace).splitlines()[0] == "AP = 0.420000"


def test_repr_is_the_readable_text_not_a_memory_address():
    trace = nt.explain_cg([1, 2])
    assert repr(trace) == str(trace)
    assert "0x" not in repr(trace)


def test_html_has_one_row_per_step_and_escapes_labels():
    trace = nt.explain_ndcg([3, 1], ranking=["<b>A</b>", "B & C"])
    html = trace._repr_html_()
    assert html.count("<tr") == 1 + len(trace.rows)
    assert "&lt;b&gt;A&lt;/b&gt;" in html and "B &amp; C" in html
    assert "<style>" in html and ".ndcg-trace" in html
    assert "NDCG@2 = <span class=\"ndcg-trace-value\">1.000000</span>" in html


def test_html_marks_relevant_rows_and_ideal_columns():
    assert 'class="ndcg-relevant"' in nt.explain_precision_at_k([1, 0], 2)._repr_html_()
    assert 'class="ndcg-ideal"' in nt.explain_ndcg([1, 2])._repr_html_()


def test_latex_formula():
    assert nt.explain_dcg([5, 2]).to_latex() == r"\mathrm{DCG@2} = \frac{5}{\log_{2} 2} + \frac{2}{\log_{2} 3} = 6.2619"
    assert nt.explain_dcg([3], gain="exponential").to_latex() == r"\mathrm{DCG@1} = \frac{(2^{3}-1)}{\log_{2} 2} = 7.0000"
    assert nt.explain_ndcg([2, 1]).to_latex().endswith(r"\mathrm{NDCG@2} = \frac{2.6309}{2.6309} = 1.0000")


def test_to_rows_gives_the_shown_columns():
    rows = nt.explain_precision_at_k([1, 0], 2).to_rows()
    assert rows == [
        {"position": 1, "item": "#1", "grade": 1.0, "relevant": True, "hits": 1, "precision": 1.0},
        {"position": 2, "item": "#2", "grade": 0.0, "relevant": False, "hits": 1, "precision": 0.5},
    ]


def test_each_metric_declares_its_own_columns():
    # A column a single metric has (ERR's stop probability) is declared beside it, with its header and meaning.
    stop = nt.explain_expected_reciprocal_rank([2, 0, 1]).column("stop")
    assert (stop.header, stop.format) == ("stop probability", "number") and stop.meaning
    assert [column.key for column in nt.explain_cg([1, 2]).columns] == ["position", "item", "grade", "running"]
    with pytest.raises(KeyError, match=r"key must be one of this trace's columns \(position, item, grade, running\)"):
        nt.explain_cg([1, 2]).column("gain")


def test_a_row_holds_exactly_its_traces_columns():
    rows = nt.explain_average_precision([1, 0, 1]).rows
    assert rows[0].precision == 1.0 and rows[0].get("discount") is None
    with pytest.raises(AttributeError, match=r"this trace row has no 'discount'; it holds position, item, grade"):
        _ = rows[0].discount
    with pytest.raises(dataclasses.FrozenInstanceError):
        rows[0].precision = 0.5
    assert rows[0] == Row(**rows[0].as_dict()) and hash(rows[0]) == hash(Row(**rows[0].as_dict()))


def test_a_trace_refuses_rows_that_do_not_match_its_columns():
    columns = (POSITION, GRADE)
    with pytest.raises(ValueError, match=r"Trace rows must hold exactly its columns \['position', 'grade'\]\. Got \['position'\] instead\."):
        nt.Trace("X", 0.0, (Row(position=1),), "X = 0", "X = 0", columns)
    assert nt.Trace("X", 0.0, rows_of(columns, [1], [2.0]), "X = 0", "X = 0", columns).to_rows() == [{"position": 1, "grade": 2.0}]


def test_a_column_formats_its_cells():
    assert [GRADE.cell(2.0), POSITION.cell(3), RELEVANT.cell(True, "zh-CN"), GAIN.cell(None)] == ["2", "3", "是", ""]
    custom = nt.Column("share", "share", lambda value, language: f"{value:.0%}", "a share")
    assert custom.cell(0.25) == "25%" and not custom.left
    with pytest.raises(ValueError, match=r"Column must have an identifier key and a format in text, flag, count, grade, number"):
        nt.Column("share", "share", "percent", "a share")

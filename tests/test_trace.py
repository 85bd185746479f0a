"""Trace renderings: plain text, HTML and LaTeX tell the same story."""

import ndcg_teach as nt


def test_str_is_a_table_with_the_value_and_the_formula():
    text = str(nt.explain_dcg([5, 2, 3], ranking=["A", "B", "C"]))
    lines = text.splitlines()
    assert lines[0] == "DCG@3 = 7.7618595071429155"
    assert lines[2].split() == ["i", "item", "grade", "gain", "discount", "contribution", "running", "total"]
    assert lines[4].split() == ["1", "A", "5", "5.0000", "1.0000", "5.0000", "5.0000"]
    assert "DCG@3 = 5/log2(2) + 2/log2(3) + 3/log2(4) = 5.0000 + 1.2619 + 1.5000 = 7.7619" in lines
    assert "note: linear gain (rel)" in lines


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

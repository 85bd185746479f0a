"""The one table renderer (ndcg_teach/table.py) and its stylesheet (ndcg_teach/static/table.css)."""

import math

import pytest

from ndcg_teach.table import Cell, Table, styled, stylesheet, text


def test_cell_text():
    assert [text(v) for v in (None, True, False, 0.5, float("nan"), math.e, 2, "a b")] == [
        "", "yes", "no", "0.5000", "nan", "e", "2", "a b"]
    assert text(Cell("0.86", "0.8645478846264829")) == "0.86"


def test_text_columns_align_left_numbers_right_and_lines_are_stripped():
    table = Table("caption", ("name", "n", "last"), (("a", "1", ""), ("bbbb", "100", "x")), align="lrl")
    assert str(table).splitlines() == [
        "caption",
        "name    n  last",
        "----  ---  ----",
        "a       1",
        "bbbb  100  x",
    ]


def test_every_column_aligns_left_by_default_and_the_caption_is_optional():
    assert str(Table(None, ("a", "b"), ((1.0, "x"),))).splitlines() == ["a       b", "------  -", "1.0000  x"]


def test_indent_rule_and_notes():
    table = Table("c", ("q", "v"), (("x", "1"), ("y", "2")), notes=("word " * 30, None))
    lines = table.lines(indent="  ", rule=False)
    assert lines[:2] == ["  q  v", "  x  1"]
    assert lines[-1] == "  y  2"
    notes = lines[2:-1]
    assert len(notes) == 2 and all(line.startswith("      word") and len(line) <= 110 for line in notes)
    assert " ".join(notes).split() == ["word"] * 30


def test_lookup_by_first_column():
    table = Table("t", ("convention", "value"), (("a", 0.5), ("b", None)))
    assert table["a"] == 0.5 and table["b"] is None
    assert Table("t", ("convention", "gain"), (("a", "linear"),))["a"] == ("a", "linear")
    with pytest.raises(KeyError, match=r"no row named 'c'; rows are \['a', 'b'\]"):
        table["c"]


def test_html_escapes_every_text_and_carries_classes():
    table = Table(
        "<caption> & co",
        ("<item>", "value"),
        (("<b>A</b>", Cell("0.5", '"half"')), ("B & C", None)),
        align="lr",
        column_classes=("", "ndcg-ideal"),
        row_classes=("ndcg-relevant", ""),
        notes=(None, "it's <wrong>"),
    )
    html = table.html()
    assert html.startswith("<table><caption>&lt;caption&gt; &amp; co</caption>")
    assert '<th class="ndcg-text">&lt;item&gt;</th><th class="ndcg-ideal">value</th>' in html
    assert '<tr class="ndcg-relevant"><td class="ndcg-text">&lt;b&gt;A&lt;/b&gt;</td>' in html
    assert '<td class="ndcg-ideal" title="&quot;half&quot;">0.5</td>' in html
    assert '<tr><td class="ndcg-text">B &amp; C</td><td class="ndcg-ideal"></td></tr>' in html
    assert '<tr class="ndcg-row-note"><td colspan="2">it&#x27;s &lt;wrong&gt;</td></tr>' in html
    assert "<b>" not in html and "<wrong>" not in html


def test_styled_block_carries_the_stylesheet_once():
    html = styled("<p>x</p>", title="T &amp; U", kind="ndcg-trace")
    assert html == f'<div class="ndcg-table ndcg-trace"><style>{stylesheet()}</style><div class="ndcg-title">T &amp; U</div><p>x</p></div>'
    assert Table("t", ("a",), ())._repr_html_() == f'<div class="ndcg-table"><style>{stylesheet()}</style><table><caption>t</caption><thead><tr><th class="ndcg-text">a</th></tr></thead><tbody></tbody></table></div>'


def test_trace_conventions_and_audit_share_one_stylesheet_and_no_inline_colour():
    import re

    import ndcg_teach as nt
    from ndcg_teach.conventions import compare
    from ndcg_teach.examples import audit

    outputs = [nt.explain_ndcg([3, 0], k=4, pool=[3, 0, 2, 3, 1])._repr_html_(), compare([3, 0, 2])._repr_html_(),
               audit("000")._repr_html_()]
    for html in outputs:
        assert html.count("<style>") == 1 and html.startswith('<div class="ndcg-table')
        styles = re.findall(r"<style>(.*?)</style>", html, re.S)
        assert styles == [stylesheet()]
        markup = html.replace(styles[0], "")
        assert "style=" not in markup and "color" not in markup and not re.search(r"#[0-9a-fA-F]{3,8}\b|rgba?\(", markup)


def test_stylesheet_colours_are_theme_variables_with_fallbacks():
    import re

    css = re.sub(r"/\*.*?\*/", "", stylesheet(), flags=re.S)
    # Whatever is left once every var(--jp-..., fallback) is taken out must name no colour.
    bare = re.sub(r"var\(--jp-[a-z0-9-]+, (?:[^()]|\([^()]*\))+\)", "", css)
    assert not re.search(r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(|\b(?:white|black|gr[ae]y|red|blue|orange)\b(?!-)", bare)
    for selector in (".ndcg-trace-value", ".ndcg-notes", ".ndcg-relevant", ".ndcg-ideal", ".ndcg-audit-no", ".ndcg-beyond"):
        assert selector in css

"""How an exercise's feedback looks in a notebook: a symbol and the same words beside the colour, escaped, readable in both themes."""

import html
import inspect
import re
from pathlib import Path

import pytest

from ndcg_teach.exercises import Feedback, check


# Feedback in a notebook: colour, plus a symbol and the same words, so the verdict never rests on colour alone.

VERDICTS = [("01-cg", 6, "right", "✓"), ("01-cg", 3, "not-yet", "✗"), ("01-cg", ..., "no-answer", "…")]


@pytest.mark.parametrize("key, answer, state, symbol", VERDICTS)
def test_html_feedback_shows_the_symbol_and_the_same_message(key, answer, state, symbol):
    feedback = check(key, answer)
    page = feedback._repr_html_()
    assert f'class="ndcg-feedback ndcg-feedback-{state}"' in page
    assert f'aria-hidden="true">{symbol}</span>' in page
    words = html.unescape(re.sub(r"<style>.*?</style>|<[^>]+>", " ", page, flags=re.S)).split()
    assert words == [symbol, *feedback.message.split()]


def test_html_feedback_escapes_the_message():
    page = check("01-cg-order", "<b>")._repr_html_()
    assert "Got &#x27;&lt;b&gt;&#x27; (str) instead." in page
    assert "<b>" not in page


def test_html_feedback_keeps_the_text_as_it_was():
    feedback = check("01-cg", 3)
    assert repr(feedback) == str(feedback) == "01-cg: not yet. You counted the relevant results; CG adds their grades."


# Read from the source tree, beside framework.py, where package-data ships it from.
STYLESHEET = (Path(inspect.getfile(Feedback)).parent / "static" / "feedback.css").read_text(encoding="utf-8")


def contrast(one, other):
    """WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour):
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted([luminance(one), luminance(other)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def mix(colour, page, share):
    """``share`` of ``colour`` over ``page``, as CSS color-mix() in sRGB paints it on that page."""
    channels = [round(int(colour[i : i + 2], 16) * share + int(page[i : i + 2], 16) * (1 - share)) for i in (1, 3, 5)]
    return "#" + "".join(f"{channel:02x}" for channel in channels)


def test_feedback_colours_are_theme_variables_with_fallbacks():
    theme = re.findall(r"var\((--jp-[\w-]+)(,?)", STYLESHEET)
    assert {"--jp-success-color1", "--jp-error-color1", "--jp-content-font-color2"} <= {name for name, _ in theme}
    assert all(comma for _, comma in theme), "every theme variable needs a fallback"
    assert STYLESHEET in check("01-cg", 6)._repr_html_()


def test_feedback_fallback_colours_read_on_light_and_dark_pages():
    fallbacks = re.findall(r"--ndcg-feedback-color: var\(--jp-[\w-]+, (#[0-9a-f]{6})\)", STYLESHEET)
    assert len(fallbacks) == 3  # no answer, right, not yet
    assert "color-mix(in srgb, var(--ndcg-feedback-color) 10%, transparent)" in STYLESHEET
    for colour in fallbacks:
        for page in ("#ffffff", "#1e1e1e"):  # white, and a typical dark editor
            assert contrast(colour, page) >= 4, (colour, page)
            # WCAG asks 3:1 for symbols and borders; the symbol sits on the 10% tint.
            assert contrast(colour, mix(colour, page, 0.10)) >= 3, (colour, page)

"""Chinese in figures: the font the course installs draws it, and without any Chinese font one warning says so."""

import io
import warnings

import matplotlib
import pytest
from matplotlib.figure import Figure

import ndcg_teach as nt
from ndcg_teach import plots
from ndcg_teach.plots import fonts
from zh_text import glyph_faults


def drawn_warnings(text):
    return drawn_warnings_in(text)


def drawn_warnings_in(text, **font):
    figure = Figure()
    figure.add_subplot().set_title(text, **font)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg")
        figure.savefig(io.BytesIO(), format="png")
    return [str(warning.message) for warning in caught], buffer.getvalue()


def test_the_course_font_is_registered_after_dejavu_so_latin_keeps_its_look():
    assert fonts.chinese_font() == fonts.PACKAGED_FONT
    families = matplotlib.rcParams["font.family"]
    assert families == ["sans-serif", fonts.PACKAGED_FONT] and matplotlib.rcParams["font.sans-serif"][0] == "DejaVu Sans"
    assert fonts.use_chinese_font() == fonts.PACKAGED_FONT and matplotlib.rcParams["font.family"] == families


def test_chinese_is_drawn_without_a_missing_glyph_and_stays_text_in_svg():
    messages, svg = drawn_warnings("折损累积增益 DCG@3")
    assert [message for message in messages if "missing from font" in message] == []
    assert "折损累积增益 DCG@3" in svg and matplotlib.rcParams["svg.fonttype"] == "none"


def test_the_library_plots_label_in_the_learner_language():
    with nt.language_set("zh-CN"):
        assert fonts.labels_language() == "zh-CN"
        chinese = plots.precision_recall_plot(nt.precision_recall_curve([1, 0, 1], n_relevant=2))
    english = plots.precision_recall_plot(nt.precision_recall_curve([1, 0, 1], n_relevant=2))
    assert chinese != english and chinese.startswith(plots.PNG_SIGNATURE)


@pytest.fixture
def no_chinese_font(monkeypatch):
    monkeypatch.setattr(fonts, "chinese_font", lambda: None)
    fonts._warn_once.cache_clear()
    with warnings.catch_warnings():
        yield
    fonts._warn_once.cache_clear()


def test_without_a_chinese_font_one_warning_says_what_to_install_and_plots_label_in_english(no_chinese_font):
    with nt.language_set("zh-CN"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert fonts.use_chinese_font() is None
        for _ in range(3):
            assert fonts.labels_language() == "en"
            plots.precision_recall_plot(nt.precision_recall_curve([1, 0, 1], n_relevant=2))
    messages = [str(warning.message) for warning in caught]
    assert len(messages) == 1 and "No Chinese font found" in messages[0] and fonts.INSTALL_HINT in messages[0]


def test_without_a_chinese_font_an_english_learner_is_not_warned(no_chinese_font):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fonts.use_chinese_font()
        assert fonts.labels_language() == "en"
    assert caught == []


def test_a_text_with_a_family_of_its_own_falls_back_to_the_chinese_font():
    assert fonts.with_chinese("monospace") == ["monospace", fonts.PACKAGED_FONT]
    _, svg = drawn_warnings_in("模型 A: NDCG@3 = 0.9", family=fonts.with_chinese("monospace"))
    assert glyph_faults(svg) == []
    _, boxes = drawn_warnings_in("模型 A: NDCG@3 = 0.9", family="monospace")
    faults = glyph_faults(boxes)  # monospace alone: DejaVu Sans Mono, which has no Chinese
    assert any("has '型模'" in fault for fault in faults) and any("without the course's font" in fault for fault in faults)


def test_without_a_chinese_font_a_text_keeps_only_its_own_family(no_chinese_font):
    assert fonts.with_chinese("monospace") == ["monospace"]

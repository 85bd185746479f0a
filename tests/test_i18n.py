"""The message catalogues: every marked message has its translation, and English output is the code's own text."""

import ast
import json
import re
import string
from pathlib import Path

import pytest

import ndcg_teach as nt
from ndcg_teach import i18n

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


def test_the_catalogue_files_are_json_objects_of_strings():
    for path in (PACKAGE / "locales").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()), path.name
        assert path.stem in i18n.LANGUAGES


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

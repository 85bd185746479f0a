"""The learner's language: English, or Simplified Chinese (``"zh-CN"``) for the Chinese edition.

Messages are written in English in the code, marked with :func:`gettext`
(imported as ``_``) where they are shown, or with :func:`mark` where they are
stored to be shown later. One GNU gettext catalogue per language,
``ndcg_teach/i18n/locales/<language>.po``, maps each English message (``msgid``) to
its translation (``msgstr``); translators edit it with the usual tools, and
:mod:`ndcg_teach.i18n.po` reads it as it is (no compiled ``.mo``). English needs
none, so the English output is the code's own text.
A message with ``{placeholders}`` is translated first and formatted after, so
a translation may move the placeholders but must keep each of them.

Text is translated when it is made: a trace, an audit report, a test result
or an exercise's feedback speaks the language set when it was built, and keeps
it when the language changes later. What a program looks things up by (the
``headers`` of the conventions and evaluation tables, ``AuditRecord.quantity`` and
``.causes``, a test's ``details``) stays English; only what is shown is
translated. Tables align and wrap Chinese by display width (two columns per
character).

The room holds this module, :mod:`.po` (the catalogue reader) and ``locales/``
(one catalogue per language). Every other room speaks through it.

May import: nothing of the package.

>>> import ndcg_teach as nt
>>> nt.language()
'en'
>>> with nt.language_set("zh-CN"):
...     nt.language()
'zh-CN'
>>> nt.language()
'en'
"""

from __future__ import annotations

import contextlib
import functools
import re
import unicodedata
from importlib import resources

from .po import read_po

LANGUAGES = ("en", "zh-CN")
"""The languages the course is written in; ``"en"`` is the default."""

_current = "en"


def check_language(language, name: str = "language") -> str:
    """``language`` when it is one of :data:`LANGUAGES`; a clear error otherwise."""
    options = ", ".join(map(repr, LANGUAGES))
    if not isinstance(language, str):
        raise TypeError(gettext("{name} must be one of {options}. Got {got} ({kind}) instead.")
                        .format(name=name, options=options, got=repr(language), kind=type(language).__name__))
    if language not in LANGUAGES:
        raise ValueError(gettext("{name} must be one of {options}. Got {got} instead.")
                         .format(name=name, options=options, got=repr(language)))
    return language


def set_language(language: str) -> None:
    """Show traces, exercise feedback, audit causes and new explorers in ``language``.

    The Chinese lessons call ``nt.set_language("zh-CN")`` in their first cell.
    Errors for bad input speak it too (the parameter, the requirement, then
    what was given); Python's own errors stay in English.

    >>> import ndcg_teach as nt
    >>> nt.set_language("zh-CN")
    >>> nt.language()
    'zh-CN'
    >>> nt.set_language("en")
    """
    global _current
    _current = check_language(language)


def language() -> str:
    """The language set by :func:`set_language` (``"en"`` until then).

    >>> import ndcg_teach as nt
    >>> nt.language()
    'en'
    """
    return _current


@contextlib.contextmanager
def language_set(language: str):
    """Use ``language`` inside a ``with`` block and restore the previous one after it.

    >>> import ndcg_teach as nt
    >>> with nt.language_set("zh-CN"):
    ...     print(nt.language())
    zh-CN
    """
    previous = _current
    set_language(language)
    try:
        yield
    finally:
        set_language(previous)


@functools.cache
def catalogue(language: str) -> dict[str, str]:
    """English message -> translation for ``language`` (empty for English)."""
    if check_language(language) == "en":
        return {}
    text = resources.files(__name__).joinpath(f"locales/{language}.po").read_text(encoding="utf-8")
    return read_po(text, f"locales/{language}.po")


def chosen_language(language: str | None = None) -> str:
    """``language`` checked, or the current one (:func:`language`) when None.

    >>> chosen_language(None), chosen_language("zh-CN")
    ('en', 'zh-CN')
    """
    return _current if language is None else check_language(language)


def gettext(message: str, language: str | None = None) -> str:
    """``message`` in ``language`` (the current one when None); English when no translation exists."""
    chosen = chosen_language(language)
    if chosen == "en":
        return message
    return catalogue(chosen).get(message, message)


def gettext_matching(text: str, patterns, language: str | None = None) -> str:
    """``text`` translated by the first ``(regex, marked template)`` of ``patterns`` that matches all of it.

    The regex's named groups (numbers, names) fill the translated template, so
    a message built from data is translated without losing its values; text
    that no pattern matches is returned as it is.

    >>> gettext_matching("all 256 sign assignments (exact)", [(r"all (?P<n>\\d+) sign assignments \\(exact\\)", "all {n} sign assignments (exact)")], "en")
    'all 256 sign assignments (exact)'
    """
    for pattern, template in patterns:
        found = re.fullmatch(pattern, text)
        if found:
            return gettext(template, language).format(**found.groupdict())
    return text


def mark(message: str) -> str:
    """Mark ``message`` for translation where it is stored; :func:`gettext` translates it when shown."""
    return message


def sentences(parts) -> str:
    """``parts`` joined as their language writes sentences: a space after English, nothing after a Chinese character.

    >>> sentences(["It stays.", "So does RR."])
    'It stays. So does RR.'
    >>> sentences(["它还在。", "RR 也不变。"])
    '它还在。RR 也不变。'
    """
    text = ""
    for part in parts:
        wide = bool(text) and unicodedata.east_asian_width(text[-1]) in "WF"
        text += part if not text or wide else " " + part
    return text


MUST_BE = mark("{name} must be {requirement}. Got {got} instead.")


def refused(error: type, name: str, requirement: str, got: str, **fields) -> Exception:
    """``error`` for a bad ``name``: the parameter, the ``requirement`` (a marked template filled with ``fields``), then ``got``.

    In the learner's language, so a Chinese lesson shows a Chinese error with
    the same structure; a test or a program reads the exception's type.

    >>> refused(ValueError, "k", "a whole number from 1 to {n} (the number of items)", "0", n=3)
    ValueError('k must be a whole number from 1 to 3 (the number of items). Got 0 instead.')
    >>> with language_set("zh-CN"):
    ...     print(refused(ValueError, "k", "a whole number from 1 to {n} (the number of items)", "0", n=3))
    k 必须是介于 1 到 3 之间的整数（条目数）。传入的是 0。
    """
    return error(gettext(MUST_BE).format(name=name, requirement=gettext(requirement).format(**fields), got=got))


_ = gettext

"""GNU gettext ``.po`` catalogues, read directly: the format translators' tools (Poedit, Lokalize, Weblate) edit.

The course reads its ``ndcg_teach/i18n/locales/<language>.po`` at run time, so no
compiled ``.mo`` file is generated, shipped or kept in step with it. The
reader takes what the course needs from the format: comments, ``msgctxt``-free
singular messages (``msgid`` / ``msgstr``), strings continued over several
lines and the C escapes. It skips what ``msgfmt`` leaves out of a compiled
catalogue (the header entry, ``#, fuzzy`` entries, untranslated ones, obsolete
``#~`` ones) and refuses, by line, what the course does not use (contexts and
plural forms, which Chinese does not need) rather than misreading it.

>>> read_po('msgid "gain"\\nmsgstr "增益"\\n')
{'gain': '增益'}
>>> print(po_entry('say "hi"', '说“你好”'), end="")
msgid "say \\"hi\\""
msgstr "说“你好”"
"""

from __future__ import annotations

import re

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_ESCAPE_LIST = " ".join("\\" + escape for escape in _ESCAPES)
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(.*)")


def unquote(text: str, where: str = "") -> str:
    """The value of one quoted ``.po`` string, ``"a\\"b"`` -> ``a"b``."""
    found = _STRING.fullmatch(text.strip())
    if not found:
        raise ValueError(f"{where}a .po string must be one double-quoted string. Got {text.strip()!r} instead.")
    parts, escaped = [], iter(re.split(r"(\\.)", found.group(1)))
    for part in escaped:
        if part.startswith("\\") and len(part) == 2:
            if part[1] not in _ESCAPES:
                raise ValueError(f"{where}a .po string may use the escapes {_ESCAPE_LIST}. Got {part!r} instead.")
            parts.append(_ESCAPES[part[1]])
        else:
            parts.append(part)
    return "".join(parts)


def quote(text: str) -> str:
    """``text`` as one quoted ``.po`` string (the inverse of :func:`unquote`)."""
    reverse = {value: key for key, value in _ESCAPES.items()}
    return '"' + "".join("\\" + reverse[char] if char in reverse else char for char in text) + '"'


def read_po(text: str, source: str = "catalogue") -> dict[str, str]:
    """English message -> translation of a ``.po`` catalogue's translated, non-fuzzy entries."""
    messages: dict[str, str] = {}
    entry: dict[str, str] = {}
    flags: set[str] = set()
    field = None
    start = 0

    def finish():
        msgid, msgstr = entry.get("msgid"), entry.get("msgstr")
        if msgid is None and entry:
            raise ValueError(f"{source}:{start}: an entry needs a msgid. Got only {sorted(entry)} instead.")
        if msgid and msgstr and "fuzzy" not in flags:
            if msgid in messages:
                raise ValueError(f"{source}:{start}: each msgid must appear once. Got {msgid!r} twice.")
            messages[msgid] = msgstr

    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{source}:{number}: "
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            if entry:
                finish()
                entry, flags, field = {}, set(), None
            if stripped.startswith("#,"):
                flags |= {flag.strip() for flag in stripped[2:].split(",")}
            continue
        if stripped.startswith('"'):
            if field is None:
                raise ValueError(f"{where}a continued string must follow msgid or msgstr. Got {stripped!r} instead.")
            entry[field] += unquote(stripped, where)
            continue
        keyword = _KEYWORD.fullmatch(stripped)
        if not keyword:
            raise ValueError(f"{where}a line must be a comment, msgid, msgstr or a quoted string. Got {stripped!r} instead.")
        name, value = keyword.groups()
        if name not in ("msgid", "msgstr"):
            raise ValueError(f"{where}the course's catalogues use msgid and msgstr only (no contexts, no plural forms). "
                             f"Got {name} instead.")
        if name == "msgid" and entry:
            finish()
            entry, flags = {}, set()
        if name in entry:
            raise ValueError(f"{where}an entry has one {name}. Got a second one instead.")
        if not entry:
            start = number
        entry[name], field = unquote(value, where), name
    finish()
    return messages


def po_header(text: str) -> str:
    """A catalogue's opening: its comments and header entry (``msgid ""``), up to the blank line after them."""
    blocks = text.split("\n\n")
    end = next((i for i, block in enumerate(blocks) if 'msgid ""' in block.splitlines()), None)
    if end is None:
        raise ValueError(f'a catalogue must open with its header entry (msgid ""). Got {text[:80]!r} instead.')
    return "\n\n".join(blocks[: end + 1]).rstrip("\n") + "\n"


def po_text(messages: dict, header: str) -> str:
    """A whole catalogue as the repository keeps it: ``header``, then one entry per message, sorted by msgid.

    >>> print(po_text({"b": "乙", "a": "甲"}, 'msgid ""\\nmsgstr ""\\n'), end="")
    msgid ""
    msgstr ""
    <BLANKLINE>
    msgid "a"
    msgstr "甲"
    <BLANKLINE>
    msgid "b"
    msgstr "乙"
    """
    return header + "".join("\n" + po_entry(message, messages[message]) for message in sorted(messages))


def po_entry(msgid: str, msgstr: str, comments: tuple = ()) -> str:
    """One ``.po`` entry (with ``#.`` comments for the translator) ending with a blank-line-ready newline."""
    head = "".join(f"#. {comment}\n" for comment in comments)
    return f"{head}msgid {quote(msgid)}\nmsgstr {quote(msgstr)}\n"

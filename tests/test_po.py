"""The .po reader: what msgfmt would compile, read as Babel reads it, and a clear refusal of what the course does not use."""

import io

import pytest
from babel.messages.pofile import read_po as babel_read_po

from ndcg_teach.i18n.po import po_entry, quote, read_po, unquote

SAMPLE = r'''# a translator's comment
msgid ""
msgstr ""
"Language: zh_CN\n"
"Plural-Forms: nplurals=1; plural=0;\n"

#. extracted comment
#: ndcg_teach/core/gains.py:10
msgid "gain"
msgstr "增益"

msgid "a long "
"message {n}"
msgstr "一条"
"长消息 {n}"

#, fuzzy
msgid "unsure"
msgstr "不确定"

msgid "not yet"
msgstr ""

msgid "quote \" tab \t back \\ line\n"
msgstr "引号 \" 制表 \t 反斜杠 \\ 换行\n"

#~ msgid "gone"
#~ msgstr "已删除"
msgid "next without a blank line"
msgstr "紧接着的一条"
'''


def babel(text):
    return {message.id: message.string for message in babel_read_po(io.StringIO(text))
            if message.id and message.string and not message.fuzzy}


def test_it_reads_what_babel_reads_and_skips_the_header_fuzzy_untranslated_and_obsolete_entries():
    assert read_po(SAMPLE) == babel(SAMPLE) == {
        "gain": "增益",
        "a long message {n}": "一条长消息 {n}",
        'quote " tab \t back \\ line\n': '引号 " 制表 \t 反斜杠 \\ 换行\n',
        "next without a blank line": "紧接着的一条",
    }


@pytest.mark.parametrize("text", ["plain", 'a "quoted" word', "back\\slash", "two\nlines\ttab", "，全角：标点"])
def test_quote_and_unquote_are_inverse_and_entries_round_trip(text):
    assert unquote(quote(text)) == text
    assert read_po(po_entry(text, text + "!", comments=("where",))) == {text: text + "!"}
    assert babel(po_entry(text, text + "!")) == {text: text + "!"}


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('msgctxt "menu"\nmsgid "a"\nmsgstr "甲"\n', r"catalogue:1: the course's catalogues use msgid and msgstr only .* Got msgctxt instead\."),
        ('msgid "a"\nmsgid_plural "as"\nmsgstr[0] "甲"\n', r"catalogue:2: .*no plural forms\)\. Got msgid_plural instead\."),
        ('msgid "a"\nmsgstr "甲"\nmsgstr "乙"\n', r"catalogue:3: an entry has one msgstr\. Got a second one instead\."),
        ('msgid "a"\nmsgstr "甲"\n\nmsgid "a"\nmsgstr "乙"\n', r"catalogue:4: each msgid must appear once\. Got 'a' twice\."),
        ('msgid "a\\q"\nmsgstr "甲"\n', r"catalogue:1: a \.po string may use the escapes .* Got '\\\\q' instead\."),
        ('msgid a\nmsgstr "甲"\n', r"catalogue:1: a \.po string must be one double-quoted string\. Got 'a' instead\."),
        ('"orphan"\n', r"catalogue:1: a continued string must follow msgid or msgstr\. Got '\"orphan\"' instead\."),
        ('msgstr "甲"\n', r"catalogue:1: an entry needs a msgid\. Got only \['msgstr'\] instead\."),
        ('msgid "a"\nmsgstr "甲"\nwhat\n', r"catalogue:3: a line must be a comment, msgid, msgstr or a quoted string\. Got 'what' instead\."),
    ],
)
def test_what_it_cannot_read_rightly_is_refused_by_line(text, match):
    with pytest.raises(ValueError, match=match):
        read_po(text)

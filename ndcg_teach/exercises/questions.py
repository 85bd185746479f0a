"""Questions to think about: exercises that ask why, answered with a letter, every option explained.

Beside its exercises that ask for a number, every lesson asks at least two
questions that a library cannot answer for the learner: why a convention
changes a number, which metric suits a situation, what a result means, what
a common misconception gets wrong.  A question is an
:class:`~ndcg_teach.exercises.Exercise` of kind ``"choice"``, judged by the
same ``check`` with the same feedback; its ``question`` holds the stem and
3 to 5 options, lettered A, B, C, ...  Each option carries why it is right or
why it is wrong: a wrong answer's feedback is that option's explanation
(which never names the right letter), a right answer's is why it is right,
and :meth:`Question.discussion` gives them all (the lessons' Solutions print
it).  The answer is a letter, ``"B"`` or ``"b"``; where more than one option
is right, a tuple of letters such as ``("A", "C")``.

Stem, options and explanations are written once, here in the lesson modules,
marked for the catalogue (their Chinese is in ``locales/zh-CN.po``).  A
lesson shows a question as Markdown that ``tools/build_lessons.py`` writes
from :meth:`Question.markdown`, so a notebook and its definition cannot drift.

>>> from ndcg_teach.exercises import EXERCISES, check
>>> asked = EXERCISES["01-why-order"].question
>>> asked.letters, asked.several
(('A', 'B', 'C', 'D'), False)
>>> check("01-why-order", "e").message
"01-why-order: not yet. Answer with one of 'A' / 'B' / 'C' / 'D'. Got 'e' (str) instead."
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import _, chosen_language, gettext, mark, refused, sentences
from ..core.validation import shown
from .framework import Exercise, Feedback, _choice_judge, _chosen

LETTERS = "ABCDE"
"""The options' letters, in order: a question has 3 to 5 options."""

HEADING = mark("### Questions to think about")
INSTRUCTIONS = mark(
    "These questions ask why rather than how much: answer them by reasoning from the lesson, not by running the library.\n"
    'Answer each with the letter of its right option, such as `answer = "B"`.\n'
    'Where more than one option is right, the question says so: answer with a tuple of letters, such as `("A", "C")`.\n'
    "The feedback explains the option you chose, and the Solutions explain every option."
)
# What a question's definition needs (refused when an author's definition lacks it).
OPTION_COUNT = mark("3 to {most} options for question {key}")
RIGHT_AND_WRONG = mark("a mix of right and wrong options (at least one of each) for question {key}")
WORDED = mark("non-empty texts, with an explanation for every option, for question {key}")
SEVERAL = mark("More than one option is right: answer with all of them.")


@dataclass(frozen=True)
class Option:
    """One option of a question: its text, whether it is right, and why (both marked English)."""

    text: str
    why: str
    right: bool


def right(text: str, why: str) -> Option:
    """A right option: ``why`` says why it is right."""
    return Option(text, why, True)


def wrong(text: str, why: str) -> Option:
    """A wrong option: ``why`` says what is wrong with it, without naming the right option."""
    return Option(text, why, False)


@dataclass(frozen=True)
class Question:
    """What a question to think about asks: its stem and its options (marked English, translated when shown).

    A line break in the stem or in an option's text separates sentences:
    the Markdown keeps it (one sentence per line), the feedback reads it as
    a space.
    """

    stem: str
    options: tuple[Option, ...]

    @property
    def letters(self) -> tuple[str, ...]:
        """The options' letters: ``("A", "B", "C")`` for three options."""
        return tuple(LETTERS[: len(self.options)])

    @property
    def several(self) -> bool:
        """True when more than one option is right (the answer is then a tuple of letters)."""
        return sum(option.right for option in self.options) > 1

    @property
    def answer(self) -> str | tuple[str, ...]:
        """The right letter, or the tuple of right letters when :attr:`several`."""
        letters = tuple(letter for letter, option in zip(self.letters, self.options) if option.right)
        return letters if self.several else letters[0]

    def why_right(self, language: str | None = None) -> str:
        """Why the right option (each right option) is right, in ``language``."""
        return sentences(_flat(gettext(option.why, language)) for option in self.options if option.right)

    def markdown(self, number: int, language: str | None = None) -> str:
        """The question as a lesson shows it: the stem, then the options, each on a line with its letter.

        ``number`` counts the lesson's questions from 1; the first one opens
        with the heading of the lesson's questions and how to answer them.
        """
        chosen = chosen_language(language)
        lines = [gettext(HEADING, chosen), "", gettext(INSTRUCTIONS, chosen), ""] if number == 1 else []
        lines += [gettext("**Question {number}.** {stem}", chosen).format(number=number, stem=gettext(self.stem, chosen)), ""]
        for letter, option in zip(self.letters, self.options):
            lines.append(f"- **{letter}.** " + gettext(option.text, chosen).replace("\n", "\n  "))
        if self.several:
            lines += ["", f"*{gettext(SEVERAL, chosen)}*"]
        return "\n".join(lines)

    def discussion(self, language: str | None = None) -> str:
        """Every option with its letter and why it is right or wrong: what a lesson's Solutions print."""
        chosen = chosen_language(language)
        lines = []
        for letter, option in zip(self.letters, self.options):
            verdict = mark("Right: {why}") if option.right else mark("Wrong: {why}")
            lines.append(f"{letter}. {_flat(gettext(option.text, chosen))}")
            lines.append("   " + gettext(verdict, chosen).format(why=_flat(gettext(option.why, chosen))))
        return "\n".join(lines)


def _flat(text: str) -> str:
    """``text`` as one line: its sentence breaks read as spaces."""
    return sentences(text.split("\n"))


def question(key: str, lesson: str, title: str, stem: str, *options: Option) -> Exercise:
    """The exercise that asks ``stem`` with ``options`` (built by :func:`right` and :func:`wrong`), lettered A, B, ...

    Refuses a question a learner could not answer well: fewer than 3 or more
    than 5 options, no right option, no wrong one, or an option without text
    or without an explanation.
    """
    if not 3 <= len(options) <= len(LETTERS):
        raise refused(ValueError, "options", OPTION_COUNT, str(len(options)), most=len(LETTERS), key=key)
    n_right = sum(1 for option in options if option.right)
    if n_right in (0, len(options)):
        raise refused(ValueError, "options", RIGHT_AND_WRONG, gettext("{right} right and {wrong} wrong").format(
            right=n_right, wrong=len(options) - n_right), key=key)
    if not stem.strip() or not all(option.text.strip() and option.why.strip() for option in options):
        raise refused(ValueError, "stem and options", WORDED, gettext("an empty text"), key=key)
    asked = Question(stem, tuple(options))
    wanted = frozenset(letter for letter, option in zip(asked.letters, options) if option.right)
    mistakes = {letter: option.why for letter, option in zip(asked.letters, options) if not option.right}
    return Exercise(
        key,
        lesson,
        title,
        "choice",
        judge=_choice_judge(asked.letters, lambda inputs: wanted, "", mistakes, several=asked.several),
        question=asked,
    )


def recorded(exercise: Exercise, answer: Any) -> Feedback:
    """Take ``answer`` to the question ``exercise`` without judging it: what a graded assignment's visible test shows.

    Raises
    ------
    TypeError, ValueError
        When ``answer`` is not one of the question's letters (or, where more
        than one option is right, a tuple of them).
    """
    asked = exercise.question
    picks = _chosen(asked.letters, answer, asked.several)
    if picks is None:
        allowed = " / ".join(repr(letter) for letter in asked.letters)
        requirement = mark("one of {allowed}, or a tuple of several of them") if asked.several else mark("one of {allowed}")
        error = ValueError if isinstance(answer, (str, list, tuple, set, frozenset)) else TypeError
        raise refused(error, "answer", requirement, shown(answer), allowed=allowed)
    message = _("{key}: answer {answer} taken. It is marked when your work is graded, and the feedback then explains your choice.")
    return Feedback(exercise.key, None, message.format(key=exercise.key, answer=", ".join(sorted(picks))))

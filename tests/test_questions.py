"""Questions to think about: every lesson asks at least two, every option explains itself in both languages, a wrong
answer never names the right letter, and each lesson shows its questions as their definitions say.

The graded assignments' side (the answer cell, the visible and the hidden test) is in test_assignments.py.
"""

import html
import itertools
import re
from collections import Counter

import build_lessons
import lesson_questions
import nbformat
import pytest

import ndcg_teach as nt
from ndcg_teach import i18n
from ndcg_teach.exercises import EXERCISES, check, discussion, recorded
from ndcg_teach.exercises.questions import question, right, wrong

QUESTIONS = {key: exercise for key, exercise in EXERCISES.items() if exercise.question is not None}
LANGUAGES = i18n.LANGUAGES
LESSONS = [(edition, path) for edition in build_lessons.EDITIONS for path in build_lessons.lessons(edition.directory)]
LESSON_IDS = [f"{edition.language}-{path.stem}" for edition, path in LESSONS]
CJK = re.compile(r"[\u4e00-\u9fff]")
NOT_YET = {"en": "{key}: not yet. ", "zh-CN": "{key}：还不对。"}


def wrong_answers(asked):
    """Every wrong answer to ``asked``: each wrong letter, and with several right options every wrong set of letters."""
    if not asked.several:
        return [letter for letter, option in zip(asked.letters, asked.options) if not option.right]
    sets = itertools.chain.from_iterable(itertools.combinations(asked.letters, n) for n in range(1, len(asked.letters) + 1))
    return [picks for picks in sets if set(picks) != set(asked.answer)]


def naming(letter):
    """The ways a text could name the option ``letter``: "option B", (B), 'B', "B", **B.**, 选项 B, （B）."""
    return rf"(?:option|answer|choice|letter|选项|答案)\s*{letter}\b|[\"'“‘(（]{letter}[\"'”’)）]|\*\*{letter}\.\*\*"


def right_letters(asked):
    return {asked.answer} if isinstance(asked.answer, str) else set(asked.answer)


# How many, and where.

def test_every_lesson_asks_at_least_two_questions():
    slugs = [build_lessons.EN.slug(path.name) for path in build_lessons.lessons(build_lessons.NOTEBOOKS)]
    counts = Counter(exercise.lesson for exercise in QUESTIONS.values())
    assert {slug: counts[slug] for slug in slugs if counts[slug] < 2} == {}
    assert set(counts) <= set(slugs), "a question names a lesson that does not exist"


@pytest.mark.parametrize(("edition", "path"), LESSONS, ids=LESSON_IDS)
def test_every_lesson_shows_its_questions_as_their_definitions_say(edition, path):
    notebook = nbformat.read(path, as_version=4)
    slug = edition.slug(path.name)
    keys = lesson_questions.asked(slug)
    assert len(keys) >= 2
    cells = {cell.get("id"): (index, cell) for index, cell in enumerate(notebook.cells)}
    answered = [match["key"] for cell in notebook.cells if cell.cell_type == "code" and (match := lesson_questions.ANSWER.match(cell.source))]
    assert [key for key in answered if key in QUESTIONS] == keys, "the answer cells ask the lesson's questions, in order"
    solutions = next(index for index, cell in enumerate(notebook.cells) if re.search(r"^## (Solutions|参考答案)", cell.source, re.M))
    for number, key in enumerate(keys, start=1):
        wanted = lesson_questions.sources(key, number, edition.language)
        (asked_at, asked), (answer_at, answer), (solved_at, solved) = (cells[f"{kind}-{key}"] for kind in lesson_questions.KINDS)
        assert asked.source == wanted["question"] and answer.source == wanted["answer"] and solved.source == wanted["solution"]
        assert asked_at + 1 == answer_at < solutions < solved_at, "question, then its answer cell; its solution in the Solutions"
        assert solved.outputs and answer.outputs, "executed"


# What every question holds, in both languages.

@pytest.mark.parametrize("key", list(QUESTIONS))
def test_every_option_has_text_and_an_explanation_in_both_languages(key):
    asked = QUESTIONS[key].question
    assert 3 <= len(asked.options) <= 5 and asked.letters == tuple("ABCDE"[: len(asked.options)])
    assert any(option.right for option in asked.options) and not all(option.right for option in asked.options)
    for language in LANGUAGES:
        texts = [asked.stem, *(part for option in asked.options for part in (option.text, option.why))]
        shown = [i18n.gettext(text, language) for text in texts]
        assert all(text.strip() for text in shown)
        if language == "zh-CN":
            assert all(CJK.search(text) for text in shown), [text for text in shown if not CJK.search(text)]
            assert all(i18n.gettext(text, "zh-CN") != text for text in texts)
    whys = [option.why for option in asked.options]
    assert len(set(whys)) == len(whys), "each option explains itself"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", list(QUESTIONS))
def test_a_wrong_answer_gets_that_options_explanation_and_never_the_right_letter(key, language):
    asked = QUESTIONS[key].question
    rights = right_letters(asked)
    with nt.language_set(language):
        for answer in wrong_answers(asked):
            feedback = check(key, answer)
            assert feedback.correct is False and feedback.message.startswith(NOT_YET[language].format(key=key))
            told = feedback.message[len(NOT_YET[language].format(key=key)) :]
            chosen = {answer} if isinstance(answer, str) else set(answer)
            for letter in rights - chosen:
                assert not re.search(naming(letter), told), (answer, told)
            assert asked.why_right() not in told
            assert not [option for option in asked.options if option.right and i18n.gettext(option.text) in told]
            chosen_wrong = [opt for letter, opt in zip(asked.letters, asked.options) if letter in chosen and not opt.right]
            for option in chosen_wrong:
                assert i18n.gettext(option.why) in told


@pytest.mark.parametrize("key", list(QUESTIONS))
def test_the_right_answer_says_why_in_any_spelling(key):
    asked = QUESTIONS[key].question
    spellings = [asked.answer, asked.answer.lower()] if not asked.several else [asked.answer, list(reversed(asked.answer))]
    spellings.append(f"  {asked.answer.lower()} " if not asked.several else {letter.lower() for letter in asked.answer})
    for answer in spellings:
        feedback = check(key, answer)
        assert feedback.correct is True and feedback.message == f"{key}: right. {asked.why_right()}"
        assert feedback.message in html.unescape(feedback._repr_html_())
    with nt.language_set("zh-CN"):
        assert check(key, asked.answer).message == f"{key}：正确。{asked.why_right()}"


def test_a_question_with_several_right_options_says_when_one_is_missing_and_which_chosen_ones_are_wrong():
    several = [key for key, exercise in QUESTIONS.items() if exercise.question.several]
    assert several, "the course has questions with more than one right option"
    for key in several:
        asked = QUESTIONS[key].question
        partial = asked.answer[:-1]
        message = check(key, partial).message
        assert message == f"{key}: not yet. Each option you chose holds, but so does at least one more: read the others again."
        one_wrong = next(letter for letter in asked.letters if letter not in asked.answer)
        assert check(key, (*asked.answer, one_wrong)).correct is False


def test_chinese_feedback_joins_sentences_without_a_space_after_full_width_punctuation():
    several = [QUESTIONS[key].question for key, exercise in QUESTIONS.items() if exercise.question.several]
    for asked in several:
        chinese, english = asked.why_right("zh-CN"), asked.why_right("en")
        assert re.search(r"[。！？；：，、）] ", chinese) is None, chinese
        assert all(i18n.gettext(option.why, "zh-CN") in chinese for option in asked.options if option.right)
        assert english == " ".join(i18n.gettext(option.why, "en") for option in asked.options if option.right)
        # a wrong pick's hints too: one sentence after another, each as the catalogue writes it
        wrong_picks = [letter for letter, option in zip(asked.letters, asked.options) if not option.right]
        with nt.language_set("zh-CN"):
            told = check(asked_key(asked), tuple(wrong_picks)).message
        assert re.search(r"[。！？；] \S", told) is None, told


def asked_key(asked):
    return next(key for key, exercise in QUESTIONS.items() if exercise.question is asked)


@pytest.mark.parametrize(
    ("answer", "got"),
    [("E", "'E' (str)"), ("AB", "'AB' (str)"), (3, "3 (int)"), (("A", "B"), "('A', 'B') (tuple)"), ("", "'' (str)")],
)
def test_an_answer_that_is_not_a_letter_is_refused_with_the_letters(answer, got):
    message = check("01-why-order", answer).message
    assert message == f"01-why-order: not yet. Answer with one of 'A' / 'B' / 'C' / 'D'. Got {got} instead."


def test_with_several_right_options_a_tuple_list_or_set_of_letters_is_taken_and_a_bad_member_refused():
    key = next(key for key, exercise in QUESTIONS.items() if exercise.question.several)
    asked = QUESTIONS[key].question
    assert check(key, list(asked.answer)) and check(key, set(asked.answer)) and check(key, (*asked.answer, asked.answer[0]))
    allowed = " / ".join(repr(letter) for letter in asked.letters)
    for answer in [(), ("A", 1), ("A", "Z")]:
        assert f"Answer with one of {allowed}, or a tuple of several of them. Got" in check(key, answer).message


# What the lessons and the assignments show.

@pytest.mark.parametrize("language", LANGUAGES)
def test_the_markdown_shows_the_stem_and_every_option_with_its_letter(language):
    for number, (key, exercise) in enumerate(QUESTIONS.items(), start=1):
        asked = exercise.question
        markdown = asked.markdown(number % 3 + 1, language)
        assert i18n.gettext(asked.stem, language) in markdown
        for letter, option in zip(asked.letters, asked.options):
            assert f"- **{letter}.** " + i18n.gettext(option.text, language).replace("\n", "\n  ") in markdown
            assert i18n.gettext(option.why, language) not in markdown, "explanations come after the answer, not with the question"
        assert (i18n.gettext("More than one option is right: answer with all of them.", language) in markdown) == asked.several
        assert markdown.startswith("### ") == (number % 3 + 1 == 1)


def test_the_discussion_gives_every_option_its_verdict_and_explanation_in_the_learners_language():
    for key, exercise in QUESTIONS.items():
        asked = exercise.question
        for language, verdicts in (("en", ("Right: ", "Wrong: ")), ("zh-CN", ("对：", "错："))):
            with nt.language_set(language):
                lines = discussion(key).splitlines()
            assert len(lines) == 2 * len(asked.options)
            for (head, body), letter, option in zip(zip(lines[::2], lines[1::2]), asked.letters, asked.options):
                assert head == f"{letter}. " + " ".join(i18n.gettext(option.text, language).split("\n"))
                assert body == "   " + verdicts[not option.right] + " ".join(i18n.gettext(option.why, language).split("\n"))


def test_recorded_takes_any_letter_alike_and_refuses_what_is_not_one():
    for key, exercise in QUESTIONS.items():
        asked = exercise.question
        taken = [recorded(key, letter.lower()) for letter in asked.letters]
        assert all(feedback.correct is None for feedback in taken)
        assert len({feedback.message.replace(f" {letter} ", " ? ") for feedback, letter in zip(taken, asked.letters)}) == 1
    with pytest.raises(ValueError, match=r"^answer must be one of 'A' / 'B' / 'C' / 'D'\. Got 'Z' instead\.$"):
        recorded("01-why-order", "Z")
    with pytest.raises(TypeError, match=r"^answer must be one of .* Got Ellipsis instead\.$"):
        recorded("01-why-order", ...)
    with pytest.raises(ValueError, match=r"exercise must be a question to think about, answered with a letter\. Got '01-cg' instead\."):
        recorded("01-cg", "A")
    with nt.language_set("zh-CN"), pytest.raises(ValueError, match=r"answer 必须是 'A' / 'B' / 'C' / 'D' 之一。传入的是 'Z'。"):
        recorded("01-why-order", "Z")


# The definitions are checked when they are made, and the lessons' cells follow them.

@pytest.mark.parametrize(
    ("options", "match"),
    [
        ((right("a", "x"), wrong("b", "y")), "3 to 5 options. Got 2"),
        ((right("a", "x"),) + tuple(wrong(str(n), "y") for n in range(5)), "3 to 5 options. Got 6"),
        ((wrong("a", "x"), wrong("b", "y"), wrong("c", "z")), "at least one right option and one wrong one"),
        ((right("a", "x"), right("b", "y"), right("c", "z")), "at least one right option and one wrong one"),
        ((right("a", "x"), wrong("b", " "), wrong("c", "z")), "every option's explanation must have text"),
    ],
)
def test_a_question_a_learner_could_not_answer_well_is_refused(options, match):
    with pytest.raises(ValueError, match=match):
        question("99-q", "99-none", "title", "stem?", *options)


def small_lesson():
    cells = [nbformat.v4.new_markdown_cell("## Exercises\n\n**Exercise 1.** What?"), nbformat.v4.new_code_cell('answer = ...\ncheck("01-cg", answer)'),
             nbformat.v4.new_markdown_cell("## References\n\n---\n\n## Solutions"), nbformat.v4.new_code_cell('check("01-cg", 6)')]
    for index, cell in enumerate(cells):
        cell.id = f"cell-{index}"
    return cells


def test_the_cells_of_a_lesson_without_questions_are_added_after_its_exercises_and_solutions():
    cells = lesson_questions.questions(small_lesson(), "01-relevance-and-cg", "en")
    assert [cell.id for cell in cells] == [
        "cell-0", "cell-1", "question-01-why-order", "answer-01-why-order", "question-01-what-cg-says",
        "answer-01-what-cg-says", "cell-2", "cell-3", "solution-01-why-order", "solution-01-what-cg-says",
    ]
    assert cells[2].source.splitlines()[1] == "### Questions to think about"
    assert "### " not in cells[4].source and cells[4].source.splitlines()[1].startswith("**Question 2.** ")
    assert cells[8].source.endswith('check("01-why-order", "A")')


def test_a_hand_edited_question_cell_is_rewritten_and_a_removed_questions_cells_go():
    cells = lesson_questions.questions(small_lesson(), "01-relevance-and-cg", "zh-CN")
    cells[2].source = "edited by hand"
    stale = [nbformat.v4.new_markdown_cell("old"), nbformat.v4.new_code_cell('answer = ...\ncheck("01-old", answer)')]
    stale[0].id, stale[1].id = "question-01-old", "answer-01-old"
    again = lesson_questions.questions(cells[:4] + stale + cells[4:], "01-relevance-and-cg", "zh-CN")
    assert [cell.id for cell in again] == [cell.id for cell in cells]
    assert again[2].source == lesson_questions.sources("01-why-order", 1, "zh-CN")["question"]
    assert "### 思考题" in again[2].source and "**思考题 2**：" in again[4].source


def test_a_question_cell_without_its_answer_cell_is_an_error():
    cells = lesson_questions.questions(small_lesson(), "01-relevance-and-cg", "en")
    del cells[3]
    with pytest.raises(ValueError, match="has only one of its cells question-01-why-order and answer-01-why-order"):
        lesson_questions.questions(cells, "01-relevance-and-cg", "en")


def test_the_leak_check_knows_how_an_option_is_named_and_what_is_not_a_name():
    for text in ["the right one is (B)", "choose option B", "answer 'B' instead", "**B.** is it", "选项 B 才对", "是（B）"]:
        assert re.search(naming("B"), text), text
    for text in ["system B wins narrowly", "Run B covers all three", "B is better, since its mean is higher."]:
        assert not re.search(naming("B"), text), text

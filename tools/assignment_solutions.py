"""Model solutions of the graded assignments, and the other numbers their hidden tests use.

``tools/assignments.py`` turns every exercise of the lessons into a function
the student writes: the visible test runs it on the lesson's numbers and shows
the library's verdict (``ndcg_teach.exercises.check``, with its hints); the
hidden tests run it on the other inputs listed here, so a number copied from a
lesson's worked solution does not pass.

Each function of ``solutions_lessons_00_15.py``, ``solutions_lessons_16_19.py``, ``solutions_lesson_20.py`` and
``solutions_lesson_21.py``
(registered in ``solution_registry.SOLUTIONS`` when this module imports them)
is the model solution of one exercise.  Its name is the name the student fills in, its parameters are the exercise's inputs (the keys
of ``ndcg_teach.exercises.inputs(key)``, in that order), and it works for any
inputs of that kind.  The hidden tests judge its answers with the exercise's
own judge, given the other inputs, so the expected values still come from the
library.  Each set of other inputs is chosen so that the lesson's answer is
wrong for it (tests/test_assignments.py checks that, and that every judge can
still give a hint there).

The solutions use only the names that the lessons' first cells import (``nt``,
``np``, ``math``, ``itertools``, the significance tests); the assignment's
setup cell imports the same.
"""

from solution_registry import LAWS, SOLUTIONS, Solution, solves

import solutions_lessons_00_15  # noqa: F401  (importing a lesson module registers its solutions)
import solutions_lessons_16_19  # noqa: F401
import solutions_lesson_20  # noqa: F401
import solutions_lesson_21  # noqa: F401

__all__ = ["LAWS", "SOLUTIONS", "Solution", "solves"]

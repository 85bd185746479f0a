"""How the odd lines of a qrels, run or ``-Z`` file are read: ndcg_teach's rules, or trec_eval's, which the command
follows (blank lines, ``#`` lines, a column with no number; docs/trec_eval.md has the table).

>>> trec_reading("qrels", "10.0").comments, trec_reading("run", strict=True).numbers
('first-column', 'refuse')
"""

from dataclasses import dataclass, field


@dataclass
class Reading:
    """How a file's odd lines are read: ndcg_teach's rules (the default) or trec_eval's, which the command follows.

    ``blank``: "skip" a blank line, or call it "malformed" (trec_eval's qrels and ``-Z`` files). ``comments``: a line
    whose first token starts with ``#`` is skipped ("skip": ndcg_teach, trec_eval 10.0's runs), is data ("data":
    trec_eval 9.0.8), is skipped only with ``#`` in its first column and then makes the next line data
    ("first-column": trec_eval 10.0's qrels), or is refused ("refuse": ``--strict``). ``numbers``: a column with no
    number is refused ("refuse") or read as C reads it, 0 ("c"), with a line in ``notes`` saying so.
    """

    blank: str = "skip"
    comments: str = "skip"
    numbers: str = "refuse"
    notes: list = field(default_factory=list)
    after_comment: bool = field(default=False, repr=False)  # "first-column": the last line read was a skipped '#'

    def note(self, message):
        self.notes.append(message)


def trec_reading(kind, version="9.0.8", strict=False):
    """How trec_eval ``version`` reads a ``kind`` of file ("qrels", "run" or "zscores"); ``strict`` refuses what it
    would misread (comments, columns without a number) instead.

    >>> trec_reading("qrels"), trec_reading("run", "10.0", strict=True).comments
    (Reading(blank='malformed', comments='data', numbers='c', notes=[]), 'refuse')
    """
    comments = "refuse" if strict else "first-column" if (kind, version) == ("qrels", "10.0") else \
        "skip" if (kind, version) == ("run", "10.0") else "data"
    return Reading("skip" if kind == "run" else "malformed", comments, "refuse" if strict else "c")


NDCG_TEACH = Reading()

"""Evaluating generated answers (lesson 21): nugget scores, citation support, faithfulness and LLM judges of answers.

- :mod:`.nuggets`: the six nugget scores of an answer and of a run, as the TREC 2024 RAG track computed them;
- :mod:`.facts`: statements and passages as sets of facts, the course's stand-in for an entailment model;
- :mod:`.citations`: ALCE's citation recall and precision;
- :mod:`.faithfulness`: the share of statements the retrieved context supports;
- :mod:`.judges`: a simulated LLM judge of nugget support, against the assessors' labels;
- :mod:`.collection`: the lesson's made-up collection (queries, nuggets, passages, four systems' answers).

It may import the package's shared helpers (i18n, checks, validation, explained, table) and the agreement,
stability and simulated-judge modules of lesson 15; nothing but ``ndcg_teach``'s lazy names imports it.
"""

from .citations import CitationSupport, citation_support
from .collection import AnswerCollection, Statement, answer_collection
from .faithfulness import Faithfulness, faithfulness
from .judges import SUPPORT_GRADES, NuggetJudgeEffect, judge_assignments, nugget_judge_effect
from .nuggets import IMPORTANCE, SCORES, SUPPORT, NuggetEvaluation, NuggetScores, nugget_evaluation, nugget_scores

__all__ = [
    "AnswerCollection", "CitationSupport", "Faithfulness", "IMPORTANCE", "NuggetEvaluation", "NuggetJudgeEffect",
    "NuggetScores", "SCORES", "SUPPORT", "SUPPORT_GRADES", "Statement", "answer_collection", "citation_support",
    "faithfulness", "judge_assignments", "nugget_evaluation", "nugget_judge_effect", "nugget_scores",
]

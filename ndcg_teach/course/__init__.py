"""The course's material: what the lessons study besides the library itself.

- ``examples/``: the five source documents, their worked examples as data, an audit of every number they print
  (lesson 07), and their notation mapped to the course's;
- ``glossary`` and ``glossary_terms``: the course's terms in English and Chinese, and the names the documents print;
- ``simulated_judges``: a judge with a known error model, and what its errors do to system rankings (lesson 15);
- ``sampled_metrics``: metrics on sampled negatives, and Krichene and Rendle's corrections (lesson 14);
- ``rag_data``: small BEIR-style collections made by code, and macro against micro means (lesson 17);
- ``answers/``: evaluating generated answers, nugget scores, citation support, faithfulness and simulated LLM judges,
  on a made-up collection (lesson 21).

The collection that :func:`~ndcg_teach.example_files` names, real TREC judgements, is in ``runs/data/``.

May import: ``runs``, ``statistics``, ``core``, ``i18n``.
"""

from .answers import (answer_collection, citation_support, faithfulness, judge_assignments, nugget_evaluation,
                      nugget_judge_effect, nugget_scores)
from .rag_data import macro_micro, rag_collection, rag_collections
from .sampled_metrics import corrected_metric, sampled_metric_estimates
from .simulated_judges import SimulatedJudge, judge_effect

__all__ = [
    "SimulatedJudge", "answer_collection", "citation_support", "corrected_metric", "faithfulness",
    "judge_assignments", "judge_effect", "macro_micro", "nugget_evaluation", "nugget_judge_effect", "nugget_scores",
    "rag_collection", "rag_collections", "sampled_metric_estimates",
]

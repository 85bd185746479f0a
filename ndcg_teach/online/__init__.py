"""Online evaluation, and its offline twin: what users' clicks say about a ranker. Lessons 18 and 19.

- ``click_models``: how users click on a ranking, the cascade and the position-based models, exact and simulated;
- ``interleaving``: two rankers' results mixed in one list, team draft and balanced, and who wins the clicks;
- ``counterfactual``: a new policy's value from data an old one logged (IPS, SNIPS, direct method, doubly robust);
- ``counterfactual_rankings``: the same for whole rankings, under the position-based model;
- ``bandit_problem``: a small logging world with a known truth, and each estimator's exact bias and variance.

May import: ``core``, ``i18n``.
"""

from .bandit_problem import BanditProblem, EstimatorMoments
from .click_models import CascadeModel, ClickProbabilities, PositionBasedModel, SimulatedClicks, hoeffding_bound
from .counterfactual import Log, OffPolicyEstimate, direct_method, doubly_robust, ips, snips
from .counterfactual_rankings import RankingEstimate, RankingMoments, position_based_exact, position_based_ips
from .interleaving import (Interleaved, InterleavingOutcome, SimulatedInterleaving, balanced, interleaving_outcomes,
                           simulate_interleaving, team_draft)

__all__ = [
    "BanditProblem", "CascadeModel", "ClickProbabilities", "EstimatorMoments", "Interleaved", "InterleavingOutcome",
    "Log", "OffPolicyEstimate", "PositionBasedModel", "RankingEstimate", "RankingMoments", "SimulatedClicks",
    "SimulatedInterleaving", "balanced", "direct_method", "doubly_robust", "hoeffding_bound", "interleaving_outcomes",
    "ips", "position_based_exact", "position_based_ips", "simulate_interleaving", "snips", "team_draft",
]

"""Where the tests find the source documents: ``NDCG_TEACH_SEEDS``, else ``shared/seeds`` beside the clone."""

import os
from pathlib import Path

import pytest

SEEDS = Path(os.environ.get("NDCG_TEACH_SEEDS", Path(__file__).resolve().parents[2] / "shared" / "seeds"))
needs_seeds = pytest.mark.skipif(
    not SEEDS.is_dir(), reason=f"the source documents are not at {SEEDS} (set NDCG_TEACH_SEEDS to their folder)")

"""A seeded differential test: random qrels / run / -Z files and command lines through the real trec_eval (9.0.8 and
10.0-rc3) and through ``python -m ndcg_teach``, comparing the exit status and standard output byte for byte.

500 cases per version, in chunks of 50 (one test each, so a failure names its chunk and case); the cases are drawn
by tests/trec_cases.py (realistic runs with P@k / ndcg_cut / map means, hostile ids and every option, gain maps, messy
files). Each case asks for many measures at once. trec_eval must not crash on any of them (the generator leaves
out what it crashes on). Skipped, saying why, where no trec_eval binary is found (tests/trec_binaries.py).
"""

import random

import pytest

from trec_binaries import needs, run_binary, run_command
from trec_cases import case

CASES, CHUNK = 500, 50


def _differences(version, chunk, folder):
    rng = random.Random(f"trec_eval differential {version} {chunk}")
    found = []
    for index in range(CHUNK):
        kind, arguments = case(rng, version, folder)
        theirs = run_binary(version, arguments)
        assert theirs[0] >= 0, f"trec_eval {version} crashed (signal {-theirs[0]}) on case {index} ({kind}): {arguments}"
        ours = run_command(version, arguments)
        if ours[:2] != theirs[:2]:
            lines = [(a, b) for a, b in zip(ours[1].splitlines(), theirs[1].splitlines()) if a != b]
            found.append(f"case {index} ({kind}) {[str(a) for a in arguments]}: status {ours[0]} vs {theirs[0]}, "
                         f"first different lines {lines[:2]}, ours said {ours[2][:300]!r}")
    return found


@pytest.mark.parametrize("chunk", range(CASES // CHUNK))
@pytest.mark.parametrize("version", ["9.0.8", pytest.param("10.0", marks=needs("10.0"))])
@needs("9.0.8")
def test_random_files_print_what_trec_eval_prints(tmp_path, version, chunk):
    assert _differences(version, chunk, tmp_path) == []

"""trec_eval's own `make quicktest`, qrels invocations: python -m ndcg_teach prints its expected outputs byte for byte.

tests/data/trec_eval holds the expected outputs of trec_eval 9.0.8 (and, in main/, of its unreleased 10.0, which
`--trec-eval 10.0` follows). Each invocation runs twice: restricted to the measures ndcg_teach computes (their lines
must be trec_eval's, in trec_eval's order, byte for byte), and as trec_eval runs it, whole output against whole file.
A test checks that every measure these invocations name is computed (none is left out of the first).
"""

import io
from pathlib import Path

import pytest

from ndcg_teach.runs.cli import main
from ndcg_teach.runs.measures import parse_measures

DATA = Path(__file__).parent / "data" / "trec_eval"
MEAS_PARAMS = ["-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000", "-m",
               "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5",
               "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20"]
# (expected output, trec_eval's arguments), from trec_eval's Makefile at v9.0.8 and at main (qrels invocations only)
QUICKTEST = [
    ("out.test", ["qrels.test", "results.test"]),
    ("out.test.a", ["-m", "all_trec", "qrels.test", "results.test"]),
    ("out.test.aq", ["-m", "all_trec", "-q", "qrels.test", "results.test"]),
    ("out.test.aqc", ["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"]),
    ("out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100", "qrels.test", "results.trunc"]),
    ("out.test.aql", ["-m", "all_trec", "-mrelstring.20", "-q", "-l2", "qrels.rel_level", "results.test"]),
    ("out.test.meas_params", ["-q", *MEAS_PARAMS, "qrels.test", "results.test"]),
    ("out.test.aqZ", ["-q", "-m", "all_trec", "-Z", "zscores_file", "qrels.test", "results.test"]),
]
MAIN = [(f"main/{expected}", [("main/zscores_file" if arg == "zscores_file" else arg) for arg in args])
        for expected, args in QUICKTEST]
MAIN.append(("main/out.test", ["main/qrels.test.with-comments", "results.test"]))
CASES = [("9.0.8", *case) for case in QUICKTEST] + [("10.0", *case) for case in MAIN]



def run(version, args):
    out, err = io.StringIO(), io.StringIO()
    arguments = [str(DATA / arg) if (DATA / arg).is_file() else arg for arg in args]
    status = main(["--trec-eval", version, *arguments], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def split(args):
    """``(measure names, other arguments)`` of a trec_eval command line."""
    names, rest, index = [], [], 0
    while index < len(args):
        if args[index] == "-m":
            names.append(args[index + 1])
            index += 2
        elif args[index].startswith("-m"):
            names.append(args[index][2:])
            index += 1
        else:
            rest.append(args[index])
            index += 1
    return names or ["official"], rest


def is_computed(measure):
    return measure.spec is not None or measure.family in ("runid", "num_q", "relstring")


def computed(version, args):
    """The command line with only the measures ndcg_teach computes (each family's parameters kept)."""
    names, rest = split(args)
    given = {name.partition(".")[0]: name for name in names if "." in name}
    families = {}
    for measure in parse_measures(names, trec_eval=version, merge=False):
        if is_computed(measure):
            families.setdefault(measure.family, []).append(measure)
    arguments = []
    for family, columns in families.items():
        cutoffs = [str(column.k) for column in columns if column.k is not None]
        if cutoffs:
            arguments.append(f"-m{family}.{','.join(cutoffs)}")
        else:  # no parameters, or parameters that are not cut-offs: as given
            arguments.append(f"-m{given.get(family, family)}")
    return arguments + rest


def missing(version, args):
    """The trec_eval measures of a command line that no registered metric computes (a name's parameters included
    when only those are not computed)."""
    found = set()
    for measure in parse_measures(split(args)[0], trec_eval=version, merge=False):
        if not is_computed(measure):
            plain = parse_measures(measure.family, trec_eval=version)[0]
            found.add(measure.family if not is_computed(plain) else measure.name)
    return found


def shown_names(text):
    return {line.split("\t")[0].strip().removeprefix("Z") for line in text.splitlines()}


@pytest.mark.parametrize(("version", "expected", "args"), CASES, ids=[f"{v}-{e}" for v, e, _ in CASES])
def test_the_lines_of_the_measures_ndcg_teach_computes_are_trec_evals_byte_for_byte(version, expected, args):
    status, out, err = run(version, computed(version, args))
    assert status == 0, err
    assert out, "no line printed"
    names = shown_names(out)
    wanted = [line for line in (DATA / expected).read_text().splitlines()
              if line.split("\t")[0].strip().removeprefix("Z") in names]
    assert out.splitlines() == wanted


@pytest.mark.parametrize(("version", "expected", "args"), CASES, ids=[f"{v}-{e}" for v, e, _ in CASES])
def test_whole_output_byte_for_byte(version, expected, args):
    status, out, err = run(version, args)
    assert (status, out) == (0, (DATA / expected).read_text()), err


def test_every_measure_of_the_quicktest_invocations_is_computed():
    assert set().union(*(missing(version, args) for version, _, args in CASES)) == set()
    assert missing("9.0.8", ["-m", "set_F.0.5"]) == {"set_F_0.5"}  # the check can fail: set_F's other parameters

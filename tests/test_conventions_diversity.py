"""The conventions of the diversity metrics: ndeval's α-nDCG, ERR-IA and nERR-IA, read from a query's subtopic table.

ndeval (the TREC Web track's tool, whose C source pyndeval wraps and ir_measures
calls) is the peer: its rows are checked against pyndeval on random
collections, through the convention's own query and call. The rows also say
why ndeval's numbers differ from ndcg_teach's defaults; the tests check that
the call each row writes gives its number, and that the settings it lists are
exactly what separates it from the defaults.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_teach as nt
from ndcg_teach.core.conventions import CONVENTIONS, CONVENTIONS_BY_NAME, compare, facts, peers
from ndcg_teach.core.conventions.convention import reads_subtopics

TOL = 1e-12
NDEVAL = {"ndeval alpha-nDCG": "alpha-nDCG", "ndeval ERR-IA": "ERR-IA", "ndeval nERR-IA": "nERR-IA"}
# Two subtopics; the list repeats the first, and a judged item it missed covers both.
RANKED, POOL = [[1, 0], [1, 0], [0, 0]], [[1, 0], [1, 0], [1, 1], [0, 0]]


def pyndeval_values(qrels, ranked, measures):
    pyndeval = pytest.importorskip("pyndeval", reason="pyndeval (ndeval's C source) has wheels for Linux x86-64 only")
    run = [("1", docno, float(len(ranked) - rank)) for rank, docno in enumerate(ranked)]
    return pyndeval.RelevanceEvaluator(qrels, measures).evaluate(run)["1"]


def tables(qrels, ranked):
    """The ranked items' rows and the pool (every judged item, by docno descending: ndeval's tie rule) of ``qrels``."""
    subtopics = sorted({subtopic for subtopic, _, _ in qrels}, key=int)
    grades = {}
    for subtopic, docno, grade in qrels:
        grades.setdefault(docno, [0] * len(subtopics))[subtopics.index(subtopic)] = grade
    ranked_rows = [grades.get(docno, [0] * len(subtopics)) for docno in ranked]
    return ranked_rows, [grades[docno] for docno in sorted(grades, reverse=True)]


@st.composite
def collections(draw):
    docs = [f"d{i}" for i in range(draw(st.integers(1, 9)))]
    qrels = []
    for subtopic in range(1, draw(st.integers(1, 4)) + 1):
        for docno in draw(st.lists(st.sampled_from(docs), unique=True, max_size=len(docs))):
            qrels.append((str(subtopic), docno, draw(st.integers(0, 2))))
    ranked = draw(st.permutations(docs + ["unjudged"]))
    return qrels, list(ranked)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(collection=collections(), k=st.integers(1, 20))
def test_the_ndeval_rows_give_ndevals_numbers(collection, k):
    qrels, ranked = collection
    if not qrels:
        return
    ranked_rows, pool = tables(qrels, ranked)
    expected = pyndeval_values([("1", *judgement) for judgement in qrels], ranked,
                               [f"{measure}@{k}" for measure in NDEVAL.values()])
    query = nt.Query.of_subtopics(ranked_rows, subtopic_pool=pool)
    for name, measure in NDEVAL.items():
        convention = CONVENTIONS_BY_NAME[name]
        if convention.refuses(ranked_rows, pool, k=k):
            assert (name, k) == ("ndeval ERR-IA", 1)  # printed undivided by ndeval: see the next test
            continue
        assert convention.value(ranked_rows, pool, k) == pytest.approx(expected[f"{measure}@{k}"], abs=TOL), name
        assert convention.value(query, k=k) == convention.value(ranked_rows, pool, k)  # the metric's context, the same


def test_ndevals_err_ia_at_1_is_undivided_and_the_row_says_so():
    # One item relevant to 2 of 3 subtopics at the top: ndeval prints 2 (2 intents stop-counted, not divided by 3).
    qrels = [("1", "1", "a", 1), ("1", "2", "a", 1), ("1", "3", "b", 1)]
    assert pyndeval_values(qrels, ["a", "b"], ["ERR-IA@1"])["ERR-IA@1"] == 2.0
    convention = CONVENTIONS_BY_NAME["ndeval ERR-IA"]
    assert "ERR-IA@1 is printed undivided" in convention.note and convention.depths == (2, 20)
    ranked_rows, pool = [[1, 1, 0], [0, 0, 1]], [[1, 1, 0], [0, 0, 1]]
    assert convention.refuses(ranked_rows, pool, k=1) == "computes this measure at cut-offs k = 2 to 20 only"
    with pytest.raises(ValueError, match=r"ndeval ERR-IA computes this measure at cut-offs k = 2 to 20 only\. "
                                         r"Got judgements=\[\[1, 1, 0\], \[0, 0, 1\]\], k=1 instead\."):
        convention.value(ranked_rows, pool, k=1)
    # ndeval computes to depth 20 at most (pyndeval refuses deeper cut-offs), and always with a cut-off.
    for name in NDEVAL:
        assert CONVENTIONS_BY_NAME[name].refuses(ranked_rows, pool, k=21)
        assert CONVENTIONS_BY_NAME[name].refuses(ranked_rows, pool, k=None)


@pytest.mark.parametrize("name", list(NDEVAL))
def test_the_call_each_row_writes_gives_its_number(name):
    convention = CONVENTIONS_BY_NAME[name]
    text = convention.call(RANKED, POOL, 3)
    assert text.startswith(f"{convention.spec.function.__name__}(judgements, k=3") and "subtopic_pool=subtopic_pool" in text
    assert eval(text, {**vars(nt), "judgements": RANKED, "subtopic_pool": POOL}) == convention.value(RANKED, POOL, 3)  # noqa: S307


def test_the_settings_a_row_lists_are_what_separates_ndeval_from_the_defaults():
    # ndcg_teach's err_ia is Chapelle et al.'s: graded stop chances, undivided. ndeval reads judgements as binary and
    # divides (by the most any list scores, or by the greedy ideal's): exactly the row's params.
    ranked = [[2, 0], [2, 0], [0, 1]]
    pool = [*ranked, [1, 1]]
    facts_table = facts("err_ia")
    others = facts_table.headers.index("other conventions")
    assert facts_table["ndeval ERR-IA"][others] == "graded=False, normalise='max'"
    assert facts_table["ndeval nERR-IA"][others] == "graded=False, normalise='ideal'"
    for name in ("ndeval ERR-IA", "ndeval nERR-IA"):
        convention = CONVENTIONS_BY_NAME[name]
        ours = nt.err_ia(ranked, 3, subtopic_pool=pool)
        theirs = convention.value(ranked, pool, 3)
        assert theirs != ours
        assert theirs == nt.err_ia(ranked, 3, subtopic_pool=pool, **convention.params)
        for setting in convention.params:  # each setting matters: leaving one out changes the number
            rest = {key: value for key, value in convention.params.items() if key != setting}
            assert nt.err_ia(ranked, 3, subtopic_pool=pool, **rest) != theirs, setting
    # α-nDCG's defaults are ndeval's (alpha 0.5, binary): its row lists them and its call needs none of them.
    alpha = CONVENTIONS_BY_NAME["ndeval alpha-nDCG"]
    assert alpha.params == {"alpha": 0.5, "graded": False} and alpha.call(RANKED, POOL, 3).count("=") == 2
    assert facts("alpha_ndcg")["ndeval alpha-nDCG"][facts_table.headers.index("ideal / R from")] == "every judged item"


def test_a_row_that_ignores_the_pool_would_give_another_number():
    # uses_pool: ndeval builds its ideal and counts its intents from every judged item, retrieved or not.
    convention = CONVENTIONS_BY_NAME["ndeval alpha-nDCG"]
    assert convention.uses_pool and convention.facts(RANKED, POOL)["subtopic_pool"] == POOL
    assert convention.value(RANKED, POOL, 3) == nt.alpha_ndcg(RANKED, 3, subtopic_pool=POOL) < nt.alpha_ndcg(RANKED, 3)


def test_compare_takes_a_table_or_a_query_and_shows_the_conventions_that_can_read_it():
    table = compare(RANKED, 3, pool=POOL)
    assert [row[0] for row in table.rows] == list(NDEVAL)
    assert str(table).splitlines()[0] == ("subtopic judgements [[1, 0], [1, 0], [0, 0]], subtopic pool "
                                          "[[1, 0], [1, 0], [1, 1], [0, 0]], k = 3")
    for name, _, value, call, refusal in table.rows:
        assert refusal == "" and value == CONVENTIONS_BY_NAME[name].value(RANKED, POOL, 3)
    # A Query with subtopics feeds every convention: the others read each item's largest grade, as evaluate does.
    query = nt.Query.of_subtopics(RANKED, subtopic_pool=POOL)
    everything = compare(query, 3)
    assert [row[0] for row in everything.rows] == [c.name for c in CONVENTIONS]
    assert everything["ndeval nERR-IA"] == table["ndeval nERR-IA"]
    assert everything["trec_eval P"] == compare([1, 1, 0], 3)["trec_eval P"]
    assert compare(RANKED, 1, pool=POOL, metric="err_ia").rows[0][4] == "computes this measure at cut-offs k = 2 to 20 only"


def test_a_convention_refuses_a_context_it_cannot_read():
    alpha = CONVENTIONS_BY_NAME["ndeval alpha-nDCG"]
    with pytest.raises(ValueError, match=r"ndeval alpha-nDCG reads each ranked item's grade per subtopic: build the Query "
                                         r"with Query\.of_subtopics\(judgements, subtopic_pool=\.\.\.\)\. Got <Query of 2"):
        alpha.value(nt.Query.of([1, 0]), k=2)
    with pytest.raises(TypeError, match=r"pool must be None when relevances is a Query .* Got pool=\[\[1, 0\]\] instead\."):
        alpha.value(nt.Query.of_subtopics([[1, 0]]), [[1, 0]], 2)
    with pytest.raises(ValueError, match=r"trec_eval P counts R and N .* Got a Query that knows n_relevant instead\."):
        CONVENTIONS_BY_NAME["trec_eval P"].value(nt.Query.of([1, 0], n_relevant=3), k=2)
    with pytest.raises(ValueError, match=r"Got a Query that knows threshold 2 instead\."):
        CONVENTIONS_BY_NAME["trec_eval P"].value(nt.Query.of([1, 0], threshold=2), k=2)
    with pytest.raises(ValueError, match=r"scores one query at a time\. Got <Query of 2 queries"):
        alpha.value(nt.Query.from_lists([[1], [0]]), k=2)
    with pytest.raises(ValueError, match=r"metric 'alpha_ndcg' reads a table of grades per subtopic .* Got relevances=\[1, 0\]"):
        compare([1, 0], 2, metric="alpha_ndcg")
    with pytest.raises(ValueError, match=r"metric 'ndcg' reads a list of grades, one per ranked item, or a Query\."):
        compare([[1, 0]], 2, metric="ndcg")
    with pytest.raises(ValueError, match=r"ndeval alpha-nDCG refuses negative grades\. Got judgements=\[\[1, -1\]\], k=2"):
        alpha.value([[1, -1]], k=2)
    with pytest.raises(ValueError, match=r"takes whole-number grades only"):
        alpha.value([[1, 0.5]], k=2)
    with pytest.raises(ValueError, match=r"judgements must be a table of numbers with the same number of subtopics"):
        compare([[1, 0], [1]], 2)


# The reader: params and depths ------------------------------------------------------------------

ROW = {"library": "lib", "function": "f", "metric": "err_ia", "source": "lib/f.c", "params": {"normalise": "max"}}


def test_a_row_with_params_and_depths_reads_and_passes_them_on():
    (row,) = peers.read({"conventions": [{**ROW, "depths": [2, 10]}]})
    assert row.params == {"normalise": "max"} and row.depths == (2, 10)
    assert row.settings() == {"max_grade": None, "normalise": "max"}
    assert row.value([[1, 0]], k=2) == nt.err_ia([[1, 0]], 2, normalise="max")
    assert all(reads_subtopics(c.spec) == (c.library == "ndeval") for c in CONVENTIONS)


@pytest.mark.parametrize(("row", "message"), [
    ({**ROW, "params": {"normalize": "max"}}, r"row 1 \(lib f\): field 'params' may name err_ia's conventions that have "
                                               r"no field of their own \(weights, graded, normalise\)\. Got normalize='max'"),
    ({**ROW, "params": {"max_grade": 4}}, r"field 'params' may name .* Got max_grade=4 instead\."),
    ({**ROW, "params": {"normalise": "best"}}, r"params 'normalise' must be 'none', 'max', 'ideal'\. Got 'best' instead\."),
    ({**ROW, "params": {"graded": 0}}, r"params 'graded' must be False, True\. Got 0 instead\."),
    ({**ROW, "params": ["normalise", "max"]}, r"field 'params' must be an object of err_ia's conventions\."),
    ({**ROW, "metric": "alpha_ndcg", "params": {"alpha": "half"}}, r"params 'alpha' must be a value of how much a subtopic"),
    ({**ROW, "metric": "alpha_ndcg", "params": {"alpha": 2}}, r"row 1 \(lib f\): alpha_ndcg refuses this row's settings "),
    ({**ROW, "depths": [0, 20]}, r"field 'depths' must be \[smallest, largest\] cut-off, whole numbers with 1 <= smallest "
                                  r"<= largest\. Got \[0, 20\] instead\."),
    ({**ROW, "depths": [5, 2]}, r"field 'depths' must be .* Got \[5, 2\] instead\."),
    ({**ROW, "depths": 20}, r"field 'depths' must be .* Got 20 instead\."),
    ({**ROW, "depths": [1.5, 3]}, r"field 'depths' must be .* Got \[1\.5, 3\] instead\."),
])
def test_a_row_with_bad_params_or_depths_is_refused_naming_the_row_and_the_field(row, message):
    with pytest.raises(peers.ConventionError, match=message):
        peers.read({"conventions": [row]})


def test_the_ndeval_rows_are_in_the_shipped_table_with_their_sources():
    rows = [c for c in CONVENTIONS if c.library == "ndeval"]
    assert [c.name for c in rows] == list(NDEVAL)
    for convention in rows:
        assert "ndeval.c version 4.5" in convention.source and convention.uses_pool and convention.integer_grades
        assert convention.negative == "raise" and "pyndeval" in convention.source
    table = facts()
    assert table.rows[-1][table.headers.index("other conventions")] == "graded=False, normalise='ideal'"

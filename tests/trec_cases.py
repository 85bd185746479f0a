"""Random trec_eval command lines and the files they read, for the differential test against the real trec_eval.

``case(rng, version, folder)`` writes a qrels file, a run file and maybe a ``-Z`` file into ``folder`` and returns
the arguments of one trec_eval call: many measures at once, random options. The kinds of case:

* ``realistic``: 10 to 50 queries, 20 to 60 judged documents and 10 to 100 retrieved ones each, graded (0-3) or
  binary grades, scores rounded so that many tie, or pairs equal only as 32-bit floats; P@k, ndcg_cut, map means.
* ``hostile``: a few queries with ids that are long, unicode or not UTF-8, grades -2 to 4, every trec_eval measure
  (``all_trec``) and every option.
* ``gains``: gain maps (``ndcg.0=1``, a level named twice, gains less than 1 apart, levels -1 and -2, negative gains)
  for ndcg, G, ndcg_rel, Rndcg, and under 10.0 rbp with them, ndcg_cut and set_F (whose locals rbp reads).
* ``messy``: blank lines, ``#`` lines, CRLF line ends, tabs, scores and grades that are no number, a ``-Z`` file.

What is left out on purpose is what docs/trec_eval.md names as a remaining difference or a crash of trec_eval (each
with a reproducer): a query judged only with negative grades (trec_eval crashes), a query id above every one of a
``-Z`` file (trec_eval reads past its table),
``-l 0`` and ``-M 0`` (refused), NaN scores (refused), a duplicate document within the ``-M`` cut under ``-q`` (trec_eval
prints the lines before it), two of trec_eval 10.0's dcg / ideal_dcg / ndcg with gain maps (10.0-rc3 crashes), and a
``#`` line at the end of a 10.0 qrels file (10.0-rc3 reads past its buffer there).
"""

import struct

DOCS = [f"d{n}" for n in range(150)]
ODD_IDS = ["q\xff", "q\xfe", "é4", "Q-3", "x" * 300, "q10", "q9", "q1", "q#", "q\x01"]  # \xff / \xfe: written as bytes
SCORES = ["0.5", "0.25", "0.812345674", "0.812345671", "1", "3", "-2", "1e-3", "0.1", "0.7", "1.5e2", "0x1p-1",
          "0.9abc", "+4", ".5", "inf", "-inf"]
GAINS = ["-2", "-0.5", "0", "0.3", "0.5", "0.9", "1", "1.2", "2", "3.5", "9", "1e3"]
LEVELS = ["-2", "-1", "0", "1", "2", "3", "4", "x", "1.5"]
REALISTIC = ["P.5,10,20", "ndcg_cut.5,10,20", "map", "recip_rank", "recall.10", "map_cut.10", "Rprec", "bpref",
             "num_rel_ret", "gm_map", "success.1,5"]
OPTIONS = (["-q"], ["-c"], ["-n"], ["-J"], ["-M", "{M}"], ["-l", "{l}"], ["-N", "{N}"], ["-R", "qrels"],
           ["-T", "trec_results"])


def _f32_twin(value):
    """A decimal number other than ``value`` that is the same 32-bit float (a 32-bit score tie)."""
    single = struct.unpack("f", struct.pack("f", value))[0]
    return repr(single) if repr(single) != repr(value) else f"{value:.9f}"


def _write(path, lines, rng, crlf=False):
    text = "".join(f"{line}\r\n" if crlf else f"{line}\n" for line in lines)
    if lines and rng.random() < 0.1:
        text = text.rstrip("\n")  # no newline after the last line
    path.write_bytes(text.encode("utf-8", "surrogateescape").replace(b"\xc3\xbf", b"\xff").replace(b"\xc3\xbe", b"\xfe"))


def _qids(rng, n, odd):
    pool = ODD_IDS + [f"q{k}" for k in range(60)] if odd else [f"{k}" for k in range(300, 400)]
    return sorted(set(rng.sample(pool, min(n, len(pool)))))


def _options(rng, version, values, chance):
    chosen = []
    for option in OPTIONS:
        if rng.random() < chance:
            chosen += [part.format(**values) for part in option]
    if version == "10.0" and "-c" not in chosen and rng.random() < 0.7:
        chosen.append("-c")  # without -c, 10.0-rc3 stops at a judged query the run lacks: tested, but less often
    return chosen


def _files(rng, folder, qids, judged_range, grade_range, retrieved_range, score_kind, extra_run_queries=0):
    qrels, run = [], []
    for qid in qids:  # every query gets one grade of 0 or more: trec_eval crashes on a query judged only negative
        pool = rng.sample(DOCS, rng.randint(*judged_range))
        grades = [max(rng.randint(*grade_range), 0 if index == 0 else -9) for index in range(len(pool))]
        qrels += [f"{qid} 0 {doc} {grade}" for doc, grade in zip(pool, grades)]
    answered = [qid for qid in qids if rng.random() < 0.85] or qids[:1]
    answered += [f"z{k}" for k in range(extra_run_queries)]
    for qid in answered:
        docs = rng.sample(DOCS, rng.randint(*retrieved_range))
        for rank, doc in enumerate(docs):
            if score_kind == "rounded":
                score = f"{round(rng.random(), rng.choice([1, 2]))}"
            elif score_kind == "ranked":
                score = f"{1 - rank / 1000:.6f}" if rng.random() < 0.8 else _f32_twin(1 - rank / 1000)
            else:
                score = rng.choice(SCORES)
            run.append(f"{qid} Q0 {doc} {rank} {score} tag")
    rng.shuffle(qrels)
    rng.shuffle(run)
    return qrels, run


def realistic(rng, version, folder):
    qids = _qids(rng, rng.randint(10, 50), odd=False)
    graded = rng.random() < 0.6
    qrels, run = _files(rng, folder, qids, (20, 60), (0, 3) if graded else (0, 1), (10, 100),
                        rng.choice(["rounded", "ranked"]))
    _write(folder / "qrels", qrels, rng)
    _write(folder / "run", run, rng)
    measures = rng.sample(REALISTIC, rng.randint(3, len(REALISTIC)))
    values = {"M": rng.choice([5, 10, 50]), "l": rng.choice([1, 2]), "N": 1000}
    return _options(rng, version, values, 0.25) + [a for m in measures for a in ("-m", m)] + \
        [folder / "qrels", folder / "run"]


def hostile(rng, version, folder):
    qids = _qids(rng, rng.randint(1, 8), odd=True)
    qrels, run = _files(rng, folder, qids, (1, 25), (-2, 4), (1, 30), "listed", extra_run_queries=rng.randint(0, 2))
    _write(folder / "qrels", qrels, rng)
    _write(folder / "run", run, rng)
    measures = ["all_trec", "P.1,2,3", "ndcg_cut.1,3", "iprec_at_recall.0.15,0.5", "11pt_avg.0.25,0.5",
                "Rprec_mult.0.5,3", "utility.2,-1,-0.5,0.25", "relstring.5", "success.2", "relative_P.2"]
    if version == "10.0":
        measures += ["unj.3,7", "rbp", "rbp_resid.p=0.8", "rbp.p=0.7,2=5"]
    values = {"M": rng.randint(1, 12), "l": rng.randint(1, 3), "N": rng.choice([0, 40, 200])}
    return _options(rng, version, values, 0.35) + [a for m in rng.sample(measures, rng.randint(1, len(measures)))
                                                   for a in ("-m", m)] + [folder / "qrels", folder / "run"]


def _gain_map(rng):
    pairs = [f"{rng.choice(LEVELS)}={rng.choice(GAINS)}" for _ in range(rng.randint(1, 4))]
    return ",".join(pairs)


def gains(rng, version, folder):
    qids = _qids(rng, rng.randint(1, 12), odd=False)
    qrels, run = _files(rng, folder, qids, (1, 20), (-1, 4), (0, 25) if False else (1, 25), "rounded")
    _write(folder / "qrels", qrels, rng)
    _write(folder / "run", run, rng)
    # 10.0-rc3 crashes when two of dcg, ideal_dcg and ndcg come with gain maps (they share and free one block)
    first = rng.choice(["ndcg", "dcg", "ideal_dcg"]) if version == "10.0" else "ndcg"
    families = [first, "G", "ndcg_rel", "Rndcg"] + (["rbp", "ndcg_cut", "set_F"] if version == "10.0" else [])
    measures = [f"{family}.{_gain_map(rng)}" if family in (first, "G", "ndcg_rel", "Rndcg") or
                family == "rbp" and rng.random() < 0.7 else "ndcg_cut.2,5" if family == "ndcg_cut" else family
                for family in rng.sample(families, rng.randint(1, len(families)))]
    if "rbp" in {m.split(".")[0] for m in measures} and rng.random() < 0.5:
        measures = [f"rbp.p=0.{rng.randint(1, 9)},{_gain_map(rng)}" if m.startswith("rbp") else m for m in measures]
    values = {"M": rng.randint(1, 12), "l": rng.randint(1, 3), "N": 50}
    return _options(rng, version, values, 0.25) + [a for m in measures for a in ("-m", m)] + \
        [folder / "qrels", folder / "run"]


def messy(rng, version, folder):
    qids = _qids(rng, rng.randint(1, 8), odd=rng.random() < 0.5)
    qrels, run = _files(rng, folder, qids, (1, 15), (-1, 3), (1, 20), "listed")
    for lines, kind in ((qrels, "qrels"), (run, "run")):
        for _ in range(rng.randint(0, 3)):
            where = rng.randint(0, len(lines) - 1)  # never after the last line (10.0 reads past its buffer there)
            odd = rng.choice(["", "  \t", "# a comment line", "#q 0 d1 1", "# q Q0 d1 1 2 t", "\t# indented note"])
            if kind == "qrels" and odd == "" and rng.random() < 0.7:
                continue  # a blank qrels line stops trec_eval (status 2): tested, but less often
            lines.insert(where, odd)
        if rng.random() < 0.3:
            row = rng.randrange(len(lines))
            parts = lines[row].split()
            if len(parts) in (4, 6) and not parts[0].startswith("#"):
                parts[-1 if kind == "qrels" else 4] = rng.choice(["high", "-", "n/a", "1_0", "2x"])
                lines[row] = rng.choice([" ", "\t"]).join(parts)
    crlf = rng.random() < 0.3
    _write(folder / "qrels", qrels, rng, crlf)
    _write(folder / "run", run, rng, crlf)
    arguments = ["-m", "official", "-m", "ndcg_cut.5", "-m", "P.2"]
    if rng.random() < 0.6:
        lines = [f"{qid} {name} {rng.choice(['0.5', '0.1', '-1', 'x'])} {rng.choice(['0.2', '0', '1', 'y'])}"
                 for qid in qids + ["nope"] for name in ("map", "P_5", "P_2", "num_ret", "ndcg_cut_5", "gm_map")
                 if rng.random() < 0.6]
        if rng.random() < 0.3:
            lines.insert(rng.randint(0, len(lines)), rng.choice(["", "# comment here now", "q1 map 1"]))
        lines.append("\xff\xff map 0 1")  # above every query id: trec_eval reads past its table for a larger one
        _write(folder / "z", lines, rng)
        arguments += ["-Z", folder / "z"]
    values = {"M": rng.randint(1, 12), "l": rng.randint(1, 2), "N": 50}
    return _options(rng, version, values, 0.3) + arguments + [folder / "qrels", folder / "run"]


KINDS = {"realistic": realistic, "hostile": hostile, "gains": gains, "messy": messy}


def case(rng, version, folder):
    """``(kind, arguments)`` of one random case, its files written into ``folder``."""
    kind = rng.choice(list(KINDS))
    return kind, KINDS[kind](rng, version, folder)

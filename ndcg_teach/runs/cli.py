"""``python -m ndcg_teach QRELS RUN [-m MEASURE ...] [-q] [-c] [-M N] [-l N] [-J] [-n] [-Z FILE]``: trec_eval, explained.

The options, the default measures (``official``), the output lines and the
exit statuses are trec_eval 9.0.8's, so scripts written for trec_eval run
unchanged: 0 done; 1 a bad option or measure name; 2 a file that cannot be
read or a malformed line (trec_eval: "Quit in file"), or measure parameters
trec_eval refuses; 4 an item listed twice for a query ("duplicate docs"); 7 no
query in both files; 255 a ``-Z`` file that cannot be read. The error says
what is wrong in ndcg_teach's words, then prints trec_eval's own line for
scripts that look for it.

What trec_eval does not have: ``--explain QID MEASURE`` prints the steps
behind one query's value; ``--trec-eval 10.0`` follows trec_eval's unreleased
10.0 (scores compared in full, ``-c`` printing unanswered queries, rbp and unj
in all_trec); ``--scores float64`` and ``--grades float`` read scores and grades
in full; ``--max-bytes`` limits what an input may expand to. The run may be
``-`` (standard input), as in trec_eval 10. Lesson 09 runs it.
"""

import argparse
import sys

from .evaluation import evaluate, needs_subtopics
from .measures import VERSIONS, MeasureError, parse_measures
from ..i18n import gettext
from .trec import MAX_BYTES, TrecFormatError, read_qrels, read_run
from ..core.c_numbers import c_number
from .trec_reading import trec_reading
from .trec_output import read_zscores

UNSUPPORTED_FORMATS = {"prefs": "preference judgements", "qrels_prefs": "preferences read from qrels",
                       "qrels_jg": "judgement groups"}


class _Usage(Exception):
    """A command line trec_eval would refuse with its usage text (exit status 1)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _Usage(message)


def _whole(text, option):
    """A number as trec_eval's ``atol`` reads it (``-M100``, ``-l2``)."""
    value = c_number(text.encode(), integer=True)
    if value is None:
        raise _Usage(f"{option} must be a whole number. Got {text!r} instead.")
    return value


def parser():
    """The command's options, named as trec_eval names them (long forms included)."""
    command = _Parser(
        prog="python -m ndcg_teach", allow_abbrev=True,
        description="Evaluate a TREC run against qrels and print what trec_eval prints; --explain shows the steps.")
    add = command.add_argument
    add("qrels", help="qrels file: qid iter docno rel (plain or gzip)")
    add("run", help="run file: qid Q0 docno rank score tag (plain or gzip; - reads standard input)")
    add("-m", "--measure", dest="measures", action="append", metavar="MEASURE",
        help="a trec_eval measure with its parameters (P, P.5,10, ndcg_cut.10, utility.1,-1,0,0, ...), a set "
             "(official, the default; all_trec; set) or an ir_measures name (nDCG@10); repeat for more")
    add("-q", "--query_eval_wanted", dest="per_query", action="store_true", help="print each query's values too")
    add("-c", "--complete_rel_info_wanted", dest="complete", action="store_true",
        help="average over every judged query, counting those the run misses as 0")
    add("-M", "--Max_retrieved_per_topic", dest="max_docs", metavar="N", help="use only each query's first N items")
    add("-l", "--level_for_rel", dest="relevance_level", default="1", metavar="N",
        help="smallest grade that counts as relevant (default 1)")
    add("-J", "--Judged_docs_only", dest="judged_only", action="store_true",
        help="drop unjudged items from each ranking (after -M)")
    add("-N", "--Number_docs_in_coll", dest="num_docs", metavar="N",
        help="documents in the collection (only trec_eval's utility measure reads it)")
    add("-n", "--nosummary", dest="summary", action="store_false", help="print no 'all' lines")
    add("-Z", "--Zscore", dest="zscores", metavar="FILE", help="print z-scores from a file of qid measure mean stddev")
    add("-R", "--Rel_info_format", dest="rel_format", default="qrels", metavar="FORMAT",
        help="the judgements' format: qrels (the only one ndcg_teach reads)")
    add("-T", "--Results_format", dest="results_format", default="trec_results", metavar="FORMAT",
        help="the run's format: trec_results")
    add("-o", "--Output_old_results_format", dest="old_format", action="store_true", help="ignored, as in trec_eval")
    add("-D", "--Debug_level", dest="debug", metavar="N", help="trec_eval's debug output: not printed; use --explain")
    add("-v", "--version", action="version", version="ndcg_teach's trec_eval (rules of trec_eval 9.0.8; 10.0 with "
                                                        "--trec-eval 10.0)")
    add("--explain", nargs=2, metavar=("QID", "MEASURE"), help="print the steps behind one query's value")
    add("--trec-eval", dest="trec_eval", choices=VERSIONS, default="9.0.8", help="whose rules (default 9.0.8)")
    add("--scores", choices=("float32", "float64"), help="compare scores as 32-bit floats (trec_eval 9) or in full")
    add("--grades", choices=("integer", "float"), default="integer", help="read grades as whole numbers or in full")
    add("--max-bytes", dest="max_bytes", type=int, default=MAX_BYTES, metavar="N",
        help=f"the most text an input may expand to (default {MAX_BYTES:,})")
    add("--strict", action="store_true",
        help="refuse what trec_eval would misread ('#' lines, a grade or score that is no number) instead of reading "
             "it as trec_eval does and saying so on stderr")
    return command


def _options(argv):
    options = parser().parse_args(argv)
    if options.rel_format != "qrels":
        what = UNSUPPORTED_FORMATS.get(options.rel_format)
        reason = f"reads {what}, which ndcg_teach does not" if what else "is not one of trec_eval's"
        raise _Failure(2, f"-R {options.rel_format} {reason}; it reads qrels files (-R qrels). Got "
                          f"{options.rel_format!r} instead.", f"trec_eval: Illegal rel_format '{options.rel_format}'")
    if options.results_format != "trec_results":
        raise _Failure(2, f"-T must be trec_results, the only run format. Got {options.results_format!r} instead.",
                       f"trec_eval: Illegal retrieval results format '{options.results_format}'")
    if options.debug is not None:
        raise _Usage("-D (trec_eval's debug output) is not available; --explain QID MEASURE prints the steps behind "
                     f"a value instead. Got -D {options.debug} instead.")
    options.relevance_level = _whole(options.relevance_level, "-l")
    if options.relevance_level < 1:
        raise _Usage(f"-l must be at least 1: ndcg_teach gives unjudged items grade 0, so a level of 0 or below would "
                     f"count them as relevant, which trec_eval does not. Got {options.relevance_level} instead.")
    if options.max_docs is not None:
        options.max_docs = _whole(options.max_docs, "-M")
        if options.max_docs < 1:
            raise _Usage(f"-M must be at least 1 (each query keeps its first N items). Got {options.max_docs} instead.")
    options.num_docs = 0 if options.num_docs is None else _whole(options.num_docs, "-N")
    return options


class _Failure(Exception):
    """An error with trec_eval's exit status and its line of stderr."""

    def __init__(self, status, message, trec_eval=""):
        super().__init__(message)
        self.status, self.trec_eval = status, trec_eval


def _read(options, subtopics, reading):
    """The qrels (diversity qrels for a diversity measure) and the run, or the reason with trec_eval's exit status (2:
    "Quit in file"); ``reading(kind)`` says how trec_eval reads that kind of file."""
    for name, reader in ((options.qrels, lambda: read_qrels(options.qrels, grades=options.grades,
                                                            max_bytes=options.max_bytes, subtopics=subtopics,
                                                            reading=reading("qrels"))),
                         (options.run, lambda: read_run(sys.stdin.buffer if options.run == "-" else options.run,
                                                        max_bytes=options.max_bytes, reading=reading("run")))):
        try:
            yield reader()
        except (OSError, TrecFormatError) as error:
            raise _Failure(2, str(error), f"trec_eval: Quit in file '{name}'") from None


MAX_NOTES = 5


def _notes(readings, err):
    """Say on stderr what trec_eval misread and ndcg_teach read as it does (the first few lines)."""
    notes = [note for reading in readings for note in reading.notes]
    for note in notes[:MAX_NOTES]:
        print(f"python -m ndcg_teach: note: {note}", file=err)
    if len(notes) > MAX_NOTES:
        print("python -m ndcg_teach: note: " + gettext("{count} more such lines").format(count=len(notes) - MAX_NOTES),
              file=err)


def _write(out, text):
    """``text`` on ``out`` as the bytes it was read from (ids that are not UTF-8 were kept as surrogate escapes)."""
    if hasattr(out, "buffer"):
        out.flush()
        out.buffer.write(text.encode("utf-8", "surrogateescape"))
        out.buffer.flush()
    else:
        out.write(text)


def _stops_at(qid):
    return _Failure(4, gettext("qrels: query {qid!r} has judgements but the run has no line for it; trec_eval 10.0-rc3 "
                               "stops there unless -c (9.0.8 leaves the query out).").format(qid=qid),
                    f"trec_eval: result qid '{qid}' not found in qrels")


def _missing_in_10(options, qrels, run):
    """trec_eval 10.0-rc3 loops over the judged queries and stops (status 4) at the first one the run lacks,
    unless ``-c``: that query, or None."""
    if options.trec_eval != "10.0" or options.complete:
        return None
    answered = set(run.queries)
    return next((qid for qid in qrels.queries if qid not in answered), None)


def _run(options, out, err):
    measures = list(options.measures or ["official"])
    if options.explain:
        measures.append(options.explain[1])
    parsed = parse_measures(measures, trec_eval=options.trec_eval, merge=False)
    readings = {kind: trec_reading(kind, options.trec_eval, options.strict) for kind in ("qrels", "run", "zscores")}
    try:
        qrels, run = _read(options, needs_subtopics(parsed), readings.get)
        table = None
        if options.zscores is not None:
            try:
                table = read_zscores(options.zscores, readings["zscores"])
            except (OSError, TrecFormatError) as error:  # trec_eval returns from main with -1: status 255
                raise _Failure(255, str(error), f"trec_eval.get_zscores: Cannot read zscores file "
                                                f"'{options.zscores}'") from None
    finally:
        _notes(readings.values(), err)
    missing = _missing_in_10(options, qrels, run)
    try:
        result = evaluate(qrels, run, parsed, complete=options.complete, max_docs=options.max_docs,
                          relevance_level=options.relevance_level, judged_only=options.judged_only,
                          scores=options.scores, trec_eval=options.trec_eval, zscores=table,
                          collection_size=options.num_docs)
    except TrecFormatError as error:  # a document twice for an evaluated query
        raise _Failure(4, str(error), error.trec_eval) from None
    except ValueError as error:
        if "No queries with both results and relevance info" in str(error):
            if missing is not None:
                raise _stops_at(missing) from None
            raise _Failure(7, str(error), "trec_eval: No queries with both results and relevance info") from None
        raise
    if options.explain:
        qid, name = options.explain
        try:
            print(result.explain(qid, name), file=out)
        except KeyError as error:
            raise _Failure(1, error.args[0]) from None
        return
    if missing is not None:  # what 10.0-rc3 printed for the queries before it, then its status 4
        limit = missing.encode("utf-8", "surrogateescape")
        before = [line for line in result.lines(per_query=options.per_query, summary=False)
                  if line.split("\t")[1].encode("utf-8", "surrogateescape") < limit]
        _write(out, "".join(f"{line}\n" for line in before))
        raise _stops_at(missing)
    _write(out, "".join(f"{line}\n" for line in result.lines(per_query=options.per_query, summary=options.summary)))


def main(argv=None, out=None, err=None):
    """Run the command; returns trec_eval's exit status (0 when all went well)."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        _run(_options(argv), out, err)
    except _Usage as error:
        print(f"{parser().format_usage().rstrip()}\npython -m ndcg_teach: {error}", file=err)
        return 1
    except MeasureError as error:
        print(f"python -m ndcg_teach: {error}\n{error.trec_eval}", file=err)
        return error.status
    except _Failure as error:
        print(f"python -m ndcg_teach: {error}" + (f"\n{error.trec_eval}" if error.trec_eval else ""), file=err)
        return error.status
    except MemoryError:
        print("python -m ndcg_teach: the inputs need more memory than this machine gives; --max-bytes N refuses "
              "inputs larger than N bytes before they fill it (trec_eval stops with status 2 when memory runs out "
              "while reading).", file=err)
        return 2
    except (TypeError, ValueError) as error:
        print(f"python -m ndcg_teach: {error}", file=err)
        return 1
    return 0

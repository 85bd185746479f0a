"""``python -m ndcg_teach QRELS RUN -m ndcg_cut.10 -m map [-q] [-c] [-M N] [-l N]``: trec_eval's output, from ndcg_teach.

The options mean what they mean to trec_eval: ``-q`` prints a line per query
before the ``all`` lines, ``-c`` averages over every judged query, ``-M``
keeps each query's first N items, ``-l`` sets the smallest relevant grade.
Measures are trec_eval's (``ndcg_cut.10``, ``P.5,10``, ``map``, ...) or
ir_measures' names (``nDCG@10``). Lesson 09 runs it.
"""

import argparse
import sys

from .evaluation import evaluate
from .trec import TrecFormatError


def parser():
    """The command's options, named as trec_eval names them."""
    command = argparse.ArgumentParser(
        prog="python -m ndcg_teach",
        description="Evaluate a TREC run against qrels and print what trec_eval prints for those measures.")
    command.add_argument("qrels", help="qrels file: qid iter docno rel (plain or gzip)")
    command.add_argument("run", help="run file: qid Q0 docno rank score tag (plain or gzip)")
    command.add_argument("-m", dest="measures", action="append", metavar="MEASURE",
                         help="a measure, e.g. ndcg_cut.10, P.5,10, map, recip_rank, nDCG@10; P alone is trec_eval's "
                              "P_5 ... P_1000 (repeat for more; default ndcg_cut.10 and map)")
    command.add_argument("-q", dest="per_query", action="store_true", help="print each query's values too")
    command.add_argument("-c", dest="complete", action="store_true",
                         help="average over every judged query, counting those the run misses as 0")
    command.add_argument("-M", dest="max_docs", type=int, metavar="N", help="use only each query's first N items")
    command.add_argument("-l", dest="relevance_level", type=int, default=1, metavar="N",
                         help="smallest grade that counts as relevant (default 1)")
    return command


def main(argv=None):
    """Run the command; returns the exit status (0, or 1 with the error on stderr)."""
    options = parser().parse_args(argv)
    measures = [name for option in options.measures or ["ndcg_cut.10", "map"] for name in option.split(" ") if name]
    try:
        result = evaluate(options.qrels, options.run, measures, complete=options.complete, max_docs=options.max_docs,
                          relevance_level=options.relevance_level)
    except (TrecFormatError, FileNotFoundError, ValueError, TypeError) as error:
        print(f"python -m ndcg_teach: {error}", file=sys.stderr)
        return 1
    print("\n".join(result.lines(per_query=options.per_query)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

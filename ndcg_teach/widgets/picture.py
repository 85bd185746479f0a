"""The explorers' static picture: what a notebook shows of a widget where no kernel runs.

A widget's output holds two views: ``application/vnd.jupyter.widget-view+json``
(the live widget) and, from this module, ``text/html``: the list, the numbers
and both plots (matplotlib PNGs) of the state the widget was displayed in,
under the words "Run this cell to drag the rows". Front ends pick one view:

- nbconvert (and so nbviewer) skips the widget view when the notebook holds no
  widget state (the lessons are saved without it) and takes ``text/html``;
- JupyterLab and Notebook 7 rank the widget renderer first but, as it is not
  "safe", use it only for trusted outputs: a freshly opened (untrusted) lesson
  shows the picture, and a cell run in the session shows the live widget;
- with the course's server extension (:mod:`ndcg_teach.server_extension`), a
  save keeps only this picture for a widget whose state is not saved, so a
  lesson saved by autosave reopens, trusted, with the picture, not "model not
  found";
- GitHub shows ``text/html`` (it has no widget manager).
"""

import base64
from html import escape

from ..i18n import gettext, language_set, mark
from ..plots import CumulativePlot, DiscountPlot, compact_png

RUN = mark("Run this cell to drag the rows")


def _image(png, alt):
    data = base64.b64encode(compact_png(png)).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt)}" style="max-width:100%;height:auto">'


def _ranking(order, grades, labels, k, language, unjudged=()):
    below, hole = escape(gettext("below k", language)), escape(gettext("unjudged", language))
    rows = "".join(
        f"<tr><td>{i}</td><td><b>{escape(item)}</b></td><td>{escape(labels.get(item, '') if labels.get(item) != item else '')}</td>"
        f"<td>{hole if item in unjudged else escape(str(grades[item]))}</td><td>{'' if i <= k else below}</td></tr>"
        for i, item in enumerate(order, start=1)
    )
    head = "".join(f"<th>{escape(gettext(text, language)) if text else ''}</th>"
                   for text in (mark("position"), mark("item"), "", mark("grade"), ""))
    return f'<table style="margin:0 0 6px 0"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def _numbers(panel):
    return " · ".join(f"{escape(metric['label'])} = <b>{escape(metric['text'])}</b>" for metric in panel["metrics"])


def static_html(explorer):
    """The static picture of ``explorer`` (a RankingExplorer or CompareExplorer) as HTML, plots included, in its language.

    The plots (matplotlib PNGs) are labelled in its language too, in English
    where no Chinese font is installed (:mod:`ndcg_teach.fonts`).
    """
    k, labels, grades, language = explorer.k, explorer.labels, explorer.relevance, explorer.language
    saved = mark("{run}: this is a picture of the explorer as it was saved; in a running notebook the live widget shows instead.")
    parts = [f"<p>{escape(gettext(saved, language)).format(run=f'<b>{escape(gettext(RUN, language))}</b>')}</p>"]
    panels = explorer.panels
    for panel in panels:
        title = f"<h4 style=\"margin:8px 0 4px\">{escape(panel['name'])}</h4>" if len(panels) > 1 else ""
        parts.append(f"{title}{_ranking(panel['order'], grades, labels, k, language, explorer.unjudged)}<p>{_numbers(panel)}</p>")
    numbers = explorer._shown_numbers
    names = explorer.names if len(panels) > 1 else ("",)
    with language_set(language):
        discount = DiscountPlot().draw(numbers[0].full_trace, k=k) if len(panels) == 1 else None
        cumulative = CumulativePlot().draw([n.trace for n in numbers], names)
    if discount is not None:
        parts.append(_image(discount, gettext("Discount curve and each item's gain and gain times discount at its position",
                                              language)))
    parts.append(_image(cumulative, gettext("Running DCG against running IDCG", language)))
    return f'<div class="ndcg-x-static">{"".join(parts)}</div>'

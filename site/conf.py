"""Sphinx configuration of the course site, shared by both editions.

tools/site.py stages an edition's pages and runs Sphinx with ``-c site``;
what differs between editions (language, titles, the links to each page's
twin and to run it) comes from the JSON file named by ``NDCG_SITE_SETTINGS``.
Nothing executes a lesson: every output is the one stored in the notebook.
"""

import json
import os
from pathlib import Path

SETTINGS = json.loads(Path(os.environ["NDCG_SITE_SETTINGS"]).read_text(encoding="utf-8"))

project = SETTINGS["project"]
author = "ndcg_teach"
copyright = "ndcg_teach contributors, MIT licence"
language = SETTINGS["sphinx_language"]
extensions = ["myst_nb"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
templates_path = ["_templates"]

# The lessons are shown as they were last executed; the site build never runs a kernel.
nb_execution_mode = "off"
# The explorers' outputs carry a widget view (useless without a kernel) and a static picture (text/html): show the picture.
nb_mime_priority_overrides = [("*", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3

# MathJax comes from npm's `mathjax` package, copied into the build by tools/site.py: no CDN.
mathjax_path = "mathjax/tex-chtml.js"
html_theme = "sphinx_book_theme"
html_title = SETTINGS["project"]
html_static_path = ["_static", SETTINGS["mathjax_dir"]]
html_css_files = ["ndcg-site.css"]
html_favicon = "_static/favicon.svg"
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "navigation_with_keys": True,
    "logo": {"text": SETTINGS["project"]},
}
html_context = {"default_mode": "auto"}


def page_links(app, pagename, templatename, context, doctree):
    """Give every page its twin in the other edition and, for a lesson, the links that run it."""
    context["ndcg"] = {
        "labels": SETTINGS["labels"],
        "twin": SETTINGS["twin_root"] + SETTINGS["twins"].get(pagename, "index") + ".html",
        "twin_language": SETTINGS["twin_language"],
        "run": SETTINGS["run"].get(pagename, {}),
    }


def setup(app):
    app.connect("html-page-context", page_links)

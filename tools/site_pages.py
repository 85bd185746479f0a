"""The course site's own pages and words, in each edition's language (used by tools/site.py).

The lessons are the site's content; this module writes what surrounds them:
each edition's index (its table of contents), the glossary (from
``ndcg_teach.course.glossary``, the one list of the course's terms), the words of the
bar at the top of every page, and the landing page that chooses an edition.
"""

from __future__ import annotations

from html import escape

from ndcg_teach.course.glossary import TERMS, elsewhere

TEXTS = {
    "en": {
        "project": "ndcg_teach: ranking metrics, every step shown",
        "sphinx_language": "en",
        "edition": "English",
        "labels": {
            "nav": "This page elsewhere",
            "twin": "中文",
            "run": "Run this lesson:",
            "binder": "on Binder",
            "hub": "on the class hub",
        },
        "intro": (
            "A course on the metrics that score a ranking (CG, DCG, IDCG, NDCG, P@k, R@k, AP and MAP, RR, ERR, RBP, bpref)"
            " and on the tests that compare two rankers, computed exactly by the `ndcg_teach` library with every step shown.\n\n"
            "These pages show each lesson as it was last run: its numbers, tables and plots.\n"
            "The explorers, where you drag a ranking and watch every number follow, show here as pictures;"
            " to use them, run the lesson: each lesson's page starts with the links that do."
        ),
        "start": "Start with the first lesson, or [run it on Binder]({url}).",
        "lessons": "Lessons",
        "reference": "Reference",
        "glossary_title": "Glossary",
        "glossary_intro": (
            "Every term of the course, with its Chinese name, the other names the source documents (lesson 07) use for it,"
            " and names met elsewhere with where they come from.\n"
            "In a notebook, `ndcg_teach.course.glossary.glossary()` shows the same list, and `term(...)` finds one term in either language."
        ),
        "other_name": "Chinese: {name}.",
        "variants": "The documents also write {variants}.",
        "elsewhere": "Elsewhere: {names}.",
        "trap": "**Trap.** {trap}",
        "choose": "Read the course in English",
    },
    "zh-CN": {
        "project": "ndcg_teach：排序指标，每一步都看得见",
        "sphinx_language": "zh_CN",
        "edition": "中文",
        "labels": {
            "nav": "本页的其他版本",
            "twin": "English",
            "run": "运行这一课：",
            "binder": "在 Binder 上",
            "hub": "在班级的 JupyterHub 上",
        },
        "intro": (
            "这门课讲给排序打分的指标（CG、DCG、IDCG、NDCG、P@k、R@k、AP 与 MAP、RR、ERR、RBP、bpref），"
            "以及比较两个排序模型的检验；所有数字都由 `ndcg_teach` 库精确算出，每一步都展示出来。\n\n"
            "这些页面展示每一课最后一次运行的样子：其中的数字、表格和图。\n"
            "课里的探索器（拖动排序，所有数字随之变化）在这里显示为图片；"
            "要使用它们，请运行这一课：每一课页面的顶部都有运行它的链接。"
        ),
        "start": "从第一课开始，或者[在 Binder 上运行它]({url})。",
        "lessons": "课程",
        "reference": "参考",
        "glossary_title": "术语表",
        "glossary_intro": (
            "本课程的全部术语，附英文名、源文档（第 07 课）对同一概念的其他叫法，以及其他出处的写法和它们的来源。\n"
            "在 notebook 里，`ndcg_teach.course.glossary.glossary()` 显示同一张表，`term(...)` 可以用中文或英文查找一个术语。"
        ),
        "other_name": "英文：{name}。",
        "variants": "源文档中也写作 {variants}。",
        "elsewhere": "其他出处的写法：{names}。",
        "trap": "**陷阱。** {trap}",
        "choose": "阅读中文版课程",
    },
}


def index_page(texts: dict, pages: list[str], first_lesson_url: str, docs: list[str]) -> str:
    """An edition's index: what the course is, and its table of contents (the lessons, then the glossary and ``docs``)."""
    lessons = "\n".join(pages)
    reference = "\n".join(["glossary", *docs])
    return f"""# {texts["project"]}

{texts["intro"]}

{texts["start"].format(url=first_lesson_url)}

```{{toctree}}
:maxdepth: 1
:caption: {texts["lessons"]}

{lessons}
```

```{{toctree}}
:maxdepth: 1
:caption: {texts["reference"]}

{reference}
```
"""


def glossary_page(language: str) -> str:
    """The glossary as a Sphinx glossary (each term an anchor the search finds), in ``language``."""
    texts = TEXTS[language]
    entries = []
    for term in TERMS:
        chinese = language == "zh-CN"
        lines = [term.chinese if chinese else term.english, f"   {term.meaning_zh if chinese else term.meaning}", ""]
        lines.append("   " + texts["other_name"].format(name=term.english if chinese else term.chinese))
        if term.variants:
            lines.append("   " + texts["variants"].format(variants="、".join(term.variants) if chinese else ", ".join(term.variants)))
        if term.elsewhere:
            lines.append("   " + texts["elsewhere"].format(names=elsewhere(term, chinese)))
        trap = term.trap_zh if chinese else term.trap
        if trap:
            lines += ["", "   " + texts["trap"].format(trap=trap)]
        entries.append("\n".join(lines))
    body = "\n\n".join(entries)
    return f"""# {texts["glossary_title"]}

{texts["glossary_intro"]}

```{{glossary}}
{body}
```
"""


def landing_page(editions: list[tuple[str, dict]]) -> str:
    """The site's front door: one link per edition, each in its own language."""
    links = "\n".join(
        f'    <li><a href="{folder}/index.html" lang="{folder}" hreflang="{folder}">{escape(texts["choose"])}</a>'
        f' <span lang="{folder}">({escape(texts["project"])})</span></li>'
        for folder, texts in editions
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(editions[0][1]["project"])}</title>
  <style>
    :root {{ color-scheme: light dark; }}
    body {{ font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.6; }}
    li {{ margin: 1rem 0; font-size: 1.2rem; }}
  </style>
</head>
<body>
  <h1>ndcg_teach</h1>
  <ul>
{links}
  </ul>
</body>
</html>
"""

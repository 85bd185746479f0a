"""The hub guide's measured tables are the benchmarks' own: written by benchmarks/hub_readme.py, never typed.

Each block of hub/README.md and hub/README.zh-CN.md between ``<!-- isolation:start -->`` (or ``sizing``) and its end
marker starts with the summary it was written from; the test writes the block again from that summary and finds any
hand edit, and holds both languages to the same summary. The renderer's own rules (a refusal that failed, a target
missed) are checked on made-up summaries.
"""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import hub_readme  # noqa: E402

KINDS = ("isolation", "sizing")


def written(kind, language):
    text = hub_readme.READMES[language].read_text(encoding="utf-8")
    found = hub_readme.block_pattern(kind).search(text)
    assert found, f"{hub_readme.READMES[language].name} lost its {kind} block"
    return found.group(2)


def summary_of(block):
    found = hub_readme.SUMMARY.match(block)
    assert found, "the block does not start with the summary it was written from: write it with benchmarks/hub_readme.py"
    return json.loads(found.group(1))


@pytest.mark.parametrize("language", hub_readme.READMES)
@pytest.mark.parametrize("kind", KINDS)
def test_each_measured_table_is_what_the_script_writes_from_its_summary(kind, language):
    block = written(kind, language)
    assert block == hub_readme.block(kind, summary_of(block), language)


@pytest.mark.parametrize("kind", KINDS)
def test_both_languages_show_the_same_runs(kind):
    assert summary_of(written(kind, "en")) == summary_of(written(kind, "zh-CN"))


ISOLATION = {
    "from": "2026-12-07T13:40:00+00:00", "to": "2026-12-07T13:47:00+00:00", "commit": "abc1234", "cores": 2, "memory_gb": 24,
    "load": [0.5, 3.0], "runs": 3, "root": True, "errors": 0, "logins": 3, "refused": 2,
    "denied": {"contents API": [5, 5], "terminal": [5, 5], "kernel": [5, 5], "exchange": [6, 6]}, "forged_collected": False,
    "scores": [[1, 0]], "as_root": 0, "start_s": 20.0, "servers_ready_s": 30.0, "stop_s": 4.0, "left": 0,
}


def test_a_refusal_that_failed_and_a_forged_submission_collected_show_in_both_languages():
    leaky = {**ISOLATION, "denied": {**ISOLATION["denied"], "kernel": [4, 5]}, "forged_collected": True, "as_root": 2}
    english, chinese = (hub_readme.isolation_block(leaky, language) for language in ("en", "zh-CN"))
    assert "| kernel (A's) | only 4 of 5 refused:" in english and "| COLLECTED |" in english and "running as root | 2 |" in english
    assert "5 次尝试中只有 4 次被拒绝" in chinese and "| 被收取了 |" in chinese
    assert "| terminal (A's) | 5 of 5 refused:" in english


def test_a_missed_target_says_no_and_the_notes_name_the_class_size():
    size = {"runs": 3, "ready_s": 50.0, "p50_ms": 12.0, "p95_ms": 130.0, "max_ms": 300.0, "errors": 0, "rss_mb": 290,
            "pss_mb": 224, "hub_pss_mb": 230}
    summary = {**ISOLATION, "moves": 20, "think": [0.5, 1.5], "sizes": {"10": {**size, "p95_ms": 40.0}, "30": size}}
    english, chinese = (hub_readme.sizing_block(summary, language) for language in ("en", "zh-CN"))
    assert "| 10 | 50 s | 290 MB / 224 MB | 12 ms / 40 ms | 0 | yes |" in english
    assert "| 30 | 50 s | 290 MB / 224 MB | 12 ms / 130 ms | 0 | no |" in english
    assert "p95 over 100 ms with 30 students" in english and "30 students take about 30 × 290 MB = 8.7 GB" in english
    assert "| 30 | 50 s | 290 MB / 224 MB | 12 ms / 130 ms | 0 | 否 |" in chinese and "30 个学生时 p95 超过了 100 ms" in chinese


def test_writing_replaces_only_the_block(tmp_path):
    readmes = {}
    for language in hub_readme.READMES:
        path = tmp_path / f"{language}.md"
        path.write_text("before\n<!-- isolation:start -->\nold\n<!-- isolation:end -->\nafter\n", encoding="utf-8")
        readmes[language] = path
    hub_readme.write("isolation", ISOLATION, readmes)
    text = readmes["en"].read_text(encoding="utf-8")
    assert text.startswith("before\n<!-- isolation:start -->\n<!-- summary") and text.endswith("<!-- isolation:end -->\nafter\n")
    assert "old" not in text and summary_of(hub_readme.block_pattern("isolation").search(text).group(2)) == ISOLATION

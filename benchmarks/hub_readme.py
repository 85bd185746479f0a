"""The class hub's measured tables in hub/README.md and hub/README.zh-CN.md, written from a benchmark's runs.

The isolation table (benchmarks/class_hub_isolation.py) and the sizing table (benchmarks/class_hub.py) are figures an
instructor reads to trust and size the hub: they are written here from the runs a script saved with ``--json``, never
typed. Each block starts with the summary it was written from, as a comment, so tests/test_hub_readme.py can write the
block again and find any hand edit, in both languages.

Usage:
    python benchmarks/class_hub_isolation.py --runs 3 --json isolation.json   (as root)
    python benchmarks/hub_readme.py isolation isolation.json
    python benchmarks/class_hub.py --students 10 20 30 --runs 3 --json sizing.json
    python benchmarks/hub_readme.py sizing sizing.json
"""

import argparse
import json
import math
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READMES = {"en": ROOT / "hub" / "README.md", "zh-CN": ROOT / "hub" / "README.zh-CN.md"}
CHANNELS = ("contents API", "terminal", "kernel", "exchange")
TARGET_MS = 100  # a move answered within this, at p95 (class_hub.py's target)
SUMMARY = re.compile(r"\A<!-- summary, written by benchmarks/hub_readme\.py from the runs: (\{.*?\}) -->\n", re.S)


def block_pattern(marker):
    return re.compile(rf"(<!-- {marker}:start -->\n)(.*?)(<!-- {marker}:end -->)", re.S)


def _load_range(runs):
    loads = [load[0] for run in runs for load in (run["load_before"], run["load_after"])]
    return [round(min(loads), 1), round(max(loads), 1)]


def _meta(runs):
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    starts = sorted(run["utc"][0] for run in runs)
    ends = sorted(run["utc"][1] for run in runs)
    return {"from": starts[0], "to": ends[-1], "commit": commit, "cores": os.cpu_count(),
            "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30), "load": _load_range(runs),
            "runs": len(runs), "root": os.geteuid() == 0}


def _worst(runs, key):
    values = [run[key] for run in runs if key in run and not math.isnan(run[key])]
    return max(values) if values else None  # unrounded: the text rounds once, as it prints


def isolation_summary(runs):
    """What the isolation table says, from class_hub_isolation.py's runs: the worst of them for every figure."""
    denials = {}
    for channel in CHANNELS:
        counts = [tuple(run["denied"][channel]) for run in runs if channel in run.get("denied", {})]
        denials[channel] = list(min(counts)) if len(counts) == len(runs) else None
    return {
        **_meta(runs),
        "errors": sum(len(run["errors"]) for run in runs),
        "logins": min(run.get("logins", 0) for run in runs),
        "refused": min(len(run.get("logins_refused", {})) for run in runs),
        "denied": denials,
        "forged_collected": any("Not collected" not in run.get("collect", ["", ""])[1] for run in runs),
        "scores": sorted({tuple(sorted(run.get("scores", {}).values(), reverse=True)) for run in runs}),
        "as_root": max(len(run.get("root_processes", [])) + len(run.get("root_processes_after", [])) for run in runs),
        "start_s": _worst(runs, "start_s"), "servers_ready_s": _worst(runs, "servers_ready_s"), "stop_s": _worst(runs, "stop_s"),
        "left": max(len(run.get("left_running", [])) + len(run.get("accounts_left", [])) for run in runs),
    }


def sizing_summary(results):
    """What the sizing table says, from class_hub.py's runs: for each class size, the worst of its runs."""
    sizes = {}
    for n in sorted({run["students"] for run in results}):
        runs = [run for run in results if run["students"] == n]
        memory = [run["memory"] for run in runs if "memory" in run]
        sizes[str(n)] = {
            "runs": len(runs), "ready_s": _worst(runs, "ready_s"), "p50_ms": _worst(runs, "p50_ms"), "p95_ms": _worst(runs, "p95_ms"),
            "max_ms": _worst(runs, "max_ms"), "errors": sum(len(run["errors"]) for run in runs),
            "rss_mb": round(max(m["rss_mb"] for m in memory)) if memory else None,
            "pss_mb": round(max(m["pss_mb"] for m in memory)) if memory else None,
            "hub_pss_mb": round(max(m["hub_pss_mb"] for m in memory)) if memory else None,
        }
    settings = results[0]["settings"]
    return {**_meta(results), "moves": settings["moves"], "think": settings["think"], "sizes": sizes}


def _when(summary, language):
    day, start = summary["from"][:10], summary["from"][11:16]
    end = summary["to"][11:16] if summary["to"][:10] == day else summary["to"][:16].replace("T", " ")
    lo, hi = summary["load"]
    load = f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}"
    if language == "zh-CN":
        return (f"{day} {start}-{end} UTC，提交 {summary['commit']}，在 {summary['cores']} 核、{summary['memory_gb']} GB 的机器上测了 "
                f"{summary['runs']} 次（1 分钟平均负载 {load}）")
    return (f"Measured {day}, {start}-{end} UTC, commit {summary['commit']}, {summary['runs']} run{'s' * (summary['runs'] != 1)} on a {summary['cores']}-core, "
            f"{summary['memory_gb']} GB machine (load average over 1 minute {load})")


def _seconds(value, language):
    if value is None:
        return "—"
    return f"{value:.1f} 秒" if language == "zh-CN" else f"{value:.1f} s"


def _refused(pair, language, what):
    if pair is None:
        return "没有测到" if language == "zh-CN" else "not measured"
    n, total = pair
    if language == "zh-CN":
        return f"{total} 次尝试全部被拒绝：{what}" if n == total else f"{total} 次尝试中只有 {n} 次被拒绝：{what}"
    return f"{n} of {total} refused: {what}" if n == total else f"only {n} of {total} refused: {what}"


# The isolation table's words, per language: the header, each row's label and the words around its figures.
ISOLATION_TEXT = {
    "en": {
        "header": ("what", "result (every run)"),
        "logins": ("logins", "{logins} (you, A, B); refused {refused}: a name not on the class list, and `instructor` with another password than yours"),
        "contents API": ("contents API (A's links to B's home and your course)",
                         "read B's file, list B's home, write in B's home, read your source notebook, write in your course"),
        "terminal": ("terminal (A's)", "the same five (`Permission denied`)"),
        "kernel": ("kernel (A's)", "the same five (`PermissionError`)"),
        "exchange": ("exchange (A, given the name of B's submission)",
                     "list `inbound`, read B's submission, write in it, replace B's notebook, rename it, remove it"),
        "forged": ("a submission A forged in B's name (later than B's)",
                   ("put in `inbound` (nbgrader allows that), not collected: B's own was", "COLLECTED")),
        "collect": ("collect and autograde", "both students collected; scores {scores}, as each answered"),
        "and": " and ",
        "root": "processes of a server (servers, kernels, terminals) running as root",
        "start": "hub started (launch until its API answers)",
        "ready": "three servers ready (first login until the last is up)",
        "stop": ("hub stopped (SIGTERM until it exited; three servers, three kernels, a terminal and the idle culler running)",
                 ("; no process and no account left", "; {left} processes or accounts left")),
        "head": ("; each time the worst of them", "; the runs had {errors} errors", ":"),
    },
    "zh-CN": {
        "header": ("检查", "结果（每次都一样）"),
        "logins": ("登录", "{logins} 次（你、A、B）；被拒绝的 {refused} 次：一个不在名单上的名字，以及用别的密码登录 `instructor`"),
        "contents API": ("内容 API（A 指向 B 的主目录和你的课程的链接）",
                         "读 B 的文件、列出 B 的主目录、在 B 的主目录里写入、读你的源笔记本、在你的课程里写入"),
        "terminal": ("终端（A 的）", "同样五项（`Permission denied`）"),
        "kernel": ("内核（A 的）", "同样五项（`PermissionError`）"),
        "exchange": ("交换目录（A 已知 B 的提交的名字）", "列出 `inbound`、读 B 的提交、在里面写入、替换 B 的笔记本、重命名、删除"),
        "forged": ("A 冒 B 的名义伪造的一份提交（时间比 B 的晚）",
                   ("放得进 `inbound`（nbgrader 允许），但没有被收取：收取的是 B 自己的", "被收取了")),
        "collect": ("收取与自动评分", "两个学生都收取了；得分 {scores}，与各自的答案相符"),
        "and": " 和 ",
        "root": "服务器的进程（服务器、内核、终端）中以 root 运行的",
        "start": "hub 启动（从启动到它的 API 应答）",
        "ready": "三个服务器就绪（从第一次登录到最后一个服务器启动完毕）",
        "stop": ("hub 停止（从 SIGTERM 到退出；三个服务器、三个内核、一个终端和空闲清理服务都在运行）",
                 ("；没有留下任何进程和账号", "；留下了 {left} 个进程或账号")),
        "head": ("；时间都取最差的一次", "；运行中出现了 {errors} 个错误", "："),
    },
}


def isolation_block(summary, language):
    text = ISOLATION_TEXT[language]
    s = summary
    scores = "; ".join(text["and"].join(f"{score:g}" for score in run) for run in s["scores"])
    rows = [
        text["header"],
        (text["logins"][0], text["logins"][1].format(logins=s["logins"], refused=s["refused"])),
        *((text[channel][0], _refused(s["denied"][channel], language, text[channel][1])) for channel in CHANNELS),
        (text["forged"][0], text["forged"][1][bool(s["forged_collected"])]),
        (text["collect"][0], text["collect"][1].format(scores=scores)),
        (text["root"], f"{s['as_root']}"),
        (text["start"], _seconds(s["start_s"], language)),
        (text["ready"], _seconds(s["servers_ready_s"], language)),
        (text["stop"][0], _seconds(s["stop_s"], language) + text["stop"][1][bool(s["left"])].format(left=s["left"])),
    ]
    worst, errors, colon = text["head"]
    head = _when(s, language) + worst + (errors.format(errors=s["errors"]) if s["errors"] else "") + colon
    table = [f"| {rows[0][0]} | {rows[0][1]} |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows[1:])]
    return head + "\n\n" + "\n".join(table) + "\n"


def sizing_block(summary, language):
    s = summary
    sizes = s["sizes"]
    zh = language == "zh-CN"
    think = f"{s['think'][0]:g}-{s['think'][1]:g}"
    mode = ("计分模式（以 root 运行，每个学生一个 Unix 账号）" if s["root"] else "工作坊模式（不以 root 运行，所有学生共用一个账号）") if zh else (
        "graded mode (run as root: a Unix account per student)" if s["root"] else "workshop mode (not root: one shared account)")
    if zh:
        head = (f"{_when(s, language)}；{mode}；每个学生拖动 {s['moves']} 次，间隔 {think} 秒；每个数字都是同一人数的几次运行中最差的一次。\n\n"
                "| 学生数 | 服务器就绪 | 每个学生的内存（常驻 / 按比例） | 移动的答复，p50 / p95 | 错误 | p95 ≤ 100 ms 且无错误 |\n"
                "|---|---|---|---|---|---|\n")
    else:
        head = (f"{_when(s, language)}, {mode}, {s['moves']} drags per student, {think} s apart; each figure the worst of the runs of "
                "its class size.\n\n"
                "| students | servers ready | memory per student (resident / proportional) | move answered, p50 / p95 | errors | p95 ≤ 100 ms, no error |\n"
                "|---|---|---|---|---|---|\n")
    lines = []
    for n, size in sizes.items():
        ok = size["p95_ms"] is not None and size["p95_ms"] <= TARGET_MS and not size["errors"]
        yes = ("是" if ok else "否") if zh else ("yes" if ok else "no")
        memory = "—" if size["rss_mb"] is None else f"{size['rss_mb']} MB / {size['pss_mb']} MB"
        moves = "—" if size["p95_ms"] is None else f"{size['p50_ms']:.0f} ms / {size['p95_ms']:.0f} ms"
        ready = "—" if size["ready_s"] is None else f"{size['ready_s']:.0f} s"
        lines.append(f"| {n} | {ready} | {memory} | {moves} | {size['errors']} | {yes} |")
    measured = [size for size in sizes.values() if size["rss_mb"] is not None]
    biggest = max(sizes, key=int)
    hub_pss = max((size["hub_pss_mb"] for size in measured), default=None)
    slowest = max((size["max_ms"] for size in sizes.values() if size["max_ms"] is not None), default=None)
    missed = [n for n, size in sizes.items() if size["p95_ms"] is None or size["p95_ms"] > TARGET_MS]
    errors = sum(size["errors"] for size in sizes.values())
    runs = sum(size["runs"] for size in sizes.values())
    rss = sizes[biggest]["rss_mb"]
    if zh:
        notes = [
            f"hub、代理和空闲清理服务另外总共约占 {hub_pss} MB（按比例）。" if hub_pss is not None else "",
            "- **移动**：" + ("每种人数的 p95 都在 100 ms 以内" if not missed else f"{'、'.join(missed)} 个学生时 p95 超过了 100 ms")
            + (f"；最慢的一次移动用了 {slowest:.0f} ms。" if slowest is not None else "。"),
            f"- **内存**：{biggest} 个学生约占 {biggest} × {rss} MB = {int(biggest) * rss / 1000:.1f} GB 常驻内存。" if rss is not None else "",
            f"- **错误**：{runs} 次运行中" + ("没有错误。" if not errors else f"共有 {errors} 个错误。"),
        ]
    else:
        notes = [
            f"The hub, the proxy and the idle culler take about {hub_pss} MB (proportional) more in all." if hub_pss is not None else "",
            "- **Moves:** " + ("every size answered within 100 ms at p95" if not missed else f"p95 over 100 ms with {', '.join(missed)} students")
            + (f"; the slowest single move took {slowest:.0f} ms." if slowest is not None else "."),
            f"- **Memory:** {biggest} students take about {biggest} × {rss} MB = {int(biggest) * rss / 1000:.1f} GB resident." if rss is not None else "",
            f"- **Errors:** {'none' if not errors else errors} in the {runs} runs.",
        ]
    paragraph, bullets = notes[0], [note for note in notes[1:] if note]
    return head + "\n".join(lines) + "\n\n" + (paragraph + "\n\n" if paragraph else "") + "\n".join(bullets) + "\n"


RENDER = {"isolation": (isolation_summary, isolation_block), "sizing": (sizing_summary, sizing_block)}


def block(kind, summary, language):
    """The whole block between the markers: the summary as a comment, then the text written from it."""
    return (f"<!-- summary, written by benchmarks/hub_readme.py from the runs: {json.dumps(summary, sort_keys=True)} -->\n"
            + RENDER[kind][1](summary, language))


def write(kind, summary, readmes=READMES):
    for language, path in readmes.items():
        text = path.read_text(encoding="utf-8")
        pattern = block_pattern(kind)
        if pattern.search(text) is None:
            raise SystemExit(f"{path} has no <!-- {kind}:start --> ... <!-- {kind}:end --> block")
        found = pattern.search(text)
        path.write_text(text[:found.start(2)] + block(kind, summary, language) + text[found.end(2):], encoding="utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(RENDER), help="which table: isolation (class_hub_isolation.py) or sizing (class_hub.py)")
    parser.add_argument("runs", type=Path, help="the --json file the benchmark wrote")
    args = parser.parse_args(argv)
    runs = json.loads(args.runs.read_text(encoding="utf-8"))
    if not runs:
        parser.error(f"{args.runs} holds no runs")
    write(args.kind, RENDER[args.kind][0](runs))
    print(f"wrote the {args.kind} block of {', '.join(str(path.relative_to(ROOT)) for path in READMES.values())}")


if __name__ == "__main__":
    main()

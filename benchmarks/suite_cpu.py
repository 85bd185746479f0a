"""Where `make test`'s time goes: the suite's wall time, how busy the machine's cores were, and its CPU seconds by kind of process.

On a machine with few cores the suite is bound by CPU, not by waiting: the
wall time cannot fall below (CPU seconds) / (cores), however the tests are
spread over workers. This script runs a command (by default the suite as
`make test` runs it, ``python -m pytest -n auto``, in this checkout), reads
/proc every 0.3 s while it runs and adds up each process's CPU time under a
kind read from its command line: Chromium (the browser tests and the site),
kernels, Jupyter servers, pytest (the workers and the pytest runs tests
start), nbgrader, the class hub, pip, node and everything else. Only the
command's own processes count: the command and every process whose parent
was one of them when it was first seen. A process that lives less than 0.3 s
can be missed; the machine's busy time (from /proc/stat: every process of the
machine, this script's own reading and anything else running included) is
printed beside the sum, so the gap shows. Linux only.

The same work takes more or less CPU time at different hours on a shared
machine: the browser tests' Chromium, unchanged, used 426 CPU s in one run of
the suite and 325 in the next. So before and after the command, the script
times a fixed piece of Python work (the best of five runs) and prints the
suite's CPU seconds in units of it as well: compare two runs by those units,
or run the two back to back.

Usage: python benchmarks/suite_cpu.py [--interval 0.3] [-- COMMAND ...]
"""

import argparse
import os
import subprocess
import sys
import time

KINDS = (  # (kind, words of which one is in the command line), first match wins
    ("kernel", ("ipykernel",)),
    ("chromium", ("chrom",)),
    ("class hub", ("jupyterhub", "configurable-http-proxy")),
    ("Jupyter server", ("jupyter-lab", "jupyter-notebook", "jupyter lab", "jupyter notebook", "jupyter-server")),
    ("nbgrader", ("nbgrader", "alembic")),
    ("pytest", ("pytest", "execnet", "exec(eval(sys.stdin.readline()))")),
    ("pip", (" pip ", "pip install", "-m pip")),
    ("node", ("node",)),
)
TICK = os.sysconf("SC_CLK_TCK")


def reference_seconds():
    """The CPU seconds of a fixed piece of pure-Python work, the best of five runs: how fast this machine is now."""
    best = None
    for _ in range(5):
        start = time.process_time()
        total = 0
        for number in range(5_000_000):
            total += number * number % 7
        seconds = time.process_time() - start
        best = seconds if best is None else min(best, seconds)
    return best


def kind(command):
    text = f" {command} "
    return next((name for name, words in KINDS if any(word in text for word in words)), "other")


def busy_seconds():
    """The machine's busy CPU seconds so far (all but idle and iowait), from /proc/stat."""
    values = [int(value) for value in open("/proc/stat").readline().split()[1:]]
    return (sum(values) - values[3] - values[4]) / TICK


def processes():
    """{(pid, start): (parent pid, command line, CPU seconds)} of every process now."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # it ended between the listing and the reading
            continue
        found[pid, fields[19]] = (fields[1], command, (int(fields[11]) + int(fields[12])) / TICK)
    return found


def watch(command, interval):
    """Run ``command``; return (exit status, wall seconds, busy seconds, {kind: [CPU seconds, processes]})."""
    seen = {}  # {(pid, start): (command line, CPU seconds)} of the command's processes
    busy0, start = busy_seconds(), time.monotonic()
    child = subprocess.Popen(command)
    ours = None
    while True:
        done = child.poll() is not None
        now = processes()
        if ours is None:
            ours = {key for key in now if key[0] == str(child.pid)}
        added = True
        while added:  # a child and its own child may both be new since the last reading
            alive = {pid for pid, _ in ours}
            new = {key for key, (parent, _, _) in now.items() if key not in ours and parent in alive}
            ours |= new
            added = bool(new)
        for key in ours & now.keys():
            line, seconds = now[key][1:]
            # A process that has ended but is not yet reaped shows no command line: keep the one it had.
            seen[key] = (seen[key][0] if key in seen and seen[key][0] else line, seconds)
        if done:
            break
        time.sleep(interval)
    wall, busy = time.monotonic() - start, busy_seconds() - busy0
    by_kind = {}
    for line, seconds in seen.values():
        if seconds > 0:  # not the processes that used less than one clock tick
            total = by_kind.setdefault(kind(line), [0.0, 0])
            total[0] += seconds
            total[1] += 1
    return child.returncode, wall, busy, by_kind


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval", type=float, default=0.3, help="seconds between two readings of /proc (default 0.3)")
    parser.add_argument("command", nargs="*", help="the command to run (default: python -m pytest -n auto)")
    arguments = parser.parse_args()
    if not os.path.exists("/proc/stat"):
        parser.error("this script reads /proc: it runs on Linux only")
    command = arguments.command or [sys.executable, "-m", "pytest", "-n", "auto", "-q"]
    cores = os.cpu_count()
    print(f"command: {' '.join(command)}")
    print(f"cores: {cores}; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    before = reference_seconds()
    status, wall, busy, by_kind = watch(command, arguments.interval)
    after = reference_seconds()
    counted = sum(seconds for seconds, _ in by_kind.values())
    reference = (before + after) / 2
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; exit status {status}")
    print(f"wall: {wall:.0f} s; the machine was busy {busy:.0f} CPU s ({busy / wall:.2f} of {cores} cores on average)")
    print(f"counted by process: {counted:.0f} CPU s; that much work takes at least {counted / cores:.0f} s on {cores} cores")
    print(f"reference work: {before:.3f} CPU s before, {after:.3f} after; the counted CPU is {counted / reference:.0f} "
          "reference units")
    print(f"{'kind':<16}{'CPU s':>8}{'share':>8}{'processes':>11}")
    for name, (seconds, count) in sorted(by_kind.items(), key=lambda item: -item[1][0]):
        print(f"{name:<16}{seconds:8.0f}{seconds / counted:8.0%}{count:11d}")
    return status


if __name__ == "__main__":
    sys.exit(main())

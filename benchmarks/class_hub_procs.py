"""Processes of the class hub benchmark (class_hub.py), read from /proc: who belongs to whom, their memory, stopping them.

Each process is known by its PID and its start time (field 22 of /proc/<pid>/stat), so a PID that the system has
since given to another process is never signalled.
"""

import os
import signal
import time
from pathlib import Path

PROC = Path("/proc")


def _stat(pid):
    """(parent PID, start time) of ``pid``, or None once it has exited (a zombie, not yet reaped, has exited too)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the command name may hold spaces and parentheses
    return None if fields[0] in ("Z", "X") else (int(fields[1]), int(fields[19]))


def children():
    """{parent PID: [child PIDs]} of every process now running."""
    found = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            stat = _stat(entry.name)
            if stat:
                found.setdefault(stat[0], []).append(int(entry.name))
    return found


def tree(pid):
    """{pid: start time} of ``pid`` and every process below it."""
    below, found, todo = children(), {}, [pid]
    while todo:
        current = todo.pop()
        stat = _stat(current)
        if stat:
            found[current] = stat[1]
            todo.extend(below.get(current, []))
    return found


def alive(pid, started):
    stat = _stat(pid)
    return stat is not None and stat[1] == started


def kill_survivors(seen):
    """SIGKILL each process of ``seen`` ({pid: start time}) that still runs; returns "PID command" of each."""
    left = [f"{pid} {_cmdline(pid)[:120]}" for pid, started in seen.items() if alive(pid, started)]
    for pid, started in seen.items():
        if alive(pid, started):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid, started) for pid, started in seen.items()):
        time.sleep(0.1)
    return left


def uids(pid):
    """(real, effective, saved, filesystem) user ids of ``pid``, or None once it has exited."""
    try:
        status = (PROC / str(pid) / "status").read_text()
    except OSError:
        return None
    line = next(line for line in status.splitlines() if line.startswith("Uid:"))
    return tuple(int(field) for field in line.split()[1:5])


def busiest(seconds=1.0, top=5):
    """The ``top`` processes by CPU over ``seconds`` (what else is running): [(percent of one core, command)]."""
    def ticks():
        found = {}
        for entry in PROC.iterdir():
            if entry.name.isdigit():
                try:
                    text = (entry / "stat").read_text()
                except OSError:
                    continue
                fields = text[text.rindex(")") + 2:].split()
                found[entry.name] = int(fields[11]) + int(fields[12])
        return found

    before = ticks()
    time.sleep(seconds)
    after = ticks()
    hz = os.sysconf("SC_CLK_TCK")
    used = sorted(((after[pid] - before[pid]) / hz / seconds * 100, pid) for pid in after if pid in before)
    named = [(percent, _cmdline(pid)) for percent, pid in reversed(used) if percent > 0 and int(pid) != os.getpid()]
    return [(round(percent), command[:80]) for percent, command in named if command][:top]  # kernel threads have no command


def mem_total():
    return _meminfo("MemTotal")


def rollup(pid):
    """(resident, proportional) set size of ``pid`` in bytes, from /proc/<pid>/smaps_rollup."""
    sizes = {}
    try:
        for line in (PROC / str(pid) / "smaps_rollup").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in ("Rss", "Pss"):
                sizes[name] = int(rest.split()[0]) * 1024
    except OSError:
        return 0, 0
    return sizes.get("Rss", 0), sizes.get("Pss", 0)


def _environ(pid):
    try:
        raw = (PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return {}
    return dict(item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)


def _cmdline(pid):
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def class_memory(hub_pid, names):
    """Memory of the class under the hub ``hub_pid``, per student (server + its kernels) and for the hub's own processes.

    Returns MB: mean resident and proportional set size per student, the mean server's and kernel's PSS, and
    the PSS of the hub, its proxy and its services together.
    """
    below = children()
    everyone = tree(hub_pid)
    servers = {}
    for pid in everyone:
        user = _environ(pid).get(b"JUPYTERHUB_USER", b"").decode()
        if user in names and "jupyterhub-singleuser" in _cmdline(pid):
            servers[user] = pid
    per_student, server_pss, kernel_pss, counted = [], [], [], set()
    for name in names:
        if name not in servers:
            continue
        family = tree(servers[name])
        counted.update(family)
        sizes = {pid: rollup(pid) for pid in family}
        per_student.append((sum(rss for rss, _ in sizes.values()), sum(pss for _, pss in sizes.values())))
        server_pss.append(sizes[servers[name]][1])
        kernel_pss.append(sum(pss for pid, (_, pss) in sizes.items() if pid != servers[name]))
    hub_pss = sum(rollup(pid)[1] for pid in everyone if pid not in counted)
    mb = 2**20
    mean = lambda values: sum(values) / len(values) / mb if values else float("nan")  # noqa: E731
    return {
        "servers_found": len(servers), "children_of_hub": len(below.get(hub_pid, [])),
        "rss_mb": mean([rss for rss, _ in per_student]), "pss_mb": mean([pss for _, pss in per_student]),
        "server_pss_mb": mean(server_pss), "kernel_pss_mb": mean(kernel_pss), "hub_pss_mb": hub_pss / mb,
    }


def _meminfo(field):
    for line in (PROC / "meminfo").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)

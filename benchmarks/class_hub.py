"""A class on the hub of hub/: N students log in, get the course, run a lesson and drag its explorers at once.

Starts the real hub (hub/jupyterhub_config.py: JupyterHub, configurable-http-proxy, one server per student) on
127.0.0.1 with free ports and a throw-away state folder, the dummy authenticator, and a local clone of this
repository as the course (no network). Run as root, the hub is in graded mode: a Unix account per student, all
removed when the run ends. Then, for N students at once, as a browser would:

1. **servers**: log in on /hub/login; the hub starts the student's server; wait for its progress stream to say ready.
2. **course**: open the students' link (/hub/user-redirect/git-pull?...: the server's login through the hub, then
   nbgitpuller's page) and read nbgitpuller's event stream while it clones the course into the student's home.
3. **lesson**: open the lesson as JupyterLab does (a session, the kernel's websocket through the proxy) and run all
   of its cells (lesson 06, the playground: four explorers).
4. **moves**: every student drags rows of the lesson's first explorer: the message a drop sends (a comm_msg
   ``{"method": "update", "state": {"order": [...]}}``), then waits for the kernel's answer (the ``panels`` it
   sends back for that order) and pauses as a student would (``--think`` seconds, uniform) before the next.

Prints: seconds until every server was ready, the lesson's run time, memory per student (resident and
proportional set size of the student's server and kernel, from /proc/<pid>/smaps_rollup), p50/p95 of a move's
answer, and errors. With several ``--students`` values and ``--runs``, a table of the worst run of each, ready for
the README. The hub, the proxy, every server and kernel are stopped by PID and the temporary folder removed on
exit, also after an error, a time-out (``--timeout``) or Ctrl-C.

The machine runs the students' servers and this script's N clients at once: say what else was running (each run
prints the load average before and after it).

Usage: python benchmarks/class_hub.py --students 10 20 30 --runs 3      (builds nothing: run `make hub` once first)
"""

import argparse
import asyncio
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HUB_ENV = ROOT / ".venv-hub"
if __name__ == "__main__" and Path(sys.prefix).resolve() != HUB_ENV.resolve() and (HUB_ENV / "bin" / "python").exists():
    os.execv(HUB_ENV / "bin" / "python", [str(HUB_ENV / "bin" / "python"), __file__, *sys.argv[1:]])

sys.path.insert(0, str(ROOT / "hub"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import accounts as hub_accounts  # noqa: E402
import class_hub_procs as procs  # noqa: E402
import settings as hub_settings  # noqa: E402

LESSON = "notebooks/06-playground.ipynb"
TARGET_MS = 100


def free_port():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def utc_now():
    """The time of day a run starts or ends, for the README's record of when it was measured."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def percentile(samples, fraction):
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)] if ordered else float("nan")


def course_clone(tmp):
    """A bare clone of this checkout's HEAD, as branch ``course``; nbgitpuller clones it into each home as ``ndcg_teach``."""
    clone = tmp / "ndcg_teach"
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", "--bare", "--no-local", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "branch", "--force", "course", head], check=True)
    return clone


# What the hub or its proxy prints when a port it was given is taken.
PORT_TAKEN = re.compile(r"already in use|EADDRINUSE")


class PortTaken(RuntimeError):
    """The hub stopped because another process had bound one of its ports first."""


class Hub:
    """The hub of hub/ started for the benchmark; ``stop`` ends it and every process it started, by PID.

    Run as root, the hub is in graded mode: each student gets a Unix account, named with a prefix of this run's own
    (``ndcgt<hex>-``), and ``stop`` removes every account with that prefix, with its home.
    """

    def __init__(self, tmp, course, students=(), **settings):
        """A hub with its state in ``tmp``, ``course`` (a clone) as the course, ``students`` as the class list, and
        NDCG_HUB_<KEY> = value for each of ``settings``."""
        self.tmp = tmp
        self.env = {name: value for name, value in os.environ.items() if not name.startswith(hub_settings.PREFIX)}
        self.env.update({
            "NDCG_HUB_AUTH": "dummy", "NDCG_HUB_STATE": str(tmp / "state"), "NDCG_HUB_EXCHANGE": str(tmp / "exchange"),
            "NDCG_HUB_COURSE_REPO": f"file://{course}", "NDCG_HUB_COURSE_BRANCH": "course", "NDCG_HUB_IP": "127.0.0.1",
        })
        self.prefix = f"ndcgt{uuid.uuid4().hex[:6]}-" if os.geteuid() == 0 else None
        if self.prefix:
            self.env["NDCG_HUB_ACCOUNT_PREFIX"] = self.prefix
            tmp.chmod(0o755)  # the students' accounts reach the course clone and the exchange in it
        if students:
            (tmp / "class.txt").write_text("".join(f"{name}\n" for name in students), encoding="utf-8")
            self.env["NDCG_HUB_STUDENTS"] = str(tmp / "class.txt")
        self.env.update({f"{hub_settings.PREFIX}{key.upper()}": str(value) for key, value in settings.items()})
        self.choose_ports()
        self.log = open(tmp / "hub.log", "wb")
        self.process = None
        self.seen = {}  # pid -> start time of every process of the hub's tree seen so far
        self.figures = {}  # start_s: from launch until the hub's API answers; stop_s: from SIGTERM until the hub exited

    def choose_ports(self):
        """Free ports for the hub, its proxy's public side and the proxy's API."""
        for name in ("NDCG_HUB_PORT", "NDCG_HUB_HUB_PORT", "NDCG_HUB_PROXY_API_PORT"):
            self.env[name] = str(free_port())
        self.settings = hub_settings.read({k: v for k, v in self.env.items() if k.startswith(hub_settings.PREFIX)})
        self.url = self.settings.public_url

    def start(self, timeout=90, tries=3):
        """Start the hub and wait until its API answers. A port is free when chosen and bound a moment later; when
        another process (a pytest-xdist worker's Jupyter server) took it in between, the hub starts again on new ones."""
        for attempt in range(1, tries + 1):
            try:
                return self._start(timeout)
            except PortTaken:
                if attempt == tries:
                    raise
                self.choose_ports()

    def _start(self, timeout):
        import requests

        command = [str(HUB_ENV / "bin" / "jupyterhub"), "-f", str(ROOT / "hub" / "jupyterhub_config.py")]
        launched = time.monotonic()
        self.process = subprocess.Popen(command, cwd=self.tmp, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = PortTaken if PORT_TAKEN.search(self.tail()) else RuntimeError
                raise error(f"the hub exited with {self.process.returncode}; see its log:\n{self.tail()}")
            try:
                if requests.get(f"{self.url}/hub/api", timeout=2).status_code == 200:
                    self.figures["start_s"] = time.monotonic() - launched
                    self.remember()
                    return self
            except requests.ConnectionError:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"the hub did not answer within {timeout} s; its log:\n{self.tail()}")

    def tail(self, lines=30):
        self.log.flush()
        return "\n".join((self.tmp / "hub.log").read_text(errors="replace").splitlines()[-lines:])

    def remember(self):
        """Note every live process under the hub (proxy, culler, servers, kernels), so ``stop`` can end each by PID."""
        if self.process is not None:
            self.seen.update(procs.tree(self.process.pid))

    def run_accounts(self):
        """The Unix accounts of this run (graded mode, as root): every account with its prefix."""
        import pwd

        return [entry for entry in pwd.getpwall() if self.prefix and entry.pw_name.startswith(self.prefix)]

    def stop(self):
        """Stop the hub (its servers and proxy with it), then anything of it still running, then remove its accounts."""
        left = []
        try:
            if self.process is not None:
                self.remember()
                if self.process.poll() is None:
                    stopping = time.monotonic()
                    self.process.send_signal(signal.SIGTERM)  # the hub stops every server and the proxy itself
                    try:
                        self.process.wait(timeout=60)
                    except subprocess.TimeoutExpired:
                        self.process.kill()
                        self.process.wait()
                    self.figures["stop_s"] = time.monotonic() - stopping
                left = procs.kill_survivors(self.seen)
        finally:
            for entry in self.run_accounts():
                left += [f"{pid} of {entry.pw_name}" for pid in hub_accounts.end_processes(entry.pw_uid, grace=0)]
                hub_accounts.remove_account(entry.pw_name)
            self.log.close()
            shutil.rmtree(self.settings.runtime_root, ignore_errors=True)  # the students' runtime folders, outside tmp
        return left


class Student:
    """One student's browser: a cookie jar for the hub and the server, and later the kernel's websocket."""

    def __init__(self, hub, name):
        import requests

        self.hub, self.name = hub, name
        self.http = requests.Session()
        self.times = {}
        self.kernel = None
        self.cells = []

    def xsrf(self, path):
        return {"X-XSRFToken": self.http.cookies.get("_xsrf", path=path) or ""}

    def log_in(self, password="class", next_url="", check=True):
        """The login form, as sent by a browser; returns the last response (by default the server is started).

        With ``check``, a refused login (403) raises, as any other error does.
        """
        self.http.get(f"{self.hub.url}/hub/login", timeout=60).raise_for_status()
        form = {"username": self.name, "password": password, "_xsrf": self.http.cookies.get("_xsrf", path="/hub/")}
        response = self.http.post(f"{self.hub.url}/hub/login?next={next_url}", data=form, timeout=120)
        if check or response.status_code != 403:
            response.raise_for_status()
        return response

    def wait_until_ready(self):
        """Follow the hub's progress stream of the student's server until it says ready."""
        url = self.hub.url
        progress = self.http.get(f"{url}/hub/api/users/{self.name}/server/progress", headers=self.xsrf("/hub/"), stream=True, timeout=300)
        progress.raise_for_status()
        for line in progress.iter_lines():
            if line.startswith(b"data:"):
                event = json.loads(line[5:])
                if event.get("failed"):
                    raise RuntimeError(f"{self.name}'s server failed to start: {event.get('message')}")
                if event.get("ready"):
                    break
        progress.close()
        self.times["ready_at"] = time.monotonic()

    def pull_course(self):
        settings, start = self.hub.settings, time.monotonic()
        page = self.http.get(self.hub.url + settings.share_link().removeprefix(settings.public_url), timeout=120)
        page.raise_for_status()  # nbgitpuller's page, after the server's own login through the hub
        query = page.url.split("?", 1)[1]
        prefix = f"/user/{self.name}/"
        stream = self.http.get(f"{self.hub.url}{prefix}git-pull/api?{query}", stream=True, timeout=300)
        for line in stream.iter_lines():
            if line.startswith(b"data:"):
                event = json.loads(line[5:])
                if event.get("phase") == "error":
                    raise RuntimeError(f"nbgitpuller failed for {self.name}: {event.get('message')}")
                if event.get("phase") == "finished":
                    break
        self.times["course"] = time.monotonic() - start
        path = f"{settings.course_folder}/{LESSON}"
        lesson = self.http.get(f"{self.hub.url}{prefix}api/contents/{path}?content=1", headers=self.xsrf(prefix), timeout=60)
        lesson.raise_for_status()
        self.cells = ["".join(cell["source"]) for cell in lesson.json()["content"]["cells"] if cell["cell_type"] == "code"]
        session = self.http.post(
            f"{self.hub.url}{prefix}api/sessions", headers=self.xsrf(prefix), timeout=120,
            json={"path": path, "name": Path(path).name, "type": "notebook", "kernel": {"name": "python3"}},
        )
        session.raise_for_status()
        self.kernel = session.json()["kernel"]["id"]

    def websocket_request(self):
        from tornado.httpclient import HTTPRequest

        url = self.hub.url.replace("http", "ws", 1) + f"/user/{self.name}/api/kernels/{self.kernel}/channels?session_id={uuid.uuid4().hex}"
        cookies = "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.http.cookies)
        return HTTPRequest(url, headers={"Cookie": cookies}, request_timeout=120)


async def run_lesson_and_moves(student, moves, think, seed, begin_moves, errors):
    """Run every cell of the lesson in the student's kernel, wait for the others, then drag ``moves`` times."""
    from tornado.websocket import websocket_connect

    from class_hub_kernel import Kernel

    kernel = Kernel(await websocket_connect(student.websocket_request()), student.name)
    try:
        start = time.monotonic()
        replies = await asyncio.wait_for(kernel.run_all(student.cells), timeout=600)
        student.times["lesson"] = time.monotonic() - start
        errors.extend(f"{student.name}: cell {i + 1}: {reply['ename']}" for i, reply in enumerate(replies) if reply["status"] != "ok")
        explorer = kernel.first_ranking_explorer()
        if explorer is None:
            errors.append(f"{student.name}: the lesson showed no RankingExplorer")
            return []
        await begin_moves.wait()
        choose, latencies = random.Random(seed), []
        order = list(explorer["order"])
        for _ in range(moves):
            await asyncio.sleep(choose.uniform(*think))
            source = choose.randrange(len(order))  # a row dropped anywhere but where it was: always a new order
            target = choose.choice([i for i in range(len(order)) if i != source])
            order.insert(target, order.pop(source))
            try:
                latencies.append(await kernel.move(explorer["comm_id"], order, timeout=30))
            except asyncio.TimeoutError:
                errors.append(f"{student.name}: move to {order}: no answer within 30 s")
            except RuntimeError as error:
                errors.append(f"{student.name}: move to {order}: {error}")
        return latencies
    finally:
        kernel.close()


def kernel_transports(runtime_root):
    """How the students' kernels talk to their servers: the transports named in their connection files."""
    return sorted({json.loads(path.read_text())["transport"] for path in runtime_root.glob("*/kernel-*.json")})


def one_run(students, moves, think, seed, keep_logs=None):
    """One class of ``students``; returns the figures of the run (and the errors seen).

    After a run with errors, the hub's log is copied into the folder ``keep_logs`` (when given) before cleaning up.
    """
    result = {"students": students, "settings": {"moves": moves, "think": list(think)}, "load_before": os.getloadavg(),
              "utc": [utc_now()], "busy_before": procs.busiest(), "errors": []}
    tmp = Path(tempfile.mkdtemp(prefix="ndcg-class-hub-"))
    hub = None
    try:
        names = [f"student{i + 1:02d}" for i in range(students)]
        hub = Hub(tmp, course_clone(tmp), students=names).start()
        class_ = [Student(hub, name) for name in names]

        def arrive(student):
            try:
                student.log_in()  # the hub starts the server
                student.wait_until_ready()
                student.pull_course()
            except Exception as error:  # noqa: BLE001 - every student's failure is counted and reported
                result["errors"].append(f"{student.name}: {type(error).__name__}: {error}")

        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=students) as pool:
            list(pool.map(arrive, class_))
        result["arrival_s"] = time.monotonic() - start
        ready = [student for student in class_ if student.kernel]
        result["ready_s"] = max((s.times["ready_at"] - start for s in class_ if "ready_at" in s.times), default=float("nan"))
        result["course_s"] = max((s.times["course"] for s in ready), default=float("nan"))

        async def lessons_then_moves():
            begin = asyncio.Event()
            tasks = [asyncio.ensure_future(run_lesson_and_moves(s, moves, think, seed + i, begin, result["errors"])) for i, s in enumerate(ready)]
            while not all("lesson" in s.times for s in ready) and not any(t.done() for t in tasks):
                await asyncio.sleep(0.2)
            lessons = [s.times["lesson"] for s in ready if "lesson" in s.times]
            result["lesson_s"] = max(lessons) if lessons and len(lessons) == len(ready) else float("nan")  # nan: not all ran it
            begin.set()
            latencies = [latency for latencies in await asyncio.gather(*tasks) for latency in latencies]
            hub.remember()  # memory once the lesson has run and every student has dragged, kernels still open
            result["memory"] = procs.class_memory(hub.process.pid, [s.name for s in ready])
            result["transports"] = kernel_transports(hub.settings.runtime_root)
            return latencies

        latencies = asyncio.run(lessons_then_moves())
        result["moves"] = len(latencies)
        result["p50_ms"], result["p95_ms"] = (percentile(latencies, f) * 1000 for f in (0.5, 0.95))
        result["max_ms"] = max(latencies, default=float("nan")) * 1000
        if len(latencies) < len(ready) * moves:
            result["errors"].append(f"{len(ready) * moves - len(latencies)} moves got no answer")
    except Exception as error:  # noqa: BLE001 - reported as the run's error, after cleaning up
        result["errors"].append(f"run: {type(error).__name__}: {error}" + (f"\nhub log:\n{hub.tail()}" if hub else ""))
    finally:
        result["left_running"] = hub.stop() if hub else []
        if hub and keep_logs and result["errors"]:
            kept = Path(keep_logs) / f"class_hub-{students}-students-{time.strftime('%H%M%S')}.log"
            kept.write_bytes((tmp / "hub.log").read_bytes())
            result["hub_log"] = str(kept)
        result["processes"] = hub.seen if hub else {}  # {pid: start time} of every process the run saw, all stopped now
        result["tmp"] = str(tmp)
        subprocess.run(["rm", "-rf", str(tmp)], check=False)
        result["runtime_root"] = str(hub.settings.runtime_root) if hub else None
        result["load_after"] = os.getloadavg()
        result["utc"].append(utc_now())
        result["busy_after"] = procs.busiest()
    return result


def report(result, out=sys.stdout):
    m = result.get("memory", {})
    load = lambda key: "/".join(f"{x:.2f}" for x in result[key])  # noqa: E731
    print(f"--- {result['students']} students (load average before {load('load_before')}, after {load('load_after')})", file=out)
    for when in ("before", "after"):
        busy = "; ".join(f"{percent}% {command}" for percent, command in result[f"busy_{when}"]) or "nothing"
        print(f"busiest processes {when} (CPU over 1 s): {busy}", file=out)
    if "ready_s" in result:
        print(f"servers ready: {result['ready_s']:.1f} s after the first login; course pulled by all: {result['course_s']:.1f} s; "
              f"lesson run by all: {result.get('lesson_s', float('nan')):.1f} s", file=out)
    if m:
        print(f"memory per student: {m['rss_mb']:.0f} MB resident, {m['pss_mb']:.0f} MB proportional "
              f"(server {m['server_pss_mb']:.0f} MB, kernel {m['kernel_pss_mb']:.0f} MB PSS); hub + proxy + culler "
              f"{m['hub_pss_mb']:.0f} MB PSS", file=out)
    if "transports" in result:
        print(f"kernels' transport: {', '.join(result['transports']) or 'no connection file found'}", file=out)
    if result.get("moves"):
        print(f"a move's answer ({result['moves']} moves): p50 {result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms, "
              f"max {result['max_ms']:.1f} ms", file=out)
    print(f"errors: {len(result['errors'])}", file=out)
    for error in result["errors"][:10]:
        print(f"  {error}", file=out)
    if "hub_log" in result:
        print(f"the hub's log of this run: {result['hub_log']}", file=out)
    if result["left_running"]:
        print(f"processes still running after the hub stopped (killed): {result['left_running']}", file=out)


def table(results):
    """The README's sizing table: for each N, the worst of its runs (slowest p95 and readiness, most memory)."""
    lines = [
        "| students | servers ready | memory per student (resident / proportional) | move answered, p50 / p95 | errors | p95 ≤ 100 ms, no error |",
        "|---|---|---|---|---|---|",
    ]
    for n in sorted({r["students"] for r in results}):
        runs = [r for r in results if r["students"] == n]
        # The worst of the runs that measured a figure (a run stopped by an error may have none; its errors count).
        worst = lambda key, runs=runs: max((r[key] for r in runs if key in r), default=float("nan"))  # noqa: E731
        rss = max((r["memory"]["rss_mb"] for r in runs if "memory" in r), default=float("nan"))
        pss = max((r["memory"]["pss_mb"] for r in runs if "memory" in r), default=float("nan"))
        errors = sum(len(r["errors"]) for r in runs)
        lines.append(f"| {n} | {worst('ready_s'):.0f} s | {rss:.0f} MB / {pss:.0f} MB | {worst('p50_ms'):.0f} ms / {worst('p95_ms'):.0f} ms | "
                     f"{errors} | {'yes' if worst('p95_ms') <= TARGET_MS and not errors else 'no'} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[10], help="class sizes to try (default 10)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each class size; the table shows the worst")
    parser.add_argument("--moves", type=int, default=20, help="drags per student (default 20)")
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 1.5), metavar=("MIN", "MAX"),
                        help="seconds a student pauses before each drag, drawn uniformly (default 0.5 1.5)")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds the whole benchmark may take (default 1800)")
    parser.add_argument("--json", type=Path, help="also write every run's figures to this file (and beside it the hub's log of a run with errors)")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.students) or args.runs < 1 or args.moves < 1:
        parser.error(f"--students, --runs and --moves must be at least 1. Got {args.students}, {args.runs}, {args.moves} instead.")
    missing = [str(p.relative_to(ROOT)) for p in (HUB_ENV / "bin" / "jupyterhub", HUB_ENV / "bin" / "node", hub_settings.PROXY) if not p.exists()]
    if missing:
        parser.exit(2, f"class_hub.py needs the hub's environment and proxy ({', '.join(missing)} missing): run `make hub` once (or "
                       "`make .venv-hub/.hub hub/node_modules/.package-lock.json`).\n")

    def out_of_time(signum, frame):
        raise TimeoutError(f"the benchmark ran past --timeout {args.timeout} s")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
    signal.alarm(args.timeout)
    results = []
    print(f"class hub benchmark: {os.cpu_count()} cores, {procs.mem_total() / 2**30:.1f} GB; lesson {LESSON}; "
          f"{args.moves} drags per student, {args.think[0]}-{args.think[1]} s apart", flush=True)
    try:
        for n in args.students:
            for _ in range(args.runs):
                results.append(one_run(n, args.moves, tuple(args.think), seed=len(results) * 1000,
                                       keep_logs=args.json.parent if args.json else None))
                report(results[-1])
                sys.stdout.flush()
    finally:
        signal.alarm(0)
        if args.json:
            args.json.write_text(json.dumps(results, indent=1))
    print(f"\nSizing (worst of {args.runs} run{'s' * (args.runs > 1)} per class size; a move is a drop answered by the kernel):\n")
    print(table(results))
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())

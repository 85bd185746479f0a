"""The class hub running for real: a class of three through benchmarks/class_hub.py, sign-up, workshop mode, a
local course repository.

Marked ``hub``: each test needs the hub's environment (.venv-hub, built by the ``hub_environment`` fixture of
conftest.py, Node.js included) and configurable-http-proxy from npm, and is skipped with the reason where npm cannot
install the proxy (no registry). Run as root, the hubs here make Unix accounts (graded mode, or workshop mode's
shared account), each run with a prefix of its own, all removed when the hub stops. test_hub_graded.py tries the
isolation of graded mode. No test asserts a duration.
"""

import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

if sys.platform != "linux":
    pytest.skip("the class hub runs on Linux (JupyterHub's local spawner, make, and the benchmark's /proc figures); "
                "instructors on macOS or Windows serve a class from a Linux machine or with hub/k8s",
                allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
HUB_PYTHON = ROOT / ".venv-hub" / "bin" / "python"
sys.path.insert(0, str(ROOT / "benchmarks"))

import class_hub  # noqa: E402
import class_hub_isolation as isolation  # noqa: E402
import class_hub_procs as procs  # noqa: E402

pytestmark = pytest.mark.hub


@pytest.fixture
def hub_factory(hub_environment):
    """Start hubs of hub/, each in a folder of its own that every account can reach (pytest's tmp_path is root's only
    under root); each is stopped, every process it started is gone and its accounts removed, after the test."""
    hubs, folders = [], []

    def start(students=(), course=None, password=None, **settings):
        folders.append(Path(tempfile.mkdtemp(prefix="ndcg-hub-test-")))
        hub = class_hub.Hub(folders[-1], course or class_hub.course_clone(folders[-1]), students=students, **settings)
        hubs.append(hub)
        if password:
            subprocess.run([str(HUB_PYTHON), str(ROOT / "hub" / "accounts.py"), "password"], input=password + "\n", env=hub.env,
                           check=True, capture_output=True, text=True)
        return hub.start()

    yield start
    for hub, folder in zip(hubs, folders):
        hub.stop()
        shutil.rmtree(folder, ignore_errors=True)
        assert not [pid for pid, started in hub.seen.items() if procs.alive(pid, started)]
        assert hub.run_accounts() == []


def test_a_class_of_three_gets_the_course_runs_the_lesson_and_drags_with_no_error(tmp_path, hub_environment):
    """As root, the benchmark's hub is in graded mode: three accounts, made and removed by the run."""
    figures = tmp_path / "figures.json"
    run = subprocess.run(
        [str(hub_environment), str(ROOT / "benchmarks" / "class_hub.py"), "--students", "3", "--moves", "8", "--think", "0.2", "0.6",
         "--timeout", "900", "--json", str(figures)],
        capture_output=True, text=True, timeout=1000,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    [result] = json.loads(figures.read_text())
    assert result["errors"] == []
    assert result["moves"] == 3 * 8
    assert 0 < result["ready_s"] < 900 and 0 < result["course_s"] and 0 < result["lesson_s"]
    memory = result["memory"]
    assert memory["servers_found"] == 3
    assert 20 < memory["pss_mb"] <= memory["rss_mb"] < 4000
    assert 0 < memory["server_pss_mb"] and 0 < memory["kernel_pss_mb"] and 0 < memory["hub_pss_mb"]
    assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["max_ms"]
    # Kernels reach their servers over Unix sockets (no TCP port another student's kernel could take first).
    assert result["transports"] == ["ipc"]
    # Cleaned up: no process of the run is left and its folder is gone.
    assert len(result["processes"]) >= 1 + 1 + 3 * 2  # hub, proxy, a server and a kernel per student
    assert not [pid for pid, started in result["processes"].items() if procs.alive(int(pid), started)]
    assert not Path(result["tmp"]).exists() and not Path(result["runtime_root"]).exists()
    table = run.stdout.split("Sizing", 1)[1]
    assert re.search(r"^\| 3 \| \d+ s \| \d+ MB / \d+ MB \| \d+ ms / \d+ ms \| 0 \| (yes|no) \|$", table, re.M), table


def logged_in(response):
    return response.status_code == 200 and urlsplit(response.url).path == "/hub/home"


def test_a_firstuse_hub_does_not_start_before_the_instructors_password_is_set(hub_environment):
    folder = Path(tempfile.mkdtemp(prefix="ndcg-hub-test-"))
    hub = class_hub.Hub(folder, folder, auth="firstuse")
    try:
        with pytest.raises(RuntimeError, match="the hub exited with 1") as stopped:
            hub.start()
        assert "set the instructor's password first, so that nobody else can claim the name 'instructor': make hub-password" in str(stopped.value)
    finally:
        hub.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_only_names_the_hub_knows_log_in_and_each_first_login_sets_the_password(hub_factory):
    hub = hub_factory(auth="firstuse", students=["ana", "ben"], password="teach-the-class")
    person = lambda name: class_hub.Student(hub, name)  # noqa: E731 - a fresh browser each time
    instructor = person("instructor")
    # The instructor's password was set before the hub started: the first person to log in as instructor cannot set it.
    assert not logged_in(person("instructor").log_in("first-come-first-served", next_url="/hub/home", check=False))
    assert logged_in(instructor.log_in("teach-the-class", next_url="/hub/home", check=False))
    page = person("ana").http.get(f"{hub.url}/hub/login", timeout=60).text
    assert 'id="ndcg-first-login"' in page and "the password of your first login becomes yours" in page
    too_short = person("ana").log_in("short", next_url="/hub/home", check=False)
    assert not logged_in(too_short) and "Password too short! Please choose a password at least 8 characters long." in too_short.text
    assert logged_in(person("ana").log_in("ana-learns-ndcg", next_url="/hub/home", check=False))
    assert not logged_in(person("ana").log_in("another-password", next_url="/hub/home", check=False))
    assert logged_in(person("ana").log_in("ana-learns-ndcg", next_url="/hub/home", check=False))
    assert not logged_in(person("eve").log_in("eve-was-not-invited", next_url="/hub/home", check=False))
    # The instructor adds a name (what Admin > Add Users sends), and resets a forgotten password by deleting and re-adding.
    api, xsrf = f"{hub.url}/hub/api/users", instructor.xsrf("/hub/")
    assert instructor.http.post(api, json={"usernames": ["carl"]}, headers=xsrf, timeout=60).status_code == 201
    assert logged_in(person("carl").log_in("carl-joins-late", next_url="/hub/home", check=False))
    assert instructor.http.delete(f"{api}/ana", headers=xsrf, timeout=60).status_code == 204
    assert not logged_in(person("ana").log_in("ana-learns-ndcg", next_url="/hub/home", check=False))
    assert instructor.http.post(api, json={"usernames": ["ana"]}, headers=xsrf, timeout=60).status_code == 201
    assert logged_in(person("ana").log_in("ana-forgot-hers", next_url="/hub/home", check=False))


def page_config(student):
    """JupyterLab's page config on the student's server, as the browser receives it (this also sets its XSRF cookie)."""
    page = student.http.get(f"{student.hub.url}/user/{student.name}/lab", timeout=120)
    page.raise_for_status()
    return json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page.text, re.S).group(1))


def test_workshop_mode_says_it_has_no_isolation_gives_nbgrader_by_role_and_refuses_collect_and_autograde(hub_factory):
    hub = hub_factory(mode="workshop", cull_idle=0)
    assert "Mode: workshop, NO ISOLATION" in hub.tail(200)
    people = {name: class_hub.Student(hub, name) for name in ("instructor", "ana", "ben")}
    for person in people.values():
        person.log_in()
        person.wait_until_ready()
    student, teacher = page_config(people["ana"]), page_config(people["instructor"])
    page_config(people["ben"])
    assert {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment"} <= set(student["disabledExtensions"])
    assert "@jupyter/nbgrader:assignment-list" not in student["disabledExtensions"]
    assert not [name for name in teacher["disabledExtensions"] if "nbgrader" in name]
    # Never root: as root, every server runs as the one shared account; otherwise as the hub's own.
    accounts = isolation.owners(hub)
    assert set(accounts) == {"instructor", "ana", "ben"} and len(set(accounts.values())) == 1
    assert isolation.processes_as_root(hub)[0] == {}

    async def round_trip():
        teacher_api = people["instructor"]
        for folder in ("course", "course/source", "course/source/ps1"):
            isolation.api(teacher_api, "PUT", f"api/contents/{folder}", json={"type": "directory"}).raise_for_status()
        isolation.api(teacher_api, "PUT", "api/contents/course/nbgrader_config.py", json={
            "type": "file", "format": "text", "content": f"c = get_config()\nc.CourseDirectory.course_id = {isolation.COURSE_ID!r}\n"}).raise_for_status()
        isolation.api(teacher_api, "PUT", "api/contents/course/source/ps1/ps1.ipynb",
                      json={"type": "notebook", "format": "json", "content": isolation.NOTEBOOK}).raise_for_status()
        kernel = await isolation.kernel_of(teacher_api)
        try:
            results = {step: await isolation.nbgrader(kernel, step, "ps1") for step in ("generate_assignment", "release_assignment")}
            isolation.edit_and_submit(people["ana"], 42)
            isolation.edit_and_submit(people["ben"], 7)
            results["collect"] = await isolation.nbgrader(kernel, "collect", "ps1")
            # Submissions gathered by hand (what collect would have done) are refused too.
            await kernel.evaluate("import os, shutil\nshutil.copytree(os.path.expanduser('~/course/release/ps1'), "
                                  "os.path.expanduser('~/course/submitted/ana/ps1'))", "1")
            results["autograde"] = await isolation.nbgrader(kernel, "autograde", "ps1")
        finally:
            kernel.close()
        return results

    results = asyncio.run(round_trip())
    assert results["generate_assignment"][0] == 0 and results["release_assignment"][0] == 0
    for step in ("collect", "autograde"):
        status, log = results[step]
        assert status != 0 and "this hub runs in workshop mode" in log and "grade on a hub in graded mode" in log, log
    inbound = Path(hub.settings.exchange) / isolation.COURSE_ID / "inbound"
    assert sorted(entry.name.split("+")[0] for entry in inbound.iterdir()) == ["ana", "ben"]  # submitting works; grading does not


def git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.mark.parametrize("kind", ["clone", "bare"])
def test_a_local_course_repository_works_offline_given_as_a_path(hub_factory, kind):
    """NDCG_HUB_COURSE_REPO names a clone on this machine (a path, no URL scheme): nbgitpuller clones it into the
    student's home, as the student's own account when the hub is root (git must trust a repository root owns)."""
    folder = Path(tempfile.mkdtemp(prefix="ndcg-course-"))
    try:
        folder.chmod(0o755)
        course = folder / ("ndcg_teach" if kind == "clone" else "ndcg_teach.git")
        git("clone", "--quiet", "--no-local", *(["--bare"] if kind == "bare" else []), str(ROOT), str(course))
        branch = git("-C", str(course), "symbolic-ref", "--short", "HEAD")
        hub = hub_factory(students=["ana"], course_repo=str(course), course_branch=branch, cull_idle=0)
        ana = class_hub.Student(hub, "ana")
        ana.log_in()
        ana.wait_until_ready()
        page = ana.http.get(hub.url + hub.settings.share_link().removeprefix(hub.settings.public_url), timeout=120)
        page.raise_for_status()
        events = ana.http.get(f"{hub.url}/user/ana/git-pull/api?{page.url.split('?', 1)[1]}", stream=True, timeout=300)
        phases = [json.loads(line[5:]).get("phase") for line in events.iter_lines() if line.startswith(b"data:")]
        assert phases[-1] == "finished", phases
        lesson = isolation.api(ana, "GET", f"api/contents/{hub.settings.course_folder}/{hub.settings.first_lesson}?content=0")
        assert lesson.status_code == 200 and lesson.json()["type"] == "notebook"
        assert hub.settings.course_folder == course.name  # nbgitpuller names the folder after the path's last part
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_kubernetes_values_configure_traits_jupyterhub_knows(hub_environment):
    """hub.config in hub/k8s/config.yaml passes through the chart to JupyterHub: each class and trait must exist."""
    check = """
import sys, yaml
from jupyterhub.app import JupyterHub
from jupyterhub.auth import Authenticator
from firstuseauthenticator import FirstUseAuthenticator
classes = {c.__name__: c for c in (JupyterHub, Authenticator, FirstUseAuthenticator)}
config = yaml.safe_load(open(sys.argv[1]))["hub"]["config"]
for name, traits in config.items():
    for trait in traits:
        assert trait in classes[name].class_trait_names(config=True), f"{name}.{trait}"
print(sum(len(traits) for traits in config.values()))
"""
    run = subprocess.run([str(hub_environment), "-c", check, str(ROOT / "hub" / "k8s" / "config.yaml")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) >= 5

"""The class hub running for real: a class of three through benchmarks/class_hub.py, sign-up, and nbgrader by role.

Marked ``hub``: each test needs the hub's environment (.venv-hub, built here with make, Node.js included) and
configurable-http-proxy from npm, and is skipped with the reason where npm cannot install the proxy (no registry).
No test asserts a duration.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

if sys.platform != "linux":
    pytest.skip("the class hub runs on Linux (JupyterHub's local spawner, make, and the benchmark's /proc figures); "
                "instructors on macOS or Windows serve a class from a Linux machine or with hub/k8s",
                allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
HUB_PYTHON = ROOT / ".venv-hub" / "bin" / "python"
sys.path.insert(0, str(ROOT / "benchmarks"))

import class_hub  # noqa: E402
import class_hub_procs as procs  # noqa: E402

pytestmark = pytest.mark.hub


@pytest.fixture(scope="module")
def hub_environment():
    """Build .venv-hub (Node.js included) and hub/node_modules as `make hub` does (quick when they are up to date)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAKE")}
    subprocess.run(["make", ".venv-hub/.hub"], cwd=ROOT, env=env, check=True, capture_output=True)
    proxy = subprocess.run(["make", "hub/node_modules/.package-lock.json"], cwd=ROOT, env=env, capture_output=True, text=True)
    if proxy.returncode:
        pytest.skip(f"npm could not install the hub's proxy here: {(proxy.stderr or proxy.stdout).strip().splitlines()[-1:]}")
    return HUB_PYTHON


@pytest.fixture
def hub_factory(tmp_path, hub_environment):
    """Start hubs of hub/ in ``tmp_path``; each is stopped, and every process it started is gone, after the test."""
    hubs = []

    def start(**settings):
        (tmp_path / str(len(hubs))).mkdir()
        hub = class_hub.Hub(tmp_path / str(len(hubs)), class_hub.course_clone(tmp_path / str(len(hubs))), **settings)
        hubs.append(hub)
        return hub.start()

    yield start
    for hub in hubs:
        hub.stop()
        assert not [pid for pid, started in hub.seen.items() if procs.alive(pid, started)]


def test_a_class_of_three_gets_the_course_runs_the_lesson_and_drags_with_no_error(tmp_path, hub_environment):
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
    return response.status_code == 200 and response.url.endswith("/hub/home")


def test_only_names_the_hub_knows_log_in_and_each_first_login_sets_the_password(hub_factory, tmp_path):
    roster = tmp_path / "class.txt"
    roster.write_text("Ana\nben\n", encoding="utf-8")
    hub = hub_factory(auth="firstuse", students=roster)
    person = lambda name: class_hub.Student(hub, name)  # noqa: E731 - a fresh browser each time
    instructor = person("instructor")
    assert logged_in(instructor.log_in("teach-the-class", next_url="/hub/home", check=False))
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
    """JupyterLab's page config on the student's server, as the browser receives it."""
    page = student.http.get(f"{student.hub.url}/user/{student.name}/lab", timeout=120)
    page.raise_for_status()
    return json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page.text, re.S).group(1))


def nbgrader(hub, home, *args, cwd):
    """nbgrader as the instructor runs it in a terminal on the hub (the instructor's server's environment)."""
    env = {**os.environ, "HOME": str(home), "JUPYTERHUB_USER": "instructor", "JUPYTER_CONFIG_PATH": str(hub.settings.state / "config" / "instructor"),
           "PATH": f"{HUB_PYTHON.parent}{os.pathsep}{os.environ['PATH']}"}  # as the hub sets it: nbgrader runs alembic from there
    run = subprocess.run([str(HUB_PYTHON.parent / "nbgrader"), *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return run


def test_nbgrader_releases_to_students_and_collects_each_under_their_own_name(hub_factory):
    hub = hub_factory(cull_idle=0)
    people = {name: class_hub.Student(hub, name) for name in ("instructor", "ana", "ben")}
    for person in people.values():
        person.log_in()
        person.wait_until_ready()
    student, teacher = page_config(people["ana"]), page_config(people["instructor"])
    assert {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment"} <= set(student["disabledExtensions"])
    assert "@jupyter/nbgrader:assignment-list" not in student["disabledExtensions"]
    assert not [name for name in teacher["disabledExtensions"] if "nbgrader" in name]

    home = hub.settings.state / "homes" / "instructor"
    course = home / "course"
    (course / "source" / "ps1").mkdir(parents=True)
    (course / "nbgrader_config.py").write_text("c = get_config()\nc.CourseDirectory.course_id = 'ndcg-teach'\n")
    notebook = {"cells": [{"cell_type": "code", "execution_count": None, "id": "answer", "outputs": [], "source": "answer = 1  # YOUR CODE HERE",
                           "metadata": {"nbgrader": {"grade": False, "grade_id": "answer", "locked": False, "schema_version": 3, "solution": True, "task": False}}}],
                "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    (course / "source" / "ps1" / "ps1.ipynb").write_text(json.dumps(notebook))
    nbgrader(hub, home, "generate_assignment", "ps1", cwd=course)
    nbgrader(hub, home, "release_assignment", "ps1", cwd=course)
    for name in ("ana", "ben"):
        person, prefix = people[name], f"/user/{name}/"
        listed = person.http.get(f"{hub.url}{prefix}assignments?course_id=ndcg-teach", headers=person.xsrf(prefix), timeout=60).json()
        assert [a["assignment_id"] for a in listed["value"]] == ["ps1"], listed
        for action in ("fetch", "submit"):
            answer = person.http.post(f"{hub.url}{prefix}assignments/{action}", data={"course_id": "ndcg-teach", "assignment_id": "ps1"},
                                      headers=person.xsrf(prefix), timeout=120)
            assert answer.json()["success"], answer.text
    nbgrader(hub, home, "collect", "ps1", cwd=course)
    assert sorted(path.name for path in (course / "submitted").iterdir()) == ["ana", "ben"]
    assert (course / "submitted" / "ana" / "ps1" / "ps1.ipynb").is_file()


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

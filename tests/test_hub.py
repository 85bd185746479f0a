"""The class hub's settings, configuration and install files (hub/), without starting a hub (test_hub_live.py and
test_hub_graded.py do). test_hub_accounts.py checks what the configuration makes as root: accounts and the exchange."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
HUB = ROOT / "hub"
sys.path.insert(0, str(HUB))

import settings as hub_settings  # noqa: E402
from hub_config import ROOTED, FakeSpawner, config, no_runtime_folder_left, store_password  # noqa: E402, F401 (a fixture)


def test_by_default_the_hub_listens_on_this_machine_only_and_opens_the_first_lesson():
    s = hub_settings.read({})
    assert (s.ip, s.port, s.loopback, s.tls) == ("127.0.0.1", 8000, True, False)
    assert s.auth == "firstuse" and s.admin == "instructor" and s.students == ()
    link = urlsplit(s.share_link())
    assert link.scheme == "http" and link.netloc == "127.0.0.1:8000" and link.path == "/hub/user-redirect/git-pull"
    query = parse_qs(link.query)
    assert query == {
        "repo": ["https://github.com/ndcg-teach/ndcg_teach"], "branch": ["main"],
        "urlpath": ["lab/tree/ndcg_teach/notebooks/00-start-here.ipynb"],
    }
    assert (ROOT / query["urlpath"][0].removeprefix("lab/tree/ndcg_teach/")).is_file()


def test_graded_mode_is_the_default_as_root_and_workshop_otherwise():
    graded, workshop = hub_settings.read({}, uid=0), hub_settings.read({}, uid=1000)
    assert (graded.mode, graded.graded, workshop.mode, workshop.graded) == ("graded", True, "workshop", False)
    assert hub_settings.read({"NDCG_HUB_MODE": "workshop"}, uid=0).mode == "workshop"


def test_the_unix_account_of_each_student_is_tljhs_jupyter_name():
    graded = hub_settings.read({}, uid=0)
    assert graded.unix_name("ana") == "jupyter-ana"
    assert hub_settings.read({"NDCG_HUB_ACCOUNT_PREFIX": "cs101-"}, uid=0).unix_name("ana") == "cs101-ana"
    # TLJH's rule for names too long for useradd: the first 26 characters, a dash and 5 of the name's SHA-256.
    long = graded.unix_name("a-student-with-a-long-name")
    assert long == "jupyter-a-student-with-a-l-" + __import__("hashlib").sha256(b"jupyter-a-student-with-a-long-name").hexdigest()[:5]
    assert len(long) == 32
    # Workshop mode: one shared account as root, the hub's own account otherwise.
    assert hub_settings.read({"NDCG_HUB_MODE": "workshop"}, uid=0).unix_name("ana") == "jupyter-workshop"
    assert hub_settings.read({}, uid=1000).unix_name("ana") is None


def test_the_chinese_edition_and_another_course_repository_change_the_link():
    s = hub_settings.read({"NDCG_HUB_EDITION": "zh-CN", "NDCG_HUB_COURSE_REPO": "https://git.example.edu/ir/my-course/",
                           "NDCG_HUB_COURSE_BRANCH": "spring", "NDCG_HUB_PUBLIC_URL": "https://hub.example.edu/"})
    query = parse_qs(urlsplit(s.share_link()).query)
    assert s.share_link().startswith("https://hub.example.edu/hub/user-redirect/git-pull?")
    assert query["branch"] == ["spring"]
    # nbgitpuller clones into the repository's last path part; the link must open the lesson there.
    assert query["urlpath"] == ["lab/tree/my-course/notebooks/zh-CN/00-start-here.zh-CN.ipynb"]
    assert (ROOT / "notebooks/zh-CN/00-start-here.zh-CN.ipynb").is_file()


@pytest.mark.parametrize(("repo", "local", "folder"), [
    ("https://github.com/ndcg-teach/ndcg_teach", None, "ndcg_teach"),
    ("/srv/courses/ndcg_teach", "/srv/courses/ndcg_teach", "ndcg_teach"),
    ("file:///srv/courses/ndcg_teach.git", "/srv/courses/ndcg_teach.git", "ndcg_teach.git"),  # nbgitpuller keeps .git
])
def test_the_course_repository_may_be_a_clone_or_bare_repository_on_this_machine(repo, local, folder):
    s = hub_settings.read({"NDCG_HUB_COURSE_REPO": repo})
    assert (str(s.local_course) if s.local_course else None, s.course_folder) == (local, folder)
    assert f"urlpath=lab%2Ftree%2F{folder}%2Fnotebooks" in s.share_link()


@pytest.mark.parametrize(("name", "value", "message"), [
    ("PORT", "80a", "NDCG_HUB_PORT must be a port number from 1 to 65535. Got '80a' instead."),
    ("HUB_PORT", "70000", "NDCG_HUB_HUB_PORT must be a port number from 1 to 65535. Got '70000' instead."),
    ("AUTH", "pam", "NDCG_HUB_AUTH must be one of firstuse, dummy. Got 'pam' instead."),
    ("MODE", "exam", "NDCG_HUB_MODE must be one of graded, workshop. Got 'exam' instead."),
    ("EDITION", "zh", "NDCG_HUB_EDITION must be one of en, zh-CN. Got 'zh' instead."),
    ("CULL_IDLE", "1h", "NDCG_HUB_CULL_IDLE must be a whole number of seconds (0 turns culling off). Got '1h' instead."),
    ("SSL_CERT", "/nonexistent.pem", "NDCG_HUB_SSL_CERT and NDCG_HUB_SSL_KEY go together. Got only SSL_CERT."),
    ("STUDENTS", "/nonexistent/class.txt", "NDCG_HUB_STUDENTS must name a readable file of usernames, one a line. Got '/nonexistent/class.txt'"),
    ("ADMIN", "root teacher", "NDCG_HUB_ADMIN must be a username of lowercase letters, digits, '.', '_' and '-'"),
    ("ACCOUNT_PREFIX", "Jupyter ", "NDCG_HUB_ACCOUNT_PREFIX must be up to 16 lowercase letters, digits, '_' or '-'"),
    ("IPADDRESS", "0.0.0.0", "unknown setting NDCG_HUB_IPADDRESS"),
])
def test_a_bad_setting_is_refused_with_its_name_what_it_needs_and_what_it_got(name, value, message):
    with pytest.raises(hub_settings.SettingError) as error:
        hub_settings.read({f"NDCG_HUB_{name}": value})
    assert str(error.value).startswith(message)


def test_graded_mode_needs_root():
    with pytest.raises(hub_settings.SettingError, match=r"^NDCG_HUB_MODE=graded needs the hub to run as root: .* Got the hub running as uid 1000 instead\.$"):
        hub_settings.read({"NDCG_HUB_MODE": "graded"}, uid=1000)


def test_beyond_this_machine_the_hub_refuses_dummy_passwords_and_needs_tls(tmp_path):
    with pytest.raises(hub_settings.SettingError, match=r"^NDCG_HUB_AUTH=dummy lets anyone log in as anyone, .* Got NDCG_HUB_IP='0.0.0.0' instead\.$"):
        hub_settings.read({"NDCG_HUB_IP": "0.0.0.0", "NDCG_HUB_AUTH": "dummy"})
    with pytest.raises(hub_settings.SettingError, match=r"^NDCG_HUB_IP='192.0.2.7' puts the hub on the network: give it TLS .* Got neither instead\.$"):
        hub_settings.read({"NDCG_HUB_IP": "192.0.2.7"})
    cert, key = tmp_path / "hub.pem", tmp_path / "hub.key"
    cert.write_text("cert")
    key.write_text("key")
    assert hub_settings.read({"NDCG_HUB_IP": "0.0.0.0", "NDCG_HUB_SSL_CERT": str(cert), "NDCG_HUB_SSL_KEY": str(key)}).tls
    # Behind an HTTPS reverse proxy on another machine: the proxy has the certificate.
    assert hub_settings.read({"NDCG_HUB_IP": "10.0.0.5", "NDCG_HUB_PUBLIC_URL": "https://hub.example.edu"}).public_url == "https://hub.example.edu"
    for loopback in ("127.0.0.1", "::1", "localhost"):
        assert hub_settings.read({"NDCG_HUB_IP": loopback, "NDCG_HUB_AUTH": "dummy"}).loopback


def test_certificate_files_must_exist(tmp_path):
    key = tmp_path / "hub.key"
    key.write_text("key")
    with pytest.raises(hub_settings.SettingError, match=r"NDCG_HUB_SSL_CERT must name an existing file. Got '.*missing.pem' instead."):
        hub_settings.read({"NDCG_HUB_SSL_CERT": str(tmp_path / "missing.pem"), "NDCG_HUB_SSL_KEY": str(key)})


def test_a_class_list_gives_lowercased_names_once_each_and_refuses_a_name_that_cannot_be_an_account(tmp_path):
    roster = tmp_path / "class.txt"
    roster.write_text("# spring class\nAna\n\nben  # auditing\nana\n", encoding="utf-8")
    assert hub_settings.read({"NDCG_HUB_STUDENTS": str(roster)}).students == ("ana", "ben")
    roster.write_text("ana\nben smith\n", encoding="utf-8")
    with pytest.raises(hub_settings.SettingError, match=r"^NDCG_HUB_STUDENTS must list usernames of lowercase letters, .* Got 'ben smith' in .*class.txt instead\.$"):
        hub_settings.read({"NDCG_HUB_STUDENTS": str(roster)})


def test_the_configuration_is_what_hub_readme_says(tmp_path, capsys):
    store_password(tmp_path)
    c = config(tmp_path)
    state = tmp_path / "state"
    assert c.JupyterHub.bind_url == "http://127.0.0.1:8000"
    assert c.JupyterHub.hub_ip == "127.0.0.1" and c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:8001"
    assert c.ConfigurableHTTPProxy.command == [str(Path(sys.executable).parent / "node"), str(hub_settings.PROXY)]
    assert c.JupyterHub.db_url == f"sqlite:///{state / 'jupyterhub.sqlite'}"
    assert state.stat().st_mode & 0o777 == 0o700  # the database, the password hashes and the cookie secret
    assert c.JupyterHub.authenticator_class == "firstuse" and c.Authenticator.allowed_users == set()
    assert c.FirstUseAuthenticator.create_users is False and c.FirstUseAuthenticator.min_password_length == 8
    assert c.FirstUseAuthenticator.dbm_path == str(state / "passwords.dbm")
    assert c.Authenticator.admin_users == {"instructor"}
    assert c.JupyterHub.spawner_class == "spawner.ClassSpawner" and c.ClassSpawner.settings.mode == ("graded" if ROOTED else "workshop")
    assert c.JupyterHub.template_paths == [str(HUB / "templates")]
    assert c.JupyterHub.template_vars == {"ndcg_first_use": True, "ndcg_edition": "en", "ndcg_admin": "instructor"}
    assert c.Spawner.default_url == hub_settings.read({}).pull_path()
    assert c.Spawner.cmd == [str(Path(sys.executable).parent / "jupyterhub-singleuser")]
    assert "allow_root" not in json.dumps({key: str(value) for key, value in c.Spawner.items()}) and "args" not in c.Spawner
    assert [service["name"] for service in c.JupyterHub.services] == ["idle-culler"]
    assert "--timeout=3600" in c.JupyterHub.services[0]["command"]
    err = capsys.readouterr().err
    assert "Students' link" in err and f"Mode: {'graded' if ROOTED else 'workshop, NO ISOLATION'}" in err


def test_first_use_passwords_wait_for_the_instructors_own(tmp_path):
    with pytest.raises(SystemExit, match="set the instructor's password first, so that nobody else can claim the name 'instructor': make hub-password"):
        config(tmp_path)
    store_password(tmp_path, "someone-else")
    with pytest.raises(SystemExit, match="make hub-password"):
        config(tmp_path)
    store_password(tmp_path)
    assert config(tmp_path).JupyterHub.authenticator_class == "firstuse"


def test_the_login_page_tells_students_that_their_first_login_sets_their_password():
    page = (HUB / "templates" / "login.html").read_text(encoding="utf-8")
    assert page.count('id="ndcg-first-login"') == 2 and '{% extends "templates/login.html" %}' in page
    assert "the password of your first login becomes yours" in page and "第一次登录时输入的密码就成为你的密码" in page
    assert "{% if ndcg_first_use %}" in page and "{{ super() }}" in page


@pytest.mark.parametrize(("mode", "allow_all"), [("graded", False), ("workshop", True)])
def test_dummy_passwords_let_in_any_name_only_in_workshop_mode(tmp_path, mode, allow_all):
    if mode == "graded" and not ROOTED:
        pytest.skip("graded mode needs root")
    roster = tmp_path / "class.txt"
    roster.write_text("ana\nben\n", encoding="utf-8")
    c = config(tmp_path, auth="dummy", mode=mode, students=str(roster), cull_idle="0")
    assert c.JupyterHub.authenticator_class == "dummy" and c.Authenticator.allow_all is allow_all
    assert c.Authenticator.allowed_users == {"ana", "ben"} and c.JupyterHub.template_vars["ndcg_first_use"] is False
    assert "services" not in c.JupyterHub


def test_beyond_this_machine_the_hub_does_not_start_without_tls(tmp_path):
    with pytest.raises(SystemExit, match=r"The hub did not start: NDCG_HUB_IP='0.0.0.0' puts the hub on the network: give it TLS"):
        config(tmp_path, ip="0.0.0.0")
    cert, key = tmp_path / "hub.pem", tmp_path / "hub.key"
    cert.write_text("cert")
    key.write_text("key")
    store_password(tmp_path)
    c = config(tmp_path, ip="0.0.0.0", ssl_cert=str(cert), ssl_key=str(key), port="443")
    assert c.JupyterHub.bind_url == "https://0.0.0.0:443" and c.JupyterHub.ssl_cert == str(cert)


def test_kernels_reach_their_servers_over_unix_sockets_in_a_private_folder_per_student(tmp_path):
    c = config(tmp_path, auth="dummy")
    root = hub_settings.read({"NDCG_HUB_STATE": str(tmp_path / "state")}).runtime_root
    # As root the folder is only searchable by others: each student's own folder in it is made for their account.
    assert root.is_dir() and root.stat().st_mode & 0o777 == (0o711 if ROOTED else 0o700) and root.stat().st_uid == os.getuid()
    folders = {Path(c.Spawner.environment["JUPYTER_RUNTIME_DIR"](FakeSpawner(False, name, number)))
               for name, number in (("ana", 1), ("ben", 2), ("instructor", 99999))}
    assert {folder.parent for folder in folders} == {root} and len(folders) == 3
    # A Unix socket's path has at most 103 bytes on macOS (107 on Linux): the longest kernel socket fits.
    assert all(len(str(folder / hub_settings.KERNEL_SOCKET).encode()) <= 103 for folder in folders)
    for admin in (False, True):
        server = json.loads((Path(c.Spawner.environment["JUPYTER_CONFIG_PATH"](FakeSpawner(admin, "x"))) / "jupyter_server_config.json").read_text())
        assert server["ServerKernelManager"] == {"transport": "ipc", "shutdown_wait_time": 1.0}
    # Another hub on this machine (another state folder) keeps its students' sockets apart.
    assert hub_settings.read({"NDCG_HUB_STATE": str(tmp_path / "other")}).runtime_root != root


def test_a_runtime_folder_owned_by_someone_else_stops_the_hub(tmp_path):
    root = hub_settings.read({"NDCG_HUB_STATE": str(tmp_path / "state")}).runtime_root
    root.symlink_to(tmp_path)
    try:
        with pytest.raises(SystemExit, match="must be a folder of this user"):
            config(tmp_path, auth="dummy")
    finally:
        root.unlink()


def test_servers_stop_without_pythons_last_garbage_collection(tmp_path):
    """The last collection of a server's heap took 4.4 s at exit on a loaded machine; the servers' config skips it."""
    c = config(tmp_path, auth="dummy")
    folder = Path(c.Spawner.environment["JUPYTER_CONFIG_PATH"](FakeSpawner(False, "ana")))
    assert "atexit.register(gc.freeze)" in (folder / "jupyter_server_config.py").read_text()


def test_students_get_assignments_and_the_instructor_also_the_formgrader(tmp_path):
    c = config(tmp_path, auth="dummy")
    environment = c.Spawner.environment
    assert environment["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent)
    student = Path(environment["JUPYTER_CONFIG_PATH"](FakeSpawner(False, "ana")))
    instructor = Path(environment["JUPYTER_CONFIG_PATH"](FakeSpawner(True, "instructor")))
    assert student != instructor and (tmp_path / "exchange").is_dir()
    disabled = json.loads((student / "labconfig" / "page_config.json").read_text())["disabledExtensions"]
    assert set(disabled) == {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:course-list"}
    servers = json.loads((student / "jupyter_server_config.json").read_text())["ServerApp"]["jpserver_extensions"]
    assert servers == {"nbgrader.server_extensions.formgrader": False, "nbgrader.server_extensions.course_list": False}
    assert json.loads((instructor / "labconfig" / "page_config.json").read_text())["disabledExtensions"] == {}


def test_make_hub_runs_jupyterhub_from_its_own_environment_with_this_config():
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MAKE", "NDCG_HUB_"))}
    dry = subprocess.run(["make", "-n", "-W", "hub/requirements.txt", "hub", "EDITION=zh-CN"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout
    assert "pip install --quiet -r hub/requirements.txt" in dry and "-m ndcg_teach.jupyter.setup" in dry
    assert "NDCG_HUB_EDITION=${NDCG_HUB_EDITION:-zh-CN} .venv-hub/bin/jupyterhub -f hub/jupyterhub_config.py" in dry
    password = subprocess.run(["make", "-n", "-W", "hub/requirements.txt", "hub-password"], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=True).stdout
    assert password.splitlines()[-1] == ".venv-hub/bin/python hub/accounts.py password"


def test_the_proxy_is_pinned_by_a_lockfile():
    package = json.loads((HUB / "package.json").read_text())
    lock = json.loads((HUB / "package-lock.json").read_text())
    assert package["dependencies"] == {"configurable-http-proxy": "5.3.0"}
    locked = lock["packages"]["node_modules/configurable-http-proxy"]
    assert locked["version"] == "5.3.0" and locked["integrity"].startswith("sha512-")
    assert all("integrity" in entry for name, entry in lock["packages"].items() if name)


def requirement_lines(path):
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def pinned_names(lines):
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[^\s;]+(; .+)?", line) for line in lines), lines
    return {line.split("==")[0].lower() for line in lines}


def test_the_hub_environment_is_the_course_environment_plus_the_students_additions_plus_the_hub():
    lines = requirement_lines(HUB / "requirements.txt")
    assert lines[:2] == ["-r ../binder/requirements.txt", "-r singleuser-requirements.txt"]
    assert {"jupyterhub", "jupyterhub-firstuseauthenticator", "jupyterhub-idle-culler"} <= pinned_names(lines[2:])
    assert {"nbgitpuller", "nbgrader"} <= pinned_names(requirement_lines(HUB / "singleuser-requirements.txt"))


def test_the_kubernetes_image_adds_the_students_additions_to_binders_image_and_binder_stays_as_it_is():
    dockerfile = (HUB / "k8s" / "Dockerfile").read_text()
    steps = [line for line in dockerfile.replace("\\\n", "").splitlines() if line and not line.startswith("#")]
    assert steps == ["ARG BASE", "FROM ${BASE}", "COPY hub/singleuser-requirements.txt /tmp/singleuser-requirements.txt",
                     "RUN python -m pip install --no-cache-dir -r /tmp/singleuser-requirements.txt && python -m pip check"
                     "     && python -m ndcg_teach.jupyter.setup --check"]
    binder = pinned_names(requirement_lines(ROOT / "binder" / "requirements.txt"))
    assert not binder & {"nbgitpuller", "nbgrader", "jupyterhub"}


def test_the_hubs_chinese_pages_use_the_courses_terms():
    """hub/README.zh-CN.md and the Chinese login note say 交互部件, never a variant the glossary rejects (交互组件)."""
    from ndcg_teach.course.glossary import TERMS

    texts = {name: (HUB / name).read_text(encoding="utf-8") for name in ("README.zh-CN.md", "templates/login.html")}
    rejected = {variant: term.chinese for term in TERMS for variant in term.rejected}
    assert "交互组件" in rejected
    assert {(name, variant) for name, text in texts.items() for variant in rejected if variant in text} == set()
    assert "交互部件" in texts["README.zh-CN.md"]

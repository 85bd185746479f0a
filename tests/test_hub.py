"""The class hub's settings, configuration and install files (hub/), without starting a hub (test_hub_live.py does)."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from traitlets.config.loader import PyFileConfigLoader

ROOT = Path(__file__).resolve().parent.parent
HUB = ROOT / "hub"
sys.path.insert(0, str(HUB))

import settings as hub_settings  # noqa: E402


def config(tmp_path, capsys=None, **environ):
    """The hub's configuration as JupyterHub loads it, with ``NDCG_HUB_<name>`` = value for each keyword."""
    env = {"NDCG_HUB_STATE": str(tmp_path / "state"), "NDCG_HUB_EXCHANGE": str(tmp_path / "exchange")}
    env.update({f"NDCG_HUB_{name.upper()}": value for name, value in environ.items()})
    saved = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("NDCG_HUB_")}
    os.environ.update(env)
    try:
        return PyFileConfigLoader("jupyterhub_config.py", str(HUB)).load_config()
    finally:
        for name in env:
            os.environ.pop(name, None)
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def no_runtime_folder_left(tmp_path):
    """Loading the configuration creates the students' runtime folder in /tmp (outside tmp_path): remove it."""
    yield
    shutil.rmtree(hub_settings.read({"NDCG_HUB_STATE": str(tmp_path / "state")}).runtime_root, ignore_errors=True)


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


def test_the_chinese_edition_and_another_course_repository_change_the_link():
    s = hub_settings.read({"NDCG_HUB_EDITION": "zh-CN", "NDCG_HUB_COURSE_REPO": "https://git.example.edu/ir/my-course/",
                           "NDCG_HUB_COURSE_BRANCH": "spring", "NDCG_HUB_PUBLIC_URL": "https://hub.example.edu/"})
    query = parse_qs(urlsplit(s.share_link()).query)
    assert s.share_link().startswith("https://hub.example.edu/hub/user-redirect/git-pull?")
    assert query["branch"] == ["spring"]
    # nbgitpuller clones into the repository's last path part; the link must open the lesson there.
    assert query["urlpath"] == ["lab/tree/my-course/notebooks/zh-CN/00-start-here.zh-CN.ipynb"]
    assert (ROOT / "notebooks/zh-CN/00-start-here.zh-CN.ipynb").is_file()


@pytest.mark.parametrize(("name", "value", "message"), [
    ("PORT", "80a", "NDCG_HUB_PORT must be a port number from 1 to 65535. Got '80a' instead."),
    ("HUB_PORT", "70000", "NDCG_HUB_HUB_PORT must be a port number from 1 to 65535. Got '70000' instead."),
    ("AUTH", "pam", "NDCG_HUB_AUTH must be one of firstuse, dummy. Got 'pam' instead."),
    ("EDITION", "zh", "NDCG_HUB_EDITION must be one of en, zh-CN. Got 'zh' instead."),
    ("CULL_IDLE", "1h", "NDCG_HUB_CULL_IDLE must be a whole number of seconds (0 turns culling off). Got '1h' instead."),
    ("SSL_CERT", "/nonexistent.pem", "NDCG_HUB_SSL_CERT and NDCG_HUB_SSL_KEY go together. Got only SSL_CERT."),
    ("STUDENTS", "/nonexistent/class.txt", "NDCG_HUB_STUDENTS must name a readable file of usernames, one a line. Got '/nonexistent/class.txt'"),
    ("IPADDRESS", "0.0.0.0", "unknown setting NDCG_HUB_IPADDRESS"),
])
def test_a_bad_setting_is_refused_with_its_name_what_it_needs_and_what_it_got(name, value, message):
    with pytest.raises(hub_settings.SettingError) as error:
        hub_settings.read({f"NDCG_HUB_{name}": value})
    assert str(error.value).startswith(message)


def test_certificate_files_must_exist(tmp_path):
    key = tmp_path / "hub.key"
    key.write_text("key")
    with pytest.raises(hub_settings.SettingError, match=r"NDCG_HUB_SSL_CERT must name an existing file. Got '.*missing.pem' instead."):
        hub_settings.read({"NDCG_HUB_SSL_CERT": str(tmp_path / "missing.pem"), "NDCG_HUB_SSL_KEY": str(key)})


def test_a_class_list_gives_lowercased_names_once_each(tmp_path):
    roster = tmp_path / "class.txt"
    roster.write_text("# spring class\nAna\n\nben  # auditing\nana\n", encoding="utf-8")
    assert hub_settings.read({"NDCG_HUB_STUDENTS": str(roster)}).students == ("ana", "ben")


def test_the_configuration_is_what_hub_readme_says(tmp_path, capsys):
    c = config(tmp_path)
    state = tmp_path / "state"
    assert c.JupyterHub.bind_url == "http://127.0.0.1:8000"
    assert c.JupyterHub.hub_ip == "127.0.0.1" and c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:8001"
    assert c.ConfigurableHTTPProxy.command == [str(Path(sys.executable).parent / "node"), str(hub_settings.PROXY)]
    assert c.JupyterHub.db_url == f"sqlite:///{state / 'jupyterhub.sqlite'}"
    assert c.JupyterHub.authenticator_class == "firstuse" and c.Authenticator.allowed_users == set()
    assert c.FirstUseAuthenticator.create_users is False and c.FirstUseAuthenticator.min_password_length == 8
    assert c.FirstUseAuthenticator.dbm_path == str(state / "passwords.dbm")
    assert c.Authenticator.admin_users == {"instructor"}
    assert c.JupyterHub.spawner_class == "simple"
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(state / "homes" / "{username}")
    assert c.Spawner.default_url == hub_settings.read({}).pull_path()
    assert c.Spawner.cmd == [str(Path(sys.executable).parent / "jupyterhub-singleuser")]
    assert ("--ServerApp.allow_root=True" in c.Spawner.get("args", [])) == (os.getuid() == 0)
    assert [service["name"] for service in c.JupyterHub.services] == ["idle-culler"]
    assert "--timeout=3600" in c.JupyterHub.services[0]["command"]
    assert "Students' link" in capsys.readouterr().err


def test_a_class_list_lets_in_only_its_names(tmp_path):
    roster = tmp_path / "class.txt"
    roster.write_text("ana\nben\n", encoding="utf-8")
    c = config(tmp_path, students=str(roster), cull_idle="0")
    assert c.Authenticator.allowed_users == {"ana", "ben"}
    assert "services" not in c.JupyterHub


def test_listening_beyond_this_machine_without_tls_warns(tmp_path, capsys):
    c = config(tmp_path, ip="0.0.0.0", auth="dummy")
    assert c.JupyterHub.bind_url == "http://0.0.0.0:8000" and c.JupyterHub.authenticator_class == "dummy"
    assert "WARNING: the hub listens on 0.0.0.0 without TLS" in capsys.readouterr().err
    cert, key = tmp_path / "hub.pem", tmp_path / "hub.key"
    cert.write_text("cert")
    key.write_text("key")
    c = config(tmp_path, ip="0.0.0.0", ssl_cert=str(cert), ssl_key=str(key), port="443")
    assert c.JupyterHub.bind_url == "https://0.0.0.0:443" and c.JupyterHub.ssl_cert == str(cert)
    assert "without TLS" not in capsys.readouterr().err


class FakeSpawner:
    def __init__(self, admin, name, number=1):
        self.user = type("User", (), {"admin": admin, "name": name, "id": number})()


def test_kernels_reach_their_servers_over_unix_sockets_in_a_private_folder_per_student(tmp_path):
    c = config(tmp_path)
    root = hub_settings.read({"NDCG_HUB_STATE": str(tmp_path / "state")}).runtime_root
    assert root.is_dir() and root.stat().st_mode & 0o777 == 0o700 and root.stat().st_uid == os.getuid()
    folders = {Path(c.Spawner.environment["JUPYTER_RUNTIME_DIR"](FakeSpawner(False, name, number)))
               for name, number in (("ana", 1), ("ben", 2), ("instructor", 99999))}
    assert {folder.parent for folder in folders} == {root} and len(folders) == 3
    # A Unix socket's path has at most 103 bytes on macOS (107 on Linux): the longest kernel socket fits.
    assert all(len(str(folder / hub_settings.KERNEL_SOCKET).encode()) <= 103 for folder in folders)
    for admin in (False, True):
        server = json.loads((Path(c.Spawner.environment["JUPYTER_CONFIG_PATH"](FakeSpawner(admin, "x"))) / "jupyter_server_config.json").read_text())
        assert server["ServerKernelManager"] == {"transport": "ipc"}
    # Another hub on this machine (another state folder) keeps its students' sockets apart.
    assert hub_settings.read({"NDCG_HUB_STATE": str(tmp_path / "other")}).runtime_root != root


def test_a_runtime_folder_owned_by_someone_else_stops_the_hub(tmp_path):
    root = hub_settings.read({"NDCG_HUB_STATE": str(tmp_path / "state")}).runtime_root
    root.symlink_to(tmp_path)
    try:
        with pytest.raises(SystemExit, match="must be a folder of this user"):
            config(tmp_path)
    finally:
        root.unlink()


def test_students_get_assignments_and_the_instructor_also_the_formgrader(tmp_path):
    c = config(tmp_path)
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
    # Every server runs as one Unix user here, so a student's submissions must carry the hub's name for them.
    for folder, expected in ((student, {"student_id": "ana", "root": None}), (instructor, {"student_id": None, "root": "/home/i/course"})):
        loaded = PyFileConfigLoader("nbgrader_config.py", str(folder)).load_config
        saved = {name: os.environ.get(name) for name in ("JUPYTERHUB_USER", "HOME")}
        os.environ.update({"JUPYTERHUB_USER": "ana", "HOME": "/home/i"})
        try:
            nbgrader = loaded()
        finally:
            for name, value in saved.items():
                os.environ.pop(name) if value is None else os.environ.__setitem__(name, value)
        assert nbgrader.Exchange.root == str(tmp_path / "exchange")
        assert nbgrader.CourseDirectory.get("student_id") == expected["student_id"]
        assert nbgrader.CourseDirectory.get("root") == expected["root"]


def test_make_hub_runs_jupyterhub_from_its_own_environment_with_this_config():
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MAKE", "NDCG_HUB_"))}
    dry = subprocess.run(["make", "-n", "-W", "hub/requirements.txt", "hub", "EDITION=zh-CN"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout
    assert "pip install --quiet -r hub/requirements.txt" in dry and "-m ndcg_teach.setup" in dry
    assert "NDCG_HUB_EDITION=${NDCG_HUB_EDITION:-zh-CN} .venv-hub/bin/jupyterhub -f hub/jupyterhub_config.py" in dry


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
                     "     && python -m ndcg_teach.setup --check"]
    binder = pinned_names(requirement_lines(ROOT / "binder" / "requirements.txt"))
    assert not binder & {"nbgitpuller", "nbgrader", "jupyterhub"}

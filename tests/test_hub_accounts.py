"""What the class hub makes as root before any student logs in (hub/accounts.py, hub/nbgrader_exchange.py), and the
nbgrader configuration each mode gives the servers; without starting a hub (test_hub_graded.py does).

Tests that make accounts or change owners need root (CI runs as root) and are skipped, with the reason, elsewhere;
each account they make carries a prefix of its own and is removed by the configuration loader (hub_config.py).
"""

import dbm
import os
import pwd
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from traitlets.config.loader import PyFileConfigLoader

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hub"))

import accounts  # noqa: E402
import settings as hub_settings  # noqa: E402
from hub_config import FakeSpawner, config, no_runtime_folder_left, store_password  # noqa: E402, F401 (a fixture)

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="graded mode makes Unix accounts and hands folders to them: root only (CI runs as root)")


def mode_of(path):
    return path.stat().st_mode & 0o7777


@needs_root
def test_graded_mode_makes_the_instructors_account_and_nbgraders_exchange_with_sticky_bits(tmp_path):
    store_password(tmp_path)
    c = config(tmp_path)
    exchange = tmp_path / "exchange"
    assert (exchange.stat().st_uid, mode_of(exchange)) == (0, 0o1777)  # like /tmp: nobody renames what is not theirs
    prefix = c.ClassSpawner.settings.account_prefix
    for course in ("ndcg-teach", "ndcg-teach-zh-CN"):  # both editions' courses, made before any student can take the names
        folders = {name: exchange / course / name for name in ("", "outbound", "inbound", "feedback")}
        # The account was removed once the configuration was loaded (hub_config.config); the folders keep its uid.
        assert len({path.stat().st_uid for path in folders.values()}) == 1 and folders[""].stat().st_uid >= accounts.UID_MIN
        assert {name: mode_of(path) for name, path in folders.items()} == {"": 0o755, "outbound": 0o755, "inbound": 0o3733, "feedback": 0o711}
    assert prefix.startswith("ndcgu")


@needs_root
def test_a_course_folder_someone_else_made_stops_the_hub(tmp_path):
    store_password(tmp_path)
    squatted = tmp_path / "exchange" / "ndcg-teach"
    squatted.mkdir(parents=True)
    os.chown(squatted, pwd.getpwnam("nobody").pw_uid, -1)
    with pytest.raises(SystemExit, match=r"nbgrader's course folder .*ndcg-teach must belong to the instructor's account .*Got one of uid"):
        config(tmp_path)


@needs_root
def test_a_course_repository_the_students_accounts_cannot_read_stops_the_hub(tmp_path):
    """pytest's tmp_path is under a folder only root may enter: a course there would fail every student's first pull."""
    store_password(tmp_path)
    course = tmp_path / "course.git"
    course.mkdir()
    with pytest.raises(SystemExit, match=r"the students' accounts cannot reach .*course.git: .* is closed to other users"):
        config(tmp_path, course_repo=str(course))


@needs_root
def test_git_trusts_a_local_course_repository_that_root_owns(tmp_path):
    open_folder = Path("/tmp") / f"ndcg-course-{os.getpid()}"
    open_folder.mkdir(mode=0o755)
    try:
        c = config(tmp_path, auth="dummy", course_repo=f"file://{open_folder}")
        gitconfig = Path(c.Spawner.environment["GIT_CONFIG_SYSTEM"])
        assert gitconfig.read_text() == f"[include]\n\tpath = /etc/gitconfig\n[safe]\n\tdirectory = {open_folder}\n\tdirectory = {open_folder}/.git\n"
    finally:
        open_folder.rmdir()


@pytest.mark.parametrize("mode", ["graded", "workshop"])
def test_each_mode_gives_nbgrader_its_exchange_rules(tmp_path, mode):
    if mode == "graded" and os.geteuid() != 0:
        pytest.skip("graded mode needs root")
    pytest.importorskip("nbgrader", reason="nbgrader (requirements-instructor.txt) needs Python 3.11 or newer")
    c = config(tmp_path, auth="dummy", mode=mode)
    prefix = c.ClassSpawner.settings.account_prefix
    loaded = {}
    for role, admin in (("student", False), ("instructor", True)):
        folder = c.Spawner.environment["JUPYTER_CONFIG_PATH"](FakeSpawner(admin, role))
        saved = {name: os.environ.get(name) for name in ("JUPYTERHUB_USER", "HOME")}
        os.environ.update({"JUPYTERHUB_USER": "ana", "HOME": "/home/i"})
        try:
            loaded[role] = PyFileConfigLoader("nbgrader_config.py", folder).load_config()
        finally:
            for name, value in saved.items():
                os.environ.pop(name) if value is None else os.environ.__setitem__(name, value)
        assert loaded[role].Exchange.root == str(tmp_path / "exchange")
    student, instructor = loaded["student"], loaded["instructor"]
    assert student.CourseDirectory.student_id == "ana" and instructor.CourseDirectory.root == "/home/i/course"
    if mode == "graded":
        assert student.ExchangeFactory.submit == "nbgrader_exchange.PrivateSubmit"
        assert instructor.ExchangeFactory.collect == "nbgrader_exchange.OwnerCheckedCollect"
        assert instructor.OwnerCheckedCollect.account_prefix == prefix
    else:
        assert "ExchangeFactory" not in student
        assert instructor.ExchangeFactory.collect == "nbgrader_exchange.WorkshopCollect"
        with pytest.raises(SystemExit, match="this hub runs in workshop mode: every student's server runs as one shared Unix account"):
            instructor.Autograde.pre_convert_hook(assignment="ps1", student="ana", notebooks=[])


def test_a_private_folder_is_never_reached_through_a_symbolic_link(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(RuntimeError, match=r"link must be a folder. Got a symbolic link instead: remove it."):
        accounts.private_folder(tmp_path / "link", os.getuid(), os.getgid(), 0o700)
    made = accounts.private_folder(tmp_path / "new", os.getuid(), os.getgid(), 0o711)
    assert mode_of(made) == 0o711


def test_reachable_by_everyone_names_the_first_folder_or_file_that_stops_other_accounts():
    base = Path(tempfile.mkdtemp(prefix="ndcg-reach-"))
    try:
        base.chmod(0o755)
        inner = base / "a" / "b"
        inner.mkdir(parents=True)
        (inner / "f").write_text("x")
        (base / "a").chmod(0o700)
        assert accounts.reachable_by_everyone(inner / "f") == base / "a"
        (base / "a").chmod(0o755)
        assert accounts.reachable_by_everyone(inner / "f") is None
        (inner / "f").chmod(0o600)
        assert accounts.reachable_by_everyone(inner / "f") == inner / "f"
    finally:
        shutil.rmtree(base)
    assert accounts.reachable_by_everyone(Path(hub_settings.__file__)) is None  # this checkout, as the tests run it


def test_the_instructors_password_is_stored_where_and_as_first_use_reads_it(tmp_path):
    state = tmp_path / "state"
    assert not accounts.has_password(state, "instructor")
    store_password(tmp_path)
    assert accounts.has_password(state, "instructor") and not accounts.has_password(state, "ana")
    with dbm.open(accounts.password_store(state), "r") as store:
        assert list(store.keys()) == [b"instructor"]
    with pytest.raises(ValueError, match=r"^the password must have at least 8 characters. Got 5 instead.$"):
        accounts.set_password(state, "instructor", "short")

"""The class hub's Unix accounts and passwords: one account per student in graded mode, as The Littlest JupyterHub.

TLJH (``tljh/user.py``, ``tljh/normalize.py``) gives each hub user a Unix account ``jupyter-<name>``, made with
``useradd --create-home`` when their server first starts, with a home that others cannot read; a name too long for
useradd is cut and given a hash. This module does the same (the prefix is ``NDCG_HUB_ACCOUNT_PREFIX``), and makes the
private folders the hub hands to those accounts. It also sets the instructor's password before the hub first starts,
in FirstUseAuthenticator's own store (bcrypt hashes in a dbm file), so that nobody else can claim that name.

Usage (``make hub-password``; the same ``NDCG_HUB_*`` settings as ``make hub``)::

    python hub/accounts.py password       # asks twice on a terminal, or reads one line from standard input
"""

from __future__ import annotations

import dbm
import getpass
import hashlib
import os
import pwd
import signal
import subprocess
import sys
import time
from pathlib import Path

UID_MIN = 1000  # Debian's first uid for people (login.defs): an account below it is the system's, never a student's
PASSWORD_MIN = 8  # FirstUseAuthenticator.min_password_length, as jupyterhub_config.py sets it


def system_username(name: str) -> str:
    """The Unix account for ``name`` (prefix included): itself when short, else cut with a hash (TLJH's rule)."""
    if len(name) < 26:
        return name
    return f"{name[:26]}-{hashlib.sha256(name.encode()).hexdigest()[:5]}"


def ensure_account(name: str) -> pwd.struct_passwd:
    """The Unix account ``name``, made when missing (useradd, as TLJH), its home private (0700) and never a system's."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        made = subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", "--comment", "ndcg_teach class hub", name],
                              capture_output=True, text=True)
        if made.returncode:
            raise RuntimeError(f"useradd could not make the account {name}: {made.stderr.strip()}") from None
        entry = pwd.getpwnam(name)
    if entry.pw_uid < UID_MIN:
        raise RuntimeError(f"the account {name} must be a person's (uid {UID_MIN} or more), not the system's. Got uid {entry.pw_uid} instead.")
    home = Path(entry.pw_dir)
    if home.is_symlink() or not home.is_dir() or home.stat().st_uid != entry.pw_uid:
        raise RuntimeError(f"the home of {name} must be a folder that {name} owns. Got {home} instead.")
    home.chmod(0o700)
    return entry


def remove_account(name: str) -> None:
    """Remove the account ``name`` and its home (the tests' and benchmarks' accounts; the hub never removes one)."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        return
    subprocess.run(["userdel", "--remove", name], check=True, capture_output=True)


def end_processes(uid: int, grace: float = 1.0) -> list[int]:
    """End every process of the account ``uid`` (SIGTERM, then SIGKILL after ``grace`` seconds), as stopping TLJH's
    systemd unit does; returns their PIDs."""
    def running():
        found = []
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and entry.stat().st_uid == uid and "State:\tZ" not in (entry / "status").read_text():
                    found.append(int(entry.name))
            except OSError:
                continue  # it ended meanwhile
        return found

    ended = running()
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        for pid in running():
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while running() and time.monotonic() < deadline:
            time.sleep(0.05)
    return ended


def private_folder(path: Path, uid: int, gid: int, mode: int) -> Path:
    """``path`` as a folder (made when missing) of ``uid``:``gid`` with ``mode``; never through a symbolic link."""
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        pass
    if path.is_symlink() or not path.is_dir():
        raise RuntimeError(f"{path} must be a folder. Got {'a symbolic link' if path.is_symlink() else 'a file'} instead: remove it.")
    os.chown(path, uid, gid, follow_symlinks=False)
    path.chmod(mode)
    return path


def reachable_by_everyone(path: Path) -> Path | None:
    """None when any account can reach ``path`` (every folder above it searchable by others, it readable); else the
    first folder or file that stops them."""
    path = path.resolve()
    for folder in reversed(path.parents):
        if not folder.stat().st_mode & 0o001:
            return folder
    return None if path.stat().st_mode & 0o004 else path


def password_store(state: Path) -> str:
    """FirstUseAuthenticator's dbm file of password hashes (``dbm_path`` in jupyterhub_config.py)."""
    return str(state / "passwords.dbm")


def has_password(state: Path, name: str) -> bool:
    try:
        with dbm.open(password_store(state), "r") as store:
            return name.encode() in store
    except dbm.error:
        return False


def set_password(state: Path, name: str, password: str) -> None:
    """Store ``name``'s password as FirstUseAuthenticator checks it (a bcrypt hash under the name)."""
    if len(password) < PASSWORD_MIN:
        raise ValueError(f"the password must have at least {PASSWORD_MIN} characters. Got {len(password)} instead.")
    import bcrypt  # the hub's environment has it (FirstUseAuthenticator's own dependency)

    state.mkdir(mode=0o700, parents=True, exist_ok=True)
    with dbm.open(password_store(state), "c", 0o600) as store:
        store[name.encode()] = bcrypt.hashpw(password.encode(), bcrypt.gensalt())


def ask_password(name: str) -> str:
    """The new password: typed twice on a terminal, or one line of standard input (a script, a test)."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass(f"New password for {name} (at least {PASSWORD_MIN} characters): ")
    if getpass.getpass("The same again: ") != first:
        raise ValueError("the two passwords must be the same. Got two different ones instead.")
    return first


def main(argv: list[str] | None = None) -> int:
    import settings as hub_settings

    argv = sys.argv[1:] if argv is None else argv
    if argv != ["password"]:
        print(__doc__.split("Usage", 1)[1].strip(), file=sys.stderr)
        return 2
    try:
        s = hub_settings.read()
        set_password(s.state, s.admin, ask_password(s.admin))
    except (hub_settings.SettingError, ValueError) as error:
        print(f"The password was not set: {error}", file=sys.stderr)
        return 1
    print(f"{s.admin}'s password is set (in {password_store(s.state)}). Start the hub with `make hub`.")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())

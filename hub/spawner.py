"""Each student's server on the class hub: as the student's own Unix account (graded) or one shared account (workshop).

JupyterHub's LocalProcessSpawner starts a server as the Unix user of the hub user's name; TLJH's
UserCreatingSpawner makes that user first (``jupyter-<name>``). This spawner does the same for graded mode, and in
workshop mode runs every server as one account: the hub's own when the hub is not root, else an account made for
the purpose (``jupyter-workshop``). A server never runs as root: ``start`` refuses before anything is spawned.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import sys
from pathlib import Path

from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid
from traitlets import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accounts import end_processes, ensure_account, private_folder  # noqa: E402


class ClassSpawner(LocalProcessSpawner):
    """A student's server, as the Unix account that ``settings.unix_name`` gives the student."""

    settings = Any(help="hub/settings.py's Settings, given by jupyterhub_config.py").tag(config=True)
    _accounts = asyncio.Lock()  # useradd locks /etc/passwd: one account at a time when a class logs in at once

    @property
    def unix_name(self) -> str | None:
        return self.settings.unix_name(self.user.name)

    @property
    def home(self) -> Path:
        """The student's home: their account's (graded), else a folder of theirs in the shared account's home."""
        if self.settings.graded:
            return Path(pwd.getpwnam(self.unix_name).pw_dir)
        if self.unix_name:
            return Path(pwd.getpwnam(self.unix_name).pw_dir) / "homes" / self.user.name
        return self.settings.state / "homes" / self.user.name

    def _prepare(self) -> None:
        """As root: the account, its home and its private runtime folder (kernels' sockets) before the server starts."""
        runtime = self.settings.runtime_dir(self.user.id)
        if self.unix_name is None:
            self.home.mkdir(parents=True, exist_ok=True)
            return
        account = ensure_account(self.unix_name)
        if not self.settings.graded:
            private_folder(self.home.parent, account.pw_uid, account.pw_gid, 0o755)
            private_folder(self.home, account.pw_uid, account.pw_gid, 0o755)
        private_folder(runtime, account.pw_uid, account.pw_gid, 0o700)

    def make_preexec_fn(self, name):
        home = str(self.home)
        become = set_user_setuid(self.unix_name, chdir=False) if self.unix_name else None

        def preexec():
            if become:
                become()
            os.chdir(home)

        return preexec

    def user_env(self, env):
        env["USER"] = self.unix_name or pwd.getpwuid(os.getuid()).pw_name
        env["HOME"] = str(self.home)
        env["SHELL"] = "/bin/bash"
        return env

    async def start(self):
        if self.unix_name is None and os.geteuid() == 0:
            raise RuntimeError(f"refusing to start {self.user.name}'s server as root: the hub gives every server an account of its own.")
        async with self._accounts:
            await asyncio.to_thread(self._prepare)  # ensure_account refuses an account below uid 1000, root's included
        return await super().start()

    async def stop(self, now=False):
        """SIGTERM first: jupyter_server then shuts its kernels and terminals down, while SIGINT, which JupyterHub sends
        first, skips that when the server has no terminal. Then, in graded mode, whatever the student's account still
        runs ends too, as when TLJH stops a student's systemd unit."""
        await super().stop(now=True)
        try:
            account = pwd.getpwnam(self.unix_name) if self.settings.graded else None
        except KeyError:  # removed by hand meanwhile: none of its processes can be left
            account = None
        if account:
            await asyncio.to_thread(end_processes, account.pw_uid)

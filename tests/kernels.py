"""Kernels that talk over Unix sockets instead of TCP ports, for every kernel a test starts itself.

A kernel manager picks free TCP ports and the kernel binds them a moment later. Two processes starting kernels at
the same time (pytest-xdist's workers, the second numeric setting beside the main run) draw the same port now and
then: the kernel that binds it second dies ("Address already in use") and its client waits for a kernel that never
answers. A Unix socket is a file named by this process and a random id, so no other process can take it.

- nbval's kernels: the root conftest.py sets :class:`UnixSocketKernelManager` as nbval's manager in every run;
- nbclient and nbconvert's ``ExecutePreprocessor``: ``kernel_manager_class=AsyncUnixSocketKernelManager``;
- ``jupyter nbconvert --execute`` and nbgrader in a subprocess: :func:`command_line_options`;
- a Jupyter server: ``--ServerKernelManager.transport=ipc`` (tests/browser/jupyter_harness.py), whose kernels name
  their sockets after their connection files in the server's own runtime folder.
"""

import atexit
import os
import shutil
import tempfile
import uuid

from jupyter_client.manager import AsyncKernelManager, KernelManager

FOLDER = tempfile.mkdtemp(prefix="kernels-")  # short: a socket's path may have at most 107 characters
atexit.register(shutil.rmtree, FOLDER, ignore_errors=True)


def socket_prefix():
    """A path no other kernel uses; the kernel's five sockets are this path and ``-<n>``."""
    return os.path.join(FOLDER, uuid.uuid4().hex[:12])


class UnixSocketKernelManager(KernelManager):
    def __init__(self, **kwargs):
        super().__init__(**{**kwargs, "transport": "ipc", "ip": socket_prefix()})


class AsyncUnixSocketKernelManager(AsyncKernelManager):
    def __init__(self, **kwargs):
        super().__init__(**{**kwargs, "transport": "ipc", "ip": socket_prefix()})


def command_line_options():
    """Options for a Jupyter command (``nbconvert --execute``, ``nbgrader autograde``) whose kernels use Unix sockets."""
    return ["--KernelManager.transport=ipc", f"--KernelManager.ip={socket_prefix()}"]

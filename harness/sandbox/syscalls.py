"""The harness's side of the seccomp filter (:mod:`harness.sandbox.bot.seccomp`): whether it is
applied, the worker's argument that installs it, and the program bubblewrap loads.

The container tier (plain mode) has the worker install the filter itself (``ctypes`` is loaded
there already); under bubblewrap, bubblewrap loads the same program from a pipe (``--seccomp``)
right before it runs the bot's command, so the bot's interpreter pays nothing for it.
``HARNESS_SECCOMP=0`` turns it off, for a diagnosis (``harness doctor`` says so).
"""

from __future__ import annotations

import functools
import os

from harness.sandbox.bot import seccomp


def enabled() -> bool:
    """False where the operator turned the filter off (``HARNESS_SECCOMP=0``)."""
    return os.environ.get("HARNESS_SECCOMP") != "0"


@functools.cache  # fixed for the life of the process
def program() -> bytes:
    """The filter for this machine; raises :class:`seccomp.UnsupportedArch` (an ``OSError``:
    the bot is then not started, ``harness_error``)."""
    return seccomp.program(seccomp.machine())


def worker_args() -> list[str]:
    """The worker's argument that makes it install the filter (plain mode)."""
    return ["seccomp"] if enabled() else []


def bwrap_pipe() -> int | None:
    """A pipe's read end holding the program, for ``bwrap --seccomp FD`` (None: turned off).

    The caller passes it to bubblewrap and closes it. The program (a few hundred bytes) fits a
    pipe's buffer, so writing it here never blocks.
    """
    if not enabled():
        return None
    data = program()
    read, write = os.pipe()
    try:
        os.write(write, data)
    except BaseException:
        os.close(read)
        raise
    finally:
        os.close(write)
    return read


__all__ = ["bwrap_pipe", "enabled", "program", "worker_args"]

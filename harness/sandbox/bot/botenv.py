"""The bot's process made ready for the bot, before any of its code runs (imported by the worker).

Imported by the worker as ``_harness_botenv`` (standard library only, and no more of it than a
start needs): the bot's files copied where it runs (:func:`copy_files`), its resource limits
(:func:`apply_rlimits`), its death with the harness in plain mode (:func:`die_with_parent`), its ``random`` seeded from
the game's seed (:class:`SeededRandom`), and ``threading`` and ``signal`` as a bot saw them on the
course's grader (:class:`CourseThreads`).
"""

from __future__ import annotations

import _frozen_importlib_external
import os
import sys

TYPE_CHECKING = False  # typing would cost milliseconds of every bot's start
if TYPE_CHECKING:
    from typing import Any

# Bound now, before any bot code runs (see the worker).
_exit = os._exit
_PathFinder = _frozen_importlib_external.PathFinder


class _FirstImport:
    """A meta path finder that adjusts some standard library modules the first time anything
    imports them (:meth:`adjust`), then leaves ``sys.meta_path``.

    The modules are found in the standard library only (a bot's own ``random.py`` is not
    adjusted, and stays the bot's) and keep their usual loader, so a module looks as a plain
    import leaves it.
    """

    NAMES: tuple[str, ...] = ()

    def __init__(self, stdlib: list[str]) -> None:
        self.stdlib = list(stdlib)
        self.loaders: dict[str, Any] = {}
        self.done: set[str] = set()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in self.NAMES or name in self.done:
            return None
        spec = _PathFinder.find_spec(name, self.stdlib)
        if spec is None or spec.loader is None:  # pragma: no cover - a Python without the module
            return None
        self.loaders[name], spec.loader = spec.loader, self
        return spec

    def create_module(self, spec: Any) -> Any:
        return self.loaders[spec.name].create_module(spec)

    def exec_module(self, module: Any) -> None:
        name = module.__name__
        loader = self.loaders[name]
        module.__loader__ = module.__spec__.loader = loader  # the module as a plain import leaves it
        loader.exec_module(module)
        self.adjust(module)
        # Only now: a mere importlib.util.find_spec() before the import must not skip the adjustment.
        self.done.add(name)
        if len(self.done) == len(self.NAMES):
            try:
                sys.meta_path.remove(self)
            except ValueError:  # the bot took it out itself
                pass

    def adjust(self, module: Any) -> None:
        raise NotImplementedError

    def invalidate_caches(self) -> None:
        pass


class SeededRandom(_FirstImport):
    """The standard library's ``random``, seeded from the game's seed, the first time anything
    imports it.

    Importing ``random`` for every bot would cost each start about 1.5 ms (``warnings``,
    ``bisect``, ``_sha512`` ...) that a bot which never uses it does not need. Whoever imports
    it first (the bot, a library) gets it seeded before the import returns, so no bot code sees
    it unseeded, exactly as if the worker had imported and seeded it before the bot's module.
    """

    NAMES = ("random",)

    def __init__(self, seed: Any, stdlib: list[str]) -> None:
        super().__init__(stdlib)
        self.seed = seed

    def adjust(self, module: Any) -> None:
        module.seed(self.seed)


class CourseThreads(_FirstImport):
    """``threading`` and ``signal`` as a bot saw them on the course's grader, the first time
    anything imports them.

    The course's manager ran the bot's calls on a thread of their own (func-timeout's), never
    on the process's main thread, and a real bot's verdict can hang on that: ``signal.signal``
    raises ``ValueError`` there (a bot that sets a ``SIGALRM`` of its own to stop its search
    failed with an exception on the grader), ``asyncio.get_event_loop()`` raises
    ``RuntimeError``, and ``asyncio.run`` leaves ``SIGINT`` alone. Here the bot's code runs on
    the main thread, which saves every start ``threading``'s imports (about 3 ms), so the first
    import of each module is made to tell what the grader's would: ``threading``'s main thread
    is the worker's clock thread (the bot's thread becomes a "dummy" thread, as any thread
    ``threading`` did not start), and ``signal.signal`` and ``signal.set_wakeup_fd`` raise
    Python's own error for a call off the main thread.
    """

    NAMES = ("threading", "signal")

    def __init__(self, stdlib: list[str], main_ident: int, main_native_id: Any = None) -> None:
        super().__init__(stdlib)
        self.main_ident = main_ident  # the thread threading shall call its main thread
        self.main_native_id = main_native_id

    def adjust(self, module: Any) -> None:
        if module.__name__ == "threading":
            main = module._main_thread
            with module._active_limbo_lock:
                module._active.pop(main._ident, None)
                main._ident = self.main_ident
                if self.main_native_id is not None:
                    main._native_id = self.main_native_id
                module._active[self.main_ident] = main
        else:
            module.signal = _off_main("signal", module.signal)
            module.set_wakeup_fd = _off_main("set_wakeup_fd", module.set_wakeup_fd)


def _off_main(name: str, real: Any) -> Any:
    """``real`` as called off the main thread: Python's own refusal (see :class:`CourseThreads`)."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise ValueError(f"{name} only works in main thread of the main interpreter")

    refuse.__name__ = refuse.__qualname__ = real.__name__
    refuse.__doc__ = real.__doc__
    refuse.__module__ = real.__module__
    return refuse


def copy_files(code_dir: str, work_dir: str) -> None:
    """Copy the submission's files into the working directory (before any bot code runs)."""
    for name in os.listdir(code_dir):
        src = os.path.join(code_dir, name)
        if os.path.isfile(src):
            with open(src, "rb") as f, open(os.path.join(work_dir, name), "wb") as g:
                g.write(f.read())


def apply_rlimits(limits: dict[str, int]) -> list[str]:
    """Set soft = hard limits for this process (and anything it starts); the names that took."""
    try:
        import resource
    except ImportError:  # Windows
        return []
    applied = []
    for name, value in limits.items():
        which = getattr(resource, f"RLIMIT_{name}", None)
        if which is None:
            continue
        try:
            hard = resource.getrlimit(which)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (value, value))
            applied.append(name)
        except (OSError, ValueError):
            pass  # e.g. macOS refuses RLIMIT_AS: the memory cap is then not enforced
    return applied


def die_with_parent() -> None:
    """Linux: be killed when the process that started us (the harness) dies, even by ``kill -9``.

    Plain mode only: under bubblewrap the worker's parent is its PID namespace's init, which
    ``--die-with-parent`` ties to the harness, and the kernel kills every process of a PID
    namespace whose init dies (``ctypes`` would cost every start milliseconds for nothing).
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # 1 = PR_SET_PDEATHSIG, 9 = SIGKILL
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        _exit(0)


__all__ = ["CourseThreads", "SeededRandom", "apply_rlimits", "copy_files", "die_with_parent"]

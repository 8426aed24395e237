"""The bot-side worker: runs in the bot's own process and calls the bot's code on request.

Started by :class:`harness.sandbox.process.BotProcess` as
``python -I worker.py REQUEST_FD REPLY_FD``. It speaks :mod:`wire` frames over two pipes that
are not stdin/stdout (the bot's prints go to stdout/stderr, which the parent captures).

Requests (JSON objects) and what the worker does:

* ``{"op": "load", "path", "sys_path", "wire", "seed", "limit", "class", "forbidden"}``:
  seed ``random``, import the bot's module, find its class; reply with its public methods.
* ``{"op": "call", "method", "args", "limit"}``: construct (``__init__``), set an attribute
  (``setattr``) or call a method, under ``func_timeout``; reply with the encoded answer.
* ``{"op": "quit"}``: exit.

The worker's own stop (``func_timeout``) exists to say *where* a slow bot was stuck; the
parent's kill at the limit plus a grace is the authority on time. Process creation and the
game's forbidden imports are refused through an audit hook and reported as ``forbidden``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import random
import sys
import threading
import time
import traceback
from types import FrameType, ModuleType, TracebackType
from typing import Any

# Bound now, before any bot code runs, so a bot that monkeypatches these modules cannot
# change what the worker measures or how it talks to the parent.
_cpu_clock = time.process_time
_write = os.write
_exit = os._exit


def _load_wire() -> ModuleType:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wire.py")
    spec = importlib.util.spec_from_file_location("_harness_wire", path)
    assert spec is not None and spec.loader is not None  # our own file: always present
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


wire = _load_wire()
sys.path.extend(p for p in sys.argv[3:] if p not in sys.path)  # -S: the parent names site-packages
from func_timeout import FunctionTimedOut  # noqa: E402  (after wire: stdlib first)
from func_timeout.StoppableThread import StoppableThread  # noqa: E402

MAX_ANSWER_BYTES = 1 << 20
REASON_CHARS = 2000

# Audit events that start a process. ctypes would let a bot bypass the hook altogether.
_PROCESS_EVENTS = {
    "os.fork": "os.fork", "os.forkpty": "os.forkpty", "os.system": "os.system",
    "os.exec": "os.exec*", "os.posix_spawn": "os.posix_spawn", "os.spawn": "os.spawn*",
    "subprocess.Popen": "subprocess.Popen", "pty.spawn": "pty.spawn",
}


class Forbidden(RuntimeError):
    """Raised inside the bot when it does something the sandbox refuses."""


class BotThread:
    """The one thread that runs all of the bot's code, stoppable through ``func_timeout``.

    A persistent thread costs a hand-off per call (about 20 us) where ``func_timeout()``
    would start a new thread per call (about 130 us); two C-level queues make the hand-off; the stop is ``func_timeout``'s own
    (``StoppableThread``: an asynchronous ``FunctionTimedOut`` raised inside the bot's code).
    """

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.jobs: queue.SimpleQueue[tuple[Any, tuple[Any, ...]]] = queue.SimpleQueue()
        self.results: queue.SimpleQueue[bool] = queue.SimpleQueue()  # C-level: the fastest hand-off
        self.value: Any = None
        self.exc: BaseException | None = None
        self.ident: int | None = None
        self.thread = StoppableThread(target=self.loop, name="bot", daemon=True)
        self.thread.start()

    def loop(self) -> None:
        self.ident = threading.get_ident()
        while True:
            fn, args = self.jobs.get()
            self.worker.active = True
            try:
                self.value, self.exc = fn(*args), None
            except BaseException as exc:  # noqa: BLE001 - the bot may raise anything
                self.value, self.exc = None, exc
            finally:
                self.worker.active = False
                self.results.put(True)

    def run(self, fn: Any, args: tuple[Any, ...], limit: float) -> bool:
        """Run ``fn(*args)`` on the bot thread; False if it did not finish within ``limit``."""
        self.jobs.put((fn, args))
        try:
            return self.results.get(timeout=limit)
        except queue.Empty:
            return False

    def stop(self) -> None:
        """Interrupt the bot's code (the parent kills the process after a timeout anyway)."""
        self.thread._stopThread(FunctionTimedOut)


class Worker:
    """State of one bot process: its module, class, instance and the policy it runs under."""

    def __init__(self, req_fd: int, rep_fd: int) -> None:
        self.req_fd = req_fd
        self.rep_fd = rep_fd
        self.player_path = ""
        self.cls: type | None = None
        self.instance: Any = None
        self.wire_by_class: dict[type, str] = {}
        self.class_by_wire: dict[str, type] = {}
        self.forbidden_imports: frozenset[str] = frozenset()
        self.violation: str | None = None
        self.active = False  # True while bot code runs: the audit hook only judges the bot
        self.executor = BotThread(self)

    # ---- policy -------------------------------------------------------------------------
    def audit(self, event: str, args: tuple[Any, ...]) -> None:
        """Refuse process creation and forbidden imports while bot code runs."""
        if not self.active:
            return
        what = _PROCESS_EVENTS.get(event)
        if what is None and event == "import" and args:
            top = str(args[0]).partition(".")[0]
            if top in self.forbidden_imports:
                what = f"import of {top!r}, which the game's policy forbids"
        elif what is None and event == "ctypes.dlopen":
            what = "ctypes.dlopen"
        if what is not None:
            if self.violation is None:
                self.violation = f"{what} is not allowed{self.where_now()}"
            raise Forbidden(f"the sandbox refuses {what}")

    def where_now(self) -> str:
        frame: FrameType | None = sys._getframe(2)
        while frame is not None:
            if frame.f_code.co_filename == self.player_path:
                return f" (player.py line {frame.f_lineno} in {frame.f_code.co_name})"
            frame = frame.f_back
        return ""

    # ---- protocol ------------------------------------------------------------------------
    def reply(self, message: dict[str, Any]) -> None:
        """Send a reply; an already encoded answer (``"encoded"``) is spliced in, not re-encoded."""
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a bot may have replaced or closed them
                pass
        encoded = message.pop("encoded", None)
        payload = json.dumps(message, default=str).encode()
        if encoded is not None:
            payload = payload[:-1] + b',"value":' + encoded + b"}"
        wire.write_frame(self.rep_fd, payload)

    def serve(self) -> None:
        while True:
            try:
                request = wire.parse(wire.read_frame(self.req_fd, 64 << 20))
            except EOFError:
                _exit(0)
            op = request.get("op")
            if op == "quit":
                _exit(0)
            elif op == "load":
                self.reply(self.load(request))
            elif op == "call":
                self.reply(self.call(request))
            else:
                self.reply({"ok": False, "verdict": "harness_error", "reason": f"unknown op {op!r}"})

    def build_object(self, name: Any, type_name: str, fields: dict[str, Any]) -> Any:
        cls = self.class_by_wire.get(name) if isinstance(name, str) else None
        if cls is None:
            raise wire.WireError(f"the harness sent an unknown object type {type_name!r}")
        obj = cls.__new__(cls)
        for key, value in fields.items():
            object.__setattr__(obj, key, value)  # works for __slots__ and read-only views
        return obj

    # ---- operations ----------------------------------------------------------------------
    def load(self, request: dict[str, Any]) -> dict[str, Any]:
        self.player_path = os.path.abspath(request["path"])
        for entry in reversed(request["sys_path"]):
            sys.path.insert(0, entry)
        for name, (module_name, class_name) in request["wire"].items():
            cls = getattr(importlib.import_module(module_name), class_name)
            self.wire_by_class[cls] = name
            self.class_by_wire[name] = cls
        self.forbidden_imports = frozenset(request["forbidden"])
        random.seed(request["seed"])

        def do_import() -> ModuleType:
            module_name = os.path.splitext(os.path.basename(self.player_path))[0]
            spec = importlib.util.spec_from_file_location(module_name, self.player_path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
            return module

        result = self.run(do_import, (), request["limit"], "import of player.py")
        if not result["ok"]:
            return result
        module = result.pop("raw")
        cls = getattr(module, request["class"], None)
        if not isinstance(cls, type):
            return {"ok": False, "verdict": "exception",
                    "reason": f"player.py defines no class {request['class']}"}
        self.cls = cls
        methods = sorted(n for n in dir(cls) if not n.startswith("_") and callable(getattr(cls, n, None)))
        result["value"] = methods
        return result

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        method = request["method"]
        args = tuple(wire.decode_value(request["args"], self.build_object))
        if method == "setattr":
            name, value = args
            setattr(self.instance, name, value)
            return {"ok": True, "value": None, "cpu": 0.0}
        if self.cls is None:
            return {"ok": False, "verdict": "harness_error", "reason": "call before load"}
        if method == "__init__":
            result = self.run(self.cls, args, request["limit"], f"{self.cls.__name__}(...)")
            if result["ok"]:
                self.instance = result.pop("raw")
                result["value"] = None
                result["info"] = {k: str(getattr(self.instance, k))[:200]
                                  for k in ("playerName", "version", "name")
                                  if isinstance(getattr(self.instance, k, None), (str, int, float))}
            return result
        if self.instance is None:
            return {"ok": False, "verdict": "harness_error", "reason": "call before construction"}
        bound = getattr(self.instance, method, None)
        if not callable(bound):
            return {"ok": False, "verdict": "exception",
                    "reason": f"{self.cls.__name__} has no method {method}()"}
        result = self.run(bound, args, request["limit"], f"{method}()")
        if result["ok"]:
            raw = result.pop("raw")
            try:
                result["encoded"] = wire.dumps(raw, self.wire_by_class, max_bytes=MAX_ANSWER_BYTES)
            except wire.WireError as exc:
                return {"ok": False, "verdict": "bad_answer", "reason": f"{method}() returned {exc}",
                        "cpu": result["cpu"]}
            except RecursionError:
                return {"ok": False, "verdict": "bad_answer",
                        "reason": f"{method}() returned a structure too deep to encode",
                        "cpu": result["cpu"]}
        return result

    def run(self, fn: Any, args: tuple[Any, ...], limit: float, what: str) -> dict[str, Any]:
        """Call bot code on the bot thread with a deadline; map every outcome to a reply."""
        self.violation = None
        start = _cpu_clock()
        if not self.executor.run(fn, args, limit):
            # Where the bot is right now, before the stop exception unwinds its frames.
            where = self.where(None, sys._current_frames().get(self.executor.ident or -1))
            self.executor.stop()
            return {"ok": False, "verdict": "timeout", "cpu": _cpu_clock() - start,
                    "reason": f"{what} did not return within {limit:g} s"
                              + (f" (stuck{where})" if where else "")}
        cpu = _cpu_clock() - start
        if self.violation is not None:
            return {"ok": False, "verdict": "forbidden", "reason": self.violation, "cpu": cpu}
        exc = self.executor.exc
        if exc is None:
            return {"ok": True, "raw": self.executor.value, "cpu": cpu}
        where = self.where(exc.__traceback__, None)
        if isinstance(exc, MemoryError):
            return {"ok": False, "verdict": "memory", "cpu": cpu,
                    "reason": f"{what} ran out of memory (MemoryError){where}"}
        if isinstance(exc, SystemExit):
            return {"ok": False, "verdict": "crash", "cpu": cpu,
                    "reason": f"{what} called sys.exit({exc.code!r}){where}"}
        text = "".join(traceback.format_exception(type(exc), exc, self.bot_frames(exc.__traceback__)))
        return {"ok": False, "verdict": "exception", "cpu": cpu,
                "reason": f"{what} raised {type(exc).__name__}: {_short(exc)}{where}",
                "traceback": text[-REASON_CHARS:]}

    def bot_frames(self, tb: TracebackType | None) -> TracebackType | None:
        """The traceback from the first frame in the bot's own file on (drops the worker's)."""
        while tb is not None and tb.tb_frame.f_code.co_filename != self.player_path:
            tb = tb.tb_next
        return tb

    def where(self, tb: TracebackType | None, frame: FrameType | None) -> str:
        """Where the bot was: the deepest frame in player.py (from a traceback or a live frame)."""
        found: tuple[int, str] | None = None
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == self.player_path:
                found = (tb.tb_lineno, code.co_name)
            tb = tb.tb_next
        while found is None and frame is not None:
            if frame.f_code.co_filename == self.player_path:
                found = (frame.f_lineno, frame.f_code.co_name)
            frame = frame.f_back
        if found is None:
            return ""
        return f" at {os.path.basename(self.player_path)} line {found[0]} in {found[1]}"


def _short(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - a bot's exception may fail to print
        text = "<unprintable>"
    return text[:300]


def _die_with_parent() -> None:
    """Linux: be killed when the harness process that started us dies (even by ``kill -9``)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        _exit(0)


def main() -> None:
    req_fd, rep_fd = int(sys.argv[1]), int(sys.argv[2])
    _die_with_parent()
    worker = Worker(req_fd, rep_fd)
    sys.addaudithook(worker.audit)
    del sys.argv[1:]
    worker.serve()


if __name__ == "__main__":
    main()

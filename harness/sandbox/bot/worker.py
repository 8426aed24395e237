"""The bot-side worker: runs in the bot's own process and calls the bot's code on request.

Started by :class:`harness.sandbox.process.BotProcess` as
``python -I -S -B worker.pyc REQUEST_FD REPLY_FD [pdeathsig [seccomp] [landlock ABI r:PATH ... w:PATH ...]]``
(under bubblewrap where available; ``landlock``: the container tier's ruleset, applied first;
``seccomp``: plain mode's syscall filter, :mod:`seccomp`, installed next),
from the folder of compiled bot-side files (:mod:`harness.sandbox.botside`), where the modules
it imports are ``_harness_wire``, ``_harness_guard`` (which imports ``_harness_unaudited``),
``_harness_construct`` and ``_harness_botenv`` (and ``_harness_landlock`` and ``_harness_seccomp``,
in plain mode only).
It speaks :mod:`wire` frames over two pipes that are not stdin/stdout (the bot's prints go to
stdout/stderr, which the parent captures). ``pdeathsig`` (plain mode) asks it to die with the
harness; under bubblewrap its PID namespace does that (``--die-with-parent``).

The worker first sends ``{"hello": true, "seq": 0}``; then it serves requests, each a JSON
object with a ``seq`` number that its reply echoes:

* ``{"op": "load", "path", "work", "sys_path", "wire", "seed", "limit", "policy", "backstop",
  "class", "forbidden", "rlimits", "max_threads"}``: apply the resource limits, arm the guard
  (:mod:`guard`), seed ``random``, import the bot's module, find its class; reply with its
  public methods.
* ``{"op": "call", "method", "args", "limit", "policy", "backstop"}`` (``backstop``: a factor of
  ``limit``, as everywhere; the rule is :mod:`deadline`'s): construct
  (``__init__``), set an attribute (``setattr``) or call a method; reply with the encoded answer.
  A constructor call may add ``"params"`` (the arguments' names) and ``"optional"`` (how many
  trailing arguments the class may leave out; see :mod:`construct`).
* ``{"op": "quit"}``: exit.

Every piece of bot code runs on one thread (the bot thread: the process's main thread, as in
a script the bot would run itself), and so does everything that can run bot code indirectly:
decoding the arguments into bot API objects (built with ``object.__new__``, never the class's
own ``__new__``), encoding the answer, printing an exception, reading attributes, dropping the
bot's objects. The bot thread also reads each request and writes its reply, so a call wakes one
thread once. The worker's clock (:meth:`Worker.watch`) is a second thread, started with
``_thread`` (``threading`` would cost every start about 3 ms; a bot that imports it pays for
it, and sees what it saw on the course's grader, whose calls ran on a thread of their own:
see ``botenv.CourseThreads``): it allocates nothing while it watches, and
builds a reply only when a clock ran out. Nothing here is trusted by the parent (:mod:`harness.sandbox.judge`): a bot shares this
process and can subvert it; these rules give an honest bot's failures their clear verdicts.
The worker's own clock exists to say *where* a slow bot was stuck; the parent's kill is the
authority on time, and the parent measures CPU time itself where it can (cgroups, /proc).
When the parent's clock fires first, it asks with :data:`STACK_SIGNAL` before the kill
(:meth:`Worker.on_stack_request`: the bot thread answers with its place).
"""

from __future__ import annotations

import _frozen_importlib
import _frozen_importlib_external
import _signal
import _thread
import os
import sys
import time

# The worker's folder holds its modules (harness.sandbox.botside); main() takes it off sys.path.
_HERE = os.path.dirname(os.path.abspath(__file__))
TYPE_CHECKING = False  # typing and collections.abc would cost milliseconds of every start
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType, FrameType, TracebackType
    from typing import Any

    Reply = dict[str, Any]
if TYPE_CHECKING or __name__ != "__main__":  # imported by the harness itself (tests, tools)
    from harness.sandbox.bot import botenv, construct, deadline, wire
    from harness.sandbox.bot import guard as guard_module
else:  # a bot's process
    sys.path.insert(0, _HERE)
    import _harness_botenv as botenv
    import _harness_construct as construct
    import _harness_deadline as deadline
    import _harness_guard as guard_module
    import _harness_wire as wire

# What importlib.util exports, from the import system's own modules (always loaded):
# importlib.util itself would add milliseconds of imports to every start.
_module_from_spec = _frozen_importlib.module_from_spec
_spec_from_file_location = _frozen_importlib_external.spec_from_file_location

# Bound now, before any bot code runs, so a bot that monkeypatches these modules cannot
# change what the worker measures or how it talks to the parent.
_cpu_clock = time.process_time
_wall_clock = time.perf_counter
_exit = os._exit
_current_frames = sys._current_frames
_sleep = time.sleep
_start_thread = _thread.start_new_thread  # before the guard wraps it (it only counts, unarmed)
_threads = _thread._count  # threads besides the main thread, however they were started
_encode = _ENCODE = wire.encode_json  # the reply's envelope, bound now (a bot may replace what it can reach)
_float_repr = float.__repr__
MAX_ANSWER_BYTES = 1 << 20
IDLE = 0.05  # how often the worker's clock looks for a call in progress (s)
REASON_CHARS = 2000
NCPU = os.cpu_count() or 1
STACK_SIGNAL = getattr(_signal, "SIGUSR2", None)  # as the parent sends it (process.STACK_SIGNAL)


def _plain(text: Any, limit: int = 300) -> str:
    """``text`` if it is a genuine ``str`` (never a bot's subclass), shortened."""
    if type(text) is not str:
        return "<unprintable>"
    return text if len(text) <= limit else text[:limit] + "..."


class BotThread:
    """The one thread that runs all of the bot's code, and serves the parent's requests itself.

    It is the process's main thread. It reads each request from the pipe, runs it and writes the
    reply: a call costs no hand-off between threads (two wake-ups and two switches of the GIL,
    about 11 us a call; measured with ``bench/bench_overhead.py``). The worker's clock
    (:meth:`Worker.watch`) is another thread: it looks at the call in progress now and then and
    never wakes this one. A call that runs out of time is not stopped from here (that would take
    a helper thread, and every thread counts against the bot's cap): the parent kills the process.
    """

    def __init__(self, serve: Callable[[], None]) -> None:
        self.serve = serve
        self.ident: int | None = None
        self.schedstat: int | None = None

    def loop(self) -> None:
        """Serve the parent until it hangs up (on the main thread; the process ends here)."""
        self.ident = _thread.get_ident()
        try:  # the kernel's count of the time this thread waited for a CPU (see waited)
            self.schedstat = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
        except (OSError, AttributeError):
            self.schedstat = None
        try:
            self.serve()
        except BaseException:  # noqa: BLE001 - the channel broke, or the bot broke the worker: done
            _exit(1)

    def waited(self) -> float:
        """Seconds this thread has waited for a CPU so far (0 where the kernel does not say)."""
        if self.schedstat is None:
            return 0.0
        try:
            return int(os.pread(self.schedstat, 128, 0).split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            return 0.0


class Running:
    """The call the bot thread runs now, as the worker's clock sees it."""

    __slots__ = ("seq", "what", "allow", "wall0", "cpu0", "waited0")

    def __init__(self, seq: Any, what: str, allow: deadline.Allowance, waited0: float) -> None:
        self.seq, self.what, self.allow, self.waited0 = seq, what, allow, waited0
        self.wall0 = _wall_clock()
        self.cpu0 = _cpu_clock()


class Worker:
    """State of one bot process: its module, class, instance and the policy it runs under."""

    def __init__(self, req_fd: int, rep_fd: int, guard: Any, stdlib: list[str]) -> None:
        self.req_fd = req_fd
        self.rep_fd = rep_fd
        self.guard = guard
        self.stdlib = stdlib
        self.clock_ident = 0  # the clock thread's, once started (threading's main thread to the bot)
        self.clock_native_id: int | None = None
        self.player_path = ""
        self.code_dir = ""
        self.cls: type | None = None
        self.cls_name = ""
        self.instance: Any = None
        self.wire_by_class: dict[type, str] = {}
        self.class_by_wire: dict[str, type] = {}
        self.reader = wire.FrameReader(req_fd)
        self.running: Running | None = None  # the call in progress (set and cleared by the bot thread)
        self.claim = _thread.allocate_lock()  # held by whoever replies to the call in progress
        self.executor = BotThread(self.serve)

    # ---- protocol ------------------------------------------------------------------------
    def reply(self, message: Reply) -> None:
        """Send a reply; an already encoded answer (``"encoded"``) is spliced in, not re-encoded."""
        encoded = message.pop("encoded", None)
        # An answer (most replies) is formatted without the encoder, unless a bot replaced the
        # encoder: then it writes every reply, as the hostile corpus's forgers expect.
        if encoded is not None and _encode is _ENCODE and len(message) == 3 and message.get("ok") is True \
                and type(message.get("cpu")) is float and type(message.get("seq")) is int:
            wire.write_frame(self.rep_fd, b'{"ok":true,"cpu":%s,"seq":%d,"value":%s}'
                             % (_float_repr(message["cpu"]).encode(), message["seq"], encoded))
            return
        try:
            payload = _encode(message).encode()
        except (TypeError, ValueError) as exc:  # only a bot that tampered with the worker gets here
            payload = _encode({"ok": False, "verdict": "forbidden", "seq": message.get("seq"),
                               "reason": f"the worker could not encode its reply ({_plain(str(exc))}): "
                                         f"the bot tampered with the worker"}).encode()
            encoded = None
        if encoded is not None:
            payload = payload[:-1] + b',"value":' + encoded + b"}"
        wire.write_frame(self.rep_fd, payload)

    def serve(self) -> None:
        """The bot thread's loop: read a request, run it, reply; exit when the parent hangs up."""
        self.reply({"hello": True, "seq": 0})
        while True:
            try:
                request = wire.parse(self.reader.next(64 << 20))
            except (EOFError, OSError, wire.WireError):
                _exit(0)
            op = request.get("op")
            if op == "quit":
                _exit(0)
            elif op == "load":
                message = self.load(request)
            elif op == "call":
                message = self.call(request)
            else:
                message = {"ok": False, "verdict": "harness_error", "reason": f"unknown op {op!r}"}
            message["seq"] = request.get("seq")
            self.reply(message)

    def clock(self) -> None:
        """The clock thread's body: :meth:`watch`, and the process ends if it ever fails."""
        try:
            self.clock_native_id = _thread.get_native_id()
            self.watch()
        except BaseException:  # noqa: BLE001 - a broken clock is a broken worker: done
            _exit(1)

    def watch(self) -> None:
        """The clock thread: the worker's clock. Says which clock ran out, and where the bot was.

        It looks at the call in progress every :data:`IDLE` seconds while there is none, then
        sleeps until the call could be over its limit. The wall clock counts the bot's own
        time: elapsed time less its thread's wait for a CPU, as the parent judges it. While the
        bot runs threads of its own, whose waits this process cannot read (the guard refuses
        /proc listings), the wall clock is the parent's alone: this clock must never be
        stricter than the parent's, which has the last word.
        """
        while True:
            call = self.running
            if call is None:
                _sleep(IDLE)
                continue
            clock = self.overtime(call)
            if type(clock) is float:
                _sleep(clock)
                continue
            self.claim.acquire()  # never released once the call is ours: the parent kills us
            if self.running is not call:  # it returned meanwhile: its reply is the bot thread's
                self.claim.release()
                continue
            self.time_out(call, str(clock))

    def overtime(self, call: Running) -> float | str:
        """Which of the call's clocks ran out, or how long to sleep before asking again (:mod:`deadline`)."""
        allow = call.allow
        elapsed = _wall_clock() - call.wall0
        own = elapsed if elapsed < allow.own else deadline.own_time(elapsed, self.executor.waited() - call.waited0)
        cpu = _cpu_clock() - call.cpu0 if allow.policy == "cpu" else 0.0
        # With threads of the bot's own, a refusal already recorded is still reported (as such).
        return deadline.worker_over(allow, own, cpu, NCPU, _threads() <= 1 or self.guard.violation is not None)

    def time_out(self, call: Running, clock: str, frame: FrameType | None = None) -> None:
        """Reply to ``call``, whose claim this thread holds, that one of its clocks ran out: which
        one, and where the bot was stuck (``frame``: the bot thread's, else read from here). Never
        returns: the parent kills the whole process on this reply (no stopper thread is started
        here: every thread counts against the bot's cap), and the bot's code is never resumed.
        """
        self.running = None
        cpu = _cpu_clock() - call.cpu0
        where = self.where(None, frame or _current_frames().get(self.executor.ident or -1))
        message = {"ok": False, "verdict": "timeout", "cpu": cpu, "clock": clock, "seq": call.seq,
                   "reason": deadline.worker_reason(call.allow, call.what, clock, where)}
        # Read last: bot code that ran on this thread meanwhile (a garbage collector's callback,
        # triggered by the allocations above) is charged too.
        violation = self.guard.take_violation()
        if violation is not None:
            message = {"ok": False, "verdict": "forbidden", "reason": violation, "cpu": cpu, "seq": call.seq}
        self.reply(message)
        while True:
            _sleep(3600)

    def on_stack_request(self, _signum: int, frame: FrameType | None) -> None:
        """The parent is about to kill the call in progress for time (its :data:`STACK_SIGNAL`):
        say where the bot thread is. Runs on the bot thread, at the bot's instruction ``frame``.

        Only if no reply to the call is under way (the claim, as the clock thread takes it).
        The parent has decided already; this names the line in its reason, nothing more.
        """
        call = self.running
        if call is None or not self.claim.acquire(False):
            return
        if self.running is not call:
            self.claim.release()
            return
        self.time_out(call, "wall", frame)

    def build_object(self, name: Any, type_name: str, fields: dict[str, Any]) -> Any:
        cls = self.class_by_wire.get(name) if isinstance(name, str) else None
        if cls is None:
            raise wire.WireError(f"the harness sent an unknown object type {type_name!r}")
        obj = object.__new__(cls)  # never the class's own __new__: a bot may have replaced it
        for key, value in fields.items():
            object.__setattr__(obj, key, value)  # works for __slots__ and read-only views
        return obj

    # ---- operations ----------------------------------------------------------------------
    def load(self, request: dict[str, Any]) -> Reply:
        self.player_path = os.path.abspath(request["path"])
        self.code_dir = os.path.abspath(request.get("code") or os.path.dirname(self.player_path))
        botenv.copy_files(self.code_dir, request["work"])  # the bot finds its own files where it runs, too
        applied = botenv.apply_rlimits(request.get("rlimits", {}))
        sys.path[:] = [*request["sys_path"], *self.stdlib]
        for name, (module_name, class_name) in request["wire"].items():
            __import__(module_name)  # no bot code has run yet: the real __import__
            cls = getattr(sys.modules[module_name], class_name)
            self.wire_by_class[cls] = name
            self.class_by_wire[name] = cls
        adopters = []  # bot API classes that play a file in another shape its seed asks for
        for module_name, class_name in request.get("adopters", []):
            __import__(module_name)  # the bot API's own module, before any bot code
            adopters.append(getattr(sys.modules[module_name], class_name))
        # Before the guard's own finder goes first: a refused import is refused before this one looks.
        sys.meta_path.insert(0, botenv.SeededRandom(request["seed"], self.stdlib))
        # The bot's code runs on the main thread; threading and signal tell it what the course's
        # grader told a bot, whose calls ran on a thread of their own (see botenv.CourseThreads).
        sys.meta_path.insert(0, botenv.CourseThreads(self.stdlib, self.clock_ident, self.clock_native_id))
        libraries = list(request.get("libraries", []))
        self.guard.arm(player_path=self.player_path,
                       read_roots=[*request["sys_path"], *self.stdlib, *libraries, request["work"]],
                       write_roots=[request["work"]], forbidden_imports=request["forbidden"],
                       max_threads=int(request.get("max_threads", 1 << 30)), library_roots=self.stdlib,
                       bot_dir=self.code_dir, package_roots=libraries)
        class_name = request["class"]

        def job() -> Reply:
            try:
                module_name = os.path.splitext(os.path.basename(self.player_path))[0]
                spec = _spec_from_file_location(module_name, self.player_path)
                assert spec is not None and spec.loader is not None
                module = _module_from_spec(spec)
                sys.modules[module_name] = module
                spec.loader.exec_module(module)
            except BaseException as exc:  # noqa: BLE001 - the bot may raise anything
                return self.describe(exc, "import of player.py")
            try:
                cls = getattr(module, class_name, None)
                for adopter in adopters if not isinstance(cls, type) else ():
                    cls = adopter.adopt(module)  # the bot's module: on the bot thread, timed
                    if isinstance(cls, type):
                        break
                if not isinstance(cls, type):
                    return {"ok": False, "verdict": "exception",
                            "reason": f"player.py defines no class {class_name}"}
                self.cls = cls
                self.cls_name = _plain(cls.__name__)  # here, on the bot thread: a metaclass may run code
                methods = sorted(_plain(n, 200) for n in dir(cls)
                                 if type(n) is str and not n.startswith("_") and callable(getattr(cls, n, None)))
            except BaseException as exc:  # noqa: BLE001
                return self.describe(exc, f"inspecting class {class_name}")
            self.flush()
            info: dict[str, Any] = {"rlimits": applied}
            if adopters and getattr(module, class_name, None) is not cls:
                info["adopted"] = self.cls_name  # played in another shape its seed asks for
            return {"ok": True, "value": methods, "info": info}

        return self.run(job, request, "import of player.py")

    def call(self, request: dict[str, Any]) -> Reply:
        """Run one call on the bot thread; its arguments are decoded there, and die there."""
        method = request["method"]
        raw_args = request["args"]
        if self.cls is None:
            return {"ok": False, "verdict": "harness_error", "reason": "call before load"}

        def decode() -> tuple[Any, ...]:
            return tuple(wire.decode_value(raw_args, self.build_object))

        if method == "setattr":
            name = raw_args[0] if type(raw_args) is list and raw_args and type(raw_args[0]) is str else "?"

            def set_job() -> Reply:
                try:
                    target, value = decode()
                    setattr(self.instance, target, value)
                except BaseException as exc:  # noqa: BLE001
                    return self.describe(exc, f"setting {name}")
                return {"ok": True, "value": None}

            return self.run(set_job, request, f"setting {name}")
        if method == "__init__":
            what = f"{self.cls_name}(...)"
            cls = self.cls

            params, optional = request.get("params") or [], int(request.get("optional", 0))

            def init_job() -> Reply:
                try:
                    args = decode()  # here, on the bot thread
                    given = args
                    if optional:  # the game accepts shorter forms: pass what the class takes
                        arity = construct.choose_arity(cls, len(args), optional)
                        if arity is None:
                            return {"ok": False, "verdict": "exception",
                                    "reason": _plain(construct.mismatch(cls, _plain(cls.__name__), params, optional))}
                        given = args[:arity]
                    self.instance = cls(*given)
                except BaseException as exc:  # noqa: BLE001
                    return self.describe(exc, what)
                try:
                    info = {}
                    for key in ("playerName", "version", "name"):
                        value = getattr(self.instance, key, None)
                        if isinstance(value, (str, int, float)):
                            info[key] = _plain(str(value), 200)
                except BaseException:  # noqa: BLE001 - a name that cannot be read is no name
                    info = {}
                self.flush()
                return {"ok": True, "value": None, "info": info}

            return self.run(init_job, request, what)
        if self.instance is None:
            return {"ok": False, "verdict": "harness_error", "reason": "call before construction"}
        what = f"{method}()"

        def call_job() -> Reply:
            try:
                args = tuple(wire.decode_value(raw_args, self.build_object))
                bound = getattr(self.instance, method, None)
                if not callable(bound):
                    return {"ok": False, "verdict": "exception",
                            "reason": f"{_plain(type(self.instance).__name__)} has no method {method}()"}
                value = bound(*args)
            except BaseException as exc:  # noqa: BLE001
                return self.describe(exc, what)
            try:
                encoded = wire.dumps(value, self.wire_by_class, max_bytes=MAX_ANSWER_BYTES)
            except wire.WireError as exc:
                return {"ok": False, "verdict": "bad_answer", "reason": f"{what} returned {_plain(str(exc))}"}
            except RecursionError:
                return {"ok": False, "verdict": "bad_answer",
                        "reason": f"{what} returned a structure too deep to encode"}
            except BaseException as exc:  # noqa: BLE001 - e.g. a property of the answer raised
                return self.describe(exc, f"{what} (reading its answer)")
            del value, args
            self.flush()
            return {"ok": True, "encoded": encoded}

        return self.run(call_job, request, what)

    def run(self, job: Callable[[], Reply], request: dict[str, Any], what: str) -> Reply:
        """Run ``job`` here, on the bot thread, timed by the clock thread; map every outcome to a reply."""
        allow = deadline.Allowance(float(request["limit"]), request.get("policy", "wall"),
                                   float(request.get("backstop", 1.0)))
        # The record is read (and so reset) before the call and after it. A refusal since the last
        # call (a thread of the bot's, code it slipped onto the clock thread) is the bot's too:
        # charged now, before any more of its code runs.
        violation = self.guard.take_violation()
        if violation is not None:
            return {"ok": False, "verdict": "forbidden", "reason": violation, "cpu": 0.0}
        call = self.running = Running(request.get("seq"), what, allow, self.executor.waited())
        try:
            outcome = job()
        except BaseException:  # noqa: BLE001 - the job describes the bot's errors itself
            outcome = {"ok": False, "verdict": "exception",
                       "reason": "the bot raised an exception that cannot be described"}
        del job  # the bot's objects die here, on this thread
        with self.claim:  # waits for ever if the clock ran out and the clock thread replied
            self.running = None
        cpu = _cpu_clock() - call.cpu0
        violation = self.guard.take_violation()
        if violation is not None:
            return {"ok": False, "verdict": "forbidden", "reason": violation, "cpu": cpu}
        outcome["cpu"] = cpu
        return outcome

    # ---- describing the bot's failures (on the bot thread) -------------------------------
    def describe(self, exc: BaseException, what: str) -> Reply:
        """The reply for an exception the bot raised (runs on the bot thread: may run bot code)."""
        try:
            where = self.where(exc.__traceback__, None)
            if isinstance(exc, MemoryError) or (isinstance(exc, OSError) and exc.errno == 12):
                return {"ok": False, "verdict": "memory",
                        "reason": f"{what} ran out of memory ({_plain(type(exc).__name__)}){where}"}
            if isinstance(exc, SystemExit):
                return {"ok": False, "verdict": "crash",
                        "reason": f"{what} called sys.exit({_plain(repr(exc.code))}){where}"}
            if isinstance(exc, guard_module.Forbidden):
                return {"ok": False, "verdict": "forbidden", "reason": f"{what}: {_plain(str(exc))}{where}"}
            reason = f"{what} raised {_plain(type(exc).__name__)}: {_short(exc)}{where}"
            text = self.traceback_text(exc)
            return {"ok": False, "verdict": "exception", "reason": reason,
                    "traceback": _plain(text[-REASON_CHARS:], REASON_CHARS)}
        except BaseException:  # noqa: BLE001 - an exception whose printing fails is still one
            return {"ok": False, "verdict": "exception",
                    "reason": f"{what} raised an exception that cannot be printed"}

    def traceback_text(self, exc: BaseException) -> str:
        """``exc``'s traceback from the bot's first frame on, printed; "" if it cannot be.

        ``traceback`` (with ``linecache``, ``tokenize``, ``textwrap``: about 2.7 ms) is imported
        at the first exception, not at every bot's start. A bot that used up its descriptors or
        its memory before raising still gets its verdict and reason, without the text.
        """
        try:
            import traceback

            return "".join(traceback.format_exception(type(exc), exc, self.bot_frames(exc.__traceback__)))
        except BaseException:  # noqa: BLE001 - no file, no memory, or the bot's own printing failed
            return ""

    def flush(self) -> None:
        try:
            sys.stdout.flush()
        except BaseException:  # noqa: BLE001 - a bot may have replaced or closed them
            pass
        try:
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass

    def bot_frames(self, tb: TracebackType | None) -> TracebackType | None:
        """The traceback from the first frame in the bot's own file on (drops the worker's)."""
        while tb is not None and not self.guard.is_bot_file(tb.tb_frame.f_code.co_filename):
            tb = tb.tb_next
        return tb

    def where(self, tb: TracebackType | None, frame: FrameType | None) -> str:
        """Where the bot was: the deepest frame in player.py (from a traceback or a live frame)."""
        found: tuple[int, str, str] | None = None
        bot_file = self.guard.is_bot_file
        while tb is not None:
            code = tb.tb_frame.f_code
            if bot_file(code.co_filename):
                line = tb.tb_lineno if tb.tb_lineno is not None else tb.tb_frame.f_lineno
                found = (line_of(code, tb.tb_lasti, line), code.co_name, code.co_filename)
            tb = tb.tb_next
        while found is None and frame is not None:
            code = frame.f_code
            if bot_file(code.co_filename):
                found = (line_of(code, frame.f_lasti, frame.f_lineno), code.co_name, code.co_filename)
            frame = frame.f_back
        if found is None:
            return ""
        return f" at {os.path.basename(found[2])} line {found[0]} in {_plain(found[1], 100)}"


def line_of(code: CodeType, lasti: int, line: int | None) -> int:
    """``line``, or when Python has none for the instruction at ``lasti`` the line of the nearest
    instruction before it that has one (3.11 gives a loop's back edge no line), else the
    function's first line: a place always names a real line of the bot's file.
    """
    if line is not None:
        return line
    best = code.co_firstlineno
    for start, _end, number in code.co_lines():
        if start > lasti:
            break
        if number is not None:
            best = number
    return best


def _short(exc: BaseException) -> str:
    try:
        return _plain(str(exc))
    except BaseException:  # noqa: BLE001 - a bot's exception may fail to print
        return "<unprintable>"


def main() -> None:
    req_fd, rep_fd = int(sys.argv[1]), int(sys.argv[2])
    extra = sys.argv[3:]
    flags = extra[:extra.index("landlock")] if "landlock" in extra else extra
    if "pdeathsig" in flags:
        botenv.die_with_parent()  # before the guard: it refuses ctypes once armed
    if "landlock" in extra:  # the container tier: before the guard, the hello and any bot code
        __import__("_harness_landlock").confine(extra[len(flags) + 1:], sys.path)
    if "seccomp" in flags:  # plain mode (bubblewrap loads the same filter itself): as early
        __import__("_harness_seccomp").confine()
    guard = guard_module.Guard()
    guard.install()  # the hook judges nothing until the bot's module is about to be imported
    # The bot sees the standard library only (plus its own folders, added at load): not the
    # worker's folder, not site-packages (the worker runs with -S).
    stdlib = [p for p in sys.path if p and p != _HERE and "-packages" not in p]
    sys.path[:] = stdlib
    sys.dont_write_bytecode = True
    del sys.argv[1:]
    worker = Worker(req_fd, rep_fd, guard, stdlib)
    # The parent's question before a kill for time: where is the bot thread? (Before any bot code.)
    if STACK_SIGNAL is not None:
        _signal.signal(STACK_SIGNAL, worker.on_stack_request)
    # The clock first: the parent finds it among the process's threads when the hello comes.
    worker.clock_ident = _start_thread(worker.clock, ())
    worker.executor.loop()


if __name__ == "__main__":
    main()

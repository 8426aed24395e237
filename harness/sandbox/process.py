"""The parent's handle on one bot process: call with a deadline, kill, capture output.

Its start (folders, bubblewrap or a plain process, a launcher made ahead) is
:mod:`harness.sandbox.spawn`.

One :class:`BotProcess` is one fresh child for one bot in one game, under bubblewrap where it
works (:mod:`harness.sandbox.bubblewrap`), else a plain process; in its own cgroup where the
machine allows (:mod:`harness.sandbox.cgroup`). The parent alone decides about time: it
measures every call from the moment the request is written until the whole reply is read
(wall clock), reads the CPU time of the bot's whole process tree itself, and the time the
bot's threads waited for a CPU (:class:`~harness.sandbox.timing.WaitMeter`): the wall-clock
clocks count the bot's own time, elapsed minus that wait, so a loaded machine costs no bot its
game. It kills the bot when a call runs past its limit plus a small grace.

While another bot's call runs, every process of the bot is stopped, so none of them computes
on its opponent's time (:class:`~harness.sandbox.turns.Turns`).
A reply is read by :mod:`harness.sandbox.judge`, which believes nothing the bot could forge.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from harness.games.base import Call, GameSpec
from harness.record import Verdict
from harness.sandbox.bot import deadline, wire
from harness.sandbox import judge, procfs, reaper
from harness.sandbox.checks import packages
from harness.sandbox.cgroup import BotCgroup
from harness.sandbox.isolation import IsolationUnavailable
from harness.sandbox.limits import CallResult, CapturedOutput, Limits, mib
from harness.sandbox.checks.static import submitted
from harness.sandbox.timing import CgroupMeter, CpuMeter, ProcMeter, WaitMeter
from harness.sandbox.spawn import spawn
from harness.sandbox.turns import OwnClock, Turns
from harness.sandbox.workcap import WorkCap
from harness.submission import MAIN, Submission

WORKER = Path(__file__).parent / "bot" / "worker.py"  # the source; bots run it compiled (botside.script())
NCPU = os.cpu_count() or 1
_EOF = object()  # the bot's end of the reply channel closed
_POSIX = os.name == "posix"
_PIPE_BUF = getattr(select, "PIPE_BUF", 512)  # a write of at most this much to a pipe is atomic
_ENCODE = json.JSONEncoder().encode  # made once: json.dumps with arguments makes one per call
_HEADER_SIZE = wire.HEADER.size
_unpack_header = wire.HEADER.unpack_from
_TURN = threading.local()  # the bot whose call ran last in this thread (see BotProcess._take_turn)
# At a kill for time, how long the parent waits for the bot's process to say where it was stuck
# (see BotProcess._stuck): the verdict is decided already; this only names the line.
STACK_WAIT = 0.5
STACK_SIGNAL = getattr(signal, "SIGUSR2", None)  # the worker answers it with the bot thread's place


class BotProcess:
    """A bot's process for one game. Use as a context manager; :meth:`close` always cleans up."""

    def __init__(self, game: GameSpec, source: bytes | Submission, *, label: str = "bot", seed: int = 0,
                 limits: Limits | None = None) -> None:
        self.game = game
        self.submission = submitted(game, Submission.of(source))  # Štreky: player.py alone
        self.label = label
        self.seed = seed
        self.limits = limits or Limits().with_game(game)
        self.filename = MAIN
        self.package_roots: list[Path] = []  # real paths of the packages the bot may import
        self.proc: subprocess.Popen[bytes] | None = None
        self.root: Path | None = None
        self.botapi: Path | None = None  # the game's bot API, compiled (botside.botapi), once started
        self.cgroup: BotCgroup | None = None
        self.stdout = CapturedOutput()
        self.stderr = CapturedOutput()
        self.dead: CallResult | None = None  # set once the process is gone or was killed
        self.bwrap = False  # True once running under bubblewrap
        self.uid: int | None = None  # the uid the bot was dropped to (the harness is root), if any
        self.python: str | None = None  # the interpreter that runs the bot, once started
        self.meter: CpuMeter = CpuMeter()
        self._buf = bytearray()
        self._req_w: int | None = None  # our ends of the request and reply pipes
        self._rep_r: int | None = None
        self._seq = 0
        self._heads: dict[tuple[Any, ...], tuple[bytes, str]] = {}  # a kind of call -> its envelope, its name
        self._ready = False  # the worker said hello and its tree is in the cgroup
        self._enrolled = False  # its tree was born in its cgroup (a launcher's)
        self._worker_pid: int | None = None
        self._paused = False
        self.turns: Turns | None = None  # set once the worker said hello
        self.clock: OwnClock | None = None  # the wall clocks' credit for the bot's wait for a CPU (Linux)
        self._flood: str | None = None  # why the bot's output broke a cap, once it did
        self._out_call = 0
        self._cpu_mark: float | None = None  # the CPU clock's reading at the end of the last call
        self.workcap: WorkCap | None = None  # plain mode: the parent holds the working folder's cap
        self._decode = True  # whether the current call's answer is decoded (see call)

    # ---- life cycle ----------------------------------------------------------------------
    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _spawn(self) -> None:
        spawn(self)
        self._watch()

    def _watch(self) -> None:
        """Poll the reply channel and the bot's stdout and stderr from now on."""
        assert self.proc is not None and self._rep_r is not None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._streams = {self.proc.stdout.fileno(): self.stdout, self.proc.stderr.fileno(): self.stderr}
        self._poll = select.poll()
        for fd in (self._rep_r, *self._streams):
            os.set_blocking(fd, False)
            self._poll.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)

    def start(self) -> None:
        """Start the bot's process (idempotent). It waits for :meth:`load` before running bot code."""
        if self.proc is not None or self.dead is not None:
            return
        try:
            self._spawn()
        except (OSError, IsolationUnavailable, ValueError, AttributeError, packages.PackageError) as exc:
            # AttributeError: a platform without select.poll or process groups (Windows).
            self.dead = CallResult(False, verdict=Verdict.HARNESS_ERROR, reason=f"cannot start the bot: {exc}")

    def _handshake(self) -> CallResult | None:
        """Wait for the worker's hello; put its whole process tree into the cgroup; set the meter."""
        assert self.proc is not None
        frame = self._read_reply(time.perf_counter() + max(10.0, self.limits.load))
        if frame is None or frame is _EOF or isinstance(frame, CallResult) or not judge.is_hello(frame):
            self._kill()
            self._drain_streams()
            detail = self.stderr.text().strip().splitlines()[-1:] or ["no hello from the worker"]
            self.dead = CallResult(False, verdict=Verdict.HARNESS_ERROR,
                                   reason=f"the bot's process did not start ({'; '.join(detail)[:500]})")
            return self.dead
        tree = procfs.tree(self.proc.pid)
        self._worker_pid = tree[-1] if tree else self.proc.pid
        if self.cgroup is not None and not self._enrolled:
            try:
                self.cgroup.enroll(tree)
            except OSError:
                self.cgroup.remove()
                self.cgroup = None
        if self.cgroup is not None and self.cgroup.cpu_ns() is not None:
            self.meter = CgroupMeter(self.cgroup)
        elif sys.platform.startswith("linux"):
            self.meter = ProcMeter.open(self._worker_pid) or CpuMeter()
        self.turns = Turns(self._worker_pid, self.cgroup, self.bwrap, lambda sig: self._signal(sig, group=False))
        if not self.bwrap and self.root is not None:  # (bubblewrap: the folder is a tmpfs of that size)
            self.workcap = WorkCap(self.root / "work", self.limits.work_bytes, self._worker_pid,  # its processes':
                                   lambda: (self.cgroup.pids() if self.cgroup else []) or procfs.tree(self._worker_pid))
        if sys.platform.startswith("linux"):
            # The bot's thread (the main one, tid = pid) and any it starts, not the worker's clock:
            # its other thread now, before any bot code has run (procfs.clock_threads).
            self.clock = OwnClock(WaitMeter(self._worker_pid, skip=procfs.clock_threads(self._worker_pid)), self.turns)
        self._ready = True
        return None

    def load(self) -> CallResult:
        """Import the bot's module (starting the process if needed); ``value`` lists its methods."""
        self.start()
        if self.dead is not None:
            return self.dead
        if not self._ready and self._handshake() is not None:
            assert self.dead is not None
            return self.dead
        botapi = [str(self.botapi)] if self.botapi is not None else []
        assert self.root is not None
        lim = self.limits
        extra = [str(self.root / "packages")] if self.package_roots else []
        request = {"op": "load", "path": str(self.root / "code" / self.filename),
                   "work": str(self.root / "work"), "code": str(self.root / "code"),
                   "sys_path": [*botapi, str(self.root / "code"), *extra],
                   "libraries": [str(p) for p in self.package_roots],
                   "wire": {k: list(v) for k, v in self.game.wire_classes.items()},
                   "seed": self.seed, "limit": lim.load, "class": self.game.interface.student_class,
                   "adopters": [list(a) for a in self.game.interface.adopters],
                   "forbidden": sorted(self.game.submission.forbidden_imports),
                   "rlimits": {"AS": lim.memory_bytes, "NOFILE": lim.open_files, "FSIZE": lim.file_bytes,
                               "CORE": 0},
                   "max_threads": max(1, lim.max_tasks - 1)}
        try:
            payload = _ENCODE({**request, "seq": self._seq + 1, "policy": lim.policy,
                               "backstop": lim.backstop}).encode()
        except (TypeError, ValueError) as exc:
            return CallResult(False, verdict=Verdict.HARNESS_ERROR, reason=f"cannot encode the import: {exc}")
        self._seq += 1
        self._decode = True  # the import's answer lists the bot's methods
        return self._roundtrip(payload, lim.load, "import of player.py")

    def call(self, call: Call, *, value: bool = True) -> CallResult:
        """Make one call on the bot (see :class:`harness.games.base.Call`).

        ``value=False``: the caller ignores the answer, so it is not decoded (``value`` is ``None``).
        """
        self._decode = value
        if self.dead is not None:
            return self.dead
        if not self._ready:
            return CallResult(False, verdict=Verdict.HARNESS_ERROR, reason="call before load")
        limit = self.limits.for_call(call.limit)
        key = (call.method, limit, call.optional, call.params if call.optional else ())
        head = self._heads.get(key)
        if head is None:  # once per kind of call: what stays the same from one call to the next
            fixed: dict[str, Any] = {"op": "call", "method": call.method, "limit": limit}
            if call.optional:
                fixed.update(params=list(call.params), optional=call.optional)
            what = f"{self.game.interface.student_class}(...)" if call.method == "__init__" else f"{call.method}()"
            head = self._heads[key] = (self._envelope(fixed, limit), what)
        try:
            args = wire.SPACED(wire.encode_value(list(call.args), object_fields=judge.describe_wire_object))
        except (wire.WireError, TypeError, ValueError) as exc:
            return CallResult(False, verdict=Verdict.HARNESS_ERROR, reason=f"cannot encode {head[1]}: {exc}")
        self._seq += 1
        return self._roundtrip(b"%s,\"args\":%s,\"seq\":%d}" % (head[0], args.encode(), self._seq), limit, head[1])

    def _envelope(self, fixed: dict[str, Any], limit: float) -> bytes:
        """A request's fields other than its arguments and number, as JSON without the closing brace."""
        fixed.update(policy=self.limits.policy, backstop=self.limits.backstop)
        return _ENCODE(fixed).encode()[:-1]

    def close(self) -> None:
        """Kill the process tree and collect the remaining output; the cgroup and the working
        directory are deleted in the background (:mod:`reaper`: every process was killed here)."""
        if getattr(_TURN, "bot", None) is self:
            _TURN.bot = None
        if self.proc is not None:
            self._kill()
            self._drain_streams()
            for f in (self.proc.stdout, self.proc.stderr):
                if f is not None:
                    f.close()
            self.proc = None
        for fd in (self._req_w, self._rep_r):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._req_w = self._rep_r = None
        self.meter.close()
        if self.clock is not None:
            self.clock.close()
            self.clock = None
        if self.turns is not None:
            self.turns.close()
        if self.cgroup is not None or self.root is not None:
            reaper.later(self.cgroup, self.root)
            self.cgroup = self.root = None

    def _signal(self, sig: int, group: bool = True) -> None:
        """Send ``sig`` to the bot's worker (which may have left its group) and, if ``group``, the group."""
        if self.proc is None:
            return
        for send, target in ((os.killpg, self.proc.pid if group else None), (os.kill, self._worker_pid)):
            if target is None or (send is os.kill and group and target == self.proc.pid):
                continue
            try:
                send(target, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def _take_turn(self) -> None:
        """Stop the bot that ran last in this thread (its turn is over); this one is woken by the caller.

        Stopping lazily, when another bot's call starts, costs nothing while one bot gets
        several calls in a row (Quoridor's ``opponent_move`` then ``make_move``), and stops a
        bot exactly while its opponent is being timed. Per thread: games played in parallel
        threads of one process do not stop each other's bots.
        """
        previous = getattr(_TURN, "bot", None)
        if previous is not self:
            if previous is not None:
                previous._pause()
            _TURN.bot = self

    def _pause(self) -> None:
        if self.limits.pause and _POSIX and not self._paused and self.dead is None and self.turns is not None:
            self.turns.pause()
            self._paused = True

    def _resume(self) -> None:
        if self._paused and self.turns is not None:
            self.turns.resume()
        self._paused = False

    def _kill(self) -> None:
        proc = self.proc
        if proc is None:
            return
        if self.cgroup is not None:
            self.cgroup.kill_all()
        if _POSIX:
            self._signal(signal.SIGKILL)
            self._signal(signal.SIGCONT)
        try:
            proc.kill()
        except OSError:
            pass
        self._paused = False
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail like this
            proc.kill()
            proc.wait()

    # ---- one request, one reply, a deadline ----------------------------------------------
    def _roundtrip(self, payload: bytes, limit: float, what: str) -> CallResult:
        """Send one request (numbered ``self._seq``) and judge its reply, under ``limit`` seconds."""
        self._take_turn()
        self._out_call = 0
        # The CPU clock is read once per call: at its end. Whatever the bot's tree used since its
        # previous call ended (nothing while it was stopped) is charged to this call.
        cpu0 = self._cpu_mark if self._cpu_mark is not None else self.meter.read()
        if self.clock is not None:
            self.clock.begin()
        start = time.perf_counter()
        try:
            # A stopped bot is woken (SIGCONT) before its clock could matter. A request that fits
            # the empty pipe's atomic size is written first, so the bot wakes once, to find it;
            # a larger one after, since writing it may wait for the bot to read.
            if len(payload) + wire.HEADER.size <= _PIPE_BUF:
                wire.write_frame(self._req_w, payload)
                self._resume()
            else:
                self._resume()
                wire.write_frame(self._req_w, payload)
        except OSError:
            return self._died(what, time.perf_counter() - start)
        outcome = self._await(start, limit, cpu0)
        wall = time.perf_counter() - start
        if wall >= 0.01 and self.clock is not None:  # with the wall clock: a wait after this is not the call's
            self.clock.end()  # (~2 us: not worth it on a quick call)
        cpu1 = self._cpu_mark = self.meter.read()
        measured = None if cpu0 is None or cpu1 is None else max(0.0, cpu1 - cpu0)
        if isinstance(outcome, str):  # a clock ran out
            return self._overtime(what, limit, wall, measured, outcome)
        if outcome is _EOF:
            return self._died(what, wall)
        if isinstance(outcome, CallResult):
            outcome.wall, outcome.cpu = wall, measured
            return outcome
        over = self.workcap.settle() if self.workcap is not None else None
        if over is not None:  # what it wrote counts before what it answered
            self._kill()
            self.dead = CallResult(False, verdict=Verdict.FORBIDDEN, reason=over, wall=wall, cpu=measured)
            return self.dead
        result = self._judge(outcome, what, limit, wall, measured)
        if self.clock is not None and self.clock.credit:  # as judged: never more than leaves the bot its CPU
            result.waited = deadline.credited(wall, self.clock.own(wall, measured))
        return result

    def _allowance(self, limit: float) -> deadline.Allowance:
        """What a call of ``limit`` seconds may take under these limits (:mod:`deadline`)."""
        lim = self.limits
        return deadline.Allowance(limit, lim.policy, lim.backstop, lim.grace)

    def _own(self, wall: float, allow: deadline.Allowance, cpu: float | None) -> float:
        """The bot's own part of ``wall`` seconds of the current call: what the wall clocks judge.

        Read only once the wall clock alone could be over the allowance: a quick call costs no
        read. All of ``wall`` past :data:`deadline.CEILING` times the limit, whatever the wait.
        """
        if wall <= allow.own or wall > deadline.CEILING * allow.limit or self.clock is None:
            return wall
        return self.clock.own(wall, cpu)

    def _await(self, start: float, limit: float, cpu0: float | None) -> Any:
        """The reply frame, ``_EOF``, a verdict (``CallResult``), or the clock that ran out.

        The wall-clock deadline moves by the time the bot waited for a CPU (its own time is
        judged), up to the ceiling (:func:`deadline.running_over` decides).
        """
        allow = self._allowance(limit)
        wall_deadline = start + allow.kill_own
        ceiling = start + allow.ceiling
        cpu_policy = allow.kill_cpu is not None and cpu0 is not None
        while True:
            now = time.perf_counter()
            due = now >= wall_deadline  # the wall clock alone could be over: read the bot's own time
            used = None
            if cpu0 is not None and (cpu_policy or due):
                now_cpu = self.meter.read()
                used = None if now_cpu is None else now_cpu - cpu0
            own = 0.0
            if due:
                own = now - start if self.clock is None else self.clock.own(now - start, used)
            over = deadline.running_over(allow, now - start, own, used)
            if over is not None:
                return over
            if due:  # own time grows at most as fast as wall
                wall_deadline = min(ceiling, now + (allow.kill_own - own))
            until = wall_deadline
            if cpu_policy:
                until = min(until, now + max(0.005, (allow.kill_cpu - (used or 0.0)) / NCPU))
            if self.workcap is not None:  # plain mode: the folder is measured during the call too
                full = self.workcap.poll(now)
                if full is not None:
                    self._kill()
                    self.dead = CallResult(False, verdict=Verdict.FORBIDDEN, reason=full)
                    return self.dead
                until = min(until, self.workcap.next_at)
            frame = self._read_reply(until)
            if frame is not None:
                return frame

    def _judge(self, frame: bytes, what: str, limit: float, wall: float, measured: float | None) -> CallResult:
        """Turn a reply frame into a result: the parent's reading of it (:mod:`judge`), then its clocks."""
        lim = self.limits
        reply = judge.read_reply(frame, self._seq, what, self._decode)
        cpu = self.meter.judge(measured, reply.cpu)
        if isinstance(reply, judge.Failure):
            result = CallResult(False, verdict=reply.verdict, reason=reply.reason, wall=wall, cpu=cpu,
                                traceback=reply.traceback, clock=reply.clock)
            if reply.tampered:  # nothing more this process says can be believed
                self._kill()
                self.dead = result
            elif reply.verdict is Verdict.TIMEOUT:
                result.clock = result.clock or lim.policy
                result.reason += deadline.measured_text(wall, cpu)
                self._kill()  # its thread may still run; nothing it does from now on counts
                self.dead = result
            return result
        allow = self._allowance(limit)
        own = self._own(wall, allow, cpu)  # wall-clock time less the wait for a CPU
        clock = deadline.late(allow, own, cpu)
        if clock is not None:
            # The parent's clocks are the authority: an answer that came late is a timeout.
            self._kill()
            self.dead = CallResult(False, verdict=Verdict.TIMEOUT, wall=wall, cpu=cpu, clock=clock,
                                   reason=deadline.late_reason(allow, what, clock, wall, own, cpu))
            return self.dead
        return CallResult(True, value=reply.value, wall=wall, cpu=cpu, info=reply.info)

    def _overtime(self, what: str, limit: float, wall: float, cpu: float | None, clock: str) -> CallResult:
        """No reply before a clock ran out: kill, and say which clock, by how much, and where the bot was."""
        if self.proc is None or self.proc.poll() is not None:
            return self._died(what, wall)
        stopped = procfs.is_stopped(self._worker_pid)
        allow = self._allowance(limit)
        own = self._own(wall, allow, cpu)
        stuck = "" if stopped else self._stuck(what)
        self._kill()
        reason = deadline.killed_reason(allow, what, clock, wall, own, cpu, stuck, stopped)
        self.dead = CallResult(False, verdict=Verdict.TIMEOUT, wall=wall, cpu=cpu, reason=reason,
                               clock="wall" if clock == "ceiling" else clock)
        return self.dead

    def _stuck(self, what: str) -> str:
        """Where the bot thread is now (" at player.py line N in f"), or "" if the bot's process
        does not say within :data:`STACK_WAIT` seconds.

        The worker answers :data:`STACK_SIGNAL` with the bot thread's place (or its clock had
        just replied with it). Best effort, and never more than a clause of the parent's reason:
        the bot may be stuck in C code, or have replaced the handler and forge the answer.
        """
        if STACK_SIGNAL is None or self._worker_pid is None:
            return ""
        self._signal(STACK_SIGNAL, group=False)
        frame = self._read_reply(time.perf_counter() + STACK_WAIT)
        if not isinstance(frame, bytes):
            return ""
        reply = judge.read_reply(frame, self._seq, what)
        return deadline.stuck_at(reply.reason) if isinstance(reply, judge.Failure) else ""

    def _read_reply(self, deadline: float) -> bytes | CallResult | object | None:
        """Read one whole frame before ``deadline``, draining stdout/stderr meanwhile.

        Returns the frame, ``None`` at the deadline, ``_EOF`` when the channel closed, or a
        ``CallResult`` when the bot broke a cap (a frame over the answer cap, an output flood).
        """
        buf = self._buf
        need = _HEADER_SIZE
        sized = False  # the header was read: an empty frame (length 0) must not be read as a header again
        while True:
            if self._flood is not None:
                self._kill()
                self.dead = CallResult(False, verdict=Verdict.FORBIDDEN, reason=self._flood)
                return self.dead
            if len(buf) >= need:
                if not sized:
                    sized = True
                    (length,) = _unpack_header(buf)
                    if length > self.limits.answer_bytes + 4096:
                        self._kill()
                        self.dead = CallResult(False, verdict=Verdict.FORBIDDEN,
                                               reason=f"a reply frame of {length} bytes, over the cap of "
                                                      f"{self.limits.answer_bytes + 4096} bytes: {judge.TAMPERED}")
                        return self.dead
                    need += length
                    continue
                frame = bytes(buf[_HEADER_SIZE:need])
                del buf[:need]
                return frame
            timeout = deadline - time.perf_counter()
            if timeout <= 0:
                return None
            for fd, _events in self._poll.poll(timeout * 1000):
                if fd == self._rep_r:
                    try:
                        chunk = os.read(fd, 1 << 16)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        return _EOF
                    buf += chunk
                else:
                    self._read_stream(fd)

    def _read_stream(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 1 << 16)
        except (BlockingIOError, OSError):
            return
        if not chunk:
            self._poll.unregister(fd)  # the bot closed it; a closed pipe would poll ready forever
            return
        self._streams[fd].add(chunk, self.limits.output_bytes)
        self._out_call += len(chunk)
        lim = self.limits
        if self._flood is None and self._out_call > lim.output_call_bytes:
            self._flood = (f"the bot wrote more than {mib(lim.output_call_bytes)} of output during one call "
                           f"(the cap per call)")
        elif self._flood is None and self.stdout.total + self.stderr.total > lim.output_game_bytes:
            self._flood = f"the bot wrote more than {mib(lim.output_game_bytes)} of output in this game (the cap per game)"

    def _drain_streams(self) -> None:
        for fd in list(self._streams):
            for _ in range(64):  # bounded: what a dead process's pipe still holds (64 KiB per read)
                try:
                    chunk = os.read(fd, 1 << 16)
                except (BlockingIOError, OSError):
                    break
                if not chunk:
                    break
                self._streams[fd].add(chunk, self.limits.output_bytes)

    def _died(self, what: str, wall: float) -> CallResult:
        """The process ended (or closed its channel) during ``what``: its verdict (:func:`judge.death`)."""
        proc = self.proc
        code: int | None = None
        if proc is not None:
            try:
                code = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._kill()
                code = None
        if self.bwrap and code is not None and code > 128:
            code = -(code - 128)  # bubblewrap reports a child killed by signal N as exit code 128 + N
        evidence = self.cgroup.oom_evidence() if self.cgroup is not None else None
        self.dead = judge.death(code, evidence, what, self.limits.memory_bytes, wall)
        return self.dead

    @property
    def interpreter(self) -> dict[str, Any]:
        """The interpreter that runs the bot and the tier it runs in, as a record keeps them ({} before a start)."""
        if self.python is None:
            return {}
        from harness.sandbox import container, interpreter

        return {**interpreter.describe(self.python), "tier": container.tier(self.bwrap)}

    @property
    def pid(self) -> int | None:
        """The bot's process id while it runs (under bubblewrap: bubblewrap's, the tree's root)."""
        return self.proc.pid if self.proc is not None else None

    @property
    def worker_pid(self) -> int | None:
        """The process that runs the bot's code, once it has started."""
        return self._worker_pid if self.proc is not None else None


__all__ = ["BotProcess", "CallResult", "CapturedOutput", "Limits", "WORKER"]

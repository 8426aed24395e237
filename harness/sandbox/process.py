"""The parent's handle on one bot process: spawn, call with a deadline, kill, capture output.

One :class:`BotProcess` is one fresh child for one bot in one game. The parent alone decides
about time: it measures every call from the moment the request is written until the whole
reply is read, and kills the child's process group (and its cgroup, where there is one) when
a call runs past its limit plus a small grace.
"""

from __future__ import annotations

import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import func_timeout

from harness.games.base import Call, GameSpec, WireObject
from harness.record import Verdict
from harness.sandbox import wire
from harness.sandbox.cgroup import PidsCgroup

WORKER = Path(__file__).with_name("worker.py")
_EOF = object()  # the bot's end of the reply channel closed
# The child runs with -S: no .pth files run at its start-up (they cost 50-100 ms here, and
# they would let a bot import the harness itself); it gets the folder of the packages it
# needs (func_timeout) on sys.path instead.
SITE_DIRS = sorted({str(Path(func_timeout.__file__).resolve().parents[1])})


@dataclass(frozen=True)
class Limits:
    """Limits for one bot in one game. Times are seconds of wall clock per call."""

    init: float = 1.0  # the constructor and each setup call (e.g. Quoridor's initialization)
    move: float = 1.0  # each call of a turn
    load: float = 5.0  # importing player.py (module-level code)
    grace: float = 0.25  # the parent kills this long after a limit if the bot has not answered
    memory_bytes: int = 1 << 30  # address space (RLIMIT_AS)
    max_tasks: int = 8  # processes + threads, where a pids cgroup is available
    answer_bytes: int = 1 << 20  # largest reply frame accepted
    output_bytes: int = 64 << 10  # stdout and stderr kept per stream per game

    def for_call(self, kind: str) -> float:
        """The limit that applies to a call of ``kind`` ("init", "move" or "load")."""
        return {"init": self.init, "move": self.move, "load": self.load}[kind]

    def with_game(self, game: GameSpec) -> Limits:
        """These limits with the game's own call limits."""
        return replace(self, init=game.init_limit, move=game.move_limit)


@dataclass
class CallResult:
    """What one call to the bot produced, as the parent measured it."""

    ok: bool
    value: Any = None
    verdict: Verdict | None = None
    reason: str = ""
    wall: float = 0.0
    cpu: float | None = None
    info: dict[str, Any] = field(default_factory=dict)
    traceback: str = ""


@dataclass
class CapturedOutput:
    """The first bytes a bot wrote to one of its streams, and how many more were dropped."""

    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes, cap: int) -> None:
        room = max(0, cap - len(self.data))
        self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - room)

    def text(self) -> str:
        text = self.data.decode("utf-8", "replace")
        return text + (f"\n[... {self.dropped} more bytes dropped]" if self.dropped else "")


def _scrubbed_env(home: Path) -> dict[str, str]:
    # Nothing of the parent's environment reaches the bot: no tokens, no paths to the store.
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "TMPDIR": str(home),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


class BotProcess:
    """A bot's process for one game. Use as a context manager; :meth:`close` always cleans up."""

    def __init__(self, game: GameSpec, source: bytes, *, label: str = "bot", seed: int = 0,
                 limits: Limits | None = None, filename: str = "player.py") -> None:
        self.game = game
        self.source = source
        self.label = label
        self.seed = seed
        self.limits = limits or Limits().with_game(game)
        self.filename = filename
        self.proc: subprocess.Popen[bytes] | None = None
        self.root: Path | None = None
        self.cgroup: PidsCgroup | None = None
        self.stdout = CapturedOutput()
        self.stderr = CapturedOutput()
        self.dead: CallResult | None = None  # set once the process is gone or was killed
        self._buf = bytearray()

    # ---- life cycle ----------------------------------------------------------------------
    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _spawn(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix=f"harness-bot-{os.getpid()}-"))  # owner pid: see sweep_stale_dirs
        code, work = self.root / "code", self.root / "work"
        code.mkdir()
        work.mkdir()
        (code / self.filename).write_bytes(self.source)
        req_r, self._req_w = os.pipe()
        self._rep_r, rep_w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(WORKER), str(req_r), str(rep_w), *SITE_DIRS],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=work, env=_scrubbed_env(work), pass_fds=(req_r, rep_w),
                start_new_session=True, close_fds=True)
        finally:
            os.close(req_r)
            os.close(rep_w)
        pid = self.proc.pid
        # Limits are set from outside before the worker runs any bot code (it waits for "load").
        resource.prlimit(pid, resource.RLIMIT_AS, (self.limits.memory_bytes, self.limits.memory_bytes))
        resource.prlimit(pid, resource.RLIMIT_CORE, (0, 0))
        self.cgroup = PidsCgroup.create(pid, self.limits.max_tasks)
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
        except OSError as exc:
            self.dead = CallResult(False, verdict=Verdict.HARNESS_ERROR, reason=f"cannot start the bot: {exc}")

    def load(self) -> CallResult:
        """Import the bot's module (starting the process if needed); ``value`` lists its methods."""
        self.start()
        if self.dead is not None:
            return self.dead
        botapi = [str(self.game.botapi_dir)] if self.game.botapi_dir else []
        assert self.root is not None
        request = {"op": "load", "path": str(self.root / "code" / self.filename),
                   "sys_path": [*botapi, str(self.root / "code")],
                   "wire": {k: list(v) for k, v in self.game.wire_classes.items()},
                   "seed": self.seed, "limit": self.limits.load, "class": self.game.student_class,
                   "forbidden": sorted(self.game.forbidden_imports)}
        return self._roundtrip(request, self.limits.load, "import of player.py")

    def call(self, call: Call) -> CallResult:
        """Make one call on the bot (see :class:`harness.games.base.Call`)."""
        if self.dead is not None:
            return self.dead
        limit = self.limits.for_call(call.limit)
        what = f"{self.game.student_class}(...)" if call.method == "__init__" else f"{call.method}()"
        request = {"op": "call", "method": call.method, "args": list(call.args), "limit": limit}
        return self._roundtrip(request, limit, what)

    def close(self) -> None:
        """Kill the process tree, collect the remaining output and delete the working directory."""
        if self.proc is not None:
            self._kill()
            self._drain_streams()
            for f in (self.proc.stdout, self.proc.stderr):
                if f is not None:
                    f.close()
            for fd in (self._req_w, self._rep_r):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.proc = None
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def _kill(self) -> None:
        proc = self.proc
        if proc is None:
            return
        if self.cgroup is not None:
            self.cgroup.kill_all()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail like this
            proc.kill()
            proc.wait()

    # ---- one request, one reply, a deadline ----------------------------------------------
    def _roundtrip(self, request: dict[str, Any], limit: float, what: str) -> CallResult:
        try:
            if "args" in request:
                request["args"] = wire.encode_value(request["args"], object_fields=_describe_wire_object)
            payload = json.dumps(request).encode()
        except (wire.WireError, TypeError, ValueError) as exc:
            return CallResult(False, verdict=Verdict.HARNESS_ERROR, reason=f"cannot encode {what}: {exc}")
        start = time.perf_counter()
        try:
            wire.write_frame(self._req_w, payload)
        except (BrokenPipeError, OSError):
            return self._died(what, time.perf_counter() - start)
        deadline = start + limit + self.limits.grace
        frame = self._read_reply(deadline)
        wall = time.perf_counter() - start
        if frame is _EOF:
            return self._died(what, wall)
        if frame is None:
            if self.proc is not None and self.proc.poll() is None:
                self._kill()
                self.dead = CallResult(False, verdict=Verdict.TIMEOUT, wall=wall,
                                       reason=f"{what} did not return within {limit:g} s; "
                                              f"killed after {wall:.2f} s")
                return self.dead
            return self._died(what, wall)
        if isinstance(frame, CallResult):
            return frame
        try:
            reply = wire.parse(frame)
            if isinstance(reply, dict) and "value" in reply:
                reply["value"] = wire.decode_value(reply["value"], _build_wire_object)
        except wire.WireError as exc:
            self._kill()
            self.dead = CallResult(False, verdict=Verdict.BAD_ANSWER, wall=wall,
                                   reason=f"{what}: unreadable reply from the bot's process ({exc})")
            return self.dead
        if not isinstance(reply, dict):
            self._kill()
            self.dead = CallResult(False, verdict=Verdict.BAD_ANSWER, wall=wall,
                                   reason=f"{what}: malformed reply from the bot's process")
            return self.dead
        cpu = reply.get("cpu")
        cpu = float(cpu) if isinstance(cpu, (int, float)) and not isinstance(cpu, bool) else None
        if not reply.get("ok"):
            verdict = _verdict(reply.get("verdict"))
            result = CallResult(False, verdict=verdict, reason=str(reply.get("reason", ""))[:2000],
                                wall=wall, cpu=cpu, traceback=str(reply.get("traceback", "")))
            if verdict is Verdict.TIMEOUT:
                self._kill()  # its thread may still run; nothing it does from now on counts
                self.dead = result
            return result
        if wall > limit:
            # The parent's clock is the authority: an answer that came late is a timeout.
            self._kill()
            self.dead = CallResult(False, verdict=Verdict.TIMEOUT, wall=wall, cpu=cpu,
                                   reason=f"{what} took {wall:.3f} s, over the {limit:g} s limit")
            return self.dead
        info = reply.get("info")
        return CallResult(True, value=reply.get("value"), wall=wall, cpu=cpu,
                          info=info if isinstance(info, dict) else {})

    def _read_reply(self, deadline: float) -> bytes | CallResult | object | None:
        """Read one whole frame before ``deadline``, draining stdout/stderr meanwhile.

        Returns the frame, ``None`` at the deadline, ``_EOF`` when the channel closed, or a
        ``CallResult`` when the bot's process sent a frame over the answer cap.
        """
        need = wire.HEADER.size
        while True:
            if len(self._buf) >= need:
                if need == wire.HEADER.size:
                    (length,) = wire.HEADER.unpack(self._buf[:need])
                    if length > self.limits.answer_bytes + 4096:
                        self._kill()
                        self.dead = CallResult(False, verdict=Verdict.BAD_ANSWER,
                                               reason=f"answer of {length} bytes exceeds the cap of "
                                                      f"{self.limits.answer_bytes} bytes")
                        return self.dead
                    need += length
                    continue
                frame = bytes(self._buf[wire.HEADER.size:need])
                del self._buf[:need]
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
                    self._buf += chunk
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

    def _drain_streams(self) -> None:
        for fd in list(self._streams):
            for _ in range(1 << 14):  # bounded: a dead process's pipe ends after what it held
                try:
                    chunk = os.read(fd, 1 << 16)
                except (BlockingIOError, OSError):
                    break
                if not chunk:
                    break
                self._streams[fd].add(chunk, self.limits.output_bytes)

    def _died(self, what: str, wall: float) -> CallResult:
        """The process ended (or closed its channel) during ``what``: a crash, with its cause."""
        proc = self.proc
        code: int | None = None
        if proc is not None:
            try:
                code = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._kill()
                code = proc.returncode
        if code is None:
            reason = f"{what}: the bot closed its channel to the harness"
        elif code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
            reason = f"the bot's process was killed by {name} during {what}"
        else:
            reason = f"the bot's process exited with code {code} during {what}"
        self.dead = CallResult(False, verdict=Verdict.CRASH, reason=reason, wall=wall)
        return self.dead

    @property
    def pid(self) -> int | None:
        """The bot's process id while it runs."""
        return self.proc.pid if self.proc is not None else None


def _verdict(name: Any) -> Verdict:
    try:
        return Verdict(name)
    except ValueError:
        return Verdict.HARNESS_ERROR


def _describe_wire_object(value: Any) -> tuple[str | None, str, Any] | None:
    if isinstance(value, WireObject):
        return value.cls, value.type_name or str(value.cls), value.fields
    return None


def _build_wire_object(name: Any, type_name: str, fields: dict[str, Any]) -> WireObject:
    return WireObject(cls=name if isinstance(name, str) else None, fields=fields, type_name=type_name)


__all__ = ["BotProcess", "CallResult", "CapturedOutput", "Limits"]

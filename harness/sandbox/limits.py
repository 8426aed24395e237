"""The limits a bot runs under, and what one call to it produced (re-exported by ``process``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from harness.games.base import GameSpec
from harness.record import Verdict
from harness.sandbox.bot.deadline import DEFAULT_BACKSTOP, DEFAULT_POLICY, POLICIES


@dataclass(frozen=True)
class Limits:
    """Limits for one bot in one game. Times are seconds per call.

    ``policy`` says which clock judges a call: ``"wall"`` (the course's literal rule: wall-clock
    time as the parent measures it) or ``"cpu"`` (CPU time of the bot's whole process tree, so
    a loaded machine cannot cost a bot its game) with a wall-clock backstop of ``backstop``
    times the limit (a bot that sleeps or blocks is still stopped). The rule that judges a call
    by them is :mod:`harness.sandbox.bot.deadline`; a game's default limits are :meth:`default`.
    """

    init: float = 1.0  # the constructor and each setup call (e.g. Quoridor's initialization)
    move: float = 1.0  # each call of a turn
    load: float = 5.0  # importing player.py (module-level code)
    grace: float = 0.25  # the parent kills this long after a limit if the bot has not answered
    memory_bytes: int = 1 << 30  # address space (RLIMIT_AS); also the memory cgroup's cap
    max_tasks: int = 8  # threads of the bot's process (main thread included); pids cgroup cap
    answer_bytes: int = 1 << 20  # largest answer accepted
    output_bytes: int = 64 << 10  # stdout and stderr kept per stream per game
    policy: str = "wall"  # "wall" or "cpu"
    backstop: float = 3.0  # cpu policy: the wall-clock backstop, as a multiple of the limit
    output_call_bytes: int = 16 << 20  # stdout + stderr written during one call before a verdict
    output_game_bytes: int = 128 << 20  # ... during the whole game
    file_bytes: int = 16 << 20  # largest file the bot may write (RLIMIT_FSIZE)
    open_files: int = 64  # file descriptors (RLIMIT_NOFILE)
    work_bytes: int = 64 << 20  # size of the bot's writable directory (bubblewrap: a tmpfs)
    isolation: str = "auto"  # "auto" (bubblewrap if it works, else plain), "bwrap" (required), "plain"
    cgroups: bool = True  # use cgroups (task cap, tree CPU time, memory cap) where the machine allows
    pause: bool = True  # stop the bot (SIGSTOP) between its calls, so it cannot use the opponent's time
    # Installed packages (import names) the bot may import besides its game's: a job's approval
    # (``bot_packages``). Part of the bot's environment, so part of a game's identity.
    packages: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise ValueError(f"limits.policy must be 'wall' or 'cpu', got {self.policy!r}")
        if isinstance(self.packages, list):  # from JSON (a task's limits): keep the type hashable
            object.__setattr__(self, "packages", tuple(self.packages))
        if self.backstop < 1:
            raise ValueError(f"limits.backstop must be at least 1 (a multiple of the limit), got {self.backstop!r}")

    @classmethod
    def default(cls, game: GameSpec | None = None, policy: str | None = None, **changes: Any) -> Limits:
        """The limits a job, ``check`` and ``doctor`` judge by unless told otherwise: the game's call
        limits (if ``game``), the :data:`~harness.sandbox.bot.deadline.DEFAULT_POLICY` (``policy``
        overrides it) with its :data:`~harness.sandbox.bot.deadline.DEFAULT_BACKSTOP`, and ``changes``.

        The one way to build them. A bare ``Limits()`` is the ``wall`` policy with a 3x backstop:
        the laboratory setting the sandbox's own tests pin.
        """
        limits = cls(policy=policy or DEFAULT_POLICY, backstop=DEFAULT_BACKSTOP)
        return replace(limits.with_game(game) if game is not None else limits, **changes)

    def for_call(self, kind: str) -> float:
        """The limit that applies to a call of ``kind`` ("init", "move" or "load")."""
        return {"init": self.init, "move": self.move, "load": self.load}[kind]

    def with_game(self, game: GameSpec) -> Limits:
        """These limits with the game's own call limits."""
        return replace(self, init=game.init_limit, move=game.move_limit)

    def with_policy(self, policy: str) -> Limits:
        """These limits judged by another clock ("wall" or "cpu")."""
        return replace(self, policy=policy)


# A harness_error whose cause is the host: the kernel's OOM killer killed the bot's process while
# it was under its own memory cap (the evidence is its own cgroup's; see BotCgroup.oom_evidence).
HOST_OOM = "host_oom"


@dataclass
class CallResult:
    """What one call to the bot produced, as the parent measured it.

    ``wall`` is the parent's wall-clock time from writing the request to reading the whole
    reply; ``cpu`` the CPU time of the bot's whole process tree during the call (from its
    cgroup where there is one; else the bot process's own figure, cross-checked with /proc on
    Linux). ``waited`` is the part of ``wall`` the bot's threads spent waiting for a CPU (the
    machine's load): the wall-clock clocks judge ``wall - waited``. ``clock`` says which clock fired when the verdict is a timeout: "wall" or "cpu".
    """

    ok: bool
    value: Any = None
    verdict: Verdict | None = None
    reason: str = ""
    wall: float = 0.0
    cpu: float | None = None
    info: dict[str, Any] = field(default_factory=dict)
    traceback: str = ""
    clock: str | None = None
    waited: float = 0.0  # seconds of ``wall`` the bot's threads waited for a CPU (not charged to it)
    # Why a harness_error is the host's and not the harness's own: "host_oom", the kernel's OOM killer
    # killed this bot's process under its own cap (its own cgroup's evidence); "" otherwise.
    cause: str = ""


@dataclass
class CapturedOutput:
    """The first bytes a bot wrote to one of its streams, and how many more were dropped."""

    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes, cap: int) -> None:
        room = max(0, cap - len(self.data))
        self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - room)

    @property
    def total(self) -> int:
        """Every byte the bot wrote to this stream, kept or dropped."""
        return len(self.data) + self.dropped

    def text(self) -> str:
        text = self.data.decode("utf-8", "replace")
        return text + (f"\n[... {self.dropped} more bytes dropped]" if self.dropped else "")


def mib(n: int) -> str:
    """``n`` bytes as a short human figure for reasons ("16 MiB", "1.5 KiB")."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n} bytes"


__all__ = ["HOST_OOM", "POLICIES", "CallResult", "CapturedOutput", "Limits", "mib"]

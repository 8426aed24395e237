"""The timing rule, stated once: how long a call may take, when it is over, and what the reason says.

Pure: no clock, no I/O, no imports. Figures go in (seconds measured by the caller), a decision
and its text come out. Both sides use it: the parent (:mod:`harness.sandbox.process`), which
alone decides a verdict, and the worker in the bot's process (:mod:`harness.sandbox.bot.worker`,
shipped to it as ``_harness_deadline`` by :mod:`harness.sandbox.botside`), whose clock only
says earlier, and with the line the bot was stuck on, what the parent would decide anyway.

The rule:

* A call has a **limit** (seconds). Under the ``cpu`` policy the bot's CPU time is judged
  against it, and its own time against a **backstop** of ``backstop`` times the limit (a bot
  that sleeps or blocks is still stopped). Under the ``wall`` policy its own time is judged
  against the limit itself.
* **Own time** is wall-clock time less the time the bot waited for a CPU that others held
  (:func:`own_time`): running, or asleep by its own choice. A busy machine costs a bot nothing.
  The credited wait is never more than the call's wall time, and never so much that the bot's
  own time is less than its CPU time spread over the cores it could use.
* The parent kills a call that has not answered ``grace`` seconds after its allowance, and any
  call after :data:`CEILING` times its limit of wall-clock time, whatever the wait.
* An answer that arrives over the allowance is a timeout too (:func:`late`).
"""

CEILING = 30.0  # no call lasts longer than this many times its limit of wall-clock time
POLICIES = ("wall", "cpu")
DEFAULT_POLICY = "cpu"  # what a job, `check` and `doctor` judge by: a loaded machine costs a bot nothing
DEFAULT_BACKSTOP = 1.5  # the cpu policy's wall-clock backstop, as a multiple of the limit
WAIT_SHOWN = 0.005  # a credited wait shorter than this is not worth a clause in a reason
_STUCK_CHARS = 160


class Allowance:
    """What one call may take: its ``limit``, the ``policy`` that judges it, the ``backstop``
    factor (cpu policy) and the parent's ``grace`` before a kill."""

    __slots__ = ("limit", "policy", "backstop", "grace")

    def __init__(self, limit: float, policy: str = "wall", backstop: float = 3.0, grace: float = 0.25) -> None:
        self.limit = float(limit)
        self.policy = policy if policy in POLICIES else "wall"
        self.backstop = max(1.0, float(backstop))
        self.grace = float(grace)

    @property
    def own(self) -> float:
        """The own time a call may take: the limit (wall policy), the backstop (cpu policy)."""
        return self.limit if self.policy == "wall" else self.limit * self.backstop

    @property
    def cpu(self) -> float | None:
        """The CPU time a call may take (cpu policy), else None."""
        return self.limit if self.policy == "cpu" else None

    @property
    def kill_own(self) -> float:
        """Own time after which the parent kills a call that has not answered."""
        return self.own + self.grace

    @property
    def kill_cpu(self) -> float | None:
        """CPU time after which the parent kills a call that has not answered (cpu policy)."""
        return None if self.policy != "cpu" else self.limit + self.grace

    @property
    def ceiling(self) -> float:
        """Wall-clock time after which any call is killed, however long it waited for a CPU."""
        return max(self.kill_own, CEILING * self.limit + self.grace)

    def __repr__(self) -> str:
        return f"Allowance({self.limit!r}, {self.policy!r}, {self.backstop!r}, {self.grace!r})"


def own_time(wall: float, wait: float, cpu: float | None = None, cores: int = 1) -> float:
    """The part of ``wall`` that was the bot's own (running, or asleep by choice): wall less its CPU wait.

    The wait is capped at ``wall`` (waits of several threads are summed and may overlap).
    Never less than the CPU time spread over every core it could use (``cpu / cores``):
    threads of a bot that wait for each other's CPU earn it nothing.
    """
    own = wall - min(max(wait, 0.0), wall) if wall > 0 else 0.0
    return max(own, min(max(wall, 0.0), (cpu or 0.0) / max(1, cores)))


def credited(wall: float, own: float) -> float:
    """The wait credited to a call whose own time was ``own`` of ``wall``: between 0 and ``wall``."""
    return min(max(wall - own, 0.0), max(wall, 0.0))


def late(allow: Allowance, own: float, cpu: float | None) -> str | None:
    """Which clock an answer that came back after ``own`` s of own time and ``cpu`` s of CPU broke:
    "wall", "cpu", or None (in time)."""
    if allow.policy == "cpu" and cpu is not None and cpu > allow.limit:
        return "cpu"
    if own > allow.own:
        return "wall"
    return None


def running_over(allow: Allowance, wall: float, own: float, cpu: float | None) -> str | None:
    """Which clock of a call still running ``wall`` s (``own`` of them its own, ``cpu`` of CPU) ran
    out, for the parent's kill: "ceiling", "cpu", "wall", or None (it may go on)."""
    if wall >= allow.ceiling:
        return "ceiling"
    if own >= allow.kill_own:
        return "wall"
    kill_cpu = allow.kill_cpu
    if kill_cpu is not None and cpu is not None and cpu > kill_cpu:
        return "cpu"
    return None


def worker_over(allow: Allowance, own: float, cpu: float, cores: int, own_known: bool = True) -> str | float:
    """The worker's clock: which clock of the running call ran out ("wall", "cpu"), or how long
    to sleep before asking again. ``own_known``: False while the bot runs threads whose waits the
    worker cannot read; its wall clock then never fires (the parent's has the last word)."""
    if own >= allow.own and own_known:
        return "wall"
    wait = max(allow.own - own, 0.05)  # own time grows at most as fast as the wall clock
    if allow.policy == "cpu":
        if cpu >= allow.limit:
            return "cpu"
        wait = min(wait, (allow.limit - cpu) / max(1, cores))  # CPU grows at most cores times as fast
    return max(0.002, wait)


# ---- the reasons -------------------------------------------------------------------------------
def waited_text(waited: float) -> str:
    """The clause about a credited wait for a CPU ("" when it is negligible)."""
    return f" ({waited:.2f} s of it waiting for a CPU, not counted)" if waited >= WAIT_SHOWN else ""


def late_reason(allow: Allowance, what: str, clock: str, wall: float, own: float, cpu: float | None) -> str:
    """Why an answer that came back late is a timeout (``clock`` as :func:`late` said)."""
    if clock == "cpu":
        return (f"{what} took {cpu or 0:.3f} s of CPU time, over the {allow.limit:g} s limit "
                f"({wall:.3f} s of wall-clock time)")
    if allow.policy == "cpu":
        return (f"{what} took {own:.3f} s of wall-clock time, over the {allow.own:g} s backstop of the "
                f"CPU-time policy{waited_text(credited(wall, own))}")
    return (f"{what} took {own:.3f} s of wall-clock time, over the {allow.limit:g} s limit"
            f"{waited_text(credited(wall, own))}")


def killed_reason(allow: Allowance, what: str, clock: str, wall: float, own: float, cpu: float | None,
                  stuck: str = "", stopped: bool = False) -> str:
    """Why the parent killed a call that did not answer (``clock`` as :func:`running_over` said).

    ``stuck``: where the bot was, as :func:`stuck_at` accepted it; ``stopped``: its process was
    found stopped (it sent itself SIGSTOP).
    """
    spent = "" if cpu is None else f", having used {cpu:.2f} s of CPU time"
    waited = waited_text(credited(wall, own))
    if clock == "cpu":
        reason = (f"{what} used more than {allow.limit:g} s of CPU time "
                  f"({cpu or 0:.2f} s when killed after {wall:.2f} s of wall-clock time)")
    elif clock == "ceiling":
        reason = (f"{what} did not return within {CEILING:g}x its {allow.limit:g} s limit of wall-clock time, "
                  f"however long it waited for a CPU; killed after {wall:.2f} s{spent}")
    elif allow.policy == "cpu":
        reason = (f"{what} did not return within the wall-clock backstop of {allow.own:g} s "
                  f"({allow.backstop:g}x the {allow.limit:g} s CPU-time limit); killed after {wall:.2f} s{spent}"
                  f"{waited}")
    else:
        reason = f"{what} did not return within {allow.limit:g} s; killed after {wall:.2f} s{spent}{waited}"
    if stuck:
        reason += f" (stuck{stuck})"
    if stopped:
        reason += " (its process was stopped: it sent itself SIGSTOP?)"
    return reason


def worker_reason(allow: Allowance, what: str, clock: str, where: str = "") -> str:
    """The worker's reason when its own clock ran out (``where``: " at player.py line N in f")."""
    if clock == "cpu":
        reason = f"{what} used more than {allow.limit:g} s of CPU time"
    elif allow.policy == "cpu":
        reason = f"{what} did not return within the wall-clock backstop of {allow.own:g} s"
    else:
        reason = f"{what} did not return within {allow.limit:g} s"
    return reason + (f" (stuck{where})" if where else "")


def measured_text(wall: float, cpu: float | None) -> str:
    """What the parent measured, appended to a timeout the worker reported."""
    return f"; {wall:.2f} s of wall-clock time" + ("" if cpu is None else f", {cpu:.2f} s of CPU time")


def stuck_at(reason: str) -> str:
    """The place a reason from the bot's process names (" at NAME.py line N in FUNC"), or "".

    That text comes from a process the bot shares, so it is only ever a clause of the parent's
    own reason: accepted only in exactly this shape, in plain ASCII, and short.
    """
    start = reason.find(" (stuck at ")
    end = reason.find(")", start + 1) if start >= 0 else -1
    if end < 0:
        return ""
    text = reason[start + 7:end]
    parts = text.split(" ")  # "", "at", NAME.py, "line", N, "in", FUNC
    if len(text) > _STUCK_CHARS or len(parts) != 7 or parts[:2] != ["", "at"] or parts[3] != "line" \
            or parts[5] != "in" or not parts[2].endswith(".py") or not _plain_name(parts[2]) \
            or not _plain_name(parts[4], "0123456789") or not _plain_name(_unbracket(parts[6])):
        return ""
    return text


def _unbracket(name: str) -> str:
    """A function's name without the brackets of ``<module>``, ``<lambda>``, ``<listcomp>``."""
    return name[1:-1] if len(name) > 2 and name[0] == "<" and name[-1] == ">" else name


def _plain_name(text: str, allowed: str = "") -> bool:
    """True if ``text`` is a short run of ``allowed`` characters (default: ASCII letters, digits,
    ``_``, ``-`` and ``.``)."""
    if not text or len(text) > 100:
        return False
    for ch in text:
        if allowed and ch not in allowed:
            return False
        if not allowed and not ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9" or ch in "_-."):
            return False
    return True


__all__ = ["CEILING", "DEFAULT_BACKSTOP", "DEFAULT_POLICY", "POLICIES", "Allowance", "credited", "killed_reason",
           "late", "late_reason", "measured_text", "own_time", "running_over", "stuck_at", "waited_text",
           "worker_over", "worker_reason"]

"""Checks of a submission made before it runs: ASCII-only source, forbidden and unapproved imports.

Every ``.py`` file of the submission is checked and a finding names the file and line. What a
bot may import is its *environment*: the standard library, its game's bot API (``base``,
``obstacle`` ...), the submission's own modules, the game's packages (Štreky: Pillow, as on the
course's grader) and the packages its job approves (``bot_packages``). A game's forbidden
imports (Quoridor: numpy, scipy, ...) are refused whatever else allows them.

A game that takes one file (Štreky: :attr:`SubmissionRules.several_files` is false) refuses every
module of the student's own that ``player.py`` imports, directly or through another, naming
the file and the rule: the course's grader had player.py alone, and that import failed there.

An import inside ``try: ... except ImportError:`` (or a broader handler) is left to run time:
the bot expects it may fail, and in the sandbox it fails exactly as on a machine without the
package. So is an import of a module installed nowhere (a typo): it fails as it did on the
course's grader, with the bot's exception. A syntax error is not judged here: importing the file in the sandbox reports it as the
bot's exception, with the line.

Every module is parsed, and ``player.py`` with the modules it imports compiled, in the door
(:mod:`harness.door.modules`: a child process with a memory, a CPU-time and an output cap, once
per content, cached across games and runs), never in the harness's own process: a module past
those caps is a ``size`` finding, the bot's ``forbidden``.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from harness.door import modules as door_modules
from harness.door.modules import Scan
from harness.games.base import GameSpec
from harness.sandbox.limits import mib
from harness.submission import MAIN, Submission

PACKAGES_KEY = "bot_packages"


@dataclass(frozen=True)
class Finding:
    """One broken static rule: which (``files``, ``ascii``, ``forbidden``, ``unapproved``, ``size``) and where."""

    rule: str
    reason: str


def environment(game: GameSpec, packages: Iterable[str] = ()) -> frozenset[str]:
    """The installed packages (import names) a bot of ``game`` may import under a job's approval."""
    return frozenset(game.submission.packages) | frozenset(packages)


def parse(source: bytes) -> Scan:
    """What parsing the module found (:func:`harness.door.modules.scan`: in the door's capped child,
    once per content; never in this process).

    A syntax error is the bot's exception at run time, with its line; so is a file too deep for
    the parser (``RecursionError``): importing it in the sandbox says what happens, as it would
    on the course's grader. A file whose parse breaks the child's memory or CPU cap is a finding
    (:func:`findings`, rule ``size``).
    """
    return door_modules.scan(source)


def _over(name: str, found: Scan) -> Finding:
    """The finding for a module too large or complex to parse within the child's caps."""
    task = door_modules.task()
    cap = {"memory": f"{mib(task.memory)} of memory", "cpu": f"{task.cpu} s of CPU time"}.get(
        found.over or "", f"{mib(task.output)} of output")
    return Finding("size", f"{name}: too large or complex to check: parsing it needs more than {cap} "
                           f"(a bot could not import it within its own limits either)")


def findings(game: GameSpec, submission: bytes | Submission, packages: Iterable[str] = ()) -> list[Finding]:
    """Every broken static rule of the submission, in file order (empty if it passes)."""
    sub = Submission.of(submission)
    found: list[Finding] = []
    approved = environment(game, packages)
    own = {n[:-3] for n in sub.files if n.endswith(".py")}
    allowed = frozenset(sys.stdlib_module_names) | set(game.botapi_modules) | own | approved
    if not game.submission.several_files:
        found += _second_modules(game, sub)
    given = submitted(game, sub)  # what the grader gets
    checked = door_modules.check(given.files)
    for name, source in given.python_files():
        if game.submission.ascii_only and not source.isascii():
            for lineno, line in enumerate(source.split(b"\n"), start=1):
                col = next((c for c, byte in enumerate(line, start=1) if byte > 127), None)
                if col is not None:
                    found.append(Finding("ascii", f"{name} line {lineno} column {col}: non-ASCII character "
                                                  f"(the game requires ASCII-only source, comments included)"))
                    break
        scanned = checked[name].scan
        if scanned.over is not None:
            found.append(_over(name, scanned))
        elif checked[name].over is not None:
            found.append(Finding("size", checked[name].reason(name) or ""))
        for lineno, top, guarded in scanned.imports:
            if top in game.submission.forbidden_imports:
                found.append(Finding("forbidden", f"{name} line {lineno}: import of {top!r} is not allowed "
                                                  f"in {game.title}"))
            elif top not in allowed and not guarded and _installed(top):
                found.append(Finding("unapproved", f"{name} line {lineno}: import of {top!r} is not allowed: "
                                                   f"it is neither the standard library nor a package approved for "
                                                   f"this job (an instructor approves it with `{PACKAGES_KEY}: "
                                                   f"[{top}]` in the job)"))
    return found


def _second_modules(game: GameSpec, sub: Submission) -> list[Finding]:
    """The student's own modules that player.py needs, in a game that takes player.py alone."""
    # A module named like one of the standard library's is that one on the grader, which had
    # player.py alone (e.g. reference_players/streky/brute.py's `import random`, beside random.py).
    own = {n[:-3]: n for n in sub.files if n.endswith(".py") and n != MAIN and n[:-3] not in sys.stdlib_module_names}
    needed: list[str] = []
    todo = [MAIN]
    while todo:
        name = todo.pop()
        for _, top, guarded in parse(sub.files[name]).imports:
            # A guarded import has its way out: on the grader it failed and the bot went on.
            if top in own and own[top] not in needed and not guarded:
                needed.append(own[top])
                todo.append(own[top])
    rule = f" ({game.submission.one_file_rule})" if game.submission.one_file_rule else ""
    return [Finding("files", f"{n}: {game.title} takes one file, {MAIN}{rule}; {MAIN} needs {n}, a second "
                             f"module of the submission's own, which the grader does not get")
            for n in needed]


def submitted(game: GameSpec, submission: Submission) -> Submission:
    """What of ``submission`` reaches the bot's sandbox: player.py alone in a one-file game."""
    if game.submission.several_files or len(submission.files) == 1:
        return submission
    return Submission({MAIN: submission.main}, submission.origin, submission.notes)


@functools.cache
def _installed(name: str) -> bool:
    """True if ``name`` is importable here (a package the sandbox hides unless approved).

    A module installed nowhere is left to run time: its import fails in the sandbox exactly as on
    the course's grader (an exception with the line), and no approval would help.
    """
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def check_source(game: GameSpec, submission: bytes | Submission, packages: Iterable[str] = ()) -> str | None:
    """``None`` if the submission passes the game's static rules, else the first reason it is forbidden."""
    found = findings(game, submission, packages)
    return found[0].reason if found else None


__all__ = ["Finding", "PACKAGES_KEY", "check_source", "environment", "findings", "parse", "submitted"]

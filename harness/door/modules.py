"""A submission's modules through the door: what they import, and their bytecode for the bot.

Every ``.py`` module is parsed in the door (:mod:`harness.door`, task ``module``, run by
:mod:`harness.door.source`), never in the harness's process, once per content. ``player.py`` and
every module of the submission's own it imports (directly or through another) are also compiled
there, once per content, so a bot's interpreter compiles nothing at its start; a module nothing
imports is only parsed (compiling is where a student's bytes cost the most: the optimiser folds
constant expressions and keeps every intermediate value). A module over :data:`MAX_COMPILED`
bytes is left to the bot's own interpreter, in its own sandbox and under its own limits.

* :func:`scan` -- a module's imports (:class:`Scan`), or which cap parsing it broke;
* :func:`check` -- every module of a submission: its scan, its pyc and the cap compiling it broke;
* :func:`place` -- a game's code folder gets each pyc by a hard link to the door's read-only
  cache entry (a copy where the cache is on another file system or was not written), never a
  compilation of its own.

A module whose parse or compilation breaks a cap (memory, CPU time, or a pyc over
:data:`MAX_PYC`) is the submission's own problem: :mod:`harness.sandbox.checks.static` makes it a
``size`` finding, the bot's ``forbidden``. A door that cannot say (no child) leaves the module
unchecked here, to run time, where the bot's own interpreter compiles it in the sandbox.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from harness import door

MAIN = "player.py"
MAX_COMPILED = 256 << 10  # a larger module is compiled by the bot's own interpreter, as before
MAX_PYC = 8 << 20  # bytes of bytecode (with the module's imports) a compiled module may come to
TASK = door.register(door.Task("module", "harness.door.source:module", output=MAX_PYC))


def task() -> door.Task:
    """The ``module`` task as registered now (its caps name a finding's limit)."""
    return door.TASKS[TASK.name]


@dataclass(frozen=True)
class Scan:
    """What parsing one module found: its imports ``(line, top-level module, guarded)``, whether
    it parsed at all (a syntax error is left to run time), or which cap (``over``) it broke."""

    parsed: bool
    imports: tuple[tuple[int, str, bool], ...] = ()
    over: str | None = None  # "memory", "cpu" or "output": too large or complex to check


UNCHECKED = Scan(parsed=False)


@dataclass(frozen=True)
class Module:
    """One module of a submission as the door saw it."""

    scan: Scan
    pyc: bytes | None = None  # its bytecode (None: not compiled here; the bot compiles it)
    over: door.Over | None = None  # the cap compiling it broke

    def reason(self, name: str) -> str | None:
        """The one line that makes this module's submission ``forbidden``, if any."""
        if self.over is None:
            return None
        if self.over.cap == "output":
            from harness.sandbox.limits import mib  # here: the sandbox package imports this one

            return f"{name}: too large to compile: its bytecode is larger than the {mib(MAX_PYC)} cap"
        return self.over.line(name, "compile")


def _item(source: bytes, compile_it: bool) -> dict[str, object]:
    """The ``module`` task's item: parse ``source``, and compile it too if ``compile_it``."""
    return {"source": source, "compile": compile_it}


def _scan_of(found: object) -> Scan:
    """A door's answer as a :class:`Scan` (anything unexpected: unchecked)."""
    if isinstance(found, door.Over):
        return Scan(parsed=False, over=found.cap)
    if not isinstance(found, dict) or found.get("parsed") is not True:
        return UNCHECKED
    try:
        return Scan(True, tuple((int(line), str(top), bool(g)) for line, top, g in found["imports"]))
    except (KeyError, TypeError, ValueError):
        return UNCHECKED


def _module_of(found: object) -> Module:
    """A door's answer to a compiling item as a :class:`Module` (a cap broken: its ``over``)."""
    if isinstance(found, door.Over):
        return Module(Scan(parsed=True), over=found)
    pyc = found.get("pyc") if isinstance(found, dict) else None
    return Module(_scan_of(found), pyc if isinstance(pyc, bytes) else None)


def scan(source: bytes) -> Scan:
    """The :class:`Scan` of a module's ``source``: from what the door knows, or a capped child."""
    for compiled in (True, False):  # a module already compiled was parsed on the way
        if compiled and len(source) > MAX_COMPILED:
            continue
        known = door.peek(TASK.name, _item(source, compiled))
        if known is not None and not (compiled and isinstance(known[0], door.Over)):
            return _scan_of(known[0])
    found = door.run_many(TASK.name, [_item(source, False)])[0]
    return UNCHECKED if isinstance(found, door.Unavailable) else _scan_of(found)


def reached(files: Mapping[str, bytes], scans: Mapping[str, Scan]) -> list[str]:
    """``player.py`` and the submission's own modules it imports, directly or through another."""
    own = {n[:-3]: n for n in files if n.endswith(".py")}
    found = [MAIN] if MAIN in files else []
    todo = list(found)
    while todo:
        for _, top, _ in scans[todo.pop()].imports:
            if top in own and own[top] not in found:
                found.append(own[top])
                todo.append(own[top])
    return found


def check(files: Mapping[str, bytes]) -> dict[str, Module]:
    """Every ``.py`` module of a submission (name -> source): scanned, and compiled if reached.

    One child for what the door has not seen (two where a module other than ``player.py`` is
    imported: its imports say which to compile), none for what it has.
    """
    names = [n for n in files if n.endswith(".py")]
    compiled = {MAIN} if MAIN in files and len(files[MAIN]) <= MAX_COMPILED else set()
    first = door.run_many(TASK.name, [_item(files[n], n in compiled) for n in names])
    out: dict[str, Module] = {}
    for name, found in zip(names, first):
        if isinstance(found, door.Unavailable):
            out[name] = Module(UNCHECKED)
        elif name in compiled:
            out[name] = _module_of(found)
        else:
            out[name] = Module(_scan_of(found))
    more = [n for n in reached(files, {n: m.scan for n, m in out.items()})
            if n not in compiled and len(files[n]) <= MAX_COMPILED]
    for name, found in zip(more, door.run_many(TASK.name, [_item(files[n], True) for n in more])):
        if not isinstance(found, door.Unavailable):
            got = _module_of(found)
            out[name] = Module(out[name].scan, got.pyc, got.over)
    return out


def place(files: Mapping[str, bytes], code: Path) -> int:
    """Put the pyc of every compiled module of ``files`` beside its copy in ``code`` (the game's
    code folder), where the bot's import finds it: how many were placed."""
    placed = 0
    for name, module in check(files).items():
        if module.pyc is None:
            continue
        target = Path(importlib.util.cache_from_source(str(code / name)))
        target.parent.mkdir(exist_ok=True)
        try:  # the door's entry is read-only and owned by the harness: no bot can change it
            os.link(door.blob_path(module.pyc), target)
        except OSError:  # another file system, or no disk cache: a copy
            target.write_bytes(module.pyc)
        placed += 1
    return placed


__all__ = ["MAIN", "MAX_COMPILED", "MAX_PYC", "Module", "Scan", "UNCHECKED", "check", "place",
           "reached", "scan", "task"]

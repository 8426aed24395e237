"""The checkers of the seeds' code rules: pure functions of a file's source text.

They parse untrusted source (pycodestyle tokenises and compiles it; the encapsulation check
walks its syntax tree), so the harness runs them in a capped child process
(:func:`harness.coderules.check_code`), never in its own.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import pycodestyle


@dataclass(frozen=True)
class CodeFinding:
    """One place that breaks a code rule: file, line, column and what is wrong there."""

    file: str
    line: int
    column: int
    text: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.text}"


class _Collect(pycodestyle.BaseReport):
    """A pycodestyle report that keeps its findings instead of printing them."""

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self.found: list[tuple[int, int, str]] = []

    def error(self, line_number: int, offset: int, text: str, check: Any) -> str | None:
        code = super().error(line_number, offset, text, check)
        if code:
            self.found.append((line_number, offset + 1, text))
        return code


def pep8(name: str, text: str) -> list[CodeFinding]:
    """pycodestyle's findings with its defaults (79 columns), as pep8online.com reported them."""
    style = pycodestyle.StyleGuide(quiet=True)
    report = _Collect(style.options)
    report.init_file(name, text.splitlines(True), 0, None)
    checker = pycodestyle.Checker(name, lines=text.splitlines(True), options=style.options, report=report)
    checker.check_all()
    return [CodeFinding(name, line, col, msg) for line, col, msg in report.found]


def _own_attributes(tree: ast.AST) -> dict[str, set[str]]:
    """Each class of the file -> the data attributes its methods assign on their first argument."""
    out: dict[str, set[str]] = {}
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        names = out.setdefault(cls.name, set())
        for fn in cls.body:
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.args.args:
                me = fn.args.args[0].arg
                for node in ast.walk(fn):
                    if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                            and isinstance(node.value, ast.Name) and node.value.id == me):
                        names.add(node.attr)
    return out


def _imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


class _Breaches(ast.NodeVisitor):
    """Attribute accesses ``obj.attr`` to a protected data attribute by code outside ``obj``'s class."""

    def __init__(self, name: str, protected: Mapping[str, str], own: dict[str, set[str]], modules: set[str]) -> None:
        self.name, self.protected, self.own, self.modules = name, protected, own, modules
        self.classes: list[str] = []  # enclosing classes, innermost last
        self.me: list[str | None] = []  # the first argument of each enclosing method (``self``)
        self.found: list[CodeFinding] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        self.me.append(None)
        self.generic_visit(node)
        self.classes.pop()
        self.me.pop()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        in_class = bool(self.classes) and self.me[-1] is None and not isinstance(node, ast.Lambda)
        first = node.args.args[0].arg if in_class and node.args.args else None
        self.me.append(first if in_class else (self.me[-1] if self.me else None))
        self.generic_visit(node)
        self.me.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function  # type: ignore[assignment]

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.generic_visit(node)
        attr, value = node.attr, node.value
        if attr not in self.protected:
            return
        if isinstance(value, ast.Name):
            if value.id in self.modules or (self.me and value.id == self.me[-1]):
                return  # a module's name, or self.x inside its own class
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
            return
        if self.classes and attr in self.own.get(self.classes[-1], set()):
            return  # another object of the same class: inside the class, as Python's privacy allows
        what = "written" if isinstance(node.ctx, (ast.Store, ast.Del)) else "read"
        use = self.protected[attr]
        target = ast.unparse(node)[:60]
        self.found.append(CodeFinding(self.name, node.lineno, node.col_offset + 1,
                                      f"{target}: the member variable {attr!r} {what} directly outside its class"
                                      + (f" (use {use})" if use else "")))


def encapsulation(name: str, text: str, accessors: Mapping[str, str]) -> list[CodeFinding]:
    """Direct reads and writes of another object's data attributes: the bot API's (``accessors``:
    attribute -> the method to use) and those the file's own classes assign on ``self``.

    ``self.x`` inside a method of its own class is no breach, nor is ``other.x`` inside the
    class that owns ``x``, nor an imported module's name. A file that does not parse has no
    findings here (importing it fails in the sandbox, with the line).
    """
    try:
        tree = ast.parse(text, name)
    except (SyntaxError, ValueError):
        return []
    own = _own_attributes(tree)
    protected = dict.fromkeys(set().union(*own.values()) if own else set(), "")
    protected.update(accessors)
    visitor = _Breaches(name, protected, own, _imported(tree))
    visitor.visit(tree)
    return visitor.found


__all__ = ["CodeFinding", "check_all", "encapsulation", "pep8"]


def check_all(request: Mapping[str, Any]) -> list[list[list[Any]]]:
    """The door's ``coderules`` task (run in its capped child, never in the harness): for each rule
    of ``{"rules": [{"name", "accessors"}], "files": [[name, text], ...]}``, its findings as
    ``[file, line, column, text]``."""
    out = []
    for rule in request["rules"]:
        found: list[CodeFinding] = []
        for name, text in request["files"]:
            if rule["name"] == "pep8":
                found += pep8(name, text)
            elif rule["name"] == "encapsulation":
                found += encapsulation(name, text, rule.get("accessors") or {})
        out.append([[f.file, f.line, f.column, f.text] for f in found])
    return out

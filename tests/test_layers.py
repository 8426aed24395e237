"""The layers of docs/architecture.md hold: the import graph of ``harness`` has no circle, and
nothing below the command line imports it.

Every import counts, at the top of a module, inside a function or under ``TYPE_CHECKING``: a
circle of type-only imports still ties two modules together.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

HARNESS = REPO / "harness"
KNOWN: set[frozenset[str]] = set()  # circles accepted for now: none


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def graph() -> dict[str, set[str]]:
    """Each harness module -> the harness modules it imports (a name imported from a package
    that is a module of its own counts as that module)."""
    modules = {module_name(p): p for p in HARNESS.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
                found.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
        edges[name] = {m for m in found if m in modules and m != name}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_circle() -> None:
    unknown = [c for c in circles(graph()) if frozenset(c) not in KNOWN]
    assert not unknown, f"import circles: {unknown}"


def test_a_circle_is_found() -> None:
    """The check itself: a circle of two modules and one of three are found, a chain is not."""
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_nothing_below_the_command_line_imports_it() -> None:
    edges = graph()
    above = {m for m in edges if m.startswith("harness.commands")} | {"harness.cli", "harness.__main__"}
    wrong = sorted(f"{m} -> {t}" for m in edges if m not in above for t in edges[m] if t in above)
    assert not wrong, wrong


def test_running_does_not_import_publishing() -> None:
    """tournament/ plays and stores; report/ reads what it stored (never the other way round)."""
    edges = graph()
    wrong = sorted(f"{m} -> {t}" for m in edges if m.startswith("harness.tournament")
                   for t in edges[m] if t.startswith("harness.report"))
    assert not wrong, wrong


def test_no_gradebook_writer_lives_in_tournament() -> None:
    assert not [p.name for p in (HARNESS / "tournament").glob("*.py")
                if p.stem in ("export", "lms", "autograder", "analysis", "history")]


def test_the_bot_side_imports_nothing_of_the_parent() -> None:
    """sandbox/bot/ is what runs inside a bot's process (the trust boundary's inner side): it is
    shipped there alone, so it may import only itself, never the parent's modules."""
    edges = graph()
    inside = {m for m in edges if m == "harness.sandbox.bot" or m.startswith("harness.sandbox.bot.")}
    wrong = sorted(f"{m} -> {t}" for m in inside for t in edges[m] if t not in inside)
    assert not wrong, wrong
    from harness.sandbox import botside

    shipped = {p.name for p in botside.SOURCES}
    assert shipped == {p.name for p in (HARNESS / "sandbox" / "bot").glob("*.py")} - {"__init__.py"}, \
        "every module of sandbox/bot/ runs in the bot's process, and only those"

"""What the door derives from one module of a submission: its imports and its bytecode (runs in the child).

:func:`module` is the door's ``module`` task (:mod:`harness.door.modules` asks for it). Given
``{"source": bytes, "compile": bool}`` it returns:

* ``{"parsed": true, "imports": [[line, top-level module, guarded], ...], "pyc": ...}``: every
  absolute import in source order, ``guarded`` when an enclosing ``try`` catches a failed
  import; with ``compile``, ``pyc`` is the module's checked-hash pyc (PEP 552: every import
  checks it against the source's hash), or ``None`` where the bot's own interpreter must compile
  it: its compilation warns (the warning is then the bot's, on its stderr);
* ``{"parsed": false}``: a syntax error or a file too deep for the parser, left to run time (the
  bot's import in the sandbox reports it, with its line).

Parsing and compiling are what a student's bytes can make expensive (a literal of 4 MiB, a
chain of string additions the optimiser folds): the door's caps, not this code, bound them.
Standard library only: it imports nothing of the harness.
"""

from __future__ import annotations

import importlib.util
import marshal
import warnings
from typing import Any

GUARDS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def guarded_by(handlers: list) -> bool:
    """True if one of ``handlers`` catches a failed import (bare, ImportError or broader)."""
    import ast

    for h in handlers:
        if h.type is None:
            return True
        names = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        if any(isinstance(n, ast.Name) and n.id in GUARDS for n in names):
            return True
    return False


def imports(tree: object) -> list[list]:
    """``[line, top-level module, guarded]`` for every absolute import, in source order.

    The walk keeps its own stack, never Python's: a legal bot may hold one expression
    thousands of nodes deep (a long sum, a table written out by hand).
    """
    import ast

    tries = (ast.Try, getattr(ast, "TryStar", ast.Try))
    found = []
    stack = [(tree, False)]
    while stack:
        node, guarded = stack.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append([node.lineno, alias.name.partition(".")[0], guarded])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append([node.lineno, node.module.partition(".")[0], guarded])
        if isinstance(node, tries):
            inner = guarded or guarded_by(node.handlers)
            children = [(c, inner) for c in node.body]
            children += [(c, guarded) for part in (node.handlers, node.orelse, node.finalbody) for c in part]
        else:
            children = [(c, guarded) for c in ast.iter_child_nodes(node)]
        stack.extend(reversed(children))
    return found


def module(item: dict[str, Any]) -> dict[str, Any]:
    """The door's ``module`` task (see the module's docstring)."""
    import ast

    source: bytes = item["source"]
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, OverflowError):
        return {"parsed": False, "imports": [], "pyc": None}
    found: dict[str, Any] = {"parsed": True, "imports": imports(tree), "pyc": None}
    del tree
    if item.get("compile"):
        found["pyc"] = bytecode(source)
    return found


def bytecode(source: bytes) -> bytes | None:
    """The checked-hash pyc of ``source``, or None if it does not compile or its compilation warns."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            code = compile(source, "<submission>", "exec", dont_inherit=True, optimize=0)
        except (SyntaxError, ValueError, RecursionError, OverflowError):
            return None
    if caught:
        return None
    return (importlib.util.MAGIC_NUMBER + (0b11).to_bytes(4, "little")  # PEP 552: checked hash
            + importlib.util.source_hash(source) + marshal.dumps(code))


__all__ = ["bytecode", "guarded_by", "imports", "module"]

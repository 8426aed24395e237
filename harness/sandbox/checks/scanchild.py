"""The child that parses one untrusted module for the static checks, under its own memory and CPU caps.

Run by :mod:`harness.sandbox.checks.scan` as ``python -I scanchild.py MEMORY_BYTES CPU_SECONDS`` with the
module's source on stdin; it writes one JSON line on stdout:

* ``{"parsed": true, "imports": [[line, top-level module, guarded], ...]}``: every absolute
  import in source order, ``guarded`` when an enclosing ``try`` catches a failed import;
* ``{"parsed": false}``: a syntax error or a file too deep for the parser, left to run time (the
  bot's import in the sandbox reports it, with its line);
* ``{"over": "memory"}``: parsing needed more than ``MEMORY_BYTES`` of address space.

Past ``CPU_SECONDS`` of CPU time the kernel ends it (SIGXCPU, then SIGKILL). Standard library
only, and run isolated (``-I``): it imports nothing of the harness, so it parses nothing but
what it is given, and its limits are set before it reads a byte.
"""

from __future__ import annotations

import resource
import sys

GUARDS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _limit(memory: int, cpu: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


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


def scan(source: bytes) -> dict:
    """What :mod:`harness.sandbox.checks.scan` reads back for ``source`` (see the module's docstring)."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, OverflowError):
        return {"parsed": False}
    except MemoryError:
        return {"over": "memory"}
    try:
        return {"parsed": True, "imports": imports(tree)}
    except MemoryError:
        return {"over": "memory"}


def main() -> None:
    _limit(int(sys.argv[1]), int(sys.argv[2]))
    import json

    result = scan(sys.stdin.buffer.read())
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

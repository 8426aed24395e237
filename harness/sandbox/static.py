"""Checks of a submission's source made before it runs: ASCII-only and the import policy."""

from __future__ import annotations

import ast

from harness.games.base import GameSpec


def check_source(game: GameSpec, source: bytes) -> str | None:
    """``None`` if the source passes the game's static rules, else the reason it is forbidden.

    A syntax error is not judged here: importing the file in the sandbox reports it as the
    bot's exception, with the line.
    """
    if game.ascii_only:
        for lineno, line in enumerate(source.split(b"\n"), start=1):
            for col, byte in enumerate(line, start=1):
                if byte > 127:
                    return (f"player.py line {lineno} column {col}: non-ASCII character "
                            f"(the game requires ASCII-only source, comments included)")
    if game.forbidden_imports:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return None
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.partition(".")[0]
                if top in game.forbidden_imports:
                    return f"player.py line {node.lineno}: import of {top!r} is not allowed in {game.title}"
    return None

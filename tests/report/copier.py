"""Disguised copies of a bot, made the way a student hides a copy (for the similarity tests).

:func:`disguise` renames every identifier the file defines (functions, classes, arguments,
variables, attributes it assigns), except the names the bot interface fixes (``Player``, the
methods the harness calls, dunders, what the bot API provides); it reverses the order of every
group of definitions (module level and in each class), strips comments and docstrings (the code
is rewritten from its syntax tree) and adds an unused function.
"""

from __future__ import annotations

import ast
import builtins

INTERFACE = {"Player", "play", "get_move", "move", "make_move", "opponent_move", "initialization",
             "expand_player", "expand_obstacles", "self", "cls", "base", "BasePlayer", "clovece", "obstacle",
             "Obstacle", "tournament", "playerName", "cardsAtHand", "cardsOnDesk", "boardRows", "boardCols",
             "userLogin", "timeout", "name", "color", "board", "pieces"}

DEAD = '''
def unused_helper_for_nothing(values, limit=3):
    total = 0
    for index, value in enumerate(values):
        if index > limit:
            break
        total += value * index
    return total
'''


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def _new(self, name: str) -> str:
        return self.names.get(name, name)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self._new(node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self._new(node.arg)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        node.attr = self._new(node.attr)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.generic_visit(node)
        node.name = self._new(node.name)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.generic_visit(node)
        node.name = self._new(node.name)
        return node

    def visit_keyword(self, node: ast.keyword) -> ast.AST:
        self.generic_visit(node)
        if node.arg:
            node.arg = self._new(node.arg)
        return node


def _defined(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            found.add(node.attr)
    return {n for n in found if n not in INTERFACE and not n.startswith("__") and not hasattr(builtins, n)}


def _strip_docstrings(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]


def _reorder(body: list[ast.stmt]) -> list[ast.stmt]:
    """Every run of consecutive definitions in reverse order (other statements stay put)."""
    out: list[ast.stmt] = []
    run: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            if isinstance(stmt, ast.ClassDef):
                stmt.body = _reorder(stmt.body)
            run.append(stmt)
        else:
            out.extend(reversed(run))
            run = []
            out.append(stmt)
    return out + list(reversed(run))


def disguise(source: str, salt: str = "q") -> str:
    """``source`` renamed, reordered, without comments or docstrings, with an unused function."""
    tree = ast.parse(source)
    names = {n: f"{salt}{i}_{n[::-1].lower()}" for i, n in enumerate(sorted(_defined(tree)))}
    _strip_docstrings(tree)
    tree = _Rename(names).visit(tree)
    assert isinstance(tree, ast.Module)
    tree.body = _reorder(tree.body)
    return ast.unparse(tree) + "\n\n" + DEAD

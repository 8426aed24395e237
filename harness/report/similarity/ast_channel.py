"""The syntax-tree channel of ``harness similarity``: fingerprints of a normalised ``ast``.

The token channel (:mod:`.code`) sees a copy through renaming and reordered definitions, but a
few cheap statement-level rewrites together defeat it: flipped comparisons, ``+=`` expanded,
``for`` turned into ``while``, an ``if not`` with its branches swapped, statements reordered,
dead code, unused parameters, a method moved out of its class. This channel parses the file with
Python's own :mod:`ast` (never compiling or running it) and rewrites the tree into one canonical
form before fingerprinting it, as JPlag's token-sequence normalisation does for Java (dead code
removed, statements put in a canonical order) and as Dolos fingerprints a parse tree's node types
rather than the text:

* comparisons face one way (``a > b`` is ``b < a``); an ``if``/``else`` whose test is negated
  (``not c``, ``>=``, ``!=``, ``not in``) is the ``if`` of the positive test with its branches
  swapped; the operands of ``==``, ``+``, ``*``, ``and``, ``or`` are in a canonical order;
* ``x += e`` is ``x = x + e``; ``for`` and ``while`` are one kind of loop whose header is what
  it runs over (``for x in range(len(s))``, ``for x in s`` and ``i = 0; while i < len(s): ...;
  i += 1`` all run over ``s``), with the counter's start, step and ``x = s[i]`` left out;
* dead code goes: statements after ``return``, ``raise``, ``continue`` and ``break``, ``if
  False``, ``while False``, ``pass``, bare strings (docstrings), module-level functions and
  private (``_x``) functions that nothing names; so do parameters a function never reads, with
  the arguments passed for them;
* a call ``obj.f(a)`` of a function the file defines is ``f(obj, a)``, so a method moved out of
  its class (``def f(player, a)`` called as ``f(self, a)``) reads the same; every function is
  fingerprinted on its own, wherever it is defined;
* identifiers the file defines are one token ``N`` (an attribute the file assigns or defines:
  ``A``); builtins, imported modules and the attributes of what the file did not write (``.append``,
  ``random.choice``) stay; numbers and strings are one token each;
* the statements of every block are put in a canonical order (sorted by their own normalised
  form), so reordering statements changes nothing.

The normalised tree is written out in pre-order as node-type tokens, and those are winnowed as
the token channel's are (:func:`.code.winnow`). :func:`tree_prints` is a pure function of the
submission's ``(name, bytes)`` files.
"""

from __future__ import annotations

import ast
import builtins
import copy
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

K = 12  # tree tokens in a k-gram: a statement such as ``x = x + 1`` is about eight
WINDOW = 6
SALT = b"tree:"  # so a tree k-gram never has a token k-gram's hash (both go into one ``given`` set)
_TREE = zlib.crc32(SALT)
MAX_NODES = 200_000

_BUILTINS = frozenset(dir(builtins))
_FLIP = {ast.Gt: ast.Lt, ast.GtE: ast.LtE}
_SYMMETRIC = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)
_COMMUTATIVE = (ast.Add, ast.Mult, ast.BitOr, ast.BitAnd, ast.BitXor)
_ENDS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class Unit:
    """One function (or a module's or class's other statements): its tokens and their lines."""

    tokens: tuple[str, ...]
    lines: tuple[int, ...]


class _Facts(ast.NodeVisitor):
    """What the file defines and names, before it is rewritten."""

    def __init__(self) -> None:
        self.functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        self.named: set[str] = set()  # names read, attributes read, and strings (getattr(self, "f"))
        self.defined: set[str] = set()  # names the file binds
        self.attributes: set[str] = set()  # attributes the file assigns or defines as methods
        self.modules: set[str] = set()
        self.random_names: set[str] = set()  # ``from random import choice``

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.setdefault(node.name, []).append(node)
        self.defined.add(node.name)
        self.attributes.add(node.name)
        for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
            self.defined.add(a.arg)
        for a in (node.args.vararg, node.args.kwarg):
            if a is not None:
                self.defined.add(a.arg)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.defined.add(node.name)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        (self.named if isinstance(node.ctx, ast.Load) else self.defined).add(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            self.named.add(node.attr)
        else:
            self.attributes.add(node.attr)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and node.value.isidentifier():
            self.named.add(node.value)

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        for alias in node.names:
            self.modules.add((alias.asname or alias.name).split(".")[0])
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            self.random_names |= {alias.asname or alias.name for alias in node.names}

    visit_ImportFrom = visit_Import


def _reads(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    return {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}


class _Canonical(ast.NodeTransformer):
    """The rewrites of the module docstring, applied bottom up."""

    def __init__(self, facts: _Facts, unused: dict[str, list[int]]) -> None:
        self.facts = facts
        self.unused = unused  # function name -> positions of parameters it never reads

    # --- statements -------------------------------------------------------------------------
    def _block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            new = self.visit(stmt)
            for s in new if isinstance(new, list) else [new] if new is not None else []:
                out.append(s)
            if _ends(stmt):
                break  # the rest of the block never runs
        return _drop_counters(out)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for name, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, name, self._block(value))
            elif isinstance(value, list):
                setattr(node, name, [self.visit(v) if isinstance(v, ast.AST) else v for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, name, self.visit(value))
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        if isinstance(node.value, ast.Constant):
            return None  # a docstring or a bare constant does nothing
        return self.generic_visit(node)

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST | None:
        drop = self.unused.get(node.name)
        if drop:
            args = node.args.posonlyargs + node.args.args
            defaults: list[ast.expr | None] = [None] * (len(args) - len(node.args.defaults)) + list(node.args.defaults)
            kept = [(a, d) for i, (a, d) in enumerate(zip(args, defaults)) if i not in drop]
            node.args.posonlyargs, node.args.args = [], [a for a, _ in kept]
            node.args.defaults = [d for _, d in kept if d is not None]
        node.decorator_list = []
        node.returns = None
        return self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        target = self.visit(node.target)
        load = copy.deepcopy(target)
        for n in ast.walk(load):
            if hasattr(n, "ctx"):
                n.ctx = ast.Load()
        value = self.visit(ast.BinOp(load, node.op, node.value))
        return ast.copy_location(ast.Assign([target], value), node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if node.value is None:
            return None
        return self.visit(ast.copy_location(ast.Assign([node.target], node.value), node))

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt] | None:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if isinstance(node.test, ast.Constant):
            return (node.body if node.test.value else node.orelse) or None
        if node.orelse:
            test = _negated(node.test)
            if test is not None:
                node.test, node.body, node.orelse = test, node.orelse, node.body
        if not node.body and not node.orelse:
            return None
        if not node.body:
            node.test, node.body, node.orelse = ast.UnaryOp(ast.Not(), node.test), node.orelse, []
        return node

    def visit_While(self, node: ast.While) -> ast.AST | list[ast.stmt] | None:
        if isinstance(node.test, ast.Constant) and not node.test.value:
            return node.orelse or None
        counter = _counter(node)
        if counter is not None:
            name, over = counter
            body = node.body[:-1]
            if body and _is_item(body[0], name):
                body = body[1:]
            loop = ast.copy_location(ast.For(ast.Name(name, ast.Store()), over, body, node.orelse), node)
            loop.type_comment = None  # type: ignore[attr-defined]
            return self.visit(loop)
        node = self.generic_visit(node)  # type: ignore[assignment]
        return node

    def visit_For(self, node: ast.For | ast.AsyncFor) -> ast.AST:
        node.iter = _range_over(node.iter)
        return self.generic_visit(node)

    visit_AsyncFor = visit_For

    # --- expressions ------------------------------------------------------------------------
    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if all(type(op) in _FLIP for op in node.ops):
            items = [node.left, *node.comparators][::-1]
            node = ast.copy_location(ast.Compare(items[0], [_FLIP[type(op)]() for op in node.ops[::-1]],
                                                 items[1:]), node)
        return node  # the operands of ==, is, ... are put in order when written (_Writer._node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.UnaryOp) \
                and isinstance(node.operand.op, ast.Not):
            return node.operand.operand
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in self.facts.functions:
            # obj.f(a) of a function the file defines reads as f(obj, a): a method moved out of its
            # class and called with the object reads the same.
            node = ast.copy_location(ast.Call(ast.Name(func.attr, ast.Load()), [func.value, *node.args],
                                              node.keywords), node)
        name = node.func.id if isinstance(node.func, ast.Name) else None
        drop = self.unused.get(name or "")
        if drop and not any(isinstance(a, ast.Starred) for a in node.args):
            node.args = [a for i, a in enumerate(node.args) if i not in drop]
        return self.generic_visit(node)


def _unordered(node: ast.AST) -> list[ast.expr] | None:
    """The operands of a node whose operand order means nothing (``a == b``, ``a + b``, ``a and
    b``), else None."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], _SYMMETRIC):
        return [node.left, node.comparators[0]]
    if isinstance(node, ast.BinOp) and isinstance(node.op, _COMMUTATIVE):
        return [node.left, node.right]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    return None


def _ends(stmt: ast.stmt) -> bool:
    """Control never passes ``stmt``: a return, raise, continue or break, or an if/else whose
    branches all end."""
    if isinstance(stmt, _ENDS):
        return True
    if isinstance(stmt, ast.If) and stmt.orelse:
        return any(_ends(s) for s in stmt.body) and any(_ends(s) for s in stmt.orelse)
    return False


def _negated(test: ast.expr) -> ast.expr | None:
    """The positive form of a negated test, else None: ``not c`` -> ``c``; ``b <= a`` (``a >= b``
    already faced one way) -> ``a < b``; ``!=``, ``not in``, ``is not`` -> ``==``, ``in``, ``is``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, left, right = test.ops[0], test.left, test.comparators[0]
        if isinstance(op, ast.LtE):
            return ast.Compare(right, [ast.Lt()], [left])
        if isinstance(op, (ast.NotEq, ast.IsNot)):
            return ast.Compare(left, [ast.Eq() if isinstance(op, ast.NotEq) else ast.Is()], [right])
        if isinstance(op, ast.NotIn):
            return ast.Compare(left, [ast.In()], [right])
    return None


def _range_over(it: ast.expr) -> ast.expr:
    """What a loop header runs over: ``range(len(s))`` and ``range(0, len(s))`` -> ``s``."""
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and it.args \
            and len(it.args) <= 2 and not it.keywords:
        it = it.args[-1]
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "len" and len(it.args) == 1:
        it = it.args[0]
    return it


def _counter(node: ast.While) -> tuple[str, ast.expr] | None:
    """``while i < E: ...; i += 1`` (or ``i = i + 1``): the counter's name and what it runs over."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and node.body):
        return None
    op, left, right = test.ops[0], test.left, test.comparators[0]
    if isinstance(op, (ast.Gt, ast.GtE)):
        left, right = right, left
    elif not isinstance(op, (ast.Lt, ast.LtE)):
        return None
    if not isinstance(left, ast.Name):
        return None
    last = node.body[-1]
    step = None
    if isinstance(last, ast.AugAssign) and isinstance(last.op, ast.Add):
        step = last.target
    elif isinstance(last, ast.Assign) and len(last.targets) == 1 and isinstance(last.value, ast.BinOp) \
            and isinstance(last.value.op, ast.Add):
        step = last.targets[0]
    if not (isinstance(step, ast.Name) and step.id == left.id):
        return None
    return left.id, _range_over(right)


def _is_item(stmt: ast.stmt, counter: str) -> bool:
    """``x = s[i]``: the item a ``for x in s`` loop names, spelled out in a ``while`` loop."""
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Subscript)
            and isinstance(stmt.value.slice, ast.Name) and stmt.value.slice.id == counter)


def _drop_counters(body: list[ast.stmt]) -> list[ast.stmt]:
    """``i = 0`` right before a loop over ``i`` (what a ``for`` turned ``while`` starts with)."""
    out: list[ast.stmt] = []
    for n, stmt in enumerate(body):
        nxt = body[n + 1] if n + 1 < len(body) else None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, ast.Constant) and isinstance(nxt, ast.For) \
                and isinstance(nxt.target, ast.Name) and nxt.target.id == stmt.targets[0].id:
            continue
        out.append(stmt)
    return out


def _unused_parameters(facts: _Facts) -> dict[str, list[int]]:
    """Positions of parameters a function (defined once) never reads (``self`` too: a method moved
    out of its class that never reads the object reads the same)."""
    out: dict[str, list[int]] = {}
    for name, defs in facts.functions.items():
        if len(defs) != 1 or name.startswith("__"):
            continue
        f = defs[0]
        reads = _reads(f)
        args = f.args.posonlyargs + f.args.args
        drop = [i for i, a in enumerate(args) if a.arg not in reads]
        if drop:
            out[name] = drop
    return out


def _dead(facts: _Facts, name: str) -> bool:
    """A private function (``_x``) nothing names. A public one stays even if nothing calls it:
    the harness calls the interface's methods, and a function copied but left unused is copied
    all the same (a merge of two bots keeps helpers of both); an added unused function is a unit
    of its own, so it breaks no k-gram of the copied code and, the copy being the larger, does
    not lower the containment."""
    return name not in facts.named and name.startswith("_") and not name.startswith("__")


class _Writer:
    """The canonical tree as tokens in pre-order, each function a unit of its own."""

    def __init__(self, facts: _Facts) -> None:
        self.facts = facts
        self.units: list[Unit] = []
        self.nodes = 0
        self.drawing: set[int] = set()  # statements that draw from ``random``, each hashed whole
        self.randoms = {"random"} | facts.random_names

    def module(self, tree: ast.Module) -> None:
        self._scope(tree.body, at_module=True)

    def _scope(self, body: list[ast.stmt], at_module: bool) -> None:
        rest: list[ast.stmt] = []
        for stmt in body:
            if isinstance(stmt, _FUNCS):
                if not _dead(self.facts, stmt.name):
                    self._unit([stmt])
            elif isinstance(stmt, ast.ClassDef):
                self._scope(stmt.body, at_module=False)
            else:
                rest.append(stmt)
        if rest:
            self._unit(rest)

    def _unit(self, stmts: list[ast.stmt]) -> None:
        tokens: list[str] = []
        lines: list[int] = []
        for part in sorted((self._stmt(s) for s in stmts), key=lambda t: t[0]):
            tokens += part[0]
            lines += part[1]
        if tokens:
            self.units.append(Unit(tuple(tokens), tuple(lines)))

    def _stmt(self, stmt: ast.stmt) -> tuple[list[str], list[int]]:
        tokens: list[str] = []
        lines: list[int] = []
        self._node(stmt, tokens, lines)
        tokens.append(";")
        lines.append(getattr(stmt, "end_lineno", None) or stmt.lineno)
        if not isinstance(stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try)) and self.randoms & set(tokens):
            self.drawing.add(_key(tokens))
        return tokens, lines

    def _node(self, node: ast.AST, tokens: list[str], lines: list[int]) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise ValueError(f"more than {MAX_NODES} syntax-tree nodes")
        line = getattr(node, "lineno", None) or (lines[-1] if lines else 1)
        tokens.append(self._label(node))
        lines.append(line)
        if isinstance(node, _FUNCS):
            self._body(node.body, tokens, lines)
            return
        unordered = _unordered(node)
        if unordered is not None:  # operands of ==, +, *, and, or: written in a canonical order
            parts = []
            for child in unordered:
                t: list[str] = []
                n: list[int] = []
                self._node(child, t, n)
                parts.append((t, n))
            if isinstance(node, ast.Compare):
                tokens.append(self._label(node.ops[0]))
                lines.append(line)
            elif isinstance(node, ast.BinOp):
                tokens.append(self._label(node.op))
                lines.append(line)
            for t, n in sorted(parts, key=lambda p: p[0]):
                tokens += t
                lines += n
            return
        for name, value in ast.iter_fields(node):
            if name in ("ctx", "type_comment", "decorator_list", "returns", "type_params"):
                continue
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                self._body(value, tokens, lines)
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, ast.AST):
                        self._node(v, tokens, lines)
            elif isinstance(value, ast.AST):
                self._node(value, tokens, lines)

    def _body(self, body: list[ast.stmt], tokens: list[str], lines: list[int]) -> None:
        inner: list[ast.stmt] = []
        for stmt in body:
            if isinstance(stmt, _FUNCS):  # a nested function: a unit of its own
                self._unit([stmt])
            elif isinstance(stmt, ast.ClassDef):
                self._scope(stmt.body, at_module=False)
            else:
                inner.append(stmt)
        tokens.append("{")
        lines.append(lines[-1])
        for part in sorted((self._stmt(s) for s in inner), key=lambda t: t[0]):
            tokens += part[0]
            lines += part[1]
        tokens.append("}")
        lines.append(lines[-1])

    def _label(self, node: ast.AST) -> str:
        if isinstance(node, ast.Name):
            if node.id in self.facts.modules or (node.id in _BUILTINS and node.id not in self.facts.defined):
                return node.id
            return "N"
        if isinstance(node, ast.Attribute):
            return "." + ("A" if node.attr in self.facts.attributes else node.attr)
        if isinstance(node, ast.Constant):
            value = node.value
            if value is None or isinstance(value, bool):
                return repr(value)
            return "S" if isinstance(value, (str, bytes)) else "C"
        if isinstance(node, (ast.operator, ast.cmpop, ast.boolop, ast.unaryop)):
            return type(node).__name__
        if isinstance(node, ast.arg):
            return "arg"
        if isinstance(node, ast.For):
            return "Loop"
        return type(node).__name__


def canonical_units(text: str) -> list[Unit]:
    """The canonical token units of one file's source; ``ValueError`` if it does not parse."""
    return canonical(text)[0]


def canonical(text: str) -> tuple[list[Unit], set[int]]:
    """The canonical token units of one file's source, and its simple statements that draw from
    ``random`` (the harness seeds it per game), each hashed whole; ``ValueError`` if it does not
    parse."""
    try:
        tree = ast.parse(text)
        facts = _Facts()
        facts.visit(tree)
        tree = _Canonical(facts, _unused_parameters(facts)).visit(tree)
        writer = _Writer(facts)
        assert isinstance(tree, ast.Module)
        writer.module(tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ValueError(f"does not parse ({type(exc).__name__}: {str(exc)[:80]})") from None
    return writer.units, writer.drawing


_IDS: dict[str, int] = {}


def _key(tokens: Iterable[str]) -> int:
    """One hash of a whole token sequence: the same in every process."""
    return hash((_TREE, -1, *(zlib.crc32(SALT + w.encode()) for w in tokens)))


def unit_hashes(unit: Unit) -> list[tuple[int, int]]:
    """(hash, start) of every k-gram of a unit's tokens (none if it is shorter than a k-gram: a
    two-line ``__init__`` everyone writes is no evidence)."""
    ids = []
    for word in unit.tokens:
        code = _IDS.get(word)
        if code is None:
            code = _IDS[word] = zlib.crc32(SALT + word.encode())
        ids.append(code)
    # A tuple of ints hashes the same in every process (a str would not: PYTHONHASHSEED), so
    # fingerprints made in a worker or a child process match the parent's given code.
    return [(hash((_TREE, *ids[i:i + K])), i) for i in range(len(ids) - K + 1)]


def tree_kgrams(files: Iterable[tuple[str, str]]) -> Iterable[tuple[str, Unit, list[tuple[int, int]]]]:
    """Each unit of each ``(name, text)`` file with its k-gram hashes; files that do not parse are skipped."""
    for name, text in files:
        try:
            units = canonical_units(text)
        except ValueError:
            continue
        for unit in units:
            yield name, unit, unit_hashes(unit)


__all__ = ["K", "Unit", "WINDOW", "canonical", "canonical_units", "tree_kgrams", "unit_hashes"]

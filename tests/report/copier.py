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
import random

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


def dead_function(salt: str) -> str:
    """An unused function that depends on ``salt``: one of the standard library's own (pure
    Python, 5 to 40 lines), so copiers each add dead code of their own, as they would (the same
    dead function, or one grammar's, in every copy would be code the copies share)."""
    if salt == "q":
        return DEAD
    import bisect, calendar, difflib, fractions, heapq, inspect, shlex, statistics, textwrap
    import fnmatch, ipaddress, string
    pool = []
    # (not colorsys: its rgb_to_hsv and rgb_to_hls are near copies of each other)
    for module in (bisect, calendar, difflib, fractions, heapq, shlex, statistics, textwrap, fnmatch,
                   ipaddress, string):
        for name, f in sorted(inspect.getmembers(module, inspect.isfunction)):
            if f.__module__ == module.__name__ and not name.startswith("_"):
                try:
                    text = textwrap.dedent(inspect.getsource(f))
                except (OSError, TypeError):
                    continue
                if 5 <= text.count("\n") <= 40 and not text.startswith("@"):
                    pool.append(text)
    rng = random.Random(salt)
    choice = rng.randrange(len(pool))
    while choice in _TAKEN and len(_TAKEN) < len(pool):  # copiers don't pick the same dead code
        choice = rng.randrange(len(pool))
    _TAKEN.add(choice)
    return pool[choice]


_TAKEN: set[int] = set()  # dead functions already added (reset by a new population: forget_dead_code())


def forget_dead_code() -> None:
    """Start a new population: any dead function may be picked again."""
    _TAKEN.clear()


def disguise(source: str, salt: str = "q") -> str:
    """``source`` renamed, reordered, without comments or docstrings, with an unused function
    (the same for the default ``salt``, else one of the salt's own)."""
    tree = ast.parse(source)
    names = {n: f"{salt}{i}_{n[::-1].lower()}" for i, n in enumerate(sorted(_defined(tree)))}
    _strip_docstrings(tree)
    tree = _Rename(names).visit(tree)
    assert isinstance(tree, ast.Module)
    tree.body = _reorder(tree.body)
    return ast.unparse(tree) + "\n\n" + dead_function(salt)


# --- The combined statement-level rewrites of issue 33 ------------------------------------------

class _Flip(ast.NodeTransformer):
    """``a < b`` -> ``b > a`` (and the other way round), ``x += e`` -> ``x = x + e``, and
    ``if c: A else: B`` -> ``if not c: B else: A``."""

    FLIP = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if all(type(op) in self.FLIP for op in node.ops):
            items = [node.left, *node.comparators][::-1]
            return ast.Compare(items[0], [self.FLIP[type(op)]() for op in node.ops[::-1]], items[1:])
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        load = ast.parse(ast.unparse(node.target), mode="eval").body
        return ast.copy_location(ast.Assign([node.target], ast.BinOp(load, node.op, node.value)), node)

    def visit_If(self, node: ast.If) -> ast.AST:
        self.generic_visit(node)
        if node.orelse and not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)):
            return ast.If(ast.UnaryOp(ast.Not(), node.test), node.orelse, node.body)
        return node


class _ForToWhile(ast.NodeTransformer):
    """``for i in range(E): body`` -> ``i = 0`` / ``while i < E: body; i += 1`` (loops with no
    ``continue``, over ``range`` of one argument); ``for x in s`` -> an index loop over ``s``."""

    def __init__(self) -> None:
        self.n = 0

    def visit_For(self, node: ast.For) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        if node.orelse or any(isinstance(n, ast.Continue) for n in ast.walk(node)):
            return node
        it = node.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" \
                and len(it.args) == 1 and isinstance(node.target, ast.Name):
            name, bound, first = node.target.id, it.args[0], []
        elif isinstance(it, ast.Name):
            self.n += 1
            name = f"idx_{self.n}"
            bound = ast.Call(ast.Name("len", ast.Load()), [it], [])
            first = [ast.Assign([node.target], ast.Subscript(ast.Name(it.id, ast.Load()),
                                                             ast.Name(name, ast.Load()), ast.Load()))]
        else:
            return node
        step = ast.AugAssign(ast.Name(name, ast.Store()), ast.Add(), ast.Constant(1))
        loop = ast.While(ast.Compare(ast.Name(name, ast.Load()), [ast.Lt()], [bound]), first + node.body + [step], [])
        return [ast.Assign([ast.Name(name, ast.Store())], ast.Constant(0)), loop]


def _swap_independent(body: list[ast.stmt]) -> None:
    """Swap adjacent simple statements that neither reads what the other writes."""
    def names(stmt: ast.stmt) -> tuple[set[str], set[str]]:
        wrote = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        read = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        return wrote, read
    i = 0
    while i + 1 < len(body):
        a, b = body[i], body[i + 1]
        if isinstance(a, ast.Assign) and isinstance(b, ast.Assign):
            wa, ra = names(a)
            wb, rb = names(b)
            calls = any(isinstance(n, ast.Call) for s in (a, b) for n in ast.walk(s))
            if not (wa & (wb | rb) or wb & ra) and not calls:
                body[i], body[i + 1] = b, a
                i += 2
                continue
        i += 1
    for stmt in body:
        for field_ in ("body", "orelse"):
            inner = getattr(stmt, field_, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                _swap_independent(inner)


def _dead_code(tree: ast.Module, rng: random.Random) -> None:
    """A statement after a ``return`` and an ``if False:`` block in some functions."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.body and rng.random() < 0.6:
            words = [ast.Constant(rng.choice(["debug", "here", "x", "trace"]))] * rng.randint(1, 3)
            node.body.insert(rng.randrange(len(node.body)) if rng.random() < 0.5 else 0,
                             ast.If(ast.Constant(False), [ast.Expr(ast.Call(ast.Name("print", ast.Load()), words,
                                                                            []))], []))
            if isinstance(node.body[-1], ast.Return):
                node.body.append(ast.Assign([ast.Name("unreached", ast.Store())], ast.Constant(rng.randint(0, 9))))


def _unused_parameter(tree: ast.Module) -> None:
    """An unused last parameter on every helper (not the interface's methods), passed at every call."""
    helpers = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
               and n.name not in INTERFACE and not n.name.startswith("__") and not n.args.defaults
               and not n.args.vararg}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in helpers:
            node.args.args.append(ast.arg("verbose"))
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in helpers and not node.keywords:
                node.args.append(ast.Constant(False))


def _method_out(tree: ast.Module) -> None:
    """The first helper method of the first class moved out to module level, taking the object."""
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        for method in cls.body:
            if isinstance(method, ast.FunctionDef) and method.name not in INTERFACE \
                    and not method.name.startswith("__") and method.args.args \
                    and method.args.args[0].arg == "self" and not method.decorator_list:
                name = method.name
                cls.body.remove(method)
                cls.body = cls.body or [ast.Pass()]
                method.args.args[0].arg = "player"
                for n in ast.walk(method):
                    if isinstance(n, ast.Name) and n.id == "self":
                        n.id = "player"
                for n in ast.walk(tree):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == name \
                            and isinstance(n.func.value, ast.Name) and n.func.value.id == "self":
                        n.func = ast.Name(name, ast.Load())
                        n.args.insert(0, ast.Name("self", ast.Load()))
                tree.body.insert(tree.body.index(cls), method)
                return


def rewrite(source: str, salt: str = "r") -> str:
    """``source`` with every cheap rewrite at once: renamed, reordered and stripped as
    :func:`disguise`, comparisons flipped, ``+=`` expanded, ``for`` loops as ``while``, if/else
    negated, independent statements swapped, dead code, an unused parameter on every helper and a
    method moved out of its class."""
    tree = ast.parse(source)
    _method_out(tree)
    _unused_parameter(tree)
    tree = _ForToWhile().visit(tree)
    tree = _Flip().visit(tree)
    _swap_independent(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            _swap_independent(node.body)
    _dead_code(tree, random.Random(salt))
    ast.fix_missing_locations(tree)
    return disguise(ast.unparse(tree), salt=salt)


def splice(parts: list[tuple[str, float]]) -> str:
    """A bot made of pieces of others: of each ``(source, share)``, its definitions in order until
    ``share`` of its lines (module functions, classes, the ``Player`` class's methods), merged into
    one module with one ``Player`` class (a method already taken from an earlier part is not taken
    again). A partial copy is ``[(copied, 0.45), (own code, 1.0)]``; a merge of two classmates'
    bots ``[(a, 0.5), (b, 0.5)]``."""
    imports: list[ast.stmt] = []
    module: list[ast.stmt] = []
    methods: dict[str, ast.stmt] = {}
    for source, share in parts:
        tree = ast.parse(source)
        _strip_docstrings(tree)
        units: list[tuple[str, ast.stmt]] = []
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if ast.dump(node) not in {ast.dump(i) for i in imports}:
                    imports.append(node)
            elif isinstance(node, ast.ClassDef) and node.name == "Player":
                units += [("method", m) for m in node.body if isinstance(m, ast.FunctionDef)]
                module += [m for m in node.body if not isinstance(m, ast.FunctionDef)
                           and not (isinstance(m, ast.Expr) and isinstance(m.value, ast.Constant))]
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                units.append(("module", node))
            elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
                module.insert(0, node)  # constants first
        total = sum((n.end_lineno or n.lineno) - n.lineno + 1 for _, n in units)
        taken = 0
        for kind, node in units:
            if taken >= share * total:
                break
            name = getattr(node, "name", "")
            if kind == "method":
                if name in methods:
                    continue
                methods[name] = node
            else:
                module.append(node)
            taken += (node.end_lineno or node.lineno) - node.lineno + 1
    player = ast.ClassDef("Player", [], [], list(methods.values()) or [ast.Pass()], [])
    tree = ast.Module(imports + module + [player], [])
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n"

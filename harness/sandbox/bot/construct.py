"""Which of a game's constructor forms a bot's class takes, read from its code (bot side too).

A game may accept more than one constructor shape: Človeče's seed builds ``Player(color,
board)``, and ``Player(color)`` is accepted too. The harness sends the longest form's arguments
and how many trailing ones may be left out; :func:`choose_arity` picks the longest form the
class's ``__init__`` can bind, without calling any of the bot's code, so a constructor is never
run twice. A class that fits no form gets :func:`mismatch`'s reason, which names the forms the
harness uses, instead of Python's bare ``TypeError``.

Imported by the worker as ``_harness_construct`` (no harness imports, standard library only, no
``inspect``: it must stay cheap to import at a bot's start).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing would cost milliseconds of every bot's start
if TYPE_CHECKING:
    from types import FunctionType
    from typing import Any

_VARARGS = 0x04  # CO_VARARGS
_VARKEYWORDS = 0x08  # CO_VARKEYWORDS
_FUNCTION = type(lambda: None)  # types.FunctionType, without importing types into every bot's start


def _init_function(cls: type) -> FunctionType | None:
    """The plain Python ``__init__`` that ``cls(...)`` binds, or ``None`` if that is not knowable.

    Not knowable: a metaclass with its own ``__call__``, a ``__new__`` of the bot's own, or an
    ``__init__`` that is no plain function (a decorator's wrapper object, a builtin).
    """
    if type(cls).__call__ is not type.__call__:
        return None
    for klass in cls.__mro__:
        found = klass.__dict__.get("__init__")
        if found is not None:
            break
        if "__new__" in klass.__dict__ and klass is not object:
            return None
    else:  # pragma: no cover - object defines __init__
        return None
    return found if isinstance(found, _FUNCTION) else None


def fits(cls: type, count: int) -> bool | None:
    """Whether ``cls(*args)`` binds ``count`` positional arguments; ``None`` when unknowable."""
    if cls.__init__ is object.__init__ and cls.__new__ is object.__new__:
        return count == 0
    init = _init_function(cls)
    if init is None:
        return None
    code = init.__code__
    varargs = bool(code.co_flags & _VARARGS)
    positional = code.co_argcount - 1  # without self (which *args takes in ``def f(*args)``)
    optional = len(init.__defaults__ or ())
    required_kw = code.co_kwonlyargcount - len(init.__kwdefaults__ or {})
    if required_kw > 0 or (positional < 0 and not varargs):
        return False
    return max(positional - optional, 0) <= count and (count <= positional or varargs)


def choose_arity(cls: type, longest: int, optional: int) -> int | None:
    """How many of ``longest`` arguments to pass: the longest form ``cls`` takes.

    Forms are ``longest``, ``longest - 1`` ... ``longest - optional`` arguments. ``None`` when
    ``cls`` certainly takes none of them; ``longest`` when its constructor cannot be read (the
    call then fails or succeeds on its own).
    """
    answers = [(n, fits(cls, n)) for n in range(longest, longest - optional - 1, -1)]
    for n, ok in answers:
        if ok:
            return n
    return longest if any(ok is None for _, ok in answers) else None


def signature_text(cls: type) -> str:
    """``(self, a, b=..., *args)``: the parameters of ``cls``'s ``__init__`` (``(...)`` if unreadable)."""
    init = _init_function(cls)
    if init is None:
        return "(...)" if cls.__init__ is not object.__init__ else "(self)"
    code = init.__code__
    names = list(code.co_varnames)
    positional, kwonly = code.co_argcount, code.co_kwonlyargcount
    defaults = len(init.__defaults__ or ())
    parts = [n + ("=..." if i >= positional - defaults else "") for i, n in enumerate(names[:positional])]
    at = positional + kwonly
    if code.co_flags & _VARARGS:
        parts.append("*" + names[at])
        at += 1
    elif kwonly:
        parts.append("*")
    kwdefaults = init.__kwdefaults__ or {}
    parts += [n + ("=..." if n in kwdefaults else "") for n in names[positional:positional + kwonly]]
    if code.co_flags & _VARKEYWORDS:
        parts.append("**" + names[at])
    return "(" + ", ".join(parts) + ")"


def forms_text(class_name: str, params: Any, optional: int) -> str:
    """``Player(color, board) or Player(color)``: the forms the harness constructs."""
    names = [str(p) for p in params]
    forms = [f"{class_name}({', '.join(names[:n])})" for n in range(len(names), len(names) - optional - 1, -1)]
    return " or ".join(forms)


def mismatch(cls: type, class_name: str, params: Any, optional: int) -> str:
    """The reason for a class whose constructor takes none of the forms."""
    return (f"the constructor {class_name}.__init__{signature_text(cls)} does not fit how the harness creates "
            f"the player: {forms_text(class_name, params, optional)}")

"""Installed packages a bot may import (its game's and its job's), and where their files are.

The sandbox hides every installed package; an approved one is made visible read-only, as it is
installed (never vendored): its import folder or module and the distribution's other top-level
folders (e.g. ``pillow.libs``, ``numpy.libs``: the shared libraries its extension modules
load), plus those of the distributions it requires. The bot finds them through one folder of
links on its ``sys.path`` (:func:`link_folder`); under bubblewrap the links' targets are bound
read-only at their own paths, everything else installed stays hidden.
"""

from __future__ import annotations

import functools
import importlib.metadata as metadata
import importlib.util
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


class PackageError(ValueError):
    """An approved package cannot be made visible (not installed, or part of the standard library)."""


@dataclass(frozen=True)
class Package:
    """An installed package as a bot sees it: its import name and the paths that make it up."""

    name: str  # the import name, e.g. "PIL"
    distribution: str  # e.g. "pillow"
    roots: tuple[Path, ...]  # top-level folders and module files in its site folder


def install_hint(name: str) -> str:
    """The command that installs the distribution providing import name ``name``."""
    dist = {"PIL": "pillow", "yaml": "pyyaml", "sklearn": "scikit-learn", "cv2": "opencv-python"}.get(name, name)
    return f"{sys.executable} -m pip install {dist}"


@functools.cache
def _distributions() -> dict[str, list[str]]:
    return metadata.packages_distributions()


def _top_items(dist: metadata.Distribution, site: Path) -> set[Path]:
    items = set()
    for f in dist.files or ():
        top = f.parts[0] if f.parts else ""
        if not top or top == ".." or top == "__pycache__" or top.endswith((".dist-info", ".egg-info", ".data")):
            continue
        path = site / top
        if path.exists():
            items.add(path)
    return items


def _requirements(dist: metadata.Distribution) -> list[str]:
    """Names of the distributions ``dist`` needs (extras left out: a bot gets the package as installed)."""
    names = []
    for req in dist.requires or ():
        if "extra ==" in req or "extra==" in req:
            continue
        match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
        if match:
            names.append(match.group(1))
    return names


@functools.cache
def resolve(name: str) -> Package:
    """The files of the installed package with import name ``name``; :class:`PackageError` if none."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise PackageError(f"{name!r} is not an import name (e.g. numpy, PIL)")
    if name in sys.stdlib_module_names:
        raise PackageError(f"{name!r} is part of the standard library: every bot may import it already")
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin in (None, "built-in", "frozen") and not spec.submodule_search_locations:
        raise PackageError(f"{name!r} is not installed here (install it with: {install_hint(name)})")
    if spec.submodule_search_locations:
        location = Path(next(iter(spec.submodule_search_locations)))
    else:
        location = Path(str(spec.origin))
    site = location.parent
    roots = {location}
    dists = _distributions().get(name, [])
    seen: set[str] = set()
    todo = list(dists)
    while todo:
        dist_name = todo.pop()
        key = dist_name.lower().replace("_", "-")
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            continue
        dist_site = Path(str(dist.locate_file(""))) if hasattr(dist, "locate_file") else site
        roots |= _top_items(dist, dist_site)
        todo += _requirements(dist)
    return Package(name, dists[0] if dists else name, tuple(sorted(roots)))


def approve(name: str, forbidden: Iterable[str], game_title: str) -> None:
    """Check one approval (a job's ``bot_packages`` entry or ``--package``): not forbidden by the
    game's rules and installed here; :class:`PackageError` says why not."""
    if name in forbidden:
        raise PackageError(f"{name!r} is forbidden in {game_title} (the game's rules)")
    resolve(name)


def resolve_all(names: Iterable[str]) -> list[Package]:
    """Every named package, resolved (see :func:`resolve`)."""
    return [resolve(n) for n in sorted(set(names))]


def link_folder(folder: Path, packages: Iterable[Package]) -> list[Path]:
    """Fill ``folder`` with one link per package root; returns the roots' real paths (to bind and to
    allow reading). The folder goes on the bot's ``sys.path`` instead of ``site-packages``."""
    real: list[Path] = []
    folder.mkdir(exist_ok=True)
    for package in packages:
        for root in package.roots:
            link = folder / root.name
            if not link.exists() and not link.is_symlink():
                link.symlink_to(root.resolve())
                real.append(root.resolve())
    return real


# Libraries that start worker threads of their own (BLAS, OpenMP) are held to one thread: the
# bot's process and thread caps must not be spent by a library, and a bot computes on one core.
THREAD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "NUMEXPR_NUM_THREADS": "1", "VECLIB_MAXIMUM_THREADS": "1", "BLIS_NUM_THREADS": "1"}


__all__ = ["THREAD_ENV", "Package", "PackageError", "install_hint", "link_folder", "resolve", "resolve_all"]

"""``harness similarity --out DIR``: an index of the pairs and a page per suspicious pair.

A pair's page shows both submissions' files side by side with the lines that hold shared
fingerprints highlighted, and the positions where both bots chose the same move, each with a
link to the two games' replays (written into ``DIR/replays/``, opened at that position). Put
``DIR`` at ``<report>/similarity`` and the job's report links to it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.config import Job
from harness.report.html import environment, write_page
from harness.report.replay import write_replay
from harness.report.similarity import (BEHAVIOUR_MIN_POSITIONS, BEHAVIOUR_THRESHOLD, CODE_MIN_SHARED,
                                       CODE_THRESHOLD, Pair, Similarity)
from harness.report.similarity.code import Span, shared_spans
from harness.text import block
from harness.tournament.store import StoreError, open_readonly

SAFE = re.compile(r"[^A-Za-z0-9_.-]")
LISTED = 200  # pairs the index lists besides the suspicious ones


def rule(result: Similarity) -> str:
    """The job's rule for a suspicious pair, its learned cut included."""
    return (f"Suspicious: code (tokens >= {CODE_THRESHOLD} or {result.cut.describe()}, with >= {CODE_MIN_SHARED} "
            f"shared fingerprints), or the same move in >= {BEHAVIOUR_THRESHOLD * 100:.0f} % of >= "
            f"{BEHAVIOUR_MIN_POSITIONS} positions both bots met.")


def page_name(pair: Pair) -> str:
    """A file name for a pair's page, safe whatever the logins are."""
    digest = hashlib.sha256(json.dumps([pair.a, pair.b]).encode()).hexdigest()[:8]
    return f"{SAFE.sub('_', pair.a)[:40]}--{SAFE.sub('_', pair.b)[:40]}-{digest}.html"


def _listing(files: dict[str, bytes], spans: Sequence[Span]) -> list[dict[str, Any]]:
    """Each file that has a match: its lines, the matching ones marked."""
    hits: dict[str, set[int]] = {}
    for s in spans:
        hits.setdefault(s.file, set()).update(range(s.first, s.last + 1))
    out = []
    for name, data in files.items():
        if name not in hits:
            continue
        # block(): a bidirectional override in a student's code would reorder what the page shows
        # (Trojan Source); it is shown escaped, as the terminal shows it.
        lines = block(data[:256 * 1024].decode("utf-8", errors="replace")).splitlines()
        rows = [{"n": n, "text": text, "hit": n in hits[name]} for n, text in enumerate(lines, start=1)]
        out.append({"name": name, "lines": rows, "hits": sum(r["hit"] for r in rows)})
    return out


def write_pages(out: Path, job: Job, result: Similarity) -> Path:
    """The index and a page per suspicious pair into ``out``; returns the index's path."""
    env = environment()
    template = env.get_template("similarity.html.j2")
    common = {"site_title": f"{job.name} ({job.game})", "scripts": ["sort.js"], "rule": rule(result)}
    replays = _replays(out, job, result.suspicious)
    for pair in result.suspicious:
        a, b = shared_spans(result.prints[pair.a], result.prints[pair.b], result.given)
        files = [{"name": pair.a, "files": _listing(result.sources[pair.a], a)},
                 {"name": pair.b, "files": _listing(result.sources[pair.b], b)}]
        agreements = []
        for g in (pair.match.examples if pair.match is not None else []):
            # Each link opens its game at this position (#ply): a game is written once, whichever
            # pair or position first asked for it.
            agreements.append({"ply": g.ply, "move": json.dumps(g.answer)[:200],
                               "href_a": f"{replays[g.game_a]}#{g.ply}" if g.game_a in replays else "#",
                               "href_b": f"{replays[g.game_b]}#{g.ply}" if g.game_b in replays else "#"})
        write_page(out / "pairs" / page_name(pair), template.render(
            **common, nav=[("similarity", "../index.html"), ("report", "../../index.html")],
            title=f"{pair.a} and {pair.b}", pair=pair, files=[f for f in files if f["files"]] and files,
            agreements=agreements))
    shown = result.suspicious + [p for p in result.pairs if not p.suspicious][:LISTED]
    rows = [{**p.to_json(), "href": f"pairs/{page_name(p)}" if p.suspicious else ""} for p in shown]
    index = out / "index.html"
    write_page(index, template.render(**common, nav=[("report", "../index.html")],
                                      title=f"Similar submissions: {len(result.suspicious)} suspicious of "
                                            f"{len(result.pairs)} pairs", pairs=rows, notes=result.notes))
    return index


def _replays(out: Path, job: Job, pairs: Sequence[Pair]) -> dict[str, str]:
    """Replay pages of the games a pair page links to, opened at the position: key -> href."""
    wanted: dict[str, int] = {}
    for pair in pairs:
        for g in (pair.match.examples if pair.match is not None else []):
            wanted.setdefault(g.game_a, g.ply)
            wanted.setdefault(g.game_b, g.ply)
    if not wanted:
        return {}
    hrefs: dict[str, str] = {}
    try:
        with open_readonly(job.results) as store:
            for key, record in store.found(wanted).items():
                name = SAFE.sub("_", key)[:120] + ".html"
                write_replay(record, out / "replays" / name, start=wanted[key])
                hrefs[key] = f"../replays/{name}"
    except StoreError:
        return {}
    return hrefs


__all__ = ["page_name", "write_pages"]

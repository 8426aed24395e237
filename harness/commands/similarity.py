"""``harness similarity JOB``: the pairs of a job's submissions most alike in code and in play.

Works on a job or a group. The table (80 columns) lists the suspicious pairs first, then the
most alike of the rest; ``--format json|csv`` lists every pair; ``--out DIR`` writes a page per
suspicious pair (the matching code side by side, the positions where both chose the same move,
links to those games' replays) and an index, which the job's report links to when ``DIR`` is the
report's ``similarity/`` folder. ``--replay`` also asks each bot, in the sandbox, positions the
other met (games whose bots can be asked any position: Blokovanie). See docs/similarity.md.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import textwrap
from typing import Any

from harness.commands._jobs import add_config, jobs_of, output_folder
from harness.config import Job
from harness.report.similarity import (BEHAVIOUR_MIN_POSITIONS, BEHAVIOUR_THRESHOLD, CODE_MIN_SHARED, Similarity,
                                       job_replay, job_similarity)
from harness.terminal import cut
from harness.text import cell, line
from harness.tournament.store import StoreError, open_readonly

COLUMNS = ("job", "a", "b", "score", "code", "behaviour", "suspicious", "shared_fingerprints", "positions",
           "same_moves", "replay", "replayed_positions", "flagged_by", "tokens", "tree", "tree_shared", "reference",
           "group", "explained")  # the JSON's keys, in its order (a test checks they are the same)


def squeeze(name: str, room: int) -> str:
    """``name`` in ``room`` columns, its start and its end kept: logins that differ only at the
    end (``student_2024_team_a1`` and ``..._a2``) stay distinguishable."""
    name = line(name)
    if len(name) <= room:
        return name
    tail = (room - 1) // 2
    return name[:room - 1 - tail] + "~" + name[-tail:]


def analyse(job: Job, replay: bool = False) -> Similarity:
    """Both channels for ``job``; its stored games if it has a store (else behaviour is null);
    with ``replay``, positions one bot met asked of the other in the sandbox."""
    try:
        with open_readonly(job.results) as store:
            result = job_similarity(job, store.records())
            if replay:
                job_replay(job, result, store.records())
    except StoreError:
        result = job_similarity(job)
        result.notes.append(f"{job.name}: no stored games (run the job first): behaviour not compared")
    return result


def table(job: Job, result: Similarity, top: int) -> str:
    """The ranked pairs in 80 columns: every suspicious pair, then the next most alike, ordered by
    ``score`` (the largest of code, behaviour and replay, all shown)."""
    shown = result.suspicious + [p for p in result.pairs if not p.suspicious][:max(0, top - len(result.suspicious))]
    head = (f"{job.name}: {len(result.pairs)} pairs of {len(result.prints)} submissions and shipped players, "
            f"{len(result.suspicious)} suspicious; {result.games} stored games read")
    rows = [cut(head, 80), f"{'#':>3} {'a':<19} {'b':<19} {'score':>5} {'code':>4} {'play':>4} {'ask':>4} "
                           f"{'pos':>4} flag"]
    for n, p in enumerate(shown, start=1):
        behaviour = "-" if p.behaviour is None else f"{p.behaviour:.2f}"
        replay = "-" if p.replay is None else f"{p.replay:.2f}"
        flag = "+".join(c for c, f in (("code", p.code_flag), ("play", p.behaviour_flag), ("ask", p.replay_flag))
                        if f)
        group = f" g{p.group}" if p.group is not None else ""
        if p.explained is not None and not flag and max(p.code, p.behaviour or 0.0) >= BEHAVIOUR_THRESHOLD:
            flag = "(given)"  # alike only as given or trivial strategies are (a note says which)
        b = f"ref:{p.reference}" if p.reference is not None else p.b  # a shipped player, shorter
        rows.append(cut(f"{n:>3} {squeeze(p.a, 19):<19} {squeeze(b, 19):<19} {p.score:>5.2f} {p.code:>4.2f} "
                        f"{behaviour:>4} {replay:>4} {min(p.positions, 9999):>4} {flag}{group}", 80))
    if len(shown) < len(result.pairs):
        rows.append(f"    ... {len(result.pairs) - len(shown)} more pairs (--top N, or --format json|csv for all)")
    rows += textwrap.wrap(f"suspicious: code (tokens >= {result.cut.token} or {result.cut.describe()}, with >= "
                          f"{CODE_MIN_SHARED} shared fingerprints), or the same move in >= "
                          f"{BEHAVIOUR_THRESHOLD * 100:.0f} % of >= {BEHAVIOUR_MIN_POSITIONS} positions both met "
                          f"(docs/similarity.md). Evidence for a conversation with the students, not a verdict.", 80)
    for note in result.notes:
        rows += textwrap.wrap(line(note), 80, initial_indent="note: ", subsequent_indent="  ")
    return "\n".join(rows)


def cmd_similarity(args: argparse.Namespace) -> int:
    _config, jobs, _errors = jobs_of(args)
    out = output_folder(args.out) if args.out else None
    found: list[tuple[Job, Similarity]] = [(job, analyse(job, args.replay)) for job in jobs]
    if out is not None:
        from harness.report.similarity.pages import write_pages

        for job, result in found:
            where = write_pages(out / job.name if len(found) > 1 else out, job, result)
            print(f"{job.name}: {len(result.suspicious)} pair pages, index {where}", file=sys.stderr)
    if args.format != "text":  # the output stays machine-readable; the notes go to stderr, one line each
        for job, result in found:
            for note in result.notes:
                print(f"note: {job.name}: {line(note)}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps([{"job": job.name, **p.to_json()} for job, result in found for p in result.pairs], indent=1))
    elif args.format == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        for job, result in found:
            for p in result.pairs:
                data: dict[str, Any] = {"job": job.name, **p.to_json()}
                data["flagged_by"] = " ".join(data["flagged_by"])
                writer.writerow([cell(data[c]) if isinstance(data[c], str) else
                                 ("" if data[c] is None else data[c]) for c in COLUMNS])
        sys.stdout.write(buffer.getvalue())
    else:
        print("\n\n".join(table(job, result, args.top) for job, result in found))
    return 0


def register(sub: Any) -> None:
    """Add ``harness similarity``."""
    p = sub.add_parser("similarity", help="pairs of submissions alike in code or in play (possible copies)",
                       description="Compare every pair of a job's submissions by their code (winnowed "
                                   "fingerprints, given code left out) and by their moves in the stored games.")
    p.add_argument("job", help="a job or a group of jobs of the jobs file")
    add_config(p)
    p.add_argument("--format", choices=["text", "json", "csv"], default="text",
                   help="text: a ranked table (default); json, csv: every pair")
    p.add_argument("--top", type=int, default=20, help="pairs the table shows besides the suspicious ones (default 20)")
    p.add_argument("--replay", action="store_true",
                   help="also ask each bot positions the other met, in the sandbox (games whose bots can be asked "
                        "any position: Blokovanie)")
    p.add_argument("--out", metavar="DIR", help="write a page per suspicious pair and an index into DIR")
    p.set_defaults(func=cmd_similarity)


__all__ = ["cmd_similarity", "register"]

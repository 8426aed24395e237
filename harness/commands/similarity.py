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
from harness.report.similarity import (BEHAVIOUR_MIN_POSITIONS, BEHAVIOUR_THRESHOLD, CODE_MIN_SHARED,
                                       CODE_THRESHOLD, Similarity, job_replay, job_similarity)
from harness.terminal import cut
from harness.text import cell, line
from harness.tournament.store import StoreError, open_readonly

COLUMNS = ("job", "a", "b", "code", "behaviour", "suspicious", "shared_fingerprints", "positions", "same_moves",
           "replay", "replayed_positions")


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
    """The ranked pairs in 80 columns: every suspicious pair, then the next most alike."""
    shown = result.suspicious + [p for p in result.pairs if not p.suspicious][:max(0, top - len(result.suspicious))]
    head = (f"{job.name}: {len(result.pairs)} pairs of {len(result.prints)} submissions, "
            f"{len(result.suspicious)} suspicious; {result.games} stored games read")
    rows = [cut(head, 80), f"{'#':>3}  {'a':<22} {'b':<22} {'code':>5} {'behav':>5} {'pos':>5}  flag"]
    for n, p in enumerate(shown, start=1):
        behaviour = "-" if p.behaviour is None else f"{p.behaviour:.2f}"
        flag = cut("+".join(c for c, f in (("code", p.code_flag), ("play", p.behaviour_flag), ("ask", p.replay_flag))
                            if f), 10)
        rows.append(f"{n:>3}  {cut(line(p.a), 22):<22} {cut(line(p.b), 22):<22} {p.code:>5.2f} {behaviour:>5} "
                    f"{p.positions:>5}  {flag}")
    if len(shown) < len(result.pairs):
        rows.append(f"     ... {len(result.pairs) - len(shown)} more pairs (--top N, or --format json|csv for all)")
    rows.append(f"suspicious: code >= {CODE_THRESHOLD} with >= {CODE_MIN_SHARED} shared fingerprints, or the "
                f"same move")
    rows.append(f"  in >= {BEHAVIOUR_THRESHOLD * 100:.0f} % of >= {BEHAVIOUR_MIN_POSITIONS} positions both met "
                f"(docs/similarity.md).")
    rows.append("  Evidence for a conversation with the students, not a verdict.")
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
    if args.format == "json":
        print(json.dumps([{"job": job.name, **p.to_json()} for job, result in found for p in result.pairs], indent=1))
    elif args.format == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        for job, result in found:
            for p in result.pairs:
                data: dict[str, Any] = {"job": job.name, **p.to_json()}
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

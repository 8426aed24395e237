"""``harness similarity``: which submissions of a job look copied, by their code and by their play.

Two channels, each a score from 0 to 1 for every pair of the job's submissions:

* **code** (:mod:`.code`): the share of the smaller submission's own fingerprints (winnowed
  k-grams of normalised tokens) that the other has too. Code every student was given is no
  evidence: the game's bot API and course template, the shipped reference players, and what
  the job's ``similarity: {exclude: [...]}`` names.
* **behaviour** (:mod:`.behaviour`): of the positions both bots met in the stored games and
  where more than one move was legal, the share where both chose the same move; ``None`` when
  the store has no such position for the pair.
* **replay** (:mod:`.replay`, only with ``--replay`` and where the game's bots can be asked any
  position): the share of positions one bot met where the other, asked in the sandbox, made the
  same move.

A pair is *suspicious* when either channel crosses its threshold (:data:`CODE_THRESHOLD` with at
least :data:`CODE_MIN_SHARED` shared fingerprints; :data:`BEHAVIOUR_THRESHOLD` over at least
:data:`BEHAVIOUR_MIN_POSITIONS` positions). Similarity is evidence for the instructor, never a
penalty: the seed says a suspected copier is asked to explain the code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import door
from harness.config import Job
from harness.games.base import GameSpec
from harness.report.similarity.behaviour import BehaviourMatch, compare_games
from harness.report.similarity.code import CodeMatch, Fingerprints, Span, compare_all, every_kgram, fingerprint
from harness.submission import SubmissionError, read_submission

CODE_THRESHOLD = 0.6  # independent bots stay below 0.4 in the tests; disguised copies score over 0.85
CODE_MIN_SHARED = 8  # fewer shared fingerprints (about 8 lines) are no evidence, whatever the share
BEHAVIOUR_THRESHOLD = 0.9
BEHAVIOUR_MIN_POSITIONS = 20
ARCHIVE = "archive/"  # the prefix of an earlier submission's name


@dataclass
class Pair:
    """Two submissions and how alike they are."""

    a: str
    b: str
    code: float = 0.0
    shared: int = 0  # fingerprints in common (not given code, not common to many)
    behaviour: float | None = None
    positions: int = 0  # positions both met with a choice
    same: int = 0  # of which both chose the same move
    match: BehaviourMatch | None = field(default=None, repr=False)
    replay: float | None = None  # --replay: the share of the other's positions where one made its move
    replayed: int = 0  # positions asked and answered, both ways

    @property
    def code_flag(self) -> bool:
        return self.code >= CODE_THRESHOLD and self.shared >= CODE_MIN_SHARED

    @property
    def behaviour_flag(self) -> bool:
        return (self.behaviour is not None and self.behaviour >= BEHAVIOUR_THRESHOLD
                and self.positions >= BEHAVIOUR_MIN_POSITIONS)

    @property
    def replay_flag(self) -> bool:
        return (self.replay is not None and self.replay >= BEHAVIOUR_THRESHOLD
                and self.replayed >= BEHAVIOUR_MIN_POSITIONS)

    @property
    def suspicious(self) -> bool:
        return self.code_flag or self.behaviour_flag or self.replay_flag

    @property
    def rank_key(self) -> tuple[Any, ...]:
        most = max(self.code, self.behaviour or 0.0, self.replay or 0.0)
        return (not self.suspicious, -most, -self.code, self.a, self.b)

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "code": round(self.code, 4),
                "behaviour": None if self.behaviour is None else round(self.behaviour, 4),
                "suspicious": self.suspicious, "shared_fingerprints": self.shared,
                "positions": self.positions, "same_moves": self.same,
                "replay": None if self.replay is None else round(self.replay, 4), "replayed_positions": self.replayed,
                "flagged_by": [c for c, f in (("code", self.code_flag), ("behaviour", self.behaviour_flag),
                                              ("replay", self.replay_flag)) if f]}


@dataclass
class Similarity:
    """Every pair of a job's submissions, most alike first, and what the analysis read."""

    pairs: list[Pair]
    prints: dict[str, Fingerprints]
    given: set[int]
    sources: dict[str, dict[str, bytes]]  # name -> its .py files (for the pages)
    notes: list[str] = field(default_factory=list)
    games: int = 0  # stored games read for the behaviour channel

    @property
    def suspicious(self) -> list[Pair]:
        return [p for p in self.pairs if p.suspicious]


def _files_under(path: Path) -> Iterator[tuple[str, bytes]]:
    """The ``.py`` files of a file or a folder (given code: the harness's own, or the job's)."""
    paths = [path] if path.is_file() else sorted(p for p in path.rglob("*.py") if p.is_file())
    for p in paths:
        if p.suffix == ".py" and not p.is_symlink():
            try:
                yield p.name, p.read_bytes()
            except OSError:
                continue


def given_code(game: GameSpec, exclude: Iterable[Path] = (), *, references: bool = True,
               template: bool = True) -> set[int]:
    """Every k-gram of code the students were given: the bot API, the course template
    (``template``), the shipped reference players (``references``) and the job's ``exclude``
    files and folders."""
    given = (game.botapi_dir, game.submission.template_dir if template else None)
    places = [p for p in given if p is not None and p.is_dir()]
    if references:
        places += list(game.reference_players.values())
    places += list(exclude)
    return every_kgram(f for place in places for f in _files_under(place))


PARALLEL_FROM = 40  # submissions: fewer are fingerprinted in one child of the door
# The code channel tokenises students' source: in the door's capped child, never in this process
# (harness.door), once per content. A new fingerprint function plugs in here: its name, the
# importable function, and the dataclasses its result holds.
FINGERPRINT = door.register(door.Task("similarity.fingerprint", f"{fingerprint.__module__}:{fingerprint.__name__}",
                                      output=16 << 20, types=(Fingerprints, Span)))


def fingerprint_all(files: Mapping[str, list[tuple[str, bytes]]]) -> dict[str, Fingerprints]:
    """Every submission's fingerprints, from the door (in its capped children; tokenising is most
    of the work: a 300-line bot is about 3,000 tokens). Many submissions are split between the
    door's parallel children; a submission past a cap has none, with a note saying which."""
    names = list(files)
    parts = door.PARALLEL if len(names) >= PARALLEL_FROM else 1
    chunks = [names[i::parts] for i in range(parts)]
    with ThreadPoolExecutor(parts) as pool:
        done = pool.map(lambda chunk: door.run_many(FINGERPRINT.name, [files[n] for n in chunk]), chunks)
        found = {n: value for chunk, values in zip(chunks, done) for n, value in zip(chunk, values)}
    out = {}
    for name in names:
        value = found[name]
        if isinstance(value, Fingerprints):
            out[name] = value
        elif isinstance(value, door.Over):
            out[name] = Fingerprints(notes=[value.line("the submission", "fingerprint")])
        else:
            out[name] = Fingerprints(notes=[f"not fingerprinted: {value}"])
    return out


def compare(sources: Mapping[str, Iterable[tuple[str, bytes]]], given: set[int],
            records: Iterable[tuple[str, Any]] = (), *, archived: Iterable[str] = ()) -> Similarity:
    """Both channels over ``sources`` (name -> its .py files) and stored ``records`` (key, GameRecord).

    Names in ``archived`` (earlier years) are compared with the others, not among themselves.
    """
    files = {name: list(fs) for name, fs in sources.items()}
    prints = fingerprint_all(files)
    notes = [f"{name}: {note}" for name, fp in prints.items() for note in fp.notes]
    old = set(archived)
    codes: dict[tuple[str, str], CodeMatch] = compare_all(prints, given)
    seen = 0

    def counted() -> Iterator[tuple[str, Any]]:
        nonlocal seen
        for item in records:
            seen += 1
            yield item

    def shown(a: str, b: str, match: BehaviourMatch) -> bool:
        """A pair with a page (a suspicious one) shows its agreements."""
        pair = Pair(a, b, behaviour=match.score, positions=match.compared)
        code = codes.get((a, b))
        if code is not None:
            pair.code, pair.shared = code.score, code.shared
        return pair.suspicious

    behaviour = compare_games(counted(), [n for n in files if n not in old], examples=shown)
    names = sorted(files)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a in old and b in old:
                continue
            pair = Pair(a, b)
            code = codes.get((a, b))
            if code is not None:
                pair.code, pair.shared = code.score, code.shared
            match = behaviour.get((a, b))
            if match is not None:
                pair.behaviour, pair.positions, pair.same, pair.match = match.score, match.compared, match.same, match
            pairs.append(pair)
    pairs.sort(key=lambda p: p.rank_key)
    return Similarity(pairs, prints, given, {n: dict(fs) for n, fs in files.items()}, notes, seen)


def job_sources(job: Job) -> tuple[dict[str, list[tuple[str, bytes]]], list[str], list[str]]:
    """The job's submissions (reference players left out) and its archive's, by name; the
    archived names; notes on submissions that could not be read."""
    game = job.spec
    sources: dict[str, list[tuple[str, bytes]]] = {}
    notes: list[str] = []
    for ref in job.submissions:
        try:
            sources[ref.login] = read_submission(ref.path, game.botapi_modules).python_files()
        except SubmissionError as exc:
            notes.append(f"{ref.login}: not compared ({exc})")
    archived: list[str] = []
    folder = job.similarity.archive
    if folder is not None:
        for entry in sorted(folder.iterdir()):
            name = ARCHIVE + (entry.name if entry.is_dir() else entry.stem)
            try:
                sources[name] = read_submission(entry, game.botapi_modules).python_files()
                archived.append(name)
            except SubmissionError as exc:
                notes.append(f"{name}: not compared ({exc})")
    return sources, archived, notes


def job_similarity(job: Job, records: Iterable[tuple[str, Any]] = ()) -> Similarity:
    """Both channels for a job: its submissions (and archive) and its stored games."""
    sources, archived, notes = job_sources(job)
    result = compare(sources, given_code(job.spec, job.similarity.exclude), records, archived=archived)
    result.notes[:0] = notes
    return result


def job_replay(job: Job, result: Similarity, records: Iterable[tuple[str, Any]]) -> None:
    """``--replay``: positions one bot met asked of the other, for the job's pairs (all of a small
    job, else the likeliest), if its game's bots can be asked any position (see :mod:`.replay`)."""
    if not job.spec.interface.any_position:
        result.notes.append(f"{job.name}: --replay: {job.spec.title}'s bots keep their own state between "
                            f"calls, so they cannot be asked a position out of a game")
        return
    from harness.report.similarity.replay import REPLAY_ALL, REPLAY_FROM, REPLAY_PAIRS, replay_pairs

    current = [p for p in result.pairs if not (p.a.startswith(ARCHIVE) or p.b.startswith(ARCHIVE))]
    if len(current) > REPLAY_ALL:
        current = [p for p in current if p.code_flag or (p.behaviour or 0.0) >= REPLAY_FROM][:REPLAY_PAIRS]
    found, notes = replay_pairs(job, [(p.a, p.b) for p in current], records)
    for pair in current:
        tally = found[pair.a, pair.b]
        pair.replay, pair.replayed = tally.score, tally.asked
    result.notes += notes
    result.pairs.sort(key=lambda p: p.rank_key)


__all__ = ["BEHAVIOUR_MIN_POSITIONS", "BEHAVIOUR_THRESHOLD", "CODE_MIN_SHARED", "CODE_THRESHOLD", "Pair",
           "Similarity", "compare", "given_code", "job_replay", "job_similarity", "job_sources"]

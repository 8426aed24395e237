"""``harness similarity``: which submissions of a job look copied, by their code and by their play.

Two channels, each a score from 0 to 1 for every pair of the job's submissions:

* **code** (:mod:`.code`, :mod:`.ast_channel`): the share of the smaller submission's own
  fingerprints that the other has too (containment), in two channels: winnowed k-grams of
  normalised tokens, and of a normalised syntax tree (robust to statement-level rewrites); the
  pair's ``code`` is the larger. Code every student was given is no evidence: the game's bot API
  and course template, and what the job's ``similarity: {exclude: [...]}`` names. The shipped
  reference players are *sources*: every submission is compared with each of them.
* **behaviour** (:mod:`.behaviour`): of the positions both bots met in the stored games and
  where more than one move was legal, the share where both chose the same move; ``None`` when
  the store has no such position for the pair.
* **replay** (:mod:`.replay`, only with ``--replay`` and where the game's bots can be asked any
  position): the share of positions one bot met where the other, asked in the sandbox, made the
  same move.

A pair is *suspicious* when a channel crosses its cut (the token channel :data:`CODE_THRESHOLD`,
the tree channel a cut learned from the job's own pairs (:mod:`.cuts`), each with at least
:data:`CODE_MIN_SHARED` shared fingerprints; :data:`BEHAVIOUR_THRESHOLD` over at least
:data:`BEHAVIOUR_MIN_POSITIONS` positions). Submissions joined by flagged code form groups. Similarity is evidence for the instructor, never a
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
from harness.report.similarity.code import (MIN_FINGERPRINTS, CodeMatch, Fingerprints, Span, compare_all,
                                            every_kgram, fingerprint, own_prints, random_draws)
from harness.report.similarity.cuts import TOKEN_CUT, Cut, Group, groups, learn
from harness.submission import SubmissionError, read_submission
from harness.tournament.job import login_of

CODE_THRESHOLD = TOKEN_CUT  # the token channel's cut; the tree channel's is learned per job (.cuts)
CODE_MIN_SHARED = 8  # fewer shared fingerprints (about 8 lines) are no evidence, whatever the share
BEHAVIOUR_THRESHOLD = 0.9
BEHAVIOUR_MIN_POSITIONS = 20
TRIVIAL = 12  # syntax-tree fingerprints of its own (about eight lines): fewer is a trivial strategy
ARCHIVE = "archive/"  # the prefix of an earlier submission's name
REFERENCE = "reference/"  # the prefix of a shipped reference player's name (a source, not a submission)


@dataclass
class Pair:
    """Two submissions and how alike they are."""

    a: str
    b: str
    code: float = 0.0  # the syntax-tree channel's score (the token channel's where a file does not parse)
    shared: int = 0  # token fingerprints in common (not given code)
    tokens: float = 0.0  # the token channel's score
    tree: float = 0.0  # the syntax-tree channel's score
    tree_shared: int = 0
    reference: str | None = None  # b is this shipped reference player
    explained: str | None = None  # why the same moves are no evidence (trivial strategies, given play)
    trivial: bool = False  # both are a few lines of their own: alike code is what anyone writes
    parsed: bool = True  # both parse: the tree channel decides; else the token channel does
    group: int | None = None  # the group (1, 2, ...) of submissions sharing code that a is in
    cut: Cut = field(default_factory=Cut, repr=False)
    behaviour: float | None = None
    positions: int = 0  # positions both met with a choice
    same: int = 0  # of which both chose the same move
    match: BehaviourMatch | None = field(default=None, repr=False)
    replay: float | None = None  # --replay: the share of the other's positions where one made its move
    replayed: int = 0  # positions asked and answered, both ways

    def set_code(self, token: CodeMatch | None, tree: CodeMatch | None, parsed: bool = True) -> None:
        if token is not None:
            self.tokens, self.shared = token.score, token.shared
        if tree is not None:
            self.tree, self.tree_shared = tree.score, tree.shared
        self.parsed = parsed
        self.code = self.tree if parsed else self.tokens

    @property
    def code_flag(self) -> bool:
        """The syntax-tree channel decides where both submissions parse: it sees every copy the
        token channel sees and more, and a large bot's idioms raise the token containment of a
        small one (the benchmark's one false alarm of the token channel). The token channel
        decides for a file that does not parse (it only needs to tokenise)."""
        if self.trivial:
            return False
        if self.parsed:
            return self.tree >= self.cut.tree and self.tree_shared >= CODE_MIN_SHARED
        return self.tokens >= self.cut.token and self.shared >= CODE_MIN_SHARED

    @property
    def behaviour_flag(self) -> bool:
        return (self.behaviour is not None and self.behaviour >= BEHAVIOUR_THRESHOLD
                and self.positions >= BEHAVIOUR_MIN_POSITIONS and self.explained is None)

    @property
    def replay_flag(self) -> bool:
        return (self.replay is not None and self.replay >= BEHAVIOUR_THRESHOLD
                and self.replayed >= BEHAVIOUR_MIN_POSITIONS)

    @property
    def suspicious(self) -> bool:
        return self.code_flag or self.behaviour_flag or self.replay_flag

    @property
    def score(self) -> float:
        """The largest of the pair's scores (code, behaviour, replay): what the table is ordered by."""
        return max(self.code, self.behaviour or 0.0, self.replay or 0.0)

    @property
    def rank_key(self) -> tuple[Any, ...]:
        return (not self.suspicious, -self.score, -self.code, self.a, self.b)

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "score": round(self.score, 4), "code": round(self.code, 4),
                "behaviour": None if self.behaviour is None else round(self.behaviour, 4),
                "suspicious": self.suspicious, "shared_fingerprints": self.shared,
                "positions": self.positions, "same_moves": self.same,
                "replay": None if self.replay is None else round(self.replay, 4), "replayed_positions": self.replayed,
                "flagged_by": [c for c, f in (("code", self.code_flag), ("behaviour", self.behaviour_flag),
                                              ("replay", self.replay_flag)) if f],
                "tokens": round(self.tokens, 4), "tree": round(self.tree, 4), "tree_shared": self.tree_shared,
                "reference": self.reference, "group": self.group, "explained": self.explained}

    def describe_reference(self) -> str:
        """``xnovak: copy of reference player `strong`, 0.97 (code)``."""
        how = "+".join(c for c, f in (("code", self.code_flag), ("behaviour", self.behaviour_flag),
                                      ("replay", self.replay_flag)) if f)
        return f"{self.a}: copy of reference player `{self.reference}`, {self.score:.2f} ({how})"


@dataclass
class Similarity:
    """Every pair of a job's submissions, most alike first, and what the analysis read."""

    pairs: list[Pair]
    prints: dict[str, Fingerprints]
    given: set[int]
    sources: dict[str, dict[str, bytes]]  # name -> its .py files (for the pages)
    notes: list[str] = field(default_factory=list)
    games: int = 0  # stored games read for the behaviour channel
    cut: Cut = field(default_factory=Cut)
    groups: list[Group] = field(default_factory=list)

    @property
    def suspicious(self) -> list[Pair]:
        return [p for p in self.pairs if p.suspicious]

    @property
    def copied_references(self) -> list[Pair]:
        """Submissions flagged as copies of a shipped reference player."""
        return [p for p in self.pairs if p.reference is not None and p.suspicious]


def _files_under(path: Path) -> Iterator[tuple[str, bytes]]:
    """The ``.py`` files of a file or a folder (given code: the harness's own, or the job's)."""
    paths = [path] if path.is_file() else sorted(p for p in path.rglob("*.py") if p.is_file())
    for p in paths:
        if p.suffix == ".py" and not p.is_symlink():
            try:
                yield p.name, p.read_bytes()
            except OSError:
                continue


def given_code(game: GameSpec, exclude: Iterable[Path] = (), *, references: bool = False,
               template: bool = True) -> set[int]:
    """Every k-gram of code the students were given: the bot API, the course template
    (``template``), the job's ``exclude`` files and folders, and with ``references`` the shipped
    reference players (not by default: they are compared as sources, see :func:`reference_sources`)."""
    given = (game.botapi_dir, game.submission.template_dir if template else None)
    places = [p for p in given if p is not None and p.is_dir()]
    if references:
        places += list(game.reference_players.values())
    places += list(exclude)
    return _given_set(GIVEN, [f for place in places for f in _files_under(place)])


def _given_set(name: str, files: list[tuple[str, bytes]]) -> set[int]:
    """A set the door's task ``name`` derives from given files: a job's ``exclude`` may hold an
    archive of earlier students' submissions, so they are parsed in its capped child too, never
    here. Files past its caps, or a door that cannot run, discount nothing (more pairs shown)."""
    if not files:
        return set()
    try:
        found = door.run(name, files)
    except door.Unavailable:
        return set()
    return found if isinstance(found, set) else set()


PARALLEL_FROM = 40  # submissions: fewer are fingerprinted in one child of the door
# The code channel tokenises students' source: in the door's capped child, never in this process
# (harness.door), once per content. A new fingerprint function plugs in here: its name, the
# importable function, and the dataclasses its result holds.
FINGERPRINT = door.register(door.Task("similarity.fingerprint", f"{fingerprint.__module__}:{fingerprint.__name__}",
                                      output=16 << 20, types=(Fingerprints, Span)))
GIVEN = door.register(door.Task("similarity.given", f"{every_kgram.__module__}:{every_kgram.__name__}",
                                output=16 << 20)).name
CHOICES = door.register(door.Task("similarity.choices", f"{random_draws.__module__}:{random_draws.__name__}",
                                  output=1 << 20)).name


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
            records: Iterable[tuple[str, Any]] = (), *, archived: Iterable[str] = (),
            references: Mapping[str, Iterable[tuple[str, bytes]]] | None = None,
            played_as: Mapping[str, str] | None = None, given_play: set[int] | None = None) -> Similarity:
    """Both channels over ``sources`` (name -> its .py files) and stored ``records`` (key, GameRecord).

    Names in ``archived`` (earlier years) are compared with the others, not among themselves.
    ``references`` (name -> files: the shipped players) are sources: each submission is compared
    with each (rows ``b`` = ``reference/<name>``), and they are not compared with each other;
    ``played_as`` maps a reference's name to its login in the stored games, so its play is
    compared too and a position where a submission moved as the reference did is no evidence
    between two submissions. ``given_play`` holds the template's statements that draw from the
    seeded ``random`` (:func:`given_choices`): two bots that both draw from it (the template's
    draw or their own), or two trivial strategies (fewer than :data:`TRIVIAL` own fingerprints),
    make the same moves without copying, so their agreement in play is explained, not flagged;
    two trivial strategies' alike code is not flagged either.
    """
    files = {name: list(fs) for name, fs in sources.items()}
    refs = {REFERENCE + name: list(fs) for name, fs in (references or {}).items()}
    prints = fingerprint_all({**files, **refs})
    notes = [f"{name}: {note}" for name, fp in prints.items() for note in fp.notes]
    old = set(archived)
    tokens: dict[tuple[str, str], CodeMatch] = compare_all(prints, given)
    trees: dict[tuple[str, str], CodeMatch] = compare_all(prints, given, channel="tree")
    names = sorted(files)
    current = [n for n in names if n not in old]
    population = [trees[a, b].score if (a, b) in trees else 0.0
                  for i, a in enumerate(current) for b in current[i + 1:]]
    cut = learn(population)
    seen = 0

    def code_of(a: str, b: str, pair: Pair) -> Pair:
        key = (a, b) if a < b else (b, a)
        token, tree = tokens.get(key), trees.get(key)
        if pair.reference is not None:
            # A copy of a shipped player is a submission whose own code is mostly the player's:
            # the share of the submission's code, not of the smaller (the random player's seven
            # lines are in every bot that lists the free cells).
            token, tree = (None if m is None else
                           CodeMatch(m.shared, own, min(1.0, m.shared / max(own, MIN_FINGERPRINTS)))
                           for m, own in ((token, own_prints(prints[a], given)),
                                          (tree, own_prints(prints[a], given, "tree"))))
        pair.set_code(token, tree, prints[a].parsed and prints[b].parsed)
        pair.cut = cut
        return pair

    def counted() -> Iterator[tuple[str, Any]]:
        nonlocal seen
        for item in records:
            seen += 1
            yield item

    login_of = {f"{REFERENCE}{name}": login for name, login in (played_as or {}).items() if REFERENCE + name in refs}
    name_of = {login: name for name, login in login_of.items()}

    def shown(a: str, b: str, match: BehaviourMatch) -> bool:
        """A pair with a page (a suspicious one) shows its agreements (``a``, ``b``: store logins)."""
        a, b = name_of.get(a, a), name_of.get(b, b)
        if a in refs:
            a, b = b, a
        pair = Pair(a, b, reference=b[len(REFERENCE):] if b in refs else None, behaviour=match.score,
                    positions=match.compared)
        return code_of(a, b, pair).suspicious

    behaviour = compare_games(counted(), current + list(name_of), examples=shown, given=set(name_of))
    behaviour = {(name_of.get(a, a), name_of.get(b, b)): m for (a, b), m in behaviour.items()}
    kind = {name: _play(prints[name], given_play or set()) for name in {**files, **refs}}
    small = {name for name in {**files, **refs}
             if prints[name].parsed and own_prints(prints[name], given, "tree") < TRIVIAL}
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:] + sorted(refs):
            if (a in old and b in old) or (b in refs and a in old):
                continue
            pair = code_of(a, b, Pair(a, b, reference=b[len(REFERENCE):] if b in refs else None))
            pair.trivial = a in small and b in small
            pair.explained = _explained(kind[a], kind[b], pair.trivial)
            match = behaviour.get((a, b)) or behaviour.get((b, a))
            if match is not None:
                pair.behaviour, pair.positions, pair.same, pair.match = match.score, match.compared, match.same, match
            pairs.append(pair)
    found = groups([(p.a, p.b) for p in pairs if p.reference is None and p.code_flag], prints, given)
    member = {name: n for n, g in enumerate(found, start=1) for name in g.members}
    for pair in pairs:
        if pair.reference is None and pair.code_flag and pair.a in member:
            pair.group = member[pair.a]
    notes += [f"group {n}: {g.describe()}" for n, g in enumerate(found, start=1)]
    alike = [p for p in pairs if p.explained is not None and (p.behaviour or 0.0) >= BEHAVIOUR_THRESHOLD
             and p.positions >= BEHAVIOUR_MIN_POSITIONS]
    if alike:
        shown = ", ".join(f"{p.a}/{p.b}" for p in alike[:6]) + (" ..." if len(alike) > 6 else "")
        notes.append(f"{len(alike)} pairs play alike only as given or trivial strategies do (not flagged): {shown}")
    notes += [f"{name}: a trivial strategy (a few lines of its own{', drawing from random' if kind[name] else ''})"
              for name in sorted(small) if name in files and name not in old]
    pairs.sort(key=lambda p: p.rank_key)
    notes += [p.describe_reference() for p in pairs if p.reference is not None and p.suspicious]
    return Similarity(pairs, prints, given, {n: dict(fs) for n, fs in {**files, **refs}.items()}, notes, seen,
                      cut, found)


GIVEN_CHOICE = "the template's seeded random move choice"
RANDOM_DRAW = "draws from the seeded random"


def _play(prints: Fingerprints, given_play: set[int]) -> str | None:
    """How a bot's moves may agree with another's without any copying: it keeps the template's
    seeded random draw, or it draws from ``random`` (seeded per game: two bots drawing the same
    way from the same list draw the same moves). None for a bot that draws nothing."""
    if prints.drawing & given_play:
        return GIVEN_CHOICE
    return RANDOM_DRAW if prints.drawing else None


def _explained(a: str | None, b: str | None, trivial: bool) -> str | None:
    """Why two bots' same moves are no evidence, if they are not."""
    if a == b == GIVEN_CHOICE:
        return f"both keep {GIVEN_CHOICE}"
    if a is not None and b is not None:
        return "both draw their moves from the seeded random (the same draws give the same moves)"
    if trivial:
        return "both are trivial strategies (a few lines of their own)"
    return None


def given_choices(game: GameSpec) -> set[int]:
    """The course template's statements that draw from ``random`` (its move choice), each whole:
    a bot that keeps one plays the template's seeded random choice wherever it falls back to it."""
    folder = game.submission.template_dir
    if folder is None or not folder.is_dir():
        return set()
    return _given_set(CHOICES, list(_files_under(folder)))


def reference_sources(job: Job) -> tuple[dict[str, list[tuple[str, bytes]]], dict[str, str]]:
    """The shipped reference players of the job's game and the job's ``reference`` bots, by name,
    as sources to compare every submission with; and each one's login in the stored games (for
    those that play in the job)."""
    out: dict[str, list[tuple[str, bytes]]] = {}
    for name, path in job.spec.reference_players.items():
        out[name] = list(_files_under(path))
    played: dict[str, str] = {}
    for path in job.reference:
        out.setdefault(path.stem, list(_files_under(path)))
        played[path.stem] = login_of(path)
    return out, played


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
    """Both channels for a job: its submissions (and archive), the shipped players, its stored games."""
    sources, archived, notes = job_sources(job)
    references, played = reference_sources(job)
    result = compare(sources, given_code(job.spec, job.similarity.exclude), records, archived=archived,
                     references=references, played_as=played, given_play=given_choices(job.spec))
    result.notes[:0] = notes
    return result


def shipped_copies(game: GameSpec, files: Iterable[tuple[str, bytes]]) -> list[Pair]:
    """The shipped reference players of ``game`` that the bot ``files`` is a copy of (flagged
    rows, most alike first): what ``harness check`` tells whoever checks a bot."""
    references = {name: list(_files_under(path)) for name, path in game.reference_players.items()}
    result = compare({"this bot": list(files)}, given_code(game), references=references)
    return [p for p in result.pairs if p.reference is not None and p.code_flag]


def job_replay(job: Job, result: Similarity, records: Iterable[tuple[str, Any]]) -> None:
    """``--replay``: positions one bot met asked of the other, for the job's pairs (all of a small
    job, else the likeliest), if its game's bots can be asked any position (see :mod:`.replay`)."""
    if not job.spec.interface.any_position:
        result.notes.append(f"{job.name}: --replay: {job.spec.title}'s bots keep their own state between "
                            f"calls, so they cannot be asked a position out of a game")
        return
    from harness.report.similarity.replay import REPLAY_ALL, REPLAY_FROM, REPLAY_PAIRS, replay_pairs

    current = [p for p in result.pairs if not (p.a.startswith(ARCHIVE) or p.b.startswith(ARCHIVE))
               and p.reference is None]
    if len(current) > REPLAY_ALL:
        current = [p for p in current if p.code_flag or (p.behaviour or 0.0) >= REPLAY_FROM][:REPLAY_PAIRS]
    found, notes = replay_pairs(job, [(p.a, p.b) for p in current], records)
    for pair in current:
        tally = found[pair.a, pair.b]
        pair.replay, pair.replayed = tally.score, tally.asked
    result.notes += notes
    result.pairs.sort(key=lambda p: p.rank_key)


__all__ = ["BEHAVIOUR_MIN_POSITIONS", "BEHAVIOUR_THRESHOLD", "CODE_MIN_SHARED", "CODE_THRESHOLD", "REFERENCE", "Pair",
           "Similarity", "compare", "given_code", "job_replay", "job_similarity", "job_sources", "reference_sources",
           "shipped_copies"]

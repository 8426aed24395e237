"""tournaments.yaml validation: every mistake is one line naming the file, the key path and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.config import ConfigError, load_config
from tests.conftest import REPO

BASIS = REPO / "reference_players/priemspel/basis.py"
STRATEGIE = REPO / "reference_players/priemspel/strategie.py"

GOOD = f"""
jobs:
  rr:
    game: priemspel
    format: round_robin
    reference: [{BASIS}, {STRATEGIE}]
    settings: {{N: 5}}
    awards: {{policy: tiers, tiers: [{{top: 0.1, points: 3}}, {{rank: 3, points: 1}}]}}
  g:
    game: priemspel
    format: gauntlet
    submissions: [{REPO}/submissions/priemspel/*/player.py]
    opponent: {BASIS}
    games: 4
    awards: {{policy: pass_fail, points: 5}}
    limits: {{move: 0.5, memory_mb: 256, policy: wall, isolation: plain}}
  both:
    jobs: [rr, g]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tournaments.yaml"
    path.write_text(text)
    return path


def test_a_good_file_loads(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    rr, g = config.resolve("both")
    assert rr.format == "round_robin" and rr.settings == ({"start": 0, "N": 5},)
    assert rr.tournament is True and g.tournament is False  # defaults by format
    assert [p.parent.name for p in g.submissions] == ["alice", "bob", "carol"]
    assert g.limits.move == 0.5 and g.limits.memory_bytes == 256 << 20 and g.limits.init == 1.0
    assert g.awards.points == 5 and rr.awards.tiers[1].rank == 3
    # Jobs are judged by CPU time unless they ask for the course's literal wall-clock rule.
    assert (rr.limits.policy, rr.limits.backstop, rr.limits.isolation) == ("cpu", 3.0, "auto")
    assert (g.limits.policy, g.limits.isolation) == ("wall", "plain")
    assert g.results == (tmp_path / "results" / "g").resolve()


BAD = [
    ("jobs: [", "not valid YAML at line 1"),
    ("[]", "expected a mapping with a non-empty 'jobs' mapping"),
    ("jobs: {}\nextra: 1", "expected a mapping with a non-empty 'jobs'"),
    ("jobs: {a: {game: priemspel}}\nextra: 1", "unknown top-level key 'extra'"),
    ("jobs: {a: {format: round_robin}}", "jobs.a: missing key 'game'"),
    ("jobs: {a: {game: chess, format: round_robin}}", "jobs.a.game: unknown game 'chess'"),
    ("jobs: {a: {game: priemspel, format: swiss}}", "jobs.a.format: must be one of gauntlet, round_robin"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, nope.py]}}}}",
     "jobs.a.reference[1]: no such file: nope.py"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}]}}}}",
     "jobs.a.submissions: too few bots"),
    (f"jobs: {{a: {{game: priemspel, format: gauntlet, reference: [{BASIS}]}}}}", "jobs.a: missing key 'opponent'"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], settings: {{N: 1}}}}}}",
     "jobs.a.settings[0]: N: must be at least 2"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], games: 0}}}}",
     "jobs.a.games: must be an integer >= 1, got 0"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], workers: many}}}}",
     "jobs.a.workers: must be 'auto' or a positive integer"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], limits: {{move: -1}}}}}}",
     "jobs.a.limits.move: must be a number > 0"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], limits: {{cpu: 1}}}}}}",
     "jobs.a.limits.cpu: unknown limit"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], limits: {{policy: cpu-time}}}}}}",
     "jobs.a.limits.policy: must be wall or cpu, got 'cpu-time'"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], limits: {{backstop: 0.5}}}}}}",
     "jobs.a.limits.backstop: must be a number > 1"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], limits: {{isolation: docker}}}}}}",
     "jobs.a.limits.isolation: must be auto or bwrap or plain"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], gmaes: 3}}}}",
     "jobs.a.gmaes: unknown key"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], "
     "awards: {policy: tiers, tiers: [{top: 2, points: 1}]}}}", "jobs.a.awards.tiers[0].top: must be a fraction"),
    (f"jobs: {{a: {{game: priemspel, format: round_robin, reference: [{BASIS}, {STRATEGIE}], "
     "awards: {policy: lottery}}}", "jobs.a.awards.policy: must be one of pass_fail, tiers, none"),
    ("jobs: {a: {jobs: [b]}}", "jobs.a.jobs: no job named 'b'"),
    ("jobs: {a: {game: priemspel, format: round_robin, submissions: [nothing/*.py]}}",
     "jobs.a.submissions: 'nothing/*.py' matches nothing"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_each_mistake_gives_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    line = str(info.value)
    assert "\n" not in line
    assert line.startswith(f"{path}: ") and message in line, line


def test_unknown_job_lists_the_jobs(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no job named 'x' \(jobs: both, g, rr\)"):
        load_config(write(tmp_path, GOOD)).resolve("x")


def test_the_shipped_file_is_valid() -> None:
    config = load_config(REPO / "tournaments.yaml")
    assert [j.name for j in config.resolve("demo")] == ["demo-streky-grading", "demo-quoridor", "priemspel-tournament"]
    for name, game in [("streky-grading", "streky"), ("streky-tournament", "streky"),
                       ("quoridor-grading", "quoridor"), ("quoridor-tournament", "quoridor")]:
        (job,) = config.resolve(name)
        assert job.game == game and job.limits.policy == "cpu"

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
    assert [s.login for s in g.submissions] == ["alice", "bob", "carol"]
    assert g.limits.move == 0.5 and g.limits.memory_bytes == 256 << 20 and g.limits.init == 1.0
    assert g.awards.points == 5 and rr.awards.tiers[1].rank == 3
    # Jobs are judged by CPU time, with a 1.5x wall-clock backstop, unless they ask for the course's
    # literal wall-clock rule.
    assert (rr.limits.policy, rr.limits.backstop, rr.limits.isolation) == ("cpu", 1.5, "auto")
    assert (g.limits.policy, g.limits.isolation) == ("wall", "plain")
    assert g.results == (tmp_path / "results" / "g").resolve()


BAD = [
    ("jobs: [", "not valid YAML at line 1"),
    ("[]", "expected a mapping with a non-empty 'jobs' mapping"),
    ("jobs: {}\nextra: 1", "expected a mapping with a non-empty 'jobs'"),
    ("jobs: {a: {game: priemspel}}\nextra: 1", "unknown top-level key 'extra'"),
    ("jobs: {a: {format: round_robin}}", "jobs.a: missing key 'game'"),
    ("jobs: {a: {game: chess, format: round_robin}}", "jobs.a.game: unknown game 'chess'"),
    ("jobs: {a: {game: priemspel, format: swiss}}",
     "jobs.a.format: must be one of gauntlet, round_robin, adaptive, shuffled, battery, sembasic"),
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
     "jobs.a.limits.backstop: must be a number >= 1, got 0.5"),
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
    try:
        config = load_config(path)  # a file that cannot be read as a whole: refused outright
    except ConfigError as exc:
        line = str(exc)
    else:  # a mistake in a job: that job (and its groups) cannot be used, the file still loads
        with pytest.raises(ConfigError) as info:
            config.resolve("a")
        line = str(info.value)
        assert config.problems["a"] == line
    assert "\n" not in line
    assert line.startswith(f"{path}: ") and message in line, line


def test_unknown_job_lists_the_jobs(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no job named 'x' \(jobs: both, g, rr\)"):
        load_config(write(tmp_path, GOOD)).resolve("x")


def test_the_shipped_file_is_valid() -> None:
    config = load_config(REPO / "tournaments.yaml")
    assert config.problems == {}
    assert [j.name for j in config.resolve("demo")] == ["demo-streky-grading", "demo-quoridor", "priemspel-tournament",
                                                        "demo-blokovanie", "demo-clovece"]
    assert [j.name for j in config.resolve("course")] == ["streky-grading", "streky-tournament", "quoridor-sembasic",
                                                          "quoridor-grading", "quoridor-tournament"]
    for name, game in [("streky-grading", "streky"), ("streky-tournament", "streky"),
                       ("quoridor-grading", "quoridor"), ("quoridor-tournament", "quoridor")]:
        (job,) = config.resolve(name)
        assert job.game == game and job.limits.policy == "cpu" and job.limits.backstop == 1.5
    assert config.resolve("clovece-strategies")[0].format == "shuffled"
    assert config.resolve("blokovanie-analysis")[0].analysis == "seats"


def test_the_grading_jobs_are_the_ones_check_plays() -> None:
    """The project's grading jobs and the shipped ones (what `harness check` plays without a
    tournaments.yaml) differ only in their submissions and where their results go."""
    import dataclasses

    mine = load_config(REPO / "tournaments.yaml")
    shipped = load_config(REPO / "harness" / "jobs" / "grading.yaml")
    assert set(shipped.jobs) == {n for n in mine.jobs if n.endswith("-grading") and not n.startswith("demo-")}
    for name, job in shipped.jobs.items():
        ours = mine.jobs[name]
        same = {"submissions": (), "roster": None, "results": job.results, "config_file": job.config_file}
        assert dataclasses.replace(ours, **same) == job, name


def test_one_bad_job_does_not_make_the_others_unusable(tmp_path: Path) -> None:
    # An assignment set up before anyone submitted: its submissions folder does not exist yet.
    text = GOOD + f"""
  later:
    game: priemspel
    format: gauntlet
    submissions: not-yet
    opponent: {BASIS}
  nightly:
    jobs: [rr, later]
"""
    config = load_config(write(tmp_path, text))
    assert [j.name for j in config.resolve("rr")] == ["rr"]
    assert config.problems["later"].endswith("jobs.later.submissions: no such folder: not-yet")
    assert config.unrelated_problems("rr") == [config.problems["later"]]
    jobs, errors = config.plan("nightly")  # a group runs what it can and names what it cannot
    assert [j.name for j in jobs] == ["rr"] and errors == [config.problems["later"]]
    with pytest.raises(ConfigError, match="no such folder"):
        config.resolve("nightly")


def test_bot_packages_must_be_installed_and_allowed_by_the_game(tmp_path: Path) -> None:
    base = f"jobs: {{a: {{game: GAME, format: round_robin, reference: [{BASIS}, {STRATEGIE}], bot_packages: PKG}}}}"
    config = load_config(write(tmp_path, base.replace("GAME", "priemspel").replace("PKG", "[numpy]")))
    assert config.resolve("a")[0].limits.packages == ("numpy",)
    config = load_config(write(tmp_path, base.replace("GAME", "priemspel").replace("PKG", "[no_such_pkg_xyz]")))
    assert "jobs.a.bot_packages[0]: 'no_such_pkg_xyz' is not installed here (install it with: " in config.problems["a"]
    assert "pip install no_such_pkg_xyz)" in config.problems["a"]
    config = load_config(write(tmp_path, base.replace("GAME", "quoridor").replace("PKG", "[numpy]")
                               .replace(str(BASIS), str(REPO / "reference_players/quoridor/runner.py"))
                               .replace(str(STRATEGIE), str(REPO / "reference_players/quoridor/waller.py"))))
    assert "jobs.a.bot_packages[0]: 'numpy' is forbidden in Quoridor variant" in config.problems["a"]
    config = load_config(write(tmp_path, base.replace("GAME", "priemspel").replace("PKG", "[json]")))
    assert "'json' is part of the standard library" in config.problems["a"]


def test_a_roster_is_one_login_per_line_or_a_login_column(tmp_path: Path) -> None:
    (tmp_path / "plain.txt").write_text("# the course\nalice\n\nbob\n")
    (tmp_path / "table.csv").write_text("name,login,group\nAlice A.,alice,1\nDave D.,dave,2\n")
    for roster, expected in [("plain.txt", ("alice", "bob")), ("table.csv", ("alice", "dave"))]:
        text = GOOD.replace("    games: 4\n", f"    games: 4\n    roster: {roster}\n")
        assert load_config(write(tmp_path, text)).resolve("g")[0].roster == expected
    (tmp_path / "empty.csv").write_text("login\n")
    text = GOOD.replace("    games: 4\n", "    games: 4\n    roster: empty.csv\n")
    assert "lists no logins" in load_config(write(tmp_path, text)).problems["g"]


def test_game_names_are_case_insensitive(tmp_path: Path) -> None:
    text = GOOD.replace("game: priemspel\n    format: round_robin", "game: PriemSpel\n    format: round_robin")
    assert load_config(write(tmp_path, text)).resolve("rr")[0].game == "priemspel"

"""Only what a student can use reaches a student: no grading machine's path, no replay file the
student cannot open, and results.json exactly in Gradescope's format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import BOTS, REPO

BASIS = REPO / "reference_players/priemspel/basis.py"


def harness(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args, "--config", str(config)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)


def test_a_broken_zip_is_named_as_submitted_and_no_replay_is_referenced(tmp_path: Path) -> None:
    subs = tmp_path / "submissions"
    for login in ("ann", "bob", "dan", "eve"):
        (subs / login).mkdir(parents=True)
    (subs / "ann" / "player.py").write_bytes(BASIS.read_bytes())
    (subs / "bob" / "player.zip").write_bytes(b"PK\x03\x04 this is not really a zip")
    (subs / "dan" / "player.py").write_bytes((BOTS / "priemspel/wrong_type.py").read_bytes())
    (subs / "eve" / "player.py").write_bytes((BOTS / "priemspel/exception_midgame.py").read_bytes())
    config = tmp_path / "tournaments.yaml"
    config.write_text(f"""
jobs:
  g:
    game: priemspel
    format: gauntlet
    submissions: submissions
    opponent: {BASIS}
    settings: [{{N: 5}}]
    games: 2
    awards: {{policy: pass_fail, points: 1}}
""")
    ran = harness(config, "run", "g", "--quiet", "--no-self-check")
    assert ran.returncode == 0, ran.stderr
    outputs = {
        "leaderboard": harness(config, "leaderboard", "g").stdout,
        "leaderboard csv": harness(config, "leaderboard", "g", "--format", "csv").stdout,
        "csv": harness(config, "export", "g", "--format", "csv").stdout,
        "feedback": harness(config, "export", "g", "--format", "feedback").stdout,
        "gradescope": harness(config, "export", "g", "--format", "gradescope").stdout,
    }
    for name, text in outputs.items():
        assert "player.zip: not a valid zip file" in text, name
        assert str(tmp_path) not in text and str(tmp_path.resolve()) not in text, name  # the server's path
    feedback = json.loads(outputs["feedback"])
    grades = json.loads(outputs["gradescope"])
    for text in (feedback["dan"], grades["dan"]["tests"][0]["output"]):
        assert "First error: game 1" in text and "bad_answer" in text
        assert "games/" not in text and ".html" not in text and "Replay" not in text  # not attached: not named
        assert "The position it was given:" in text  # drawn inline instead
    for text in (feedback["eve"], grades["eve"]["tests"][0]["output"]):  # a traceback names the file as submitted
        assert "Your traceback:" in text and 'File "player.py", line' in text, text
        assert "harness-bot-" not in text and "/tmp/" not in text, text
    assert set(grades["dan"]) == {"score", "output", "tests", "leaderboard", "visibility"}  # no top-level max_score
    assert grades["dan"]["tests"][0]["max_score"] == 1

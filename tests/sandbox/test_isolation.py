"""Isolation features: bubblewrap's command, cgroups, the fallback warning, doctor, limits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from harness.cli import main
from harness.games import get_game
from harness.games.base import Call
from harness.sandbox import BotProcess, Limits, bubblewrap, cgroup, isolation
from harness.sandbox.checks.calibrate import HarnessUnfit, calibrate, ensure_fair_timing

GAME = get_game("priemspel")


def test_bubblewrap_command_isolates_everything(tmp_path: Path) -> None:
    argv = bubblewrap.command("bwrap", userns=True, code_dir=tmp_path / "code", work_dir=tmp_path / "work",
                              botapi_dir=GAME.botapi_dir, work_bytes=1 << 20)
    for flag in ("--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--die-with-parent",
                 "--disable-userns"):
        assert flag in argv
    assert argv[argv.index("--uid") + 1] == "65534"
    assert argv[-2:] == ["--remount-ro", "/"]  # a read-only root, the writable tmpfs mounted over it
    binds = {argv[i + 1] for i, a in enumerate(argv) if a in ("--ro-bind", "--bind")}
    assert str(tmp_path / "code") in binds and "--bind" not in argv  # nothing of the host is writable
    assert not any(b in binds for b in ("/home", "/root", "/etc", "/tmp", str(Path.cwd())))
    i = argv.index("--tmpfs", argv.index("--size"))
    assert argv[i + 1] == str(tmp_path / "work")


# Without bubblewrap or writable cgroups these tests skip locally, but run (and fail) when CI=true:
# CI's machine has both (.ci/run installs bubblewrap; CI runs as root), so CI skips none of them.
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.mark.skipif(not bubblewrap.support().available and not IN_CI,
                    reason="bubblewrap does not work on this machine")
def test_under_bubblewrap_the_bot_sees_only_its_own_files() -> None:
    """The kernel's view from inside the sandbox (a probe run with the bot's command line, no guard)."""
    sup = bubblewrap.support()
    argv = bubblewrap.command(sup.path or "bwrap", userns=sup.userns, code_dir=None, work_dir=None,
                              botapi_dir=None, work_bytes=1 << 20)
    probe = ("import os, json; print(json.dumps({'uid': os.getuid(), 'pid': os.getpid(), "
             "'root': sorted(os.listdir('/')), 'net': open('/proc/net/dev').read().count(':'), "
             "'home': os.path.exists('/home'), 'etc': sorted(os.listdir('/etc'))}))")
    out = subprocess.run([*argv, bubblewrap.python_executable(), "-I", "-S", "-c", probe], capture_output=True,
                         text=True, timeout=30, env={"PATH": "/usr/bin:/bin"}, cwd="/")
    seen = json.loads(out.stdout)
    assert seen["pid"] <= 3  # a PID namespace of its own
    assert seen["net"] == 1  # only its own loopback interface
    assert not seen["home"] and set(seen["etc"]) <= {"ld.so.cache", "localtime"}
    if sup.userns:
        assert seen["uid"] == 65534


def test_fallback_warns_once_per_run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(isolation.WARNED_ENV, raising=False)
    isolation.warn_once("bwrap is not installed")
    isolation.warn_once("bwrap is not installed")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "plain processes" in err and "harness doctor" in err
    assert os.environ[isolation.WARNED_ENV] == "1"  # inherited by a pool's worker processes


def test_isolation_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isolation.use_bwrap("plain") is False
    with pytest.raises(ValueError):
        isolation.use_bwrap("docker")
    monkeypatch.setenv("HARNESS_ISOLATION", "plain")
    assert isolation.use_bwrap("auto") is False
    if not bubblewrap.support().available:
        with pytest.raises(isolation.IsolationUnavailable):
            isolation.use_bwrap("bwrap")


def test_required_bubblewrap_that_is_missing_is_a_harness_error(monkeypatch: pytest.MonkeyPatch,
                                                               no_leftovers: None) -> None:
    monkeypatch.setattr(bubblewrap, "_SUPPORT", bubblewrap.BwrapSupport(None, reason="not installed"))
    with BotProcess(GAME, b"class Player: pass\n", limits=Limits(isolation="bwrap")) as bot:
        result = bot.load()
    assert result.verdict is not None and result.verdict.value == "harness_error"
    assert "bubblewrap isolation was required" in result.reason


@pytest.mark.skipif(not cgroup.support().available and not IN_CI, reason="no writable cgroups here")
def test_cgroup_caps_counts_and_cleans_up(no_leftovers: None) -> None:
    group = cgroup.BotCgroup.create(max_tasks=4, memory_bytes=256 << 20)
    assert group is not None
    try:
        proc = subprocess.Popen([sys.executable, "-c", "import time\nx = 0\nfor i in range(3_000_000): x += i\n"
                                 "time.sleep(30)"])
        group.enroll([proc.pid])
        assert group.pids() == [proc.pid]
        for _ in range(100):
            if (group.cpu_ns() or 0) > 50_000_000:
                break
            subprocess.run(["sleep", "0.05"])
        assert (group.cpu_ns() or 0) > 50_000_000  # its CPU time is counted
        group.kill_all()
        proc.wait(timeout=5)
        assert group.pids() == [] and not group.oom_killed()
    finally:
        group.remove()
    assert group.dirs == {}


@pytest.mark.skipif(not cgroup.support().available and not IN_CI, reason="no writable cgroups here")
def test_stale_cgroups_of_dead_harnesses_are_swept() -> None:
    # The hierarchy the harness makes its cgroups in: v1's pids, else the v2 directory it uses.
    v1, v2 = cgroup._v1_hierarchies(), cgroup._v2_root()
    root = v1["pids"] if "pids" in v1 else v2[0] if v2 is not None else Path("/sys/fs/cgroup/pids")
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = root / f"{cgroup.PREFIX}{dead.pid}-test"
    stale.mkdir()
    live = root / f"{cgroup.PREFIX}{os.getpid()}-test"
    live.mkdir()
    try:
        cgroup.sweep_stale()
        assert not stale.exists() and live.exists()
    finally:
        for p in (stale, live):
            if p.exists():
                p.rmdir()


def test_limits_travel_as_plain_data() -> None:
    """Tournament workers rebuild Limits from a dict (``Limits(**asdict(limits))``)."""
    limits = Limits(policy="cpu", isolation="plain", memory_bytes=123 << 20)
    assert Limits(**json.loads(json.dumps(asdict(limits)))) == limits
    with pytest.raises(ValueError, match="policy"):
        Limits(policy="cpu-time")


def test_doctor_reports_features(capsys: pytest.CaptureFixture[str], no_leftovers: None) -> None:
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "bubblewrap" in out and "pids cgroup" in out and "bots will run in:" in out
    assert "live check: a trivial bot started" in out
    assert "submissions' bytes: parsed, compiled and checked in a capped child (1 GiB, 20 s of CPU a module" in out


def test_calibration_measures_and_judges(no_leftovers: None) -> None:
    report = calibrate(Limits(move=0.2), calls=2, max_ratio=100.0)
    assert report.fair, report.summary()
    assert len(report.walls) == 2 and all(w >= 0.09 for w in report.walls)
    assert report.cpu_error < 0.02 and report.ratio >= 0.9
    with pytest.raises(HarnessUnfit, match="^refusing to start: cannot time bots fairly now: .*per CPU second.*harness run --no-self-check$"):
        ensure_fair_timing(Limits(move=0.2), calls=1, max_ratio=0.5)  # no machine is that fast


def test_a_bot_cannot_import_installed_packages(no_leftovers: None) -> None:
    """The bot sees the standard library and its bot API only, with or without bubblewrap."""
    for iso in ("auto", "plain"):
        source = b"import yaml\nclass Player:\n    pass\n"
        with BotProcess(GAME, source, limits=Limits(isolation=iso)) as bot:
            result = bot.load()
        assert result.verdict is not None and "ModuleNotFoundError" in result.reason, result.reason
        with BotProcess(GAME, b"import priemspel, json, random\nclass Player:\n    pass\n",
                        limits=Limits(isolation=iso)) as bot:
            assert bot.load().ok
            assert bot.call(Call("__init__", (), "init")).ok


def test_other_platforms_degrade_to_plain_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """On macOS or Windows there is no bubblewrap and no cgroup: both say why, nothing breaks."""
    for name in ("darwin", "win32"):
        monkeypatch.setattr(sys, "platform", name)
        assert not bubblewrap._probe().available and "Linux-only" in bubblewrap._probe().reason
        assert not cgroup._probe().available and name in cgroup._probe().reason
        assert cgroup._v1_hierarchies() == {}

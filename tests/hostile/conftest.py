"""Fixtures of the hostile-bot tests: the arena the bots attack."""

from __future__ import annotations

import hashlib
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).resolve().parent / "bots"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class Arena:
    """What hostile bots go after: a results store, another submission, a target, a listener."""

    root: Path
    store: Path
    victim: Path
    submissions: Path
    target: Path
    marker: Path
    listener: socket.socket
    digests: dict[Path, str]

    def source(self, name: str) -> bytes:
        """The bot's source with the arena's real paths filled in (the worst case: it knows them)."""
        text = (HOSTILE / f"{name}.py").read_text()
        for key, value in {"@TARGET@": self.target, "@STORE@": self.store, "@VICTIM@": self.victim,
                           "@SUBMISSIONS@": self.submissions, "@MARKER@": self.marker,
                           "@PORT@": self.listener.getsockname()[1], "@REPO@": REPO}.items():
            text = text.replace(key, str(value))
        return text.encode()

    def assert_intact(self) -> None:
        """The store, the other submission and the target are unchanged; nothing reached the listener."""
        for path, digest in self.digests.items():
            assert _digest(path) == digest, f"{path} was changed"
        assert not self.marker.exists(), "an atexit hook of a bot ran"
        try:
            connection, _ = self.listener.accept()
        except BlockingIOError:
            return
        connection.close()
        raise AssertionError("a bot opened a network connection")


@pytest.fixture(scope="session")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    root = tmp_path_factory.mktemp("arena")
    store = root / "results" / "results.sqlite"
    store.parent.mkdir()
    store.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 16)
    target = root / "target.txt"
    target.write_text("the original content\n")
    victim = REPO / "submissions" / "priemspel" / "alice" / "player.py"  # a real submission in the repository
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    digests = {p: _digest(p) for p in (store, target, victim)}
    yield Arena(root, store, victim, victim.parent.parent, target, root / "atexit-marker", listener, digests)
    listener.close()

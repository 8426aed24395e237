"""Hosts for a multi-host Dask run on one machine: each a network namespace of its own.

A :class:`Hosts` makes a bridge in this (the coordinator's) namespace and, per host, a network
namespace joined to it by a veth pair, with an address of its own on a private /24 that exists
only on that bridge. A Dask scheduler or worker runs on a host in a process of its own, with its
own temporary folder, home and environment (nothing inherited but ``PATH`` and what it is given),
and is reached over real TCP at the host's address, as on a real cluster.

Where the machine does not allow network namespaces (not root, no ``ip``), every host is an
address of its own on loopback (127.0.0.x) instead: processes, folders and environments are
still separate; :attr:`Hosts.isolated` says which it is, and the tests print it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=30)


def netns_possible() -> str:
    """"" if network namespaces can be made here, else why not."""
    if os.geteuid() != 0:
        return "not root"
    if shutil.which("ip") is None:
        return "no `ip` (iproute2)"
    probe = f"hprobe{os.getpid() % 100000}"
    try:
        _ip("netns", "add", probe)
        _ip("netns", "del", probe)
    except (subprocess.CalledProcessError, OSError, subprocess.TimeoutExpired) as exc:
        return f"`ip netns add` failed: {getattr(exc, 'stderr', '') or exc}".strip()
    return ""


@dataclass
class Host:
    """One machine of the cluster: its name, address, namespace (or None) and folder."""

    name: str
    address: str
    netns: str | None
    home: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, argv: list[str], env: dict[str, str] | None = None, log: str = "log",
              supervise: bool = False, cwd: Path | None = None,
              bind: tuple[str, str] | None = None) -> subprocess.Popen[bytes]:
        """Start ``argv`` on this host in a session of its own, with its own TMPDIR and HOME
        (``supervise``: started again whenever it ends, as a service manager does; ``bind``:
        (source, target), a file of this host's own at ``target`` in a mount namespace of its own,
        such as another build of Python at ``/usr/bin/python3.11``: it needs root)."""
        tmp = self.home / "tmp"
        tmp.mkdir(exist_ok=True)
        tmp.chmod(0o1777)  # like /tmp: the host's bots make their folders here
        environ = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home), "TMPDIR": str(tmp),
                   "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1", "DASK_DISTRIBUTED__WORKER__DAEMON": "False",
                   **(env or {})}
        prefix = ["ip", "netns", "exec", self.netns] if self.netns else []
        if self.netns and shutil.which("unshare"):  # a host name of its own (what records name)
            prefix += ["unshare", "--uts", "--", "sh", "-c", 'hostname "$0" && exec "$@"', self.name]
        if bind is not None:
            prefix += ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                       'mount --bind "$0" "$1" && shift && exec "$@"', *bind]
        if supervise:  # as systemd's Restart=always: a worker that ends (its scheduler went away) starts again
            prefix += ["sh", "-c", 'while :; do "$@"; sleep 1; done', "supervise"]
        out = open(self.home / f"{log}.txt", "ab")
        process = subprocess.Popen([*prefix, *argv], env=environ, cwd=cwd or self.home, stdout=out, stderr=out,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        self.processes.append(process)
        return process

    def log(self, name: str = "log") -> str:
        path = self.home / f"{name}.txt"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self, process: subprocess.Popen[bytes] | None = None) -> None:
        """SIGKILL a process of this host (all of them if None) with everything it started."""
        for p in [process] if process else list(self.processes):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            p.wait()
        if self.netns:  # whatever is left in the namespace (bots started in sessions of their own)
            pids = subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass


class Hosts:
    """Hosts on a bridge of their own; :meth:`close` removes every process, namespace and link."""

    made = 0  # Hosts made by this process: each gets names and a subnet of its own

    def __init__(self) -> None:
        why = netns_possible()
        self.isolated = not why
        self.why = why
        Hosts.made += 1
        self.tag = f"{os.getpid() % 10000}{Hosts.made % 10}"
        self.bridge = f"hb{self.tag}"
        self.subnet = "127.0.0"
        self.root = Path(tempfile.mkdtemp(prefix="harness-hosts-"))
        self.root.chmod(0o755)  # bots run as uids of their own (the container tier) in its folders
        self.hosts: list[Host] = []
        if self.isolated:
            # A /24 no other bridge of this machine holds, chosen and taken under a lock: the
            # suite's own processes (``pytest -n``) and other runs make hosts at the same time.
            with open("/run/harness-tests-hosts.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                held = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True).stdout
                start = os.getpid() + Hosts.made
                self.subnet = next(net for net in (f"10.{200 + i // 250 % 50}.{i % 250}"
                                                   for i in range(start, start + 12_500))
                                   if f" {net}." not in held)
                second, third = self.subnet.split(".")[1:]
                self.tag = f"{int(second) - 200:02d}{int(third):03d}"  # the bridge's, hosts' and links' names
                self.bridge = f"hb{self.tag}"
                _ip("link", "add", self.bridge, "type", "bridge")
                _ip("addr", "add", f"{self.subnet}.1/24", "dev", self.bridge)
                _ip("link", "set", self.bridge, "up")

    @property
    def coordinator(self) -> str:
        """The coordinator's own address, as the hosts reach it."""
        return f"{self.subnet}.1" if self.isolated else "127.0.0.1"

    def add(self, name: str) -> Host:
        n = len(self.hosts) + 2
        home = self.root / name
        home.mkdir(mode=0o755)
        if not self.isolated:
            host = Host(name, f"127.0.0.{n}", None, home)
        else:
            ns, veth = f"hh{self.tag}-{name}", f"hv{self.tag}{n}"
            _ip("netns", "add", ns)
            _ip("link", "add", veth, "type", "veth", "peer", "name", f"{veth}p")
            _ip("link", "set", f"{veth}p", "netns", ns)
            _ip("link", "set", veth, "master", self.bridge)
            _ip("link", "set", veth, "up")
            _ip("-n", ns, "addr", "add", f"{self.subnet}.{n}/24", "dev", f"{veth}p")
            _ip("-n", ns, "link", "set", f"{veth}p", "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            host = Host(name, f"{self.subnet}.{n}", ns, home)
        self.hosts.append(host)
        return host

    def scheduler(self, host: Host, port: int = 8786) -> subprocess.Popen[bytes]:
        """A Dask scheduler on ``host``; returns once it accepts connections."""
        process = host.start([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", host.address,
                              "--port", str(port), "--no-dashboard", "--no-show"], log="scheduler")
        wait_for_port(host, port, process)
        return process

    def worker(self, host: Host, scheduler: str, env: dict[str, str] | None = None,
               nthreads: int = 1, bind: tuple[str, str] | None = None) -> subprocess.Popen[bytes]:
        """A Dask worker (with its nanny) named after ``host``, on ``host``, for ``scheduler``."""
        return host.start([sys.executable, "-m", "distributed.cli.dask_worker", scheduler, "--name", host.name,
                           "--host", host.address, "--nthreads", str(nthreads), "--nworkers", "1",
                           "--no-dashboard", "--death-timeout", "180", "--memory-limit", "0"],
                          env=env, log="worker", supervise=True, bind=bind)

    def close(self) -> None:
        for host in self.hosts:
            host.kill()
            deadline = time.monotonic() + 10  # nothing may outlive its host (and reach the next test's)
            while host.netns and time.monotonic() < deadline and subprocess.run(
                    ["ip", "netns", "pids", host.netns], capture_output=True, text=True).stdout.split():
                host.kill()
                time.sleep(0.1)
            if host.netns:
                subprocess.run(["ip", "netns", "del", host.netns], capture_output=True)
        if self.isolated:
            subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)


def wait_for_port(host: Host, port: int, process: subprocess.Popen[bytes], deadline: float = 60.0) -> None:
    """Wait until ``host:port`` accepts TCP connections (from here, the coordinator's namespace)."""
    import socket

    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"{host.name}: exited {process.returncode}: {host.log('scheduler')[-2000:]}")
        try:
            with socket.create_connection((host.address, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{host.name}: nothing listens on {host.address}:{port} after {deadline:g} s")


def wait_for_workers(scheduler: str, names: set[str], deadline: float = 120.0) -> dict[str, int]:
    """Wait until workers named ``names`` are connected to ``scheduler``: name -> worker pid."""
    from distributed import Client

    end = time.monotonic() + deadline
    with Client(scheduler, timeout="30s", set_as_default=False) as client:
        while time.monotonic() < end:
            info = client.scheduler_info(n_workers=-1)["workers"]
            present = {str(w.get("name")): a for a, w in info.items()}
            if names <= set(present):
                pids = client.run(os.getpid, workers=[present[n] for n in names])
                return {n: pids[present[n]] for n in names}
            time.sleep(0.2)
    raise RuntimeError(f"workers {sorted(names)} did not join {scheduler} within {deadline:g} s")


__all__ = ["Host", "Hosts", "netns_possible", "wait_for_port", "wait_for_workers"]

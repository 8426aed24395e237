"""The door's child: one task's function over a batch of items, each under its own caps.

Run by :mod:`harness.door` as ``python -I -S -B child.py MEMORY CPU COUNT`` (no inherited
descriptors, an empty environment, ``/`` as its folder, a uid of its own when the harness runs
as root; where the kernel has Landlock, once the task's function is imported, it may read only
its import path and the system's shared libraries, write nothing and use no TCP). Its limits
are set before it reads a byte: ``MEMORY`` bytes of address space,
``COUNT * CPU + 1`` seconds of CPU time in all, no core file and no file written. Then, on stdin,
the request (the parent's own: which function, the import path, the items) and, on stdout, for
each item in order, a header line and the result (:mod:`plain`)::

    {"i": 0, "over": null, "error": null, "text": 123, "blobs": [4567]}\\n<text><blob>...

Before each item the soft CPU limit is moved to what the child has used plus ``CPU`` seconds:
an item past it ends the child (SIGXCPU), and the parent charges that item and runs the rest in
a new child. ``over`` is ``"memory"`` when the item ran out of address space (the child goes on
with the next one) and ``"output"`` when its result is larger than the task allows; ``error`` is
an exception the function raised (a bug of the harness's, not the submission's).
"""

from __future__ import annotations

import gc
import resource
import sys


def _limit(memory: int, cpu: int, count: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, count * cpu + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def _used() -> int:
    """The CPU seconds this process has used, to the nearest (the limit is whole seconds)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return round(usage.ru_utime + usage.ru_stime)


def _read(stream: object, size: int) -> bytes:
    data = stream.read(size)  # type: ignore[attr-defined]
    if len(data) != size:
        raise SystemExit("truncated request")
    return data


SETUP_FAILED = 3  # the exit code of a child that failed before its first item (the harness's trouble)


def main() -> None:
    memory, cpu, count = (int(a) for a in sys.argv[1:4])
    _limit(memory, cpu, count)
    try:
        function, output, items = _setup()
    except BaseException as exc:  # a missing module, a truncated request: never the submission's fault
        sys.stderr.write(f"{type(exc).__name__}: {exc}\n")
        raise SystemExit(SETUP_FAILED) from None
    _loop(function, output, items, cpu)


def _setup() -> tuple[object, int, list]:
    import importlib
    import importlib.util
    import json
    import os

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves this folder out
    import plain  # beside this file

    stdin = sys.stdin.buffer
    head = json.loads(stdin.readline())
    text = _read(stdin, head["text"])
    request = plain.decode(text, [_read(stdin, n) for n in head["blobs"]])
    sys.path += request["path"]  # after its own standard library: the harness and its packages
    module, _, name = request["function"].partition(":")
    function = getattr(importlib.import_module(module), name)
    confine = request.get("landlock")
    if confine:  # before the first item: from here on, reading the import path is all it may do
        spec = importlib.util.spec_from_file_location("_door_landlock", confine["module"])
        landlock = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(landlock)  # type: ignore[union-attr]
        landlock.restrict([*confine["read"], *(p for p in sys.path if p)], [], confine["abi"])
    return function, request["output"], request["items"]


def _loop(function: object, output: int, items: list, cpu: int) -> None:
    import json

    import plain

    stdout = sys.stdout.buffer
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    for i in range(len(items)):
        item, items[i] = items[i], None
        resource.setrlimit(resource.RLIMIT_CPU, (min(_used() + cpu, hard), hard))
        over = error = None
        body: tuple[bytes, list[bytes]] = (b"", [])
        try:
            body = plain.encode(function(item))  # type: ignore[operator]
        except MemoryError:
            over = "memory"
        except RecursionError:
            error = "RecursionError"
        except Exception as exc:  # the task's own failure, reported to the harness
            error = f"{type(exc).__name__}: {exc}"[:500]
        item = None
        if over == "memory":
            gc.collect()  # what the failed item left in cycles, before the next one
        if over is None and len(body[0]) + sum(map(len, body[1])) > output:
            over, body = "output", (b"", [])
        if over is not None or error is not None:
            body = (b"", [])
        line = {"i": i, "over": over, "error": error, "text": len(body[0]), "blobs": [len(b) for b in body[1]]}
        stdout.write(json.dumps(line).encode() + b"\n" + body[0] + b"".join(body[1]))
        stdout.flush()
        body = (b"", [])


if __name__ == "__main__":
    main()

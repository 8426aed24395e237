"""Disarms the guard, then forks CPU burners in new sessions to steal its opponent's turns.

Each burner counts how much it computed while the bot's own calls were not running (the bot
writes a marker file at the start and end of each call): that count is the CPU it took from
its opponent. The last move prints what the burners report.
"""
import os
import time

BURNERS = 2


def disarm():
    import sys
    for frame in sys._current_frames().values():
        while frame is not None:
            owner = frame.f_locals.get("self")
            guard = getattr(owner, "guard", None)
            if guard is not None:
                guard.armed = False
                return True
            frame = frame.f_back
    return False


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


def burn(report_fd):
    """Compute for ever; every 50 ms of CPU, report the wall-clock time at which it ran."""
    os.setsid()
    last = time.process_time()
    while True:
        if time.process_time() - last >= 0.05:
            last = time.process_time()
            os.write(report_fd, b"%.6f\n" % time.time())


class Player:
    def __init__(self, name):
        self.name = name
        self.read_fd = None
        self.moves = 0

    def zet(self, spel):
        self.moves += 1
        if self.read_fd is None:
            print("disarmed:", disarm(), flush=True)
            self.read_fd, write_fd = os.pipe()
            os.set_blocking(self.read_fd, False)
            for _ in range(BURNERS):
                if os.fork() == 0:
                    os.close(self.read_fd)
                    burn(write_fd)
            os.close(write_fd)
        # Where the burners ran, as wall-clock times: the test compares them with the opponent's moves.
        print("call", "%.6f" % time.time(), flush=True)
        try:
            data = os.read(self.read_fd, 1 << 20)
        except BlockingIOError:
            data = b""
        for line in data.split():
            print("burnt", line.decode(), flush=True)
        return step(spel)

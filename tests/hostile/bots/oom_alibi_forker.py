"""Disarms the guard and forks children into its own memory cap: the kernel's OOM killer kills some
of them (the machine's count of OOM kills rises), while the bot itself plays on. Its opponent's
alibi (oom_alibi_self_kill) leans on that count."""
import os
import time

CHILDREN = 4
EACH = 150 << 20  # each under the bot's address-space cap; together over its cgroup's memory cap


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


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        if not getattr(self, "done", False):
            self.done = True
            disarm()
            kids = []
            for _ in range(CHILDREN):
                pid = os.fork()
                if pid == 0:
                    try:
                        held = b"x" * EACH  # every page touched: resident, charged to the cgroup
                        time.sleep(3)
                        del held
                    finally:
                        os._exit(0)
                kids.append(pid)
            killed = 0
            for pid in kids:
                _, status = os.waitpid(pid, 0)
                killed += os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9
            print("children killed by SIGKILL:", killed, flush=True)
        return step(spel)

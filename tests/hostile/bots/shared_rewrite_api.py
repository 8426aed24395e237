"""Disarms the guard, then rewrites the shared compiled copy of the game's bot API (and the
guard's module beside it), so that every later bot of the run would meet a broken API."""


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


def poison(path):
    try:
        with open(path, "w") as f:
            f.write("raise ImportError('the bot API was rewritten by a bot')\n")
        return "rewritten"
    except OSError as exc:  # read-only under bubblewrap, another uid's file in plain mode
        return exc.strerror


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
            import os
            import sys
            import priemspel
            print("disarmed:", disarm())
            print("api:", poison(priemspel.__file__))
            print("guard:", poison(sys.modules["_harness_guard"].__file__))
            folder = os.path.dirname(priemspel.__file__)
            print("pycache:", poison(os.path.join(folder, "__pycache__", "priemspel.cpython-%d%d.pyc" % sys.version_info[:2])))
        return step(spel)

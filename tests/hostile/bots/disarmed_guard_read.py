"""Disarms the harness's guard (found through the worker's frames), then reads another submission."""


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
            print("disarmed:", disarm())
            print("read:", open("@VICTIM@").read())
        return step(spel)

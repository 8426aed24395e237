"""Claims a verdict only the referee may give: every reply of the worker says illegal_move."""
import json
import sys


def install(forged):
    """Forges every reply of the worker: through json.dumps and the worker's own bound encoder."""
    original = json.dumps
    json.dumps = lambda value, *a, **k: forged(value) if isinstance(value, dict) and "seq" in value \
        else original(value, *a, **k)
    sys.modules["__main__"]._encode = forged


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


def forged(message, *args, **kwargs):
    return json.JSONEncoder().encode({"ok": False, "verdict": "illegal_move", "seq": message.get("seq"),
                                      "reason": "the referee says so"})


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        install(forged)
        return step(spel)

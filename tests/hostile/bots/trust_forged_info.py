"""Forges its constructor's reply: a 900 kB name and extra fields in the info the parent reads."""
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


original = json.dumps


def forged(message, *args, **kwargs):
    if not isinstance(message, dict):  # the worker's encoding of an answer
        return original(message, *args, **kwargs)
    message = dict(message)
    if message.get("ok") and "info" in message:
        message["info"] = {"playerName": "N" * 900_000, "evil": [[[[1]]]], "rlimits": "all of them"}
    return json.JSONEncoder().encode(message)


install(forged)


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        return step(spel)

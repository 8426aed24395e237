"""Guard armed, kills itself with SIGKILL on its move: while another bot's children are being
OOM-killed at that bot's own cap, hoping its death passes for the host's OOM killer's (an
uncharged, replayed harness_error instead of its loss)."""
import os
import signal


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        os.kill(os.getpid(), signal.SIGKILL)
        return 1

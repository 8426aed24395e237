import _thread
import time


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        # A thread of its own: the worker's clock cannot read its wait, so only the parent's
        # clock judges this call, and the parent must ask where the bot was.
        _thread.start_new_thread(time.sleep, (60,))
        return self.search(4)

    def search(self, depth):
        best = 0
        for a in range(10 ** 12):
            for b in range(depth):
                best = max(best, a * b)
        return best

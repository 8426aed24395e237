"""Keeps a thread computing all the time, to think on its opponent's time; reports how far it got."""
import threading
import time

count = [0]


def spin():
    while True:
        count[0] += 1


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
        self.last = None
        threading.Thread(target=spin, daemon=True).start()

    def zet(self, spel):
        now_count, now = count[0], time.perf_counter()
        if self.last is not None:
            gap_count, gap = now_count - self.last[0], now - self.last[1]
            # How fast the thread counts when it has the interpreter to itself: sleep 50 ms
            # (which releases the GIL) and watch it.
            before = count[0]
            time.sleep(0.05)
            rate = (count[0] - before) / 0.05
            print("gap %d %.4f %.0f" % (gap_count, gap, rate))
        answer = step(spel)
        self.last = (count[0], time.perf_counter())
        return answer

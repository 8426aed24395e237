"""A bot at real students' speed: 0.2-0.5 s of its own CPU time a move, then the seed's basic move.

The thinking is CPU-bound pure Python (as a student's search is) and measured by the bot's own
process clock, so it costs the same CPU time on any machine; its length depends only on the
position, and the move chosen does not depend on it at all: a game's record is the same
wherever it is played. (bench/bench_cluster.py plays these; tests copy it with less thinking.)
"""

import time

LEAST, MOST = 0.2, 0.5  # CPU seconds a move


class Player:
    def __init__(self, name):
        self.name = name

    def think(self, seconds):
        start, x = time.process_time(), 0
        while time.process_time() - start < seconds:
            for i in range(5000):
                x = (x * 31 + i) % 1000003
        return x

    def zet(self, spel):
        self.think(LEAST + (MOST - LEAST) * ((spel.positie * 7 + spel.N) % 10) / 9)
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1

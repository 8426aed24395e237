# Sample submission (correct), written differently from ok_naive: cells as tuples, walls
# built in the "other" direction and order (both are allowed), a flood fill from the goal row
# to choose steps, a depth-first search to check paths.
# Strategy: steps toward the goal, and now and then a random legal wall.
# Expected SemBasic: 2 points. In a tournament: plays legal moves.
import random

from obstacle import *


class Player:
    def __init__(self, name):
        self.name = name
        self.version = "compact 2"

    def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, list_of_obstacles):
        self.sx, self.sy = sizex, sizey
        self.me = (myx, myy)
        self.opp = (opponentx, opponenty)
        self.left = max_obstacles
        self.goal = sizey - 1 if myy == 0 else 0
        self.opp_goal = sizey - 1 - self.goal
        self.cut = set()
        for o in list_of_obstacles:
            self.block(o)

    def block(self, o):
        self.cut.add(((o.fromx, o.fromy), (o.tox, o.toy)))
        self.cut.add(((o.tox, o.toy), (o.fromx, o.fromy)))

    def unblock(self, o):
        self.cut.discard(((o.fromx, o.fromy), (o.tox, o.toy)))
        self.cut.discard(((o.tox, o.toy), (o.fromx, o.fromy)))

    def around(self, c):
        x, y = c
        for n in ((x, y + 1), (x, y - 1), (x + 1, y), (x - 1, y)):
            if 0 <= n[0] < self.sx and 0 <= n[1] < self.sy and (c, n) not in self.cut:
                yield n

    def flood(self, row):
        dist = {(x, row): 0 for x in range(self.sx)}
        todo = list(dist)
        while todo:
            nxt = []
            for c in todo:
                for n in self.around(c):
                    if n not in dist:
                        dist[n] = dist[c] + 1
                        nxt.append(n)
            todo = nxt
        return dist

    def reaches(self, start, row):
        seen = {start}
        todo = [start]
        while todo:
            c = todo.pop()
            if c[1] == row:
                return True
            # push the neighbour nearest the goal row last, so it is tried first
            for n in sorted(self.around(c), key=lambda n: -abs(row - n[1])):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False

    def expand_player(self):
        return [n for n in self.around(self.me) if n != self.opp]

    def expand_obstacles(self):
        if self.left <= 0:
            return []
        found = []
        for x in range(self.sx - 1):
            for y in range(self.sy - 1):
                for pair in ([Obstacle(x + 1, y + 1, x + 1, y), Obstacle(x, y + 1, x, y)],
                             [Obstacle(x + 1, y + 1, x, y + 1), Obstacle(x + 1, y, x, y)]):
                    a, b = pair
                    if ((a.fromx, a.fromy), (a.tox, a.toy)) in self.cut or \
                            ((b.fromx, b.fromy), (b.tox, b.toy)) in self.cut:
                        continue
                    self.block(a)
                    self.block(b)
                    if self.reaches(self.me, self.goal) and self.reaches(self.opp, self.opp_goal):
                        found.append(pair)
                    self.unblock(a)
                    self.unblock(b)
        return found

    def make_move(self):
        steps = self.expand_player()
        if self.left > 0 and (not steps or random.random() < 0.1):
            walls = self.expand_obstacles()
            if walls:
                pair = random.choice(walls)
                self.block(pair[0])
                self.block(pair[1])
                self.left -= 1
                return (2, pair)
        if not steps:
            return (None, None)
        dist = self.flood(self.goal)
        self.me = min(steps, key=lambda c: dist.get(c, 10 ** 6))
        return (1, self.me)

    def opponent_move(self, moveType, result):
        if moveType == 1:
            self.opp = (result[0], result[1])
        elif moveType == 2:
            self.block(result[0])
            self.block(result[1])

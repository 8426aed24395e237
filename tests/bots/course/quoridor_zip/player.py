# A Quoridor player submitted as player.zip (the Quoridor text allows it): this file and
# paths.py sit at the root of the zip.
import random

from obstacle import *
import paths


class Player:
    def __init__(self, name):
        self.name = name
        self.version = "zipped 1"

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

    def expand_player(self):
        return [list(n) for n in paths.around(self.me, self.sx, self.sy, self.cut) if n != self.opp]

    def expand_obstacles(self):
        if self.left <= 0:
            return []
        found = []
        for x in range(self.sx - 1):
            for y in range(self.sy - 1):
                for pair in ([Obstacle(x, y, x, y + 1), Obstacle(x + 1, y, x + 1, y + 1)],
                             [Obstacle(x, y, x + 1, y), Obstacle(x, y + 1, x + 1, y + 1)]):
                    a, b = pair
                    if ((a.fromx, a.fromy), (a.tox, a.toy)) in self.cut or \
                            ((b.fromx, b.fromy), (b.tox, b.toy)) in self.cut:
                        continue
                    self.block(a)
                    self.block(b)
                    if paths.reaches(self.me, self.goal, self.sx, self.sy, self.cut) and \
                            paths.reaches(self.opp, self.opp_goal, self.sx, self.sy, self.cut):
                        found.append(pair)
                    self.unblock(a)
                    self.unblock(b)
        return found

    def make_move(self):
        steps = [tuple(s) for s in self.expand_player()]
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
        dist = paths.flood(self.goal, self.sx, self.sy, self.cut)
        self.me = min(steps, key=lambda c: dist.get(c, 10 ** 6))
        return (1, list(self.me))

    def opponent_move(self, moveType, result):
        if moveType == 1:
            self.opp = (result[0], result[1])
        elif moveType == 2:
            self.block(result[0])
            self.block(result[1])

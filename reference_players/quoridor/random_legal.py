"""Quoridor reference player "random_legal": a uniformly random legal move, steps and walls
alike. The grading opponent.

Like every reference player it implements expand_player() and expand_obstacles() exactly as
the referee does (the harness's tests compare them).
"""

import random
from collections import deque

from obstacle import *

BIG = 1 << 30  # the distance of a cell with no path


def norm(x1, y1, x2, y2):
    """The edge between two cells with the smaller cell first."""
    if (x1, y1) <= (x2, y2):
        return (x1, y1, x2, y2)
    return (x2, y2, x1, y1)


def wall_edges(kind, x, y):
    """The two edges of a wall: "H" blocks (x,y)-(x,y+1) and (x+1,y)-(x+1,y+1); "V" blocks
    (x,y)-(x+1,y) and (x,y+1)-(x+1,y+1)."""
    if kind == "H":
        return (x, y, x, y + 1), (x + 1, y, x + 1, y + 1)
    return (x, y, x + 1, y), (x, y + 1, x + 1, y + 1)


class Player:
    """Plays a uniformly random legal move."""

    def __init__(self, name):
        self.name = name
        self.version = "random_legal 1.0"
        self.myx = self.myy = -1
        self.opponentx = self.opponenty = -1
        self.sizex = self.sizey = -1
        self.obstacles = []
        self.blocked = set()
        self.max_obstacles = -1
        self.my_obstacles = 0
        self.opponent_obstacles = 0
        self.my_goal_row = self.opponent_goal_row = -1

    # ---- engine: identical in every reference player (a test keeps the copies in sync) ----
    def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, list_of_obstacles):
        """Called once before the game: board size, both positions, wall budget, initial walls."""
        self.sizex = sizex
        self.sizey = sizey
        self.myx = myx
        self.myy = myy
        self.opponentx = opponentx
        self.opponenty = opponenty
        self.max_obstacles = max_obstacles
        self.obstacles = list(list_of_obstacles)
        self.my_obstacles = 0
        self.opponent_obstacles = 0
        if myy == 0:
            self.my_goal_row = sizey - 1
            self.opponent_goal_row = 0
        else:
            self.my_goal_row = 0
            self.opponent_goal_row = sizey - 1
        # Blocked edges, each as (x1, y1, x2, y2) with the smaller cell first.
        self.blocked = set()
        for o in list_of_obstacles:
            self.blocked.add(norm(o.fromx, o.fromy, o.tox, o.toy))

    def opponent_move(self, moveType, result):
        """The opponent's last move: (1, [x, y]), (2, [o1, o2]) or (None, None) after a pass."""
        if moveType == 1:
            self.opponentx = result[0]
            self.opponenty = result[1]
        elif moveType == 2:
            for o in result:
                self.obstacles.append(o)
                self.blocked.add(norm(o.fromx, o.fromy, o.tox, o.toy))
            self.opponent_obstacles += 1

    def open_neighbours(self, x, y, blocked):
        """Cells next to (x, y) on the board that no wall separates from it (pawns ignored)."""
        cells = []
        if x + 1 < self.sizex and (x, y, x + 1, y) not in blocked:
            cells.append((x + 1, y))
        if x > 0 and (x - 1, y, x, y) not in blocked:
            cells.append((x - 1, y))
        if y + 1 < self.sizey and (x, y, x, y + 1) not in blocked:
            cells.append((x, y + 1))
        if y > 0 and (x, y - 1, x, y) not in blocked:
            cells.append((x, y - 1))
        return cells

    def row_distances(self, row, blocked):
        """Steps from every cell to the nearest cell of `row` (None: unreachable), pawns ignored."""
        dist = {}
        queue = deque()
        for x in range(self.sizex):
            dist[(x, row)] = 0
            queue.append((x, row))
        while queue:
            cell = queue.popleft()
            d = dist[cell] + 1
            for nxt in self.open_neighbours(cell[0], cell[1], blocked):
                if nxt not in dist:
                    dist[nxt] = d
                    queue.append(nxt)
        return dist

    def shortest_path(self, x, y, row, blocked):
        """One shortest list of cells from (x, y) to `row`, or None if there is no path."""
        parent = {(x, y): None}
        queue = deque([(x, y)])
        while queue:
            cell = queue.popleft()
            if cell[1] == row:
                path = []
                while cell is not None:
                    path.append(cell)
                    cell = parent[cell]
                return path[::-1]
            for nxt in self.open_neighbours(cell[0], cell[1], blocked):
                if nxt not in parent:
                    parent[nxt] = cell
                    queue.append(nxt)
        return None

    def has_path(self, x, y, row, blocked):
        """True if (x, y) connects to `row` (depth-first: we only need yes or no)."""
        seen = {(x, y)}
        stack = [(x, y)]
        while stack:
            cx, cy = stack.pop()
            if cy == row:
                return True
            for nxt in self.open_neighbours(cx, cy, blocked):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return False

    def legal_steps(self):
        """Cells my pawn may step to: one cell, on the board, not through a wall, not onto the opponent."""
        return [c for c in self.open_neighbours(self.myx, self.myy, self.blocked)
                if c != (self.opponentx, self.opponenty)]

    def legal_walls(self):
        """Every wall (e1, e2) that shares no edge with a wall and leaves both players a path.

        A wall can only cut a player off if it blocks an edge of every path, so only walls
        touching one shortest path of a player need a search for that player.
        """
        blocked = self.blocked
        players = []
        for x, y, row in ((self.myx, self.myy, self.my_goal_row),
                          (self.opponentx, self.opponenty, self.opponent_goal_row)):
            path = self.shortest_path(x, y, row, blocked)
            if path is None:
                return []
            edges = set()
            for a, b in zip(path, path[1:]):
                edges.add(norm(a[0], a[1], b[0], b[1]))
            players.append((x, y, row, edges))
        walls = []
        for kind in ("H", "V"):
            for y in range(self.sizey - 1):
                for x in range(self.sizex - 1):
                    e1, e2 = wall_edges(kind, x, y)
                    if e1 in blocked or e2 in blocked:
                        continue  # shares an edge with a wall (crossing one shares none)
                    ok = True
                    for px, py, row, edges in players:
                        if e1 in edges or e2 in edges:
                            blocked.add(e1)
                            blocked.add(e2)
                            ok = self.has_path(px, py, row, blocked)
                            blocked.discard(e1)
                            blocked.discard(e2)
                            if not ok:
                                break
                    if ok:
                        walls.append((e1, e2))
        return walls

    def expand_player(self):
        """LIST of [x, y] positions where this player can move. It can be empty."""
        return [[x, y] for x, y in self.legal_steps()]

    def expand_obstacles(self):
        """LIST of [o1, o2] for every wall this player may place now (empty without walls left)."""
        if self.my_obstacles >= self.max_obstacles:
            return []
        return [[Obstacle(*e1), Obstacle(*e2)] for e1, e2 in self.legal_walls()]

    def play_step(self, cell):
        """Move my pawn to `cell` and return the answer for make_move()."""
        self.myx, self.myy = cell
        return 1, [cell[0], cell[1]]

    def play_wall(self, e1, e2):
        """Place the wall (e1, e2) and return the answer for make_move()."""
        o1, o2 = Obstacle(*e1), Obstacle(*e2)
        self.obstacles.append(o1)
        self.obstacles.append(o2)
        self.blocked.add(e1)
        self.blocked.add(e2)
        self.my_obstacles += 1
        return 2, [o1, o2]
    # ---- end of engine ----

    # ---- strategy ----
    def make_move(self):
        """A uniformly random legal move, steps and walls alike; None only if nothing is legal."""
        moves = [("step", c) for c in self.legal_steps()]
        if self.my_obstacles < self.max_obstacles:
            moves.extend(("wall", w) for w in self.legal_walls())
        if not moves:
            return None
        kind, what = random.choice(moves)
        if kind == "step":
            return self.play_step(what)
        return self.play_wall(what[0], what[1])

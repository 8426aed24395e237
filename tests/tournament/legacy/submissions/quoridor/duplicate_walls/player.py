# Sample submission (broken): lists every wall twice, once per order of its two obstacles.
# The set of walls is right, but duplicates fail the check.
# Expected SemBasic: expand_player 1, expand_obstacles 0.
from obstacle import *
from collections import deque


class Player:
    def __init__(self, name):
        self.name = name
        self.version = "duplicate_walls 1"
        self.myx = -1
        self.myy = -1
        self.opponentx = -1
        self.opponenty = -1
        self.sizex = -1
        self.sizey = -1
        self.obstacles = []
        self.max_obstacles = -1
        self.my_goal_row = -1
        self.my_obstacles = 0

    def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, list_of_obstacles):
        self.sizex = sizex
        self.sizey = sizey
        self.myx = myx
        self.myy = myy
        self.opponentx = opponentx
        self.opponenty = opponenty
        self.max_obstacles = max_obstacles
        self.obstacles = list(list_of_obstacles)
        self.my_obstacles = 0
        if self.myy == 0:
            self.my_goal_row = sizey - 1
            self.opponent_goal_row = 0
        else:
            self.my_goal_row = 0
            self.opponent_goal_row = sizey - 1

    def is_in_board(self, x, y):
        return 0 <= x < self.sizex and 0 <= y < self.sizey

    def edge(self, x1, y1, x2, y2):
        if (x1, y1) < (x2, y2):
            return (x1, y1, x2, y2)
        return (x2, y2, x1, y1)

    def blocked_edges(self):
        return set(self.edge(o.fromx, o.fromy, o.tox, o.toy) for o in self.obstacles)

    def neighbours(self, x, y, blocked):
        result = []
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if self.is_in_board(nx, ny) and self.edge(x, y, nx, ny) not in blocked:
                result.append((nx, ny))
        return result

    def distance(self, x, y, row, blocked):
        seen = {(x, y): 0}
        queue = deque([(x, y)])
        while queue:
            cx, cy = queue.popleft()
            if cy == row:
                return seen[(cx, cy)]
            for n in self.neighbours(cx, cy, blocked):
                if n not in seen:
                    seen[n] = seen[(cx, cy)] + 1
                    queue.append(n)
        return None

    def reachable(self, x, y, row, blocked):
        # depth first, trying the direction of the goal row first: quick on open boards
        toward = 1 if row > y else -1
        sizex, sizey = self.sizex, self.sizey
        seen = {(x, y)}
        stack = [(x, y)]
        while stack:
            cx, cy = stack.pop()
            if cy == row:
                return True
            for nx, ny in ((cx, cy - toward), (cx + 1, cy), (cx - 1, cy), (cx, cy + toward)):
                if (0 <= nx < sizex and 0 <= ny < sizey and (nx, ny) not in seen
                        and (min(cx, nx), min(cy, ny), max(cx, nx), max(cy, ny)) not in blocked):
                    seen.add((nx, ny))
                    stack.append((nx, ny))
        return False

    def can_player_move(self, x, y):
        if not self.is_in_board(x, y):
            return False
        if abs(x - self.myx) + abs(y - self.myy) != 1:
            return False
        if x == self.opponentx and y == self.opponenty:
            return False
        for o in self.obstacles:
            if not o.can_player_move(self.myx, self.myy, x, y):
                return False
        return True

    def all_walls(self):
        walls = []
        for x in range(self.sizex - 1):
            for y in range(self.sizey - 1):
                walls.append((Obstacle(x, y, x, y + 1), Obstacle(x + 1, y, x + 1, y + 1)))
                walls.append((Obstacle(x, y, x + 1, y), Obstacle(x, y + 1, x + 1, y + 1)))
        return walls

    def wall_ok(self, o1, o2, blocked):
        e1 = self.edge(o1.fromx, o1.fromy, o1.tox, o1.toy)
        e2 = self.edge(o2.fromx, o2.fromy, o2.tox, o2.toy)
        if e1 in blocked or e2 in blocked:
            return False
        blocked.add(e1)
        blocked.add(e2)
        ok = (self.reachable(self.myx, self.myy, self.my_goal_row, blocked) and
              self.reachable(self.opponentx, self.opponenty, self.opponent_goal_row, blocked))
        blocked.discard(e1)
        blocked.discard(e2)
        return ok

    def make_move(self):
        blocked = self.blocked_edges()
        best = None
        for x, y in self.expand_player():
            d = self.distance(x, y, self.my_goal_row, blocked)
            if d is not None and (best is None or d < best[0]):
                best = (d, x, y)
        if best is not None:
            self.myx, self.myy = best[1], best[2]
            return 1, [self.myx, self.myy]
        walls = self.expand_obstacles()
        if walls:
            self.obstacles += walls[0]
            self.my_obstacles += 1
            return 2, walls[0]
        return None

    def opponent_move(self, moveType, result):
        if moveType == 1:
            self.opponentx = result[0]
            self.opponenty = result[1]
        elif moveType == 2:
            self.obstacles.append(result[0])
            self.obstacles.append(result[1])

    def expand_player(self):
        my_moves = []
        for x, y in ((self.myx + 1, self.myy), (self.myx - 1, self.myy), (self.myx, self.myy + 1),
                     (self.myx, self.myy - 1)):
            if self.can_player_move(x, y):
                my_moves.append([x, y])
        return my_moves

    def expand_obstacles(self):
        if self.my_obstacles >= self.max_obstacles:
            return []
        blocked = self.blocked_edges()
        my_obstacles = []
        for o1, o2 in self.all_walls():
            if self.wall_ok(o1, o2, blocked):
                my_obstacles.append([o1, o2])
                my_obstacles.append([o2, o1])  # BUG: the same wall again
        return my_obstacles

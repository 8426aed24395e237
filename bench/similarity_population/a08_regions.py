"""Splits the free cells into regions (flood fill) and plays in the largest one."""

from collections import deque


class Player:
    def __init__(self, name):
        self.name = name

    def regions(self, board):
        seen = set()
        found = []
        for r in range(len(board)):
            for c in range(len(board[0])):
                if board[r][c] != '-' or (r, c) in seen:
                    continue
                queue = deque([(r, c)])
                seen.add((r, c))
                region = []
                while queue:
                    y, x = queue.popleft()
                    region.append((y, x))
                    for dy in (-1, 0, 1):
                        for dx in (-1, 0, 1):
                            ny, nx = y + dy, x + dx
                            if 0 <= ny < len(board) and 0 <= nx < len(board[0]) \
                                    and board[ny][nx] == '-' and (ny, nx) not in seen:
                                seen.add((ny, nx))
                                queue.append((ny, nx))
                found.append(region)
        return found

    def move(self, board):
        parts = self.regions(board)
        parts.sort(key=len, reverse=True)
        biggest = parts[0]
        # the cell nearest the middle of the region
        mid_y = sum(y for y, _ in biggest) / len(biggest)
        mid_x = sum(x for _, x in biggest) / len(biggest)
        return min(biggest, key=lambda p: (p[0] - mid_y) ** 2 + (p[1] - mid_x) ** 2)

# Path finding for the zipped Quoridor player (a second module beside player.py in player.zip).


def around(cell, sx, sy, cut):
    x, y = cell
    for n in ((x, y + 1), (x, y - 1), (x + 1, y), (x - 1, y)):
        if 0 <= n[0] < sx and 0 <= n[1] < sy and (cell, n) not in cut:
            yield n


def flood(row, sx, sy, cut):
    """Distance of every cell to the given row."""
    dist = {(x, row): 0 for x in range(sx)}
    todo = list(dist)
    while todo:
        nxt = []
        for c in todo:
            for n in around(c, sx, sy, cut):
                if n not in dist:
                    dist[n] = dist[c] + 1
                    nxt.append(n)
        todo = nxt
    return dist


def reaches(start, row, sx, sy, cut):
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        if c[1] == row:
            return True
        for n in around(c, sx, sy, cut):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return False

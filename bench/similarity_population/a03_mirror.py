# Mirror strategy: answer the opponent with the point reflection of their move if it is free.

class Player:
    def __init__(self, name):
        self.name = name
        self.last = None

    def move(self, board):
        rows = len(board)
        cols = len(board[0])
        empties = [(i, j) for i in range(rows) for j in range(cols) if board[i][j] == '-']
        taken = [(i, j) for i in range(rows) for j in range(cols) if board[i][j] != '-']
        # first move on an odd board: the centre
        if rows % 2 == 1 and cols % 2 == 1 and (rows // 2, cols // 2) in empties:
            return (rows // 2, cols // 2)
        if self.last is not None:
            newly = [t for t in taken if t not in self.last]
        else:
            newly = taken
        self.last = set(taken)
        for (i, j) in newly:
            mirror = (rows - 1 - i, cols - 1 - j)
            if mirror in empties:
                self.last.add(mirror)
                return mirror
        choice = empties[len(empties) // 2]
        self.last.add(choice)
        return choice

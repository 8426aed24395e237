# The helpers of a two-file player (as the course's own Brute: player.py + utils.py).


def rotateCard(card):
    """The card turned 90 degrees counter-clockwise."""
    rows, cols = len(card), len(card[0])
    return [[card[r][cols - 1 - c] for r in range(rows)] for c in range(cols)]


def writeCard(row, col, card, board):
    for r in range(len(card)):
        for c in range(len(card[0])):
            board[row + r][col + c] = card[r][c]


def isFree(board, row, col, card):
    if row + len(card) > len(board) or col + len(card[0]) > len(board[0]):
        return False
    return all(board[row + r][col + c] == -1 for r in range(len(card)) for c in range(len(card[0])))


def touches(board, row, col, card):
    rows, cols = len(board), len(board[0])
    for c in range(col, col + len(card[0])):
        for r in (row - 1, row + len(card)):
            if 0 <= r < rows and board[r][c] != -1:
                return True
    for r in range(row, row + len(card)):
        for c in (col - 1, col + len(card[0])):
            if 0 <= c < cols and board[r][c] != -1:
                return True
    return False

class Player:
    def __init__(self, name):
        raise ValueError("no board for " + name)

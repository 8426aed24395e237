import numpyy_does_not_exist


class Player:
    def __init__(self, name):
        self.name = name

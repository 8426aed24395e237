"""The Obstacle class of the Quoridor variant (seed 004): import it, do not copy it.

    from obstacle import *

One Obstacle forbids the move between the cells (fromx, fromy) and (tox, toy), in both
directions. A wall is two Obstacles: horizontal Obstacle(x,y, x,y+1) + Obstacle(x+1,y, x+1,y+1)
or vertical Obstacle(x,y, x+1,y) + Obstacle(x,y+1, x+1,y+1). make_move() and
expand_obstacles() must return instances of this very class; an object of any other class
(even one with the same name and fields) is an invalid answer.
"""


class Obstacle:
    """ Simple class to represent one part of each obstacle. The obstacle is defined by coordinates of cells
        between which the player cannot move
    """

    def __init__(self, fromx, fromy, tox, toy):
        self.fromx = fromx
        self.fromy = fromy
        self.tox = tox
        self.toy = toy

    def __str__(self):
        return "(" + str(self.fromx) + "," + str(self.fromy) + ")->(" + str(self.tox) + "," + str(self.toy) + ")"

    def __repr__(self):
        return f"Obstacle({self.fromx!r}, {self.fromy!r}, {self.tox!r}, {self.toy!r})"

    def can_player_move(self, fromx, fromy, tox, toy):
        """
            return True, if a player can move from [fromx,fromy] to [tox,toy]. This only checks if THIS obstacle
            prevents the move or not.
        """
        return not ((self.fromx == fromx and self.fromy == fromy and self.tox == tox and self.toy == toy) or
                    (self.fromx == tox and self.fromy == toy and self.tox == fromx and self.toy == fromy))

    def is_valid_obstacle(self, sizex, sizey):
        """ return True, if the given obstacle is valid (is inside the board). Size of the board is sizex, sizey
        """
        return (self.fromx >= 0 and self.fromx < sizex and
                self.fromy >= 0 and self.fromy < sizey and
                self.tox >= 0 and self.tox < sizex and
                self.toy >= 0 and self.toy < sizey)

    def __eq__(self, other):
        return type(self) == type(other) and self.fromx == other.fromx and self.fromy == other.fromy and \
            self.tox == other.tox and self.toy == other.toy

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        # Consistent with __eq__: equal obstacles (same class, same coordinates in the same
        # direction) hash alike, so obstacles can go into sets and dict keys.
        return hash((self.fromx, self.fromy, self.tox, self.toy))

"""Pushes keystrokes into the controlling terminal (TIOCSTI on /dev/tty)."""
import fcntl
import os
import termios


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        fd = os.open("/dev/tty", os.O_RDWR)
        fcntl.ioctl(fd, termios.TIOCSTI, b"x")
        return step(spel)

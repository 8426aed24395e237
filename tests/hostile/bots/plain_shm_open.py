"""Opens POSIX shared memory (_posixshmem.shm_open) to collude with another bot; it would leave a file in /dev/shm."""
import os


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
        import _posixshmem
        fd = _posixshmem.shm_open("/harness-collude", os.O_CREAT | os.O_RDWR, 0o600)
        os.write(fd, b"my move")
        return step(spel)

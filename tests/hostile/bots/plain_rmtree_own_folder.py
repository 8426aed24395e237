"""A legal bot: makes and removes a temporary folder in its working directory (shutil.rmtree uses dir_fd)."""
import os
import shutil
import tempfile


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
        with tempfile.TemporaryDirectory(dir=".") as tmp:
            os.makedirs(os.path.join(tmp, "x", "y"))
            open(os.path.join(tmp, "x", "y", "z.txt"), "w").write("scratch")
        os.makedirs("keep/a", exist_ok=True)
        shutil.rmtree("keep")
        return step(spel)

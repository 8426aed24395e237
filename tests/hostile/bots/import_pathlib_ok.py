"""A legal bot of a game that forbids `stat`: it uses pathlib, shutil, tempfile, zipfile and glob, which import `stat` themselves."""
import glob
import os
import pathlib
import shutil
import tempfile
import zipfile


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
        if not getattr(self, "done", False):
            self.done = True
            pathlib.Path("notes.txt").write_text("move")
            with tempfile.TemporaryDirectory(dir=".") as tmp:
                shutil.copy("notes.txt", tmp)
                with zipfile.ZipFile(os.path.join(tmp, "a.zip"), "w") as z:
                    z.write("notes.txt")
            print(sorted(glob.glob("*.txt")))
        return step(spel)

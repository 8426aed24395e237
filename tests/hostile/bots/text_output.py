"""Writes terminal escapes and invalid UTF-8 to stdout and stderr, then answers an illegal move."""
import os
import sys


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        print("\x1b]0;pwned\x07\x1b[2Jhello\x1b[31m red")
        sys.stdout.flush()
        os.write(2, b"bad \xed\xa0\x80 bytes\x1b[5m\x07\x00 end\n")
        return 1000

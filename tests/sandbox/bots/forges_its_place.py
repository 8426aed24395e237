import _signal
import _thread
import sys
import time


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        frame = sys._getframe(1)
        while "self" not in frame.f_locals or type(frame.f_locals["self"]).__name__ != "Worker":
            frame = frame.f_back
        worker = frame.f_locals["self"]
        seq = worker.running.seq

        def forge(signum, frame):
            # Where the worker would say the bot was stuck, the bot says something else.
            worker.reply({"ok": False, "verdict": "timeout", "seq": seq, "clock": "wall",
                          "reason": "x (stuck at \x1b[2Jplayer.py line 1 in innocent)"})
            while True:
                pass

        _signal.signal(_signal.SIGUSR2, forge)
        _thread.start_new_thread(time.sleep, (60,))  # the worker's own clock is silent now
        while True:
            pass

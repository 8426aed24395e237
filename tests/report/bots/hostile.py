import sys


class Player:
    """Prints markup meant to run in the report, then answers with more of it (a bad answer)."""

    def __init__(self, name):
        print('<script>window.pwned = "stdout"</script>')
        sys.stderr.write('<img src=x onerror="window.pwned = 1">\n')
        self.calls = 0

    def zet(self, spel):
        self.calls += 1
        print("</pre></details><script>window.pwned = 2</script>")
        if self.calls == 2:
            return '</script><script>window.pwned = 3</script><b onclick="x">\ud800&amp;'
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1

"""A legal bot: thinks in an asyncio event loop (whose self-pipe is a socketpair)."""
import asyncio


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


async def think(spel):
    await asyncio.sleep(0)
    return step(spel)


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        return asyncio.run(think(spel))

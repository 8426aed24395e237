"""What runs inside a bot's process: the worker, its guard, the bot's environment, the
constructor's checks and the wire. Nothing here may trust, or be trusted by, the parent beyond
the wire's frames: this folder is the trust boundary's inner side."""

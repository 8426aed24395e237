"""A tournament and grading harness for student game bots."""

__version__ = "0.1.0"

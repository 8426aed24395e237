"""What runs before a bot plays: static checks of its source, the approved packages, and the
sandbox's self-check (calibration)."""

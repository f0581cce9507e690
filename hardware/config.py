"""settings.toml, read once at start-up by code.py (then forgotten).

os.getenv reads settings.toml on CircuitPython (a bare number comes back as
an int, a quoted value as a str) and the environment on a PC (always a
str). A value that is wrong or out of range is named in the problems, which
the app shows at start-up (on the display, or a red X on the LEDs), and its
default is used: a typo in settings.toml never stops the game.
"""

import os

from hardware import profiles


def _number(name, default, low, high, problems):
    value = os.getenv(name)
    if value is None:
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = None
    if number is None or not low <= number <= high:
        problems.append("%s: not %d..%d, %d used" % (name, low, high, default))
        return default
    return number


def read():
    """(profile name, brightness cap, seed, trace, data folder, events,
    frames, problems) from settings.toml."""
    problems = []
    profile = os.getenv("JARMO_PROFILE", profiles.DEFAULT)
    if profile not in profiles.PROFILES:
        problems.append("JARMO_PROFILE: unknown, %s used" % profiles.DEFAULT)
        profile = profiles.DEFAULT
    return (profile,
            _number("JARMO_BRIGHTNESS", -1, -1, 255, problems),    # -1: the profile's cap
            _number("JARMO_SEED", -1, -1, 0x3FFFFFFF, problems),   # -1: random at power-up
            _number("JARMO_TRACE", 0, 0, 2, problems),             # tests and benchmarks
            os.getenv("JARMO_DATA", ""),                            # host: the log's folder
            os.getenv("JARMO_EVENTS", ""),                          # host only
            os.getenv("JARMO_FRAMES", "all"),                       # host only
            problems)

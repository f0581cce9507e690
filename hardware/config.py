"""settings.toml, read once at start-up by code.py (then forgotten).

os.getenv reads settings.toml on CircuitPython (a bare number comes back as
an int, a quoted value as a str) and the environment on a PC (always a
str). CircuitPython's getenv quietly gives the default for a line it cannot
read, so the file's lines are checked here too. Whatever is wrong is named
in the problems, which the app shows at start-up (on the display, or a red
X on the LEDs), and the default is used: settings.toml never stops the game.

- a value that is wrong or out of range: "JARMO_SEED: not -1..1073741823, -1 used";
- a profile that is unknown, or made for another board: the board's own;
- a line that is not KEY = "text", KEY = number or KEY = true/false (an
  unterminated string, binary bytes, no "="): "settings.toml line 3: unreadable";
- a JARMO_ key that no setting has (a typo): "JARMO_BRIGTNESS: no such setting";
- a file over MAX_BYTES: named, and nothing read from it (every default).
"""

import os

from hardware import profiles

PATH = "/settings.toml"
MAX_BYTES = 4096        # a settings.toml is a few lines; a larger one is not ours
MAX_NAMED = 3           # unreadable lines named one by one; more are counted
KEYS = ("JARMO_PROFILE", "JARMO_BRIGHTNESS", "JARMO_SEED", "JARMO_TRACE", "JARMO_DATA",
        "JARMO_EVENTS", "JARMO_FRAMES", "JARMO_TRACE_FLASH", "JARMO_TRACE_BALLAST",
        "JARMO_DIM_S", "JARMO_OFF_S")     # the idle times: read by hardware/power.py


def _getenv(name, problems, ok):
    """os.getenv(name), None when absent or when the file is not to be read."""
    if not ok:
        return None
    try:
        return os.getenv(name)
    except (ValueError, UnicodeError, OSError):
        problems.append("%s: unreadable" % name)
        return None


def _number(name, default, low, high, problems, ok):
    value = _getenv(name, problems, ok)
    if value is None:
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = None
    if number is None or not low <= number <= high:
        problems.append("%s: %s, %d used" % (
            name, "not %d..%d" % (low, high) if high < 1000 else "out of range", default))
        return default
    return number


def _key_ok(key):
    for c in key:
        if not (c.isalpha() or c.isdigit() or c in "_."):
            return False
    return bool(key)


def _value_ok(value):
    """A TOML value: a whole "string", a number or true/false, then at
    most a comment."""
    if value[:1] == '"':
        i = 1
        while i < len(value):
            c = value[i]
            if c == "\\":
                i += 2
                continue
            if c == '"':
                rest = value[i + 1:].strip()
                return not rest or rest[0] == "#"
            i += 1
        return False                    # unterminated
    bare = value.split("#")[0].strip()
    if bare in ("true", "false"):
        return True
    try:
        int(bare, 0)
        return True
    except ValueError:
        pass
    try:
        float(bare)             # CIRCUITPY_SAFE_MODE_DELAY = 0.0
        return True
    except ValueError:
        return False


def bad_lines(data):
    """(numbers of the lines of settings.toml's bytes that are not
    KEY = value, the JARMO_ keys no setting has)."""
    bad = []
    unknown = []
    number = 0
    for raw in data.split(b"\n"):
        number += 1
        try:
            line = raw.decode().strip()
        except UnicodeError:
            bad.append(number)
            continue
        if not line or line[0] == "#":
            continue
        key, eq, value = line.partition("=")
        key = key.strip()
        printable = True
        for c in line:
            if ord(c) < 32 and c != "\t":
                printable = False
        if not (eq and printable and _key_ok(key) and _value_ok(value.strip())):
            bad.append(number)
        elif key[:6] == "JARMO_" and key not in KEYS:
            unknown.append(key)
    return bad, unknown


def check_file(path, problems):
    """Name what is wrong in the file at path; False if it is not to be read at all."""
    try:
        size = os.stat(path)[6]
    except OSError:
        return True                     # none (a PC: the environment)
    if size > MAX_BYTES:
        problems.append("settings.toml: %d B: too big, not read" % size)
        return False
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        problems.append("settings.toml: unreadable")
        return False
    bad, unknown = bad_lines(data)
    for number in bad[:MAX_NAMED]:
        problems.append("settings.toml line %d: unreadable" % number)
    if len(bad) > MAX_NAMED:
        problems.append("settings.toml: %d more unreadable lines" % (len(bad) - MAX_NAMED))
    for key in unknown:
        problems.append("%s: no such setting" % key)
    return True


def board_id():
    """CircuitPython's id of this board, or None (a PC: board is Blinka's then,
    not to be imported before host/blinka.py sets it up)."""
    import sys
    if sys.implementation.name != "circuitpython":
        return None
    import board
    return getattr(board, "board_id", None)


def own_profile(board):
    """The first profile made for this board (the default one if it is among them)."""
    if profiles.PROFILES[profiles.DEFAULT]["board_id"] == board or board is None:
        return profiles.DEFAULT
    for name, prof in profiles.PROFILES.items():
        if prof["board_id"] == board:
            return name
    return profiles.DEFAULT


def _profile(problems, ok):
    board = board_id()
    own = own_profile(board)
    name = _getenv("JARMO_PROFILE", problems, ok)
    if name is None:
        return own
    if name not in profiles.PROFILES:
        problems += ["JARMO_PROFILE: %s" % str(name)[:20], "unknown, %s used" % own]
        return own
    made_for = profiles.PROFILES[name]["board_id"]
    if board is not None and made_for is not None and made_for != board:
        problems += ["JARMO_PROFILE: %s" % name, "another board's, %s used" % own]
        return own
    return name


def read(path=PATH):
    """(profile name, brightness cap, seed, trace, data folder, events,
    frames, problems) from settings.toml."""
    problems = []  # type: list[str]
    ok = check_file(path, problems)
    text = []
    for name, default in (("JARMO_DATA", ""), ("JARMO_EVENTS", ""), ("JARMO_FRAMES", "all")):
        value = _getenv(name, problems, ok)       # host only
        text.append(default if value is None else str(value))
    return (_profile(problems, ok),
            _number("JARMO_BRIGHTNESS", -1, -1, 255, problems, ok),     # -1: the profile's cap
            _number("JARMO_SEED", -1, -1, 0x3FFFFFFF, problems, ok),    # -1: random at power-up
            _number("JARMO_TRACE", 0, 0, 2, problems, ok),              # tests and benchmarks
            text[0], text[1], text[2],
            problems)

"""settings.toml, read once at start-up by code.py (then forgotten).

os.getenv reads settings.toml on CircuitPython (a bare number comes back as
an int, a quoted value as a str) and the environment on a PC (always a
str). CircuitPython's getenv quietly gives the default for a line it cannot
read, so the file's lines are checked too (hardware/settings_check.py: by
boot.py at power-up, its findings read back here). Whatever is wrong is named
in the problems, which the app shows at start-up (on the display, or a red
X on the LEDs), and the default is used: settings.toml never stops the game.

- a value that is wrong or out of range: "JARMO_SEED: not -1..1073741823, -1 used";
- a profile that is unknown, or made for another board: the board's own;
- a line that is not KEY = "text", KEY = number or KEY = true/false (an
  unterminated string, binary bytes, no "="): "settings.toml line 3: unreadable";
- a JARMO_ key that no setting has (a typo): "JARMO_BRIGTNESS: no such setting";
- a file over 4 KB: named, and nothing read from it (every default).
"""

import os


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
    # imported here, not at the top: boot.py takes stamp() and the report from
    # this module, and the profiles' import would add 7 ms to every power-up
    from hardware import profiles
    if profiles.PROFILES[profiles.DEFAULT]["board_id"] == board or board is None:
        return profiles.DEFAULT
    for name, prof in profiles.PROFILES.items():
        if prof["board_id"] == board:
            return name
    return profiles.DEFAULT


def _profile(board, problems, ok):
    from hardware import profiles
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


def _file_findings(path, problems):
    """What is wrong in the file's lines (into problems); False if it is not
    to be read at all. boot.py checked them at power-up and wrote what it
    found into /boot_out.txt: taken from there while the file is the one it
    checked, so the checker's code and names never enter this heap (every
    interned name stays in it). Checked here after an edit since power-up."""
    found = boot_report(stamp(path))
    if found is None:
        from hardware.settings_check import check_file
        return check_file(path, problems)
    problems += found[0]
    return found[1]


def stamp(path):
    """The file as boot.py's report names it: its size and time, or none."""
    try:
        st = os.stat(path)
    except OSError:
        return "none"
    return "%d %d" % (st[6], st[8])


def boot_report(file_stamp, report="/boot_out.txt"):
    """(problems, readable) from boot.py's report (the lines
    hardware/settings_check.report printed) if it names the file as it is
    now, else None. file_stamp: stamp(path), the file as it is now; report:
    the file boot.py's output went to. Read here (code.py) and by
    settings_check.report (boot.py, to repeat the last power-up's findings
    for the same file)."""
    try:
        with open(report) as f:
            lines = [line.rstrip() for line in f.read().split("\n")]    # CR LF there
    except (OSError, UnicodeError):
        return None
    if "jarmo settings.toml " + file_stamp not in lines:
        return None
    return ([line[15:] for line in lines if line[:15] == "jarmo problem: "],
            "jarmo unread" not in lines)


def read(path="/settings.toml"):
    """(profile name, brightness cap, seed, trace, data folder, events,
    frames, ms to dim, ms to go dark, ms dark before deep sleep, the idle
    CPU clock in MHz, problems) from settings.toml."""
    problems = []  # type: list[str]
    ok = _file_findings(path, problems)
    board = board_id()
    text = []
    for name, default in (("JARMO_DATA", ""), ("JARMO_EVENTS", ""), ("JARMO_FRAMES", "all")):
        # host only: not looked up on a board (each getenv there reads the file: 2.4 ms)
        value = _getenv(name, problems, ok and board is None)
        text.append(default if value is None else str(value))
    return (_profile(board, problems, ok),
            _number("JARMO_BRIGHTNESS", -1, -1, 255, problems, ok),     # -1: the profile's cap
            _number("JARMO_SEED", -1, -1, 0x3FFFFFFF, problems, ok),    # -1: random at power-up
            _number("JARMO_TRACE", 0, 0, 2, problems, ok),              # tests and benchmarks
            text[0], text[1], text[2],
            # the idle times, ms (hardware/power.py): 30 s to dim, 120 s to go dark
            _number("JARMO_DIM_S", 30, 0, 86400, problems, ok) * 1000,
            _number("JARMO_OFF_S", 120, 0, 86400, problems, ok) * 1000,
            # then, dark this long, deep sleep until a button (hardware/deepsleep.py)
            _number("JARMO_SLEEP_S", 600, 0, 86400, problems, ok) * 1000,
            # the CPU's clock while dark (hardware/cpuclock.py CpuClock; 0: unchanged)
            _idle_mhz(problems, ok),
            problems)


def _idle_mhz(problems, ok):
    mhz = _number("JARMO_IDLE_MHZ", 48, 0, 133, problems, ok)
    if mhz and not pll_makes(mhz):
        problems.append("JARMO_IDLE_MHZ: %d MHz no clock, 48 used" % mhz)
        return 48
    return mhz


def pll_makes(mhz):
    """True if an RP2040's PLL makes mhz from its 12 MHz crystal: a VCO of
    750 to 1600 MHz, a multiple of 12, divided by two post dividers of 1
    to 7 (the pico-sdk's check_sys_clock_khz; CircuitPython refuses the rest)."""
    for p1 in range(1, 8):
        for p2 in range(1, p1 + 1):
            vco = mhz * p1 * p2
            if 750 <= vco <= 1600 and vco % 12 == 0:
                return True
    return False

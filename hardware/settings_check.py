"""settings.toml's lines checked: checked by boot.py at power-up, which
prints what it finds into /boot_out.txt (report; an unchanged file's
findings are taken from the last power-up's report), and read there by
hardware/config.py, so that this code and its names never enter code.py's
heap; config.py runs the same check itself only when the file changed
after power-up, and on a PC.

CircuitPython rewrites /boot_out.txt only when what boot.py printed changed:
once after an edit of settings.toml (and it waits 1 s at that power-up
before writing it), never at an ordinary power-up.

A line must be KEY = "text", KEY = number or KEY = true/false; a JARMO_ key
must be one of KEYS; a file over 4 KB is not ours and is not read.
"""

import os

try:
    from micropython import const
except ImportError:
    def const(value):  # type: ignore[misc]  # CPython: as micropython's own behaves
        return value

_MAX_BYTES = const(4096)    # a settings.toml is a few lines; a larger one is not ours
_MAX_NAMED = const(3)       # unreadable lines named one by one; more are counted

KEYS = ("JARMO_PROFILE", "JARMO_BRIGHTNESS", "JARMO_SEED", "JARMO_TRACE", "JARMO_DATA",
        "JARMO_EVENTS", "JARMO_FRAMES", "JARMO_TRACE_FLASH", "JARMO_TRACE_BALLAST",
        "JARMO_TRACE_HEAP",
        "JARMO_DIM_S", "JARMO_OFF_S", "JARMO_SLEEP_S",     # the idle times: hardware/power.py
        "JARMO_IDLE_MHZ")                                   # and the idle clock



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
    if size > _MAX_BYTES:
        problems.append("settings.toml: %d B: too big, not read" % size)
        return False
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        problems.append("settings.toml: unreadable")
        return False
    bad, unknown = bad_lines(data)
    for number in bad[:_MAX_NAMED]:
        problems.append("settings.toml line %d: unreadable" % number)
    if len(bad) > _MAX_NAMED:
        problems.append("settings.toml: %d more unreadable lines" % (len(bad) - _MAX_NAMED))
    for key in unknown:
        problems.append("%s: no such setting" % key)
    return True


def report(path="/settings.toml"):
    """Print the check's findings as hardware/config.py reads them back from
    /boot_out.txt: the file's stamp, each problem, and whether it is read."""
    from hardware.config import boot_report, stamp
    file_stamp = stamp(path)
    # the file the last power-up checked (its size and time in that report,
    # /boot_out.txt, still there while boot.py runs): its findings again, not
    # the check (29 ms of the stock Pico's start-up); the same lines, so
    # CircuitPython does not rewrite boot_out.txt
    found = boot_report(file_stamp)
    if found is None:
        problems = []  # type: list[str]
        readable = check_file(path, problems)
    else:
        problems, readable = found
    print("jarmo settings.toml " + file_stamp)
    for line in problems:
        print("jarmo problem: " + line)
    if not readable:
        print("jarmo unread")

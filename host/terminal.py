"""The terminal as the handheld's buttons: raw keys, the profile's own
buttons, and a terminal always left as it was found.

Host only.
"""

import os
import signal
import sys

from adafruit_ticks import ticks_diff

from host.export import export_status
from host.pager import rules_pager
from jarmo import app_buttons as codes

_SEQUENCES = {
    b"\x1b[A": "up", b"\x1bOA": "up",
    b"\x1b[B": "down", b"\x1bOB": "down",
    b"\x1b[C": "right", b"\x1bOC": "right",
    b"\x1b[D": "left", b"\x1bOD": "left",
    b"\x1b[Z": "prev",
    b"\x1b[H": "home", b"\x1b[1~": "home", b"\x1bOH": "home",
    b"\x1b[F": "end", b"\x1b[4~": "end", b"\x1bOF": "end",
    b"\x1b[5~": "pgup", b"\x1b[6~": "pgdn",
}
_SINGLE = {
    b"\r": "select", b"\n": "select", b" ": "select",
    b"\t": "next", b"\x1b": "back", b"\x7f": "back", b"\x08": "back",
    b"m": "menu", b"n": "next", b"p": "prev", b"q": "quit", b"\x03": "interrupt",
}


def split_keys(data):
    """Bytes read from the terminal -> list of key names or single characters."""
    out = []
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"\x1b" and i + 1 < len(data):
            for seq, name in _SEQUENCES.items():
                if data.startswith(seq, i):
                    out.append(name)
                    i += len(seq)
                    break
            else:
                if data[i + 1:i + 2] in (b"[", b"O"):
                    # unknown sequence: skip to its final byte
                    j = i + 2
                    while j < len(data) and not (0x40 <= data[j] <= 0x7E):
                        j += 1
                    i = j + 1
                else:
                    out.append("back")
                    i += 1
            continue
        ch = data[i:i + 1]
        out.append(_SINGLE.get(ch, ch.decode("latin-1")))
        i += 1
    return out


class ProfileKeys:
    """The profile's physical buttons, fed through hardware.buttons.Buttons.

    A keypad.EventQueue stands in for keypad.Keys: pressing the label key
    records press + release, the upper-case label press now and release
    after the long-press time.
    """

    def __init__(self, profile):
        import keypad

        from hardware.buttons import Buttons

        class _Keys:
            events = keypad.EventQueue(32)

            def deinit(self):
                pass

        self.keys = _Keys()
        self.buttons = Buttons(profile, keys=self.keys)
        self.labels = self.buttons.labels
        self.long_ms = self.buttons.long_ms
        self.pending = []   # (release time, key number)

    def key(self, ch, now):
        """Handle a typed character; True if it was one of the profile's buttons."""
        q = self.keys.events
        if ch in self.labels:
            k = self.labels.index(ch)
            q.keypad_eventqueue_record(k, True)
            q.keypad_eventqueue_record(k, False)
            return True
        if ch.lower() in self.labels and ch != ch.lower():
            k = self.labels.index(ch.lower())
            q.keypad_eventqueue_record(k, True)
            self.pending.append((now + self.long_ms + 20, k))
            return True
        return False

    def poll(self, now, press):
        for item in list(self.pending):
            if ticks_diff(now, item[0]) >= 0:
                self.pending.remove(item)
                self.keys.events.keypad_eventqueue_record(item[1], False)
        return self.buttons.poll(now, press)


def open_how_to_play(app):
    """Open the app's own How to play (the device's menu item), if it has one; True if so."""
    how = getattr(app, "how_to_play", None)
    if how is None:
        return False
    how()
    return True


class TerminalInput:
    """Keyboard -> app.press; poll() waits up to idle_s for a key (the loop's only pause).

    Besides the buttons: ? opens the app's How to play (where the app has
    it, else the rules), r the rules (docs/RULES.md in a pager the next keys
    turn; Esc, q or ? close it), x exports the game as text into the data
    folder.
    """

    def __init__(self, fd, screen, profile_keys, idle_s=0.01, data=None, seed=None):
        self.fd = fd
        self.screen = screen
        self.profile_keys = profile_keys
        self.idle_s = idle_s
        self.data = data
        self.seed = seed

    def poll(self, now, press):
        """Hand every key that arrived to on_key(); False once the player quits."""
        import select
        if self.screen.resized and self.screen.count:   # the first screen waits for the app
            self.screen.draw()
        ready, _, _ = select.select([self.fd], [], [], self.idle_s)
        if ready:
            data = os.read(self.fd, 256)
            if not data:
                return False
            for name in split_keys(data):
                if name == "interrupt":
                    return False
                if self.screen.pager is not None:
                    self.pager_key(name)
                    continue
                if name == "quit":
                    return False
                self.on_key(name, now, press)
        if self.profile_keys is not None:
            self.profile_keys.poll(now, press)
        return True

    def on_key(self, name, now, press):
        if self.extra_key(name):
            return
        if name in codes.NAMES:
            press(codes.code(name), 0)
        elif self.profile_keys is None or not self.profile_keys.key(name, now):
            self.screen.status = "key %r does nothing here" % (name,)
            self.screen.draw()

    def show_pager(self, pager):
        """Show pager over the game, or the game again (None). While the game
        is out of sight the app knows it: the move timer stands still."""
        self.screen.pager = pager
        self.screen.resized = True
        app = self.screen.app
        if hasattr(app, "hidden"):
            # bit 2: the pager's own (the dark board's bit 1 stays as it is)
            app.hidden = (app.hidden | 2) if pager is not None else (app.hidden & ~2)
        self.screen.draw()

    def pager_key(self, name):
        """A key while the pager is shown: it turns the page or closes it."""
        if self.screen.pager.key(name):
            self.screen.draw()
        else:
            self.show_pager(None)

    def extra_key(self, name):
        """?, r and x; True if name was one of them."""
        if name == "?" and open_how_to_play(self.screen.app):
            self.screen.status = ""
            self.screen.draw()
            return True
        if name in ("?", "r"):
            self.show_pager(rules_pager())
            return True
        if name == "x":
            self.screen.status = export_status(self.screen.app, self.data, self.seed)
            self.screen.draw()
            return True
        return False


def _terminate(signum, frame):
    raise SystemExit(128 + signum)


class Terminal:
    """Raw keyboard, alternate screen; always restored (also on errors and SIGTERM)."""

    def __init__(self, fd, out):
        self.fd = fd
        self.out = out
        self.saved = None

    def __enter__(self):
        import termios
        import tty
        self.saved = termios.tcgetattr(self.fd)
        self._old_term = signal.signal(signal.SIGTERM, _terminate)
        tty.setcbreak(self.fd)
        attrs = termios.tcgetattr(self.fd)
        attrs[3] &= ~termios.ISIG  # Ctrl-C arrives as a key (quit), not as a signal
        termios.tcsetattr(self.fd, termios.TCSANOW, attrs)
        self.out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        self.out.flush()
        return self

    def __exit__(self, *exc):
        import termios
        try:
            self.out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
            self.out.flush()
        finally:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
            signal.signal(signal.SIGTERM, self._old_term)
        return False


# Python answers a C or POSIX locale (PEP 538) by setting LC_CTYPE to the
# first of these the system has, before any code runs: in its own environment
# and so in its children's (run.py's Python hands it on to the simulator's).
# Seen beside no LANG, or LANG C or POSIX, it is that C locale, not a choice.
COERCED = ("C.UTF-8", "C.utf8") + (("UTF-8",) if sys.platform == "darwin" else ())


def locale_is_utf8(env=None):
    """True when the locale the environment sets says UTF-8: the first of
    LC_ALL, LC_CTYPE and LANG that is set (as the C library reads them) names
    the UTF-8 codeset (C.UTF-8, en_US.utf8; macOS's LC_CTYPE=UTF-8). Unset,
    C, POSIX (also as Python coerced it: COERCED) or another codeset
    (en_US.ISO-8859-1, or en_US: Latin-1 on glibc) is not."""
    env = os.environ if env is None else env
    if not env.get("LC_ALL") and env.get("LC_CTYPE") in COERCED \
            and env.get("LANG", "") in ("", "C", "POSIX"):
        return False
    name = next((env[k] for k in ("LC_ALL", "LC_CTYPE", "LANG") if env.get(k)), "")
    name = name.partition("@")[0]
    codeset = name.partition(".")[2] if "." in name else name
    return codeset.lower().replace("-", "") == "utf8"


def unicode_ok(stream, env=None):
    """True when the terminal can show the Braille dots of the board's lines:
    the locale is UTF-8, the stream's encoding is UTF-8 and TERM is not one
    whose font has none (the Linux console, vt100, dumb).

    The locale is asked first: under a C or POSIX locale Python's UTF-8 mode
    (PEP 538/540) makes the stream UTF-8 all the same, while the terminal,
    which follows the locale, may not show UTF-8 at all."""
    env = os.environ if env is None else env
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    term = env.get("TERM", "")
    return locale_is_utf8(env) and encoding == "utf8" and \
        term not in ("linux", "vt100", "vt220", "dumb")


def can_redraw(env=None):
    """False for a terminal that cannot move its cursor nor clear its screen:
    TERM=dumb (an editor's shell buffer, a plain serial line) or no TERM at
    all, where the full-screen codes would print as garbage."""
    env = os.environ if env is None else env
    return env.get("TERM", "") not in ("", "dumb")

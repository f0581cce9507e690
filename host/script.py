"""--script FILE: the simulator without a terminal, for CI and bug reports.

Host only.  FILE (or - for stdin) holds one event a line (host/blinka.py:
button names, `p2 ...`, `wait MS`, `# comments`) and the words `quit`,
`export` and `rules`; they run on a virtual clock, and every screen that
changes is printed as plain text with the LED bytes in hex under it.
"""

import sys

from host import blinka
from host.export import export_path, home
from host.gamefiles import FileError, read_text
from host.screen import Screen
from host.terminal import open_how_to_play

WORDS = ("quit", "export", "rules")


def read_script(path):
    """The events of --script FILE (- for stdin); FileError saying what is wrong."""
    if path == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        if isinstance(data, bytes):
            try:
                data = data.decode("utf-8")
            except UnicodeError:
                data = "\0"
        if "\0" in data:
            raise FileError("--script -: standard input is not text")
        text = data
    else:
        text = read_text(path, "--script")
    try:
        return blinka.parse_events(text, extra=WORDS)
    except ValueError as err:
        raise FileError("--script %s: %s" % (path, err)) from err


class ScriptInput:
    """Events of a --script for the main loop; the word `export` exports the game."""

    def __init__(self, events, screen, data, seed):
        self.events = blinka.EventSource(events)
        self.screen = screen
        self.data = data
        self.seed = seed

    def poll(self, now, press):
        seen = len(self.events.words)
        going = self.events.poll(now, press)
        for word in self.events.words[seen:]:
            if word == "export":
                path = export_path(self.screen.app, self.data, self.seed)
                self.screen.status = path[1]
                if path[0]:
                    # on a line of its own: a narrow screen may have no room for the note
                    sys.stdout.write("export: %s\n" % path[0])
                self.screen.draw()
            elif word == "rules":
                open_how_to_play(self.screen.app)
        return going


def run_script(args, events, app, leds, text_display, profile, run, data, seed, drawing,
               notes=None):
    """Run the events through the main loop, printing every screen."""
    screen = Screen(app, leds, text_display, profile, sys.stdout,
                    notes=notes or ["Saves in " + home(data)], log=True, drawing=drawing)
    sys.stdout.write("Script: %d event(s) from %s; each screen that changes follows\n"
                     % (len(events), "stdin" if args.script == "-" else args.script))
    sys.stdout.write("AI seed %d (--seed %d plays this session again)\n" % (seed, seed))
    if getattr(args, "link", None):
        # linked to another program: its time is real, so this script's is too
        import time

        from adafruit_ticks import ticks_ms
        run(app, ScriptInput(events, screen, data, seed), leds, text_display, ticks_ms, screen,
            sleep=time.sleep)
        return 0
    run(app, ScriptInput(events, screen, data, seed), leds, text_display,
        blinka.VirtualClock(), screen)
    return 0

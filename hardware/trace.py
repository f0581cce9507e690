"""Device traces for tests and benchmarks (JARMO_TRACE in settings.toml).

Printed on the USB console, one line per event, each starting with "@@":

    @@BOOT free=N                 heap free after gc.collect() at code.py start
    @@STORE                       the saves are read next (nothing before
                                  this reads microcontroller.nvm: the device
                                  tests' warm boots start here)
    @@STATE name free=N pass_us=M ms=T poll_us=P   the app entered state
                                  `name`: heap free after gc.collect() (with
                                  JARMO_TRACE_HEAP = 1; else -1), the
                                  longest pass of the state before it, ms
                                  since code.py started, the longest wait
                                  between two polls of the buttons in the
                                  state before it (the longest a press waits)
    @@GAME k a1-c2 a5-b3 ...      the game's actions, at every state change
                                  while a game is on: the first k actions of
                                  the @@GAME line before (0 after a start, a
                                  new game, a takeback to the start), then
                                  those played since (a line costs the new
                                  actions, not the whole game's notation)
    @@AI ms=N free=N              one AI turn's thinking time, heap free after
                                  gc.collect() with the AI's search still held
                                  (JARMO_TRACE_HEAP = 1; else -1)
    @@TEXT line|line|...          the app's text changed (shown on a display,
                                  if there is one)
    @@LINK sent=N received=N bad=N noise=N refused=N latency=MS up=0|1
                                  at every state change once the link is in
                                  use (jarmo/link.py): frames sent and
                                  received, frames dropped by their CRC,
                                  noise bytes, turns refused, the last
                                  turn's ms from sending to its ACK
    @@LINKLOG text                a turn refused (by this board or the other),
                                  as the link logged it, when it happens
    @@FRAME v level hex           (JARMO_TRACE = 2) app.frame version v drawn
                                  at level 0..255: 75 bytes, RGB per point
    @@MAXPASS us state            a new longest pass after the first frame
    @@MAXPOLL us state            a new longest wait between two polls of the
                                  buttons after the first frame
    @@IDLE level ms=T             the idle level (hardware/power.py: 0 awake,
                                  1 dim, 2 dark) changed, ms since code.py started
    @@FLASH writes=N us=T compactions=C pass_us=P state
                                  (JARMO_TRACE_FLASH = 1) a pass that wrote the store's log
                                  (jarmo/store_log.py): N records appended and
                                  C compactions (each one sector erase), T us
                                  spent in them, the pass P us long in all
    @@BALLAST free=N              (JARMO_TRACE_BALLAST = "ai") the heap is
                                  filled when the AI begins to think (the
                                  turn before it saved), and
                                  again after every pass, to show that a
                                  MemoryError does not end the game

A pass, and the wait between two polls, are timed without the printing
and collecting done here, so the figures are those of the game alone.

The heap figures cost a collection each (16 ms on the stock Pico, whatever
the garbage: most of it is marking what lives), at every state change: in
a linked game that was 12 % of the boards' work, done on top of the main
loop's own collections. So they are taken only where a test or benchmark
reads them (JARMO_TRACE_HEAP = 1); otherwise free is -1, and the game
collects when the main loop would on a player's board.
"""

import gc
import time


def _ns():
    return time.monotonic_ns()


STARTED = _ns()     # code.py imports this module first thing when tracing


def _free():
    """Free heap after a collection (CircuitPython's gc has mem_free)."""
    gc.collect()
    return gc.mem_free()  # type: ignore[attr-defined]


class Probe:
    """Called by hardware.mainloop.run at the start and end of every pass."""

    def __init__(self, leds, frames=False, ballast=None, store=None, heap=False):
        self.leds = leds
        self.heap = heap            # collect and print the heap's free bytes (else -1)
        self.flash = [0, 0, 0]      # this pass: records appended, compactions, us in them
        if store is not None:
            self._time(store, "_append", 0)
            self._time(store, "step", 1)     # half a compaction a pass
        self.frames = frames
        self.ballast_state = ballast    # fill the heap when this state begins its work
        self.ballast = None
        self.start = STARTED        # times are ms since code.py started
        self.t0 = 0
        self.state = None
        self.state_max = 0
        self.max_pass = 0
        self.first_frame = False
        self.thinking_since = -1
        self.text_version = -1
        self.refused = 0            # the link's refusals already logged
        # the actions of the last @@GAME line, 2 bytes each (half a list's heap:
        # the heap tests read the free bytes with it held)
        self.shown = bytearray()
        self.last_poll = 0          # ns when the buttons were last polled (0: never)
        self.own = 0                # ns spent in end() since then (not the game's)
        self.state_poll = 0         # the longest wait between polls in this state, us
        self.max_poll = 0
        self.idle = None            # hardware.power.Idle, when code.py has one
        self.idle_level = 0

    def timed_poll(self, poll):
        """inputs.poll, timing the wait since the previous poll (what a press
        arriving just after it waits), less this probe's own printing."""
        def timed(now, press):
            t = _ns()
            if self.last_poll:
                us = (t - self.last_poll - self.own) // 1000
                if us > self.state_poll:
                    self.state_poll = us
                if self.first_frame and us > self.max_poll:
                    self.max_poll = us
                    print("@@MAXPOLL", us, self.state)
            self.own = 0
            self.last_poll = _ns()
            return poll(now, press)
        return timed

    def _time(self, store, name, slot):
        # the store's method, timed and counted per pass (an instance attribute
        # shadows the class's)
        real = getattr(store, name)
        flash = self.flash

        def timed(*args):
            t0 = _ns()
            try:
                return real(*args)
            finally:
                flash[slot] += 1
                flash[2] += (_ns() - t0) // 1000
        setattr(store, name, timed)

    def begin(self):
        self.t0 = _ns()

    def end(self, app, drawn, texted):
        t_end = _ns()
        us = (t_end - self.t0) // 1000
        self._end(app, drawn, texted, us)
        self.own += _ns() - t_end

    def _end(self, app, drawn, texted, us):
        idle = self.idle
        if idle is not None and idle.level != self.idle_level:
            self.idle_level = idle.level
            print("@@IDLE %d ms=%d" % (idle.level, (_ns() - self.start) // 1000000))
        flash = self.flash
        if flash[0] or flash[1]:
            print("@@FLASH writes=%d us=%d compactions=%d pass_us=%d %s" % (
                flash[0], flash[2], flash[1], us, app.state))
            flash[0] = flash[1] = flash[2] = 0
        if us > self.state_max:
            self.state_max = us
        if self.first_frame and us > self.max_pass:
            self.max_pass = us
            print("@@MAXPASS", us, app.state)
        state = app.state
        if state != self.state:
            if state == "ai" and not app.thinking:
                self._ai_line(us // 1000)     # answered in the pass that asked
            self._state(state)
            self._game(app)
            link = getattr(app, "link", None)
            if link is not None:
                print("@@LINK sent=%d received=%d bad=%d noise=%d refused=%d latency=%d up=%d" % (
                    link.sent, link.received, link.bad, link.noise, link.refused, link.latency,
                    link.up(app.now)))
        if self.ballast is not None:
            fill_heap(self.ballast)     # again each pass: what was freed is taken back
        elif state == self.ballast_state and not getattr(app, "unsaved", False):
            # the AI begins to think at its state's first tick, after the pass
            # that saves the turn before it (jarmo/app.py App.save_soon)
            self.ballast = fill_heap()
        self._ai(app)
        link = getattr(app, "link", None)
        if link is not None and link.refused != self.refused:
            self.refused = link.refused
            print("@@LINKLOG " + (link.log[-1] if link.log else "?"))
        if app.text_version != self.text_version:   # also without a display
            self.text_version = app.text_version
            print("@@TEXT " + "|".join(app.text))
        if drawn:
            if not self.first_frame:
                self.first_frame = True
                print("@@FIRSTFRAME ms=%d" % ((_ns() - self.start) // 1000000))
            if self.frames:
                print("@@FRAME", app.frame_version, self.leds.level, bytes(app.frame).hex())

    def _state(self, state):
        print("@@STATE %s free=%d pass_us=%d ms=%d poll_us=%d" % (
            state, self._heap_free(), self.state_max, (_ns() - self.start) // 1000000, self.state_poll))
        self.state = state
        self.state_max = 0
        self.state_poll = 0

    def _game(self, app):
        if app.game is None:
            return
        from jarmo.notation import action_text
        codes = app.game.history_codes()
        shown = self.shown
        kept = 0
        most = min(len(shown) // 2, len(codes))
        while kept < most and shown[2 * kept] << 8 | shown[2 * kept + 1] == codes[kept]:
            kept += 1
        now = bytearray(2 * len(codes))
        for i, code in enumerate(codes):
            now[2 * i] = code >> 8
            now[2 * i + 1] = code & 255
        self.shown = now
        print("@@GAME %d" % kept + "".join([" " + action_text(c) for c in codes[kept:]]))

    def _ai(self, app):
        thinking = app.thinking
        if thinking and self.thinking_since < 0:
            self.thinking_since = _ns()
        elif not thinking and self.thinking_since >= 0:
            self._ai_line((_ns() - self.thinking_since) // 1000000)
            self.thinking_since = -1

    def _ai_line(self, ms):
        print("@@AI ms=%d free=%d" % (ms, self._heap_free()))

    def _heap_free(self):
        return _free() if self.heap else -1


def fill_heap(ballast=None):
    """Allocate blocks until the heap is full and return the ballast that
    holds them (a one-slot list; pass it back to fill again). CircuitPython's
    heap grows into free RAM, so the filling goes on until even 16 bytes fail.
    The blocks are chained in pairs, never appended to a list: a list that
    must grow needs a larger array in one piece, and once none is left every
    append fails and the small holes stay free."""
    if ballast is None:
        print("@@BALLAST free=%d" % _free())
        ballast = [None]
    else:
        gc.collect()                # the pass's garbage too: nothing is left free
    size = 16384
    while size >= 16:
        try:
            ballast[0] = (bytearray(size), ballast[0])
        except MemoryError:
            size //= 2
    return ballast


def boot_line():
    print("@@BOOT free=%d" % _free())


def store_line():
    print("@@STORE")

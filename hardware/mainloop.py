"""The main loop shared by code.py (device and host replay) and the simulator.

Every pass starts by draining the buttons' events into app.press, so no
press waits longer than one step of work, whatever the state: the buttons
are polled at most one step apart.  Then the pass does one step:

  - a press came (or the first pass): app.draw(now) and the LEDs drawn at
    once (the answer to the press is lit in the pass that took it), the
    text taken; the state's own work (app.tick) waits for the next pass;
  - else a completed turn's save (App.save_soon), in a pass of its own
    (a linked turn's: in its press's pass, before it is lit, as the other
    board waits for it);
  - else the text display's step (hardware/display.py: a few characters
    drawn and sent over I2C), while it has one (every other pass while
    the game has work of its own: an AI thinks, a link is up);
  - else a step of a compaction of the saves (the app's store: a flash
    sector erased and written), while it has one;
  - else app.tick(now) (the AI thinks one slice), the LEDs and the text,
    then, in a pass of its own, one item of the preload.

After a pass that took a press or did a preload item, the next pass only
collects the garbage (when the program, hardware/program.py, passes gc.collect): the heap is swept
while the player looks at the answer, so a collection (about 16 ms on the
stock Pico) seldom falls into a press's pass or an AI slice on top of
their own work.

On the device keypad scans in the background and ticks_ms is the clock; on
the host the clock and the input decide the pace.

Sleeping (the device: the program passes time.sleep): while nothing is due
(app.busy is False: no AI thinking, no save in steps; nothing left to
preload) a pass starts at most every PERIOD ms, and the rest of the period
is slept, the CPU waiting for an interrupt, in naps of NAP ms that end
early when a key's event waits: buttons are answered within a nap, the
LEDs still animate at 25 passes a second (a breath looks smooth; the app
draws a still picture again only where a blink can change: jarmo/app.py),
and the CPU idles for most of a human's turn (the battery gains; an
emulator that skips waiting time runs at real time). Naps stay short: each
time.sleep on stock CircuitPython ends by spinning out its last part of the
1 ms tick (about half a tick, 60,000 cycles, on the emulated RP2040; Jarmo's
firmware sleeps it, at most a tick late: tools/firmware.py), so fewer naps
would save CPU but a press would wait longer for its answer. While the AI
thinks the loop runs flat out; while a linked board's turn is awaited
(jarmo/linkplay.py sets app.listening) the naps are LISTEN ms and the
cable's first byte ends them (the line's waiting()), so that turn shows
sooner, yet the CPU sleeps between the link's frames (a pass every LISTEN
ms kept a linked board busy 57 % of a game on the emulated stock QT Py).

Idle power (hardware/power.py, when the program passes an Idle): after a short
idle time the LEDs dim, after a longer one they go dark and the passes
start every OFF_PERIOD ms; the press that ends it only wakes the board.
Dark long enough (Idle.sleep_due), the board deep-sleeps (Idle.deep_sleep,
hardware/deepsleep.py), unless the link is in use.
"""

from adafruit_ticks import ticks_diff

from jarmo.app_buttons import KEY_DOWN  # or'ed into a key's code as it goes down (hardware/buttons.py)

try:
    from micropython import const
except ImportError:
    def const(value):  # type: ignore[misc]  # CPython: as micropython's own behaves
        return value

# const() names with a leading underscore are inlined where they are used:
# they take no global and no interned name (on a board running .mpy files
# from the drive every interned name stays in the heap)
_PERIOD = const(40)     # ms from the start of an idle pass to the next one: 25 frames a
                        # second (a breath looks smooth), the buttons polled within 50 ms
_LISTEN = const(5)      # ms a nap while a linked board's turn is awaited (app.listening,
                        # jarmo/linkplay.py): the cable's first byte ends the sleep within
                        # this, so the turn shows up to 15 ms sooner than after a _NAP
_OFF_PERIOD = const(45)  # ... while the LEDs are off: polls still at most 50 ms apart
_NAP = const(10)        # ms a nap: a press ends the sleep after at most this (inputs.waiting);
                        # shorter naps wake the CPU more often than an idle turn's budget allows
# the naps in seconds by the ms left (at most _NAP), made once: a float made
# in every pass would be garbage in every pass (and none can be made when RAM
# runs out); a float is a heap object here, so only the _NAP + 1 used
_NAPS = tuple(ms / 1000 for ms in range(_NAP + 1))
_GARBAGE = const(12288)  # bytes allocated since the heap was last swept: a pass of its own
                        # collects them. CircuitPython collected by itself after about 30 KB
                        # (in a pass's work or its naps: 16 to 19 ms on the stock Pico)
_HEAP_LOOK = const(8)   # passes between two looks at the heap's garbage (_garbage)
_PRELOADED = const(2)   # _other_step: a preload item was the pass's step
_AWAKE = const(0)       # hardware/power.py's levels (not imported: a board without
_OFF = const(2)         # idle power keeps that module out of its heap)


def run(app, inputs, leds, screen, clock, on_show=None, probe=None, preload=(), sleep=None,
        idle=None, collect=None, heap_free=None):
    """Run until inputs.poll() returns False (never, on the device).

    inputs.poll(now, press) -> bool delivers pending button events;
    leds.update(app) and screen.update(app) -> bool (screen may be None);
    clock() -> int milliseconds (adafruit_ticks.ticks_ms on the device);
    on_show(now, drawn, texted), if given, runs after a pass that changed
    the LEDs (a frame or an animation step) or the text.
    probe, if given (device traces, hardware/trace.py), has begin() called
    at the start of every pass and end(app, drawn, texted) at its end.
    preload: module names imported (or functions called) one per pass
    after the first, so that later state changes find their code loaded
    and their tables built (an import stalls a pass).
    sleep: time.sleep, to sleep out an idle pass's _PERIOD (None: never sleep);
    inputs.waiting() -> bool, if it has one, ends the sleep when a key's
    event waits.
    idle: a hardware.power.Idle (dims and darkens the LEDs), or None.
    collect: gc.collect, run in a pass of its own after a pass that took a
    press or did a preload item (None: never): the garbage is then swept while the player looks
    at the answer, not in the middle of the next press's pass or an AI
    slice (a collection takes about 16 ms on the stock Pico, and one that
    fell into such a pass held the buttons over 50 ms).
    heap_free: gc.mem_free (None: never looked at): once _GARBAGE bytes
    were allocated since the heap was last swept, a pass without work
    (app.busy: the AI's slices are left as they are) only collects, before
    CircuitPython collects by itself on top of a pass's work or its naps
    (a wait between polls of 56 to 86 ms measured in the dark).
    """
    naps = None if sleep is None else _NAPS
    pending = list(preload)
    pending.reverse()                   # pop() from the end takes them in order
    tick = app.tick
    poll = inputs.poll
    waiting = getattr(inputs, "waiting", None)
    draw = getattr(app, "draw", None)
    first = True
    pressed = [False]
    marked = [False]                    # a key went down in this pass (its tap comes at its release)
    level = _AWAKE
    now_of = [0]                        # the pass's clock reading, for press()
    litter = False                      # a press's pass left garbage: collect it next
    sweep = False                       # the heap's garbage is to be collected next pass
    shared = False                      # this pass, the display's steps give way to the game's
    heard = None                        # while listening: the line's waiting() (bytes came)

    app.looped = True                   # a completed turn's save waits for the next pass
    # bytes free at the last sweep (the most seen since), passes since the heap was looked at
    swept = [heap_free() if heap_free is not None else 0, 0]

    def press(button, seat):
        if idle is not None and idle.level != _AWAKE:
            # a press while the board is dark only wakes it; dimmed, it
            # brightens the board and acts
            was_dark = idle.wake(now_of[0])
            _wake(app, leds, screen)
            if was_dark:
                return True     # the whole press: a key's release or hold does nothing more
        if button < KEY_DOWN:
            pressed[0] = True
        else:
            marked[0] = True    # a key going down, its tap to come: lit by this pass's tick
        return app.press(button, seat)

    while True:
        if probe is not None:
            probe.begin()
        now = now_of[0] = clock()
        pressed[0] = marked[0] = False
        if not poll(now, press):
            if getattr(app, "unsaved", False):
                app.save()              # a turn's save that waited for this pass
            break
        drawn = texted = False
        if pressed[0] or marked[0]:
            worked = False
        elif getattr(app, "unsaved", False):
            # a completed turn's save, in the pass after it (jarmo/app.py
            # App.save_soon), before a collection or the display's steps: a
            # linked turn goes out once saved, and the other board waits
            tick(now)
            worked = True
        elif litter or sweep or (heap_free is not None and not app.busy and _garbage(heap_free, swept)):
            worked = True
            if idle is not None and getattr(idle.clock, "slowed", False):
                # a dark board sweeps at the full clock (2.6 times as long at
                # 48 MHz): this pass sets it (10 ms on stock), the next sweeps
                idle.pace(False)
                sweep = True
            else:
                collect()               # the press's garbage, or the heap's, in a pass of its own
                litter = sweep = False
                if heap_free is not None:
                    swept[0] = heap_free()
        else:
            # the preload waits for the first frame's pass (a board whose
            # first picture is dark has drawn one all the same)
            worked = _other_step(app, screen, tick, now, () if first else pending, shared)
            shared = not shared
            # a preload item's garbage (its import's or tables' making) too
            litter = worked == _PRELOADED and collect is not None
        if not worked:
            if pressed[0] and getattr(app, "unsaved", False) and getattr(app, "link", None) is not None:
                # a linked turn: saved and sent in this pass, as the other
                # board waits for it (App.tick), then lit
                tick(now)
            # the answer lit; the state's tick next pass (a key going down is
            # lit by the tick itself: the link's bytes are read in it, and a
            # linked turn waits for no pass of the key's own)
            if draw is not None and (pressed[0] or first):
                draw(now)
                first = False
            else:
                tick(now)
            if idle is not None:
                level = _idle_level(idle, app, leds, screen, now)
                if level == _OFF and idle.sleep_due(now) and getattr(app, "link", None) is None:
                    if getattr(app, "unsaved", False):
                        app.save()
                    # a deep sleep restarts code.py from here; a light sleep
                    # (USB attached) returns when a button woke the board
                    if idle.deep_sleep():
                        idle.wake(clock())
                        _wake(app, leds, screen)
                        level = _AWAKE
            if level != _OFF:
                drawn = leds.update(app)
            texted = screen.update(app) if screen is not None else False
            if on_show is not None and (drawn or texted or leds.animated):
                on_show(now, drawn, texted)
        if pressed[0] and collect is not None:
            litter = True
        if probe is not None:
            probe.end(app, drawn, texted)
        if naps is not None and not pending and not app.busy and not _has_step(app, screen):
            period = _OFF_PERIOD if level == _OFF else _PERIOD
            if getattr(app, "listening", False):
                nap = _LISTEN
                if heard is None:
                    heard = _line_waiting(app)
            else:
                nap = _NAP
                heard = None
            # naps, until the period is over, a key's event waits or (a
            # linked board awaiting the other's turn) the cable's bytes
            left = period - ticks_diff(clock(), now)
            while 0 < left <= _OFF_PERIOD:
                sleep(naps[nap if left > nap else left])
                if (waiting is not None and waiting()) or (heard is not None and heard()):
                    break
                left = period - ticks_diff(clock(), now)


def _other_step(app, screen, tick, now, pending, shared):
    """One step of work that is not the game's own pass (the display's, a
    compaction's, a preload item: _PRELOADED); False if there was none.
    shared: the display's steps give this pass to the game's own while it
    has work (every other pass): a text change takes a dozen passes on
    the OLED, and meanwhile the AI thinks and the link's bytes are read."""
    if screen is not None and screen.busy and not (shared and _has_work(app)):
        screen.step()                   # the text display's own pass
    elif _saving(app):
        tick(now)                       # a save's flash step, and nothing else this pass
    elif pending and not app.dirty:
        # in a pass of its own
        item = pending.pop()
        if isinstance(item, str):
            __import__(item)
        else:
            item()
        return _PRELOADED
    else:
        return False
    return True


def _garbage(heap_free, swept):
    """True once _GARBAGE bytes were allocated since the heap was last swept
    (by this loop or anyone: the most seen free since then counts). Looked
    at every _HEAP_LOOK passes: gc.mem_free() walks the whole heap (1 ms on
    the stock Pico, 2.5 at 48 MHz), and an idle pass makes little garbage."""
    swept[1] += 1
    if swept[1] < _HEAP_LOOK:
        return False
    swept[1] = 0
    free = heap_free()
    if free > swept[0]:
        swept[0] = free
    return swept[0] - free > _GARBAGE


def _line_waiting(app):
    """The link line's waiting() -> bool (bytes came), or a stand-in that
    says yes (a line that cannot tell: then a pass every nap)."""
    line = getattr(getattr(app, "link", None), "transport", None)
    return getattr(line, "waiting", _always)


def _always():
    return True


def _has_work(app):
    """The game's own pass has work: an AI thinks, a store compacts, or a
    linked game's bytes come and go."""
    return app.busy or getattr(app, "link", None) is not None


def _has_step(app, screen):
    return (screen is not None and screen.busy) or _saving(app)


def _idle_level(idle, app, leds, screen, now):
    """The idle level now (work keeps the board awake); the LEDs and the
    display follow a change."""
    if app.busy:
        idle.touch(now)
    idle.held = _linking(app)           # the link's bytes come at the full clock
    old = idle.level
    level = idle.update(now)
    if level != old:
        leds.dim(level)
        # a dark board hides the game: the move timer stands still (app_assist)
        app.hidden = (app.hidden | 1) if level == _OFF else (app.hidden & ~1)
        if screen is not None:
            screen.awake(level != _OFF)
    return level


def _linking(app):
    """The link is in use: a linked game is on (or kept: its last turn is
    on its way), or offered to the other board."""
    link = getattr(app, "link", None)
    return link is not None and (link.game is not None or app.state == "link")


def _wake(app, leds, screen):
    app.hidden &= ~1
    leds.dim(_AWAKE)
    if screen is not None:
        screen.awake(True)


def _saving(app):
    """True while the app's store has compaction steps to write (a step a pass)."""
    return getattr(getattr(app, "store", None), "busy", False)


def run_guarded(app, inputs, leds, screen, clock, on_show=None, probe=None, restart=None,
                preload=(), sleep=None, idle=None, collect=None, heap_free=None):
    """run(), but a MemoryError never ends the game.

    After one, app.recover() drops what can be rebuilt (the AI's search, the
    statistics, unloaded screens), collects garbage and resumes the game
    from its last save (saved after every turn).  A second MemoryError
    within a few seconds calls restart() (supervisor.reload on the device:
    code.py starts afresh and offers Resume), or re-raises without one.
    """
    import gc
    last = None
    while True:
        try:
            return run(app, inputs, leds, screen, clock, on_show, probe, preload, sleep, idle,
                       collect, heap_free)
        except MemoryError:
            gc.collect()
            now = clock()
            again = last is not None and ticks_diff(now, last) < 5000
            last = now
            try:
                print("jarmo: out of memory; resuming the saved game")
                if not again:
                    app.recover()
                    gc.collect()
                    continue
            except MemoryError:
                gc.collect()
            if restart is None:
                raise
            restart()
            return None

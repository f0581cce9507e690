"""The main loop shared by code.py (device and host replay) and the simulator.

One pass: drain input events into app.press, app.tick(now), then bring the
LEDs and the text display up to date (each only when its version changed).
Two kinds of work take a pass of their own, so that no pass carries two
heavy steps (60 ms a pass on Jarmo's firmware): the text display's (a
board's OLED: a changed line drawn and sent over I2C, up to about 25 ms)
and a step of a compaction of the saves (the app's store: a flash sector
erased and written, about 53 ms on an RP2040); input waits in keypad's
queue.  On the device keypad scans in the background and ticks_ms is the
clock; on the host the clock and the input decide the pace.

Sleeping (the device: code.py passes time.sleep): while nothing is due
(app.busy is False: no AI thinking, no save in steps; nothing left to
preload) a pass starts at most every PERIOD ms, and the rest of the period
is slept, the CPU waiting for an interrupt: buttons are answered within a
period, the LEDs still animate at 50 passes a second (the app redraws every
32 ms at most), and the CPU idles for most of a human's turn (the battery
gains; an emulator that skips waiting time runs at real time). While the AI
thinks the loop runs flat out; while a linked board's turn is awaited
(jarmo/linkplay.py sets app.listening) a pass starts every LISTEN ms, so
that turn shows sooner.
"""

from adafruit_ticks import ticks_diff

PERIOD = 20         # ms from the start of an idle pass to the next one
LISTEN = 5          # ... while a linked board's turn is awaited (app.listening,
                    # jarmo/linkplay.py): it shows up to 15 ms sooner
# the naps in seconds by the ms left, made once: a float made in every pass
# would be garbage in every pass (and none can be made when RAM runs out)
_NAPS = tuple(ms / 1000 for ms in range(PERIOD + 1))


def run(app, inputs, leds, screen, clock, on_show=None, probe=None, preload=(), sleep=None):
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
    sleep: time.sleep, to sleep out an idle pass's PERIOD (None: never sleep).
    """
    naps = None if sleep is None else _NAPS
    pending = list(preload)
    pending.reverse()                   # pop() from the end takes them in order
    press = app.press
    tick = app.tick
    poll = inputs.poll
    while True:
        if probe is not None:
            probe.begin()
        if screen is not None and screen.busy:
            screen.step()               # the text display's own pass
            if probe is not None:
                probe.end(app, False, False)
            continue
        now = clock()
        if _saving(app):
            tick(now)                   # a save's flash step, and nothing else this pass
            if probe is not None:
                probe.end(app, False, False)
            continue
        if not poll(now, press):
            break
        tick(now)
        drawn = leds.update(app)
        texted = screen.update(app) if screen is not None else False
        if on_show is not None and (drawn or texted or leds.animated):
            on_show(now, drawn, texted)
        if pending:
            item = pending.pop()
            if isinstance(item, str):
                __import__(item)
            else:
                item()
        if probe is not None:
            probe.end(app, drawn, texted)
        if naps is not None and not pending and not app.busy:
            period = LISTEN if getattr(app, "listening", False) else PERIOD
            left = period - ticks_diff(clock(), now)
            if 0 < left <= PERIOD:
                sleep(naps[left])


def _saving(app):
    """True while the app's store has compaction steps to write (a step a pass)."""
    return getattr(getattr(app, "store", None), "busy", False)


def run_guarded(app, inputs, leds, screen, clock, on_show=None, probe=None, restart=None,
                preload=(), sleep=None):
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
            return run(app, inputs, leds, screen, clock, on_show, probe, preload, sleep)
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

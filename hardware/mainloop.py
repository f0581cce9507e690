"""The main loop shared by code.py (device and host replay) and the simulator.

One pass: drain input events into app.press, app.tick(now), then bring the
LEDs and the text display up to date (each only when its version changed).
The loop never sleeps: on the device keypad scans in the background and
ticks_ms is the clock; on the host the clock and the input decide the pace.
"""


def run(app, inputs, leds, screen, clock, on_show=None):
    """Run until inputs.poll() returns False (never, on the device).

    inputs.poll(now, press) -> bool delivers pending button events;
    leds.update(app) and screen.update(app) -> bool (screen may be None);
    clock() -> int milliseconds (adafruit_ticks.ticks_ms on the device);
    on_show(now, drawn, texted), if given, runs after a pass that changed
    the LEDs (a frame or an animation step) or the text.
    """
    press = app.press
    tick = app.tick
    poll = inputs.poll
    while True:
        now = clock()
        if not poll(now, press):
            break
        tick(now)
        drawn = leds.update(app)
        texted = screen.update(app) if screen is not None else False
        if on_show is not None and (drawn or texted or leds.animated):
            on_show(now, drawn, texted)

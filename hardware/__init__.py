"""Hardware layer: CircuitPython APIs (neopixel, keypad, displayio) around jarmo.App.

Device modules: profiles, pixelmap, leds, buttons, display, mainloop.
Host-only modules (never copied to the board): host, sim.
"""

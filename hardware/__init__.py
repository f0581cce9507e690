"""Hardware layer: CircuitPython APIs (neopixel, keypad, displayio) around jarmo.App.

Modules: profiles, leds (with the pixel map), buttons, display, mainloop,
trace.  Everything here goes on the board; the host side (terminal
simulator, Blinka helpers) lives in host/.
"""

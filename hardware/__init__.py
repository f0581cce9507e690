"""Hardware layer: CircuitPython APIs (neopixel, keypad, displayio) around jarmo.App.

Modules: program (what code.py runs: start-up, then the main loop),
profiles (the boards), config (settings.toml's values),
settings_check (its lines, checked by boot.py), leds (with
the pixel map), buttons, display (the text), oled (the OLED, made at
start-up), mainloop, flash (where the saves' log
lives), link (the link cable's UART), power (dim and dark when idle), deepsleep
(until a button), trace (the device tests' console
lines).  Everything here goes on the board; the host side (terminal
simulator, Blinka helpers) lives in host/.
"""

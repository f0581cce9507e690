"""Hardware layer: CircuitPython APIs around jarmo.App. Everything here goes
on the board (the PC's side is host/). Modules: program (what code.py runs),
startup (before the main loop), profiles (the boards), config
(settings.toml), settings_check (boot.py's check), leds, buttons, display
(the text), oled, mainloop, flash (where the log lives), link (the cable's
UART), power (dim and dark), cpuclock (the clock while dark), deepsleep,
trace (the device tests' lines).
"""

"""Jarmo, the handheld: the CircuitPython program.

Settings come from settings.toml (see device/settings.toml): JARMO_PROFILE
names a board profile in hardware/profiles.py.  Buttons go to jarmo.App,
whose frame and text are drawn on the 5x5 NeoPixel grid and the display.
The program is hardware/program.py: CircuitPython compiles this file from
its source at every start (the whole program took 67 ms), that module
comes frozen into Jarmo's firmware, or as a .mpy file.

The same file runs on a PC (CPython + Adafruit Blinka) to replay a file of
button events without hardware, printing every frame and the status text:

    JARMO_PROFILE=host JARMO_EVENTS=game.txt \
        python -c "import runpy; runpy.run_path('code.py', run_name='__main__')"

(`import code` would find the standard library's module, hence runpy.)
Host settings: JARMO_EVENTS (a file, or - for stdin), JARMO_FRAMES
(all | last | none), JARMO_DATA (the folder of jarmo.nvm, the saves), JARMO_SEED.
JARMO_TRACE (1, or 2 with every frame) prints hardware/trace.py's lines on
the console, for the device tests and benchmarks.
"""

import sys

ON_HOST = sys.implementation.name != "circuitpython"
if ON_HOST:
    # a PC: Blinka's simulated board is set up before anything imports board
    from host import blinka

from hardware.program import main  # noqa: E402  (after Blinka, on a PC)

main(blinka if ON_HOST else None)

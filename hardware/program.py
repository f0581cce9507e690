"""The handheld's program: what code.py runs (code.py itself only calls
main(): CircuitPython compiles code.py from its source at every start, 67 ms
for this program on the emulated RP2040, while this module comes frozen
into Jarmo's firmware or compiled as a .mpy file on stock CircuitPython).

main() runs hardware/startup.py's setup() (the settings, the board, the
App), lets that module go (its code is heap on stock CircuitPython: about
2 KB kept free for the game), then runs the main loop
(hardware/mainloop.py). Buttons go to jarmo.App, whose frame and text are
drawn on the 5x5 NeoPixel grid and the display. On a PC (JARMO_PROFILE=host,
code.py run by runpy) the same main() replays a file of button events
without hardware, with host/blinka.py given by code.py, as its docstring
says.
"""

import gc

from jarmo.unload import forget_module


def restart():
    """Start code.py afresh (after repeated MemoryErrors); it resumes the game."""
    import supervisor  # built in: its import takes no heap
    supervisor.reload()


def link_line(profile, idle):
    """App's opener of the link cable's UART (hardware/link.py), called when
    link play is first chosen (App.get_link), as jarmo.link is loaded: a game
    against the AI keeps neither the UART's buffer nor their code in the heap."""
    def line():
        from hardware.link import make_line
        made = make_line(profile)
        if made is not None:
            idle.retime = made.retime       # a clock change moves its baud rate
        return made
    return line


def deep_sleeper(inputs, profile):
    """Idle's sleep, dark for JARMO_SLEEP_S: until a button (hardware/deepsleep.py,
    imported only now; after a light sleep, off the heap again)."""
    def sleeper():
        from hardware.deepsleep import sleep_until_pressed
        woke = sleep_until_pressed(inputs, profile)
        forget_module("hardware.deepsleep")
        return woke
    return sleeper


def tables_of(rules):
    """A preload item (hardware/mainloop.py): the board tables of a rule set."""
    def build():
        from jarmo.game import prepare_tables
        prepare_tables(rules)
    return build


def main(host=None):
    """The program. host: on a PC, host/blinka.py (the simulated board, the
    button events, the frames printed), which code.py imports there before
    anything imports `board`; None on a board."""
    from hardware import startup
    (app, inputs, leds, screen, clock, on_show, probe, preload, sleep, idle,
     on_host) = startup.setup(host)
    del startup
    forget_module("hardware.startup")               # used once: its code off the heap
    gc.collect()
    from hardware.mainloop import run_guarded

    # ----------------------------------------------------------------------------
    # Main loop (hardware/mainloop.py: the simulator runs the very same function)
    # ----------------------------------------------------------------------------
    try:
        run_guarded(app, inputs, leds, screen, clock, on_show, probe,
                    restart=None if on_host else restart, preload=preload,
                    sleep=sleep, idle=idle,
                    collect=None if on_host else gc.collect,
                    heap_free=None if on_host else gc.mem_free)  # type: ignore[attr-defined]
    finally:
        if on_host:
            on_show.finish()
            leds.pixels.deinit()

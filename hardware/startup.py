"""The handheld's start-up: everything code.py does before the main loop
(hardware/program.py's main() calls setup(), then lets this module go: on
stock CircuitPython a module's code is heap, and this one is needed once).

Settings come from settings.toml (see device/settings.toml): JARMO_PROFILE
names a board profile in hardware/profiles.py. On a PC (JARMO_PROFILE=host,
code.py run by runpy) the same setup() makes a board of host/blinka.py,
which code.py passes as `host`.
"""

import os
import sys

from jarmo.unload import forget_module


def random_seed():
    """A seed for the AI's dice: hardware randomness when there is some."""
    try:
        return int.from_bytes(os.urandom(4), "big") & 0x3FFFFFFF
    except (AttributeError, NotImplementedError):
        return 0


def reloaded_by_us():
    """True when restart() started this run, or a button woke the board from
    its deep sleep (hardware/deepsleep.py): then the saved game goes on at once."""
    try:
        import alarm    # built in, as supervisor: their imports take no heap
        if alarm.wake_alarm is not None:
            return True
    except ImportError:
        pass
    try:
        import supervisor
        return supervisor.runtime.run_reason == supervisor.RunReason.SUPERVISOR_RELOAD
    except AttributeError:
        return False


def setup(host=None):
    """Everything before the main loop; what it needs, for
    hardware/program.py's main(): (app, inputs, leds, screen, clock,
    on_show, probe, preload, sleep, idle, on_host). host: on a PC,
    host/blinka.py (the simulated board, the button events, the frames
    printed), which code.py imports there before anything imports `board`;
    None on a board."""
    # Everything below runs inside this function: its names are locals,
    # which take no interned name (every one stays in the heap of a board
    # that runs .mpy files from the drive) and no globals' slot.
    from hardware import config
    (PROFILE_NAME, BRIGHTNESS_CAP, SEED, TRACE, DATA_ROOT, EVENTS, FRAMES, DIM_MS, OFF_MS,
     SLEEP_MS, IDLE_MHZ, SETTING_PROBLEMS) = config.read()
    del config
    forget_module("hardware.config")                # used once: off the heap
    if TRACE:
        from hardware import trace
        trace.boot_line()

    # ----------------------------------------------------------------------------
    # Setup
    # ----------------------------------------------------------------------------
    from hardware import profiles  # noqa: E402

    profile = profiles.get(PROFILE_NAME)
    ON_HOST = PROFILE_NAME == "host"
    # the LEDs' power switch (a MOSFET), for idle power below
    led_switch = None if ON_HOST else profiles.led_switch(profile)
    if ON_HOST:
        if host is None:
            raise SystemExit("JARMO_PROFILE=host: code.py runs it on a PC (host/blinka.py)")
    else:
        import supervisor  # noqa: E402, F401  (imported now: restart() runs when RAM is short)

        # the other profiles and the module's code are not needed again: about
        # 2.9 KB of heap when the code is in RAM (stock CircuitPython, .mpy files)
        del profiles
        forget_module("hardware.profiles")

    import adafruit_ticks  # noqa: E402

    from jarmo.app import App  # noqa: E402
    from hardware.leds import make_leds  # noqa: E402
    import hardware.mainloop  # noqa: E402, F401  (loaded before the first frame, as the AI's modules)
    from hardware import flash  # noqa: E402

    leds = make_leds(profile, BRIGHTNESS_CAP, host.capturing_neopixel() if ON_HOST else None)
    screen = None
    display = None
    if profile["display"] is not None or ON_HOST:
        # the display stack (displayio, the text's TileGrid, hardware/display.py:
        # about 2.8 KB of heap) only for boards that have a display; the host
        # keeps the text off-screen. The display is made here, and lit with
        # the App's first text before the first frame (below): in a pass of
        # its own after it, the OLED's first refresh held a pass over budget.
        from hardware.display import TextDisplay  # noqa: E402
        screen = TextDisplay()
        if not ON_HOST:
            from hardware import oled  # noqa: E402
            display = oled.make_display(profile["display"])

    # idle power (hardware/power.py): the LEDs dim, then go dark (JARMO_DIM_S, JARMO_OFF_S),
    # then deep sleep (JARMO_SLEEP_S); the CPU's clock lower meanwhile (JARMO_IDLE_MHZ)
    from hardware import power  # noqa: E402
    idle = power.Idle(DIM_MS, OFF_MS, led_switch, SLEEP_MS, 0 if ON_HOST else IDLE_MHZ)
    del led_switch
    del power
    # the functions the game keeps (the link's opener, the deep sleep) are
    # made in hardware/program.py: one made here would keep this module's
    # code in the heap (a function holds its module's globals)
    from hardware.program import deep_sleeper, link_line, tables_of  # noqa: E402
    line = None
    if not ON_HOST and profile["link"]:
        line = link_line(profile, idle)
    from jarmo.app import PRELOAD, STARTUP  # noqa: E402

    # the board's tables too: a first Game() of a kind would build them (45 ms).
    # They come first: once jarmo.ai is in, the menu builds the AI's tables
    # (2.2 KB a game kind) half a pass at a time, for the kind of the game it
    # would start or resume (jarmo.app_menu.Menu.tick), and a preload step in
    # the same pass would take it over the 100 ms pass budget.
    # The AI's modules from .mpy files (stock CircuitPython) are imported before
    # the first frame: an import cannot be split, and jarmo.ai's took 60 ms on
    # the stock Pico, more than a pass may hold the buttons (50 ms). Frozen into
    # Jarmo's firmware (no such file on the drive) each takes a pass of its own
    # after the first frame, which comes 50 ms sooner for it.
    later = ()  # type: tuple[str, ...]
    if not ON_HOST:
        try:
            os.stat(sys.modules["jarmo.app"].__file__ or "")
        except OSError:
            later = PRELOAD
        for name in PRELOAD[:len(PRELOAD) - len(later)]:
            __import__(name)
        # and what App() imports as it starts: the menu's modules
        for module in STARTUP:
            __import__(module)
        from hardware.buttons import Buttons  # noqa: E402
        inputs = Buttons(profile)

    # Everything above is the same at every start; the saves are read next
    # (a test's emulator boots again from here, with other saves: warm boots).
    # A game's screens are loaded with jarmo.app and stay; the menu and the rare
    # screens come and go (jarmo/app.py).
    if TRACE:
        trace.store_line()
    if ON_HOST:
        store, store_problems = flash.open_store(os.path.join(DATA_ROOT, "jarmo.nvm"), DATA_ROOT,
                                                 use_nvm=False)
    else:
        store, store_problems = flash.open_store()
    del flash
    forget_module("hardware.flash")                 # used once: off the heap
    app = App(store=store, has_display=screen is not None,
              tabletop=profile["tabletop"], seed=SEED if SEED >= 0 else random_seed(),
              problems=SETTING_PROBLEMS + store_problems, line=line)
    RESTARTED = not ON_HOST and reloaded_by_us()
    if RESTARTED:
        app.resume_saved()
    if screen is not None and display is not None:
        # the first picture on the OLED is the board's state (the menu, or
        # the game a button woke), sent whole at once, then the panel lit
        screen.attach(display, app)
        oled.switch_on(display)
        del oled, display
        forget_module("hardware.oled")              # used once: off the heap
    # (a forward rule set's, jasyr's, are built by the menu's passes when its
    # game is the one the menu would start: jarmo/app_menu.py Menu.tick)
    PRELOAD_ALL = () if ON_HOST else (tables_of("standard"),) + later

    if ON_HOST:
        if not EVENTS:
            raise SystemExit("code.py on a PC replays button events: set JARMO_EVENTS to a "
                             "file (or -), or run the simulator: python3 run.py play")
        if EVENTS == "-":
            inputs = host.EventSource(host.parse_events(sys.stdin.read()))
        else:
            inputs = host.EventSource.from_file(EVENTS)
        clock = host.VirtualClock()
        on_show = host.FramePrinter(leds, screen, profile, FRAMES, app=app)
    else:
        from time import sleep  # noqa: E402  (an idle pass sleeps out its period)
        clock = adafruit_ticks.ticks_ms
        on_show = None

        idle.sleeper = deep_sleeper(inputs, profile)

    probe = None
    if TRACE:
        # the ballast test fills the heap once a power-up, not again after restart()
        # JARMO_TRACE_FLASH: time every write of the store (tools/bench_flash.py);
        # JARMO_TRACE_HEAP: the heap's free bytes at every state, each after a collection
        probe = trace.Probe(leds, frames=TRACE >= 2,
                            store=store if os.getenv("JARMO_TRACE_FLASH") else None,
                            heap=bool(os.getenv("JARMO_TRACE_HEAP")),
                            ballast=None if RESTARTED else os.getenv("JARMO_TRACE_BALLAST"))
        probe.idle = idle
        # (the trace times every poll; the type checker sees Buttons' method)
        inputs.poll = probe.timed_poll(inputs.poll)  # type: ignore[method-assign]

    return (app, inputs, leds, screen, clock, on_show, probe, PRELOAD_ALL,
            None if ON_HOST else sleep, idle, ON_HOST)

"""Where the game keeps its log (jarmo/store_log.py): microcontroller.nvm.

nvm is flash of its own outside the CIRCUITPY drive, writable whatever
boot.py did to the drive: one 4 KB sector on every RP2040 board with stock
CircuitPython, two on Jarmo's firmware (the store uses both). A board
without one, or with less than the log needs, keeps the same log in
FALLBACK, a file on the drive (jarmo/store_flash.py), and then needs boot.py
to make the drive writable for the program.
"""

FALLBACK = "/jarmo.nvm"
NEEDED = 4096       # bytes: settings, statistics, campaign and a long game, with room


def nvm():
    """microcontroller.nvm if the log fits in it, else None."""
    try:
        import microcontroller
        sector = microcontroller.nvm
    except (ImportError, AttributeError):
        return None
    if sector is None or len(sector) < NEEDED:
        return None
    return sector


def open_store(path=FALLBACK, root="/", use_nvm=True):
    """(store, problems): the store on nvm (use_nvm, and the board has one)
    or on the file at path, with the older saves found under root imported
    into it once (jarmo/store_legacy.py); problems names what could not be.
    store is None when neither can be written: the game runs unsaved."""
    import sys

    from jarmo.store_log import R_IMPORTED, Store
    from jarmo.unload import forget_module
    try:
        sector = nvm() if use_nvm else None
        if sector is None:
            from jarmo.store_flash import FileNvm
            sector = FileNvm(path)
        store = Store(sector)
    except OSError:
        return None, ["saves: the drive is read-only, nothing is saved"]
    problems = []
    if store.read(R_IMPORTED) is None:
        loaded = list(sys.modules)
        from jarmo.store_legacy import import_once
        problems = import_once(store, root)
        for name in list(sys.modules):      # used once: off the heap again
            if name not in loaded:
                forget_module(name)
    return store, problems

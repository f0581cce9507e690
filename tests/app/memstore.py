"""An in-memory store for the app tests: the real jarmo.storage.Store on a
flash sector kept in RAM (jarmo.flashfile.Flash). Runs under MicroPython too."""

from jarmo.flashfile import Flash
from jarmo.storage import Store


def MemoryStore(flash=None):
    """A Store on flash (a new, erased Flash by default)."""
    return Store(Flash() if flash is None else flash)


def reboot(store):
    """The same flash read afresh, as after a power cycle."""
    return Store(store.nvm)

"""An in-memory store for the app tests: the real jarmo.store_log.Store on a
flash sector kept in RAM (jarmo.store_flash.Flash). Runs under MicroPython too."""

from jarmo.store_flash import Flash
from jarmo.store_log import Store


def MemoryStore(flash=None):
    """A Store on flash (a new, erased Flash by default)."""
    return Store(Flash() if flash is None else flash)


def reboot(store):
    """The same flash read afresh, as after a power cycle."""
    return Store(store.nvm)

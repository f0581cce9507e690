"""An in-memory Store for the app tests (runs under MicroPython too)."""

from jarmo.storage import unwrap, wrap


class MemoryStore:
    """Store's read/write/set_aside/delete kept in a dict of stored texts."""

    busy = False            # writes finish at once: nothing for step()
    problem = None

    def __init__(self):
        self.files = {}
        self.error = None

    def step(self):
        return False

    def flush(self, raise_errors=False, name=None):
        pass

    def prepare(self, names):
        pass

    def read(self, name):
        self.error = None
        stored = self.files.get(name)
        if stored is None:
            return None
        try:
            return unwrap(stored)
        except ValueError as e:
            self.error = "%s: %s" % (name, e.args[0] if e.args else "bad")
            return None

    def write(self, name, text):
        self.files[name] = wrap(text)

    def set_aside(self, name):
        if name in self.files:
            self.files[name + ".bad"] = self.files.pop(name)

    def delete(self, name):
        self.files.pop(name, None)

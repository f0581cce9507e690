# Letting a module's code go: on MicroPython a module's bytecode lives in
# RAM, so code needed rarely (a screen, a compaction) is loaded for its use
# and forgotten after.


def forget_module(name):
    """Forget a module ("jarmo.store_stats") so its code can be collected
    (MicroPython RAM): out of sys.modules and off its package."""
    import sys
    mod = sys.modules.pop(name, None)
    package, _, short = name.rpartition(".")
    pkg = sys.modules.get(package)
    if mod is not None and getattr(pkg, short, None) is mod:
        delattr(pkg, short)

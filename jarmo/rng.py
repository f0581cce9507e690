# Rng: a tiny seeded PRNG that gives the same numbers on every interpreter.
#
# `random` differs between CPython, MicroPython and CircuitPython (and
# CircuitPython has no random.Random), so the AI draws its tie-breaks from
# this generator instead.  It is a xorshift generator on a 30-bit state:
#
#     x ^= x << 7  (kept to 30 bits)
#     x ^= x >> 9
#     x ^= x << 10 (kept to 30 bits)
#
# The shift triple (7, 9, 10) was checked to give the full period 2**30 - 1
# (the step's matrix over GF(2) has that order; tools/bench_ai.py does not
# re-check it, tests/core/test_ai.py checks a few known values).  Every value
# stays below 2**30, a small int on a 32-bit MicroPython port, so a step
# allocates nothing; the masks are applied *before* each left shift for the
# same reason.

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

_MASK = const(0x3FFFFFFF)
_MASK_A = const(0x7FFFFF)    # _MASK >> 7
_MASK_C = const(0xFFFFF)     # _MASK >> 10


# Seeded 30-bit xorshift: rng.next() in 1 .. 2**30 - 1, rng.below(n) in 0 .. n-1.
class Rng:
    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed):
        # Any int seed; reduced once (a big int on MicroPython only here).
        x = (seed % _MASK) ^ 0x2545F49
        if not x:
            x = 0x1234567
        self.state = x & _MASK or 1
        for _ in range(4):
            self.next()

    def next(self):
        x = self.state
        x ^= (x & _MASK_A) << 7
        x ^= x >> 9
        x ^= (x & _MASK_C) << 10
        self.state = x
        return x

    def below(self, n):
        """A number in 0 .. n-1 (n >= 1); the modulo bias is below n / 2**30."""
        return self.next() % n

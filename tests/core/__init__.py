"""Core tests: plain functions and asserts, no pytest import.

pytest runs them on CPython; tests/test_core_on_micropython.py runs every
test_*.py here under MicroPython 1.27 with tests/micropython/mptest.py.
"""

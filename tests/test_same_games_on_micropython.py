"""The same seeds give the same games on CPython and on MicroPython 1.27."""

from tests.core.random_games import digest
from tests.micropython import mp


def test_random_games_of_every_mix_give_the_same_digest_on_both_interpreters():
    mp.require_micropython()
    expected = digest(games_per_mix=4)
    rc, out, err = mp.run_micropython(
        ["from tests.core.random_games import digest; print('digest', digest(4))"])
    assert rc == 0, err
    assert out.split()[-1] == expected, (out, expected)

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


def book_file_items(path="/jarmo/book.bin", chunk=16000):
    """Snippets that write the shipped opening book into MicroPython's file
    system (the runner copies only .py files), chunk bytes a call."""
    import os

    with open(os.path.join(mp.ROOT, "jarmo", "book.bin"), "rb") as f:
        data = f.read()
    items = []
    for k in range(0, len(data), chunk):
        items.append("f = open(%r, %r); f.write(bytes.fromhex(%r)); f.close()"
                     % (path, "wb" if k == 0 else "ab", data[k:k + chunk].hex()))
    return items


def test_level_4_with_its_book_and_variety_plays_the_same_games_on_both_interpreters():
    from tests.core.ai_games import level4_digest

    mp.require_micropython()
    expected = level4_digest()
    assert int(expected.split("/")[1]) >= 4          # the book answered on CPython
    rc, out, err = mp.run_micropython(book_file_items() + [
        "from tests.core.ai_games import level4_digest; print('digest', level4_digest())"])
    assert rc == 0, err
    assert out.split()[-1] == expected, (out, expected)

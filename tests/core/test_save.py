"""Save files: a game round-trips, and anything malformed is refused with ValueError."""

from jarmo import Game
from jarmo.match import Match
from jarmo.rng import Rng
from jarmo.save import checksum, seal


def midgame(rules="standard", expansions=("heroes", "challenges"), plies=30, seed=3):
    game = Game(rules, expansions, 300)
    rng = Rng(seed)
    while game.plies < plies and game.result() is None:
        legal = game.legal()
        game.play(legal[rng.below(len(legal))])
    return game


def refused(text):
    """The message of the ValueError Game.load raises (and only that error)."""
    try:
        Game.load(text)
    except ValueError as error:
        message = str(error)
        assert message
        return message
    raise AssertionError("load accepted %r" % (text,))


def test_a_saved_game_loads_back_with_the_same_position_and_history():
    game = midgame()
    copy = Game.load(game.dump())
    assert copy.dump() == game.dump()
    assert copy.legal() == game.legal()
    assert copy.history() == game.history()
    assert copy.turn == game.turn


def test_a_save_carries_a_version_tag_and_a_checksum():
    text = Game("classic").dump()
    assert text.startswith("jarmo-game 1\n")
    assert text.split("\n")[-2].startswith("check ")


def test_a_truncated_save_is_refused():
    text = midgame().dump()
    for cut in (0, 1, 10, len(text) // 2, len(text) - 10, len(text) - 2):
        refused(text[:cut])


def test_a_save_truncated_at_an_action_boundary_is_refused():
    text = midgame().dump()
    lines = text.split("\n")
    actions = lines[5].split()
    lines[5] = " ".join(actions[:-1])
    body = "\n".join(lines[:6]) + "\n"
    assert "checksum" in refused(body + lines[6] + "\n")


def test_a_save_with_reordered_lines_is_refused_even_with_a_fresh_checksum():
    lines = midgame().dump().split("\n")
    body = [lines[1], lines[0]] + lines[2:6]
    refused(seal("\n".join(body) + "\n"))


def test_a_save_of_another_version_is_refused():
    lines = Game("classic").dump().split("\n")
    lines[0] = "jarmo-game 2"
    message = refused(seal("\n".join(lines[:6]) + "\n"))
    assert "version" in message


def test_random_bytes_and_text_are_refused_with_value_error():
    rng = Rng(11)
    for size in (0, 1, 7, 64, 300):
        data = bytes(rng.below(256) for _ in range(size))
        refused(data)
        refused("".join(chr(32 + rng.below(95)) for _ in range(size)))
    refused(None)
    refused(12)


def test_a_save_whose_actions_cannot_be_replayed_is_refused():
    body = "jarmo-game 1\nrules classic\nexpansions -\nply-limit -\nactions 1\na1-a2\n"
    assert "replayed" in refused(seal(body))


def test_a_save_with_a_bad_rule_set_or_count_is_refused():
    refused(seal("jarmo-game 1\nrules chess\nexpansions -\nply-limit -\nactions 0\n\n"))
    refused(seal("jarmo-game 1\nrules classic\nexpansions -\nply-limit -\nactions 2\nb1-d2\n"))
    refused(seal("jarmo-game 1\nrules classic\nexpansions -\nply-limit x\nactions 0\n\n"))


def test_the_checksum_is_the_same_on_every_interpreter():
    assert checksum("") == "00000001"
    assert checksum("Wikipedia") == "11e60398"     # the textbook Adler-32 example
    assert checksum(b"Wikipedia") == checksum("Wikipedia")


def test_a_match_round_trips_with_its_results():
    match = Match("standard", games=2)
    game = match.game
    rng = Rng(4)
    while game.result() is None:
        legal = game.legal()
        game.play(legal[rng.below(len(legal))])
    match.next_game()
    match.game.play("b1-d2")
    copy = Match.load(match.dump())
    assert copy.totals == match.totals
    assert copy.number == 2
    assert copy.game.history() == ["b1-d2"]
    assert copy.results[0] == match.results[0]

"""Saves that older versions left on the drive are imported once into the
log (jarmo/store_legacy.py), and the drive is only read."""

import json
import os

from hardware.flash import open_store
from jarmo import Game
from jarmo.app import App
from jarmo.match import Match
from jarmo.store_campaign import Progress
from jarmo.store_log import R_IMPORTED
from jarmo.store_stats import Stats
from tests.app.oldsaves import game_text, single, write_slots


def _drive(tmp_path):
    return str(tmp_path / "drive")


def _boot(drive):
    store, problems = open_store(os.path.join(drive, "jarmo.nvm"), drive, use_nvm=False)
    return store, problems


def _files(drive):
    out = {}
    for name in sorted(os.listdir(drive)):
        if name != "jarmo.nvm":
            with open(os.path.join(drive, name), "rb") as f:
                out[name] = f.read()
    return out


def test_the_older_saves_are_imported_once_and_the_drive_is_only_read(tmp_path):
    drive = _drive(tmp_path)
    game = Game("legendary", ("heroes",))
    for a in ("a1-c2", "e5-d3"):
        game.play(a)
    write_slots(drive, "game", game_text(game, opp=3, human=1, counted=False))
    write_slots(drive, "settings", json.dumps({"rules": 2, "heroes": 1, "opp": 3, "side": 1,
                                               "bright": 7, "timer": 2}))
    write_slots(drive, "stats", json.dumps({"v": 2, "standard": {"p2": [3, 2, 1],
                                                                 "ai1": [4, 0, 0]}}))
    with open(os.path.join(drive, "campaign"), "w") as f:      # the single-file format
        f.write(single(json.dumps({"v": 1, "best": [12, 30]})))
    before = _files(drive)

    store, problems = _boot(drive)
    # said: a log a power cut wiped in its erase would look new too
    assert problems == ["older saves taken over from the drive:", "game, settings, statistics, campaign"]
    assert store.read(R_IMPORTED) is not None
    app = App(store=store)
    assert app.text[:2] == ("Saved game found", ">Resume")
    assert app.game.history() == ["a1-c2", "e5-d3"] and app.game.expansions == ("heroes",)
    assert (app.opp, app.human0) == (3, 1)
    assert list(app.settings[:8]) == [2, 1, 0, 3, 1, 0, 7, 2]
    stats = Stats(store)
    # "p2" is two at the table (0), "ai1" the AI level 1: its id, 2
    assert stats.counts("standard", 0) == (3, 2, 1) and stats.counts("standard", 2) == (4, 0, 0)
    assert Progress(store).best[:3] == [12, 30, 0]
    assert _files(drive) == before                  # nothing written on the drive

    # once: the next start does not import again, even if the old files change
    write_slots(drive, "settings", json.dumps({"rules": 0}))
    store, problems = _boot(drive)
    assert problems == [] and App(store=store).settings[0] == 2


def test_a_counted_game_stays_counted_and_a_match_comes_with_its_results(tmp_path):
    drive = _drive(tmp_path)
    match = Match("standard", 2)
    match.game.play("a1-c2")
    write_slots(drive, "game", game_text(None, opp=0, counted=True, match=match))
    store, _ = _boot(drive)
    gid = store.game()[0]
    assert Stats(store).counted == gid
    app = App(store=store)
    assert app.match.games == 2 and app.game.history() == ["a1-c2"] and app.counted


def test_damaged_older_saves_are_named_and_the_rest_imported(tmp_path):
    drive = _drive(tmp_path)
    os.makedirs(drive)
    with open(os.path.join(drive, "game.0"), "wb") as f:
        f.write(b"JARMO2 1 5 00000000\nhello\nEND 1\n")            # a wrong checksum
    write_slots(drive, "stats", "not json")
    write_slots(drive, "campaign", json.dumps({"v": 1, "best": [5]}))
    store, problems = _boot(drive)
    assert problems == ["older saves taken over from the drive:", "campaign",
                        "old game file: damaged", "old stats file: unreadable"]
    assert store.game() is None and Progress(store).best[0] == 5
    app = App(store=store, problems=problems)
    assert app.state == "notice" and "old game file:" in " ".join(app.text)


def test_a_new_board_has_nothing_to_import(tmp_path):
    drive = _drive(tmp_path)
    os.makedirs(drive)
    store, problems = _boot(drive)
    assert problems == [] and store.read(R_IMPORTED) is not None and store.game() is None

"""Power cuts at random instants on the emulated Pico, real CircuitPython 10.3.

The board plays games against the greedy AI through its buttons (settings
changed now and then in the menu, games played to their end), and the power
is cut at random emulated instants: in a turn, in the AI's thinking, in the
middle of a flash program or erase (the harness then leaves it half done, as
a NOR chip does), in a compaction. After every cut the board starts again
and this is checked against what the log held at the instant of the cut:

- the CIRCUITPY drive is byte for byte what it was (the game never writes it);
- no damage is reported: a torn record is a power cut, not damage;
- the game resumes at the last saved turn or the one before (the record cut
  in half), and a game that had ended is counted and not offered again;
- the statistics lose at most the game being counted.

Cuts that hit a compaction (the one erase of the log, between games) may
lose what it was writing back: they are counted and what they lost is
printed. Every fourth cut falls at a random instant inside the next page
program of a save (0.4 ms: random instants alone would seldom land there).
A second part boots with a log so full that the first save compacts it, and
cuts at a random instant of that compaction's erase or program.

JARMO_POWER_CUTS and JARMO_COMPACTION_CUTS set how many cuts (default 80
and 24, what CI runs within its time; the figures in docs/APP.md are of a
run with 160 and 40); JARMO_POWER_CUT_SEED the seed. Slow (ten minutes and
more): the full tier.
"""

import os
import random

import pytest

from jarmo.flashfile import Flash
from jarmo.gamerec import load as load_game
from jarmo.stats import Stats
from jarmo.storage import R_CAMPAIGN, R_IMPORTED, R_SETTINGS, Store, parse_at
from tests import needs
from tests.device import stage
from tests.device.device import Device, firmware_path, unavailable_reason

PROFILE = "pico"
PRESS_MS = 80
GAP_MS = 120
ERASE_WINDOW_MS = 60        # a sector erase (45 ms) and its 16 page programs (6.4 ms), and slack


def _store(image):
    return Store(Flash(data=image))


def _without_last_record(image):
    """The log with its last record erased again: what a cut while programming it can leave."""
    end = _store(image).end
    pos = last = parse_at(image, 0, len(image))
    while 0 < pos < end:
        n = parse_at(image, pos, len(image))
        if n:
            last = pos
            pos += n
        else:
            pos += 1
    out = bytearray(image)
    for i in range(last, end):
        out[i] = 0xFF
    return bytes(out)


def expected(image):
    """What the app makes of a log at its next start: (game history or None,
    statistics total): a game that had ended is counted (if it was not) and
    not resumed."""
    store = _store(image)
    stats = Stats(store)
    total = sum(sum(c) for t in stats.table.values() for c in t.values())
    found = store.game()
    if found is None:
        return None, total
    game = load_game(found[1], found[2], 255)[0]
    if game.result() is not None:
        return None, total + (stats.counted != found[0])
    return game.history(), total


def found(image):
    """What the log holds: (game history or None, statistics total, problems)."""
    store = _store(image)
    stats = Stats(store)
    total = sum(sum(c) for t in stats.table.values() for c in t.values())
    game = store.game()
    history = None if game is None else load_game(game[1], game[2], 255)[0].history()
    return history, total, store.problems


class Player:
    """Taps the Pico's buttons as a player would, for a given emulated time."""

    def __init__(self, dev, rng):
        self.dev = dev
        self.rng = rng
        self.prof = dev.profile
        self.pins = {b: stage.key_pin(self.prof, b) for b in ("select", "next")}
        self.settings_changes = 0

    def state(self):
        states = stage.Trace(self.dev.console[-60:]).state_names()
        return states[-1] if states else "menu"

    def _on_a_value(self):
        # the menu line under the cursor is a setting ("Rules: standard"), not an action
        texts = stage.Trace(self.dev.console[-60:]).texts()
        line = [x for x in (texts[-1] if texts else ()) if x.startswith(">")]
        return bool(line) and ":" in line[0]

    def _tap(self, button, budget):
        """A tap within the budget (ms left); returns the time it took."""
        used = 0
        pin = self.pins[button]
        self.dev.set_pin(pin, 0)
        step = min(PRESS_MS, budget)
        self.dev.run(step)
        used += step
        self.dev.set_pin(pin, "z")
        step = min(GAP_MS, budget - used)
        if step > 0:
            self.dev.run(step)
            used += step
        return used

    def play_for(self, ms):
        """Play for ms emulated milliseconds (the cut comes right after), or
        less when a game has just ended: the cut then falls into its end."""
        left = ms
        while left > 0:
            state = self.state()
            if state == "end" and self.rng.random() < 0.5:
                self.dev.run(self.rng.uniform(0, 40))     # the game's save, its count
                return
            if state in ("ai", "end"):
                step = min(100, left)
                self.dev.run(step)
                left -= step
                continue
            if state == "menu" and self.rng.random() < 0.5:
                # a setting changed: NEXT down the menu to a setting, SELECT changes it
                for _ in range(self.rng.randrange(1, 5)):
                    if left > 0:
                        left -= self._tap("next", left)
                for _ in range(8):
                    if left <= 0 or self._on_a_value():
                        break
                    left -= self._tap("next", left)
                if left > 0 and self._on_a_value():
                    left -= self._tap("select", left)
                    self.settings_changes += 1
                continue
            elif state == "play":
                for _ in range(self.rng.randrange(0, 3)):
                    if left <= 0:
                        break
                    left -= self._tap("next", left)
            if left > 0:
                left -= self._tap("select", left)


def _boot_dev(tmp_path, firmware_option, nvm=None, seed=1):
    prof = stage.profile(PROFILE)
    tmp_path.mkdir(parents=True, exist_ok=True)
    board = prof["board_id"]
    needs.require(unavailable_reason(board, firmware_option))
    # the greedy AI, one game at a time, standard rules
    drive = stage.build_drive(str(tmp_path / "CIRCUITPY"), PROFILE, trace=1, JARMO_SEED=7)
    dev = Device(firmware_path(board, firmware_option), drive, neopixel_pin=prof["pixel_pin"],
                 timeout_s=600, nvm=nvm if nvm is not None else stage.settings_nvm(), seed=seed)
    dev.profile = prof
    dev.start()
    return dev


def _after_boot(dev):
    """Run the new start-up until the app shows its first screen."""
    dev.wait_for(r"^@@BOOT", 15000)
    dev.wait_for(r"^@@STATE (menu|notice)", 15000)
    dev.run(200)
    return stage.Trace(dev.console[-40:]).state_names()[-1]


def _cut(dev):
    """Cut the power now; (the log at the cut, the harness's flash stats then,
    the ready event of the next start)."""
    at_cut = dev.nvm()
    stats = dev.stats()
    ready = dev.reset()
    return at_cut, stats, ready


def _hit_compaction(stats, ready):
    last = stats["flash"].get("last_erase_t") if stats["flash"] else None
    return ready.get("torn") == "erase" or (last is not None and stats["t"] - last < ERASE_WINDOW_MS)


def _lost(before, after):
    """Names of what a cut lost, comparing (game, total) before with after."""
    out = []
    if after[0] != before[0] and not (before[0] and after[0] == before[0][:len(after[0] or [])]):
        out.append("game")
    if after[1] < before[1]:
        out.append("statistics %d of %d" % (before[1] - after[1], before[1]))
    return out


def power_cuts_at_random_instants(tmp_path, firmware_option):
    """The first part: cuts at random instants in continuous play. Returns its report line."""
    cuts = int(os.environ.get("JARMO_POWER_CUTS", "80"))
    rng = random.Random(int(os.environ.get("JARMO_POWER_CUT_SEED", "17")))
    dev = _boot_dev(tmp_path, firmware_option)
    try:
        _after_boot(dev)
        drive = dev.fs_image()
        player = Player(dev, rng)
        hits, torn, checked = [], {"program": 0, "erase": 0}, 0
        outcomes = {"same": 0, "turn before": 0, "ended game counted": 0}
        for k in range(cuts):
            player.play_for(rng.uniform(10, 1500))
            if k % 4 == 3 and dev.until_flash("program", timeout_ms=1500) is not None:
                # a random instant inside the next save's page program (0.4 ms)
                dev.run(rng.uniform(0.0, 0.45))
            at_cut, stats, ready = _cut(dev)
            if ready.get("torn"):
                torn[ready["torn"]] += 1
            state = _after_boot(dev)
            now = dev.nvm()
            history, total, problems = found(now)
            if _hit_compaction(stats, ready):
                hits.append((k, ready.get("torn"), _lost(expected(at_cut), (history, total))))
                continue
            checked += 1
            full = expected(at_cut)
            cut_short = expected(_without_last_record(at_cut))
            assert problems == [] and state == "menu", (k, problems, state)
            assert (history, total) in (full, cut_short), (k, history, total, full, cut_short)
            if (history, total) == full:
                outcomes["same"] += 1
            else:
                outcomes["turn before"] += 1
            if full[0] is None and _store(at_cut).game() is not None:
                outcomes["ended game counted"] += 1
        assert dev.fs_image() == drive, "the CIRCUITPY drive changed"
        wear = dev.stats()["wear"]
        assert "Traceback" not in "\n".join(dev.console)
        assert checked >= cuts * 3 // 4
        assert outcomes["turn before"] >= 1 and torn["program"] >= 1     # cuts landed in saves
        return ("power cuts at random instants: %d (%d checked, %d in a compaction: %s); torn "
                "flash operations %s; outcomes %s; settings changes %d; erases by sector %s"
                % (cuts, checked, len(hits), hits, torn, outcomes, player.settings_changes, wear))
    finally:
        dev.close()


def _full_log(stats_total=3):
    """A log so full that the next record does not fit: settings written
    again and again, statistics, campaign progress."""
    flash = Flash()
    store = Store(flash)
    store.write(R_IMPORTED, b"\x01")
    stats = Stats(store)
    stats.table["standard"]["ai1"] = [stats_total, 0, 0]
    stats.save()
    store.write(R_CAMPAIGN, b"\x01\x09")
    settings = stage.settings_nvm()
    base = _store(settings).read(R_SETTINGS)
    while store.free >= 17 + 12:
        store.write(R_SETTINGS, base)               # 17 bytes a record
    store.write(R_SETTINGS, base[:store.free - 7 - 5])
    assert not store.busy and store.free == 5       # a game's start record takes 16
    return bytes(flash.data)


def power_cuts_in_a_compaction(tmp_path, firmware_option):
    """The second part: cuts in a compaction's erase or program. Returns its report line."""
    cuts = int(os.environ.get("JARMO_COMPACTION_CUTS", "24"))
    rng = random.Random(int(os.environ.get("JARMO_POWER_CUT_SEED", "17")) + 1)
    full = _full_log()
    dev = _boot_dev(tmp_path, firmware_option, nvm=full)
    try:
        _after_boot(dev)
        drive = dev.fs_image()
        select = stage.key_pin(dev.profile, "select")
        lost = {}
        hit = 0
        for _ in range(cuts):
            # New game: its start record does not fit, so the next pass compacts;
            # a random instant in that compaction's erase (45 ms) or program (6.4 ms)
            dev.set_pin(select, 0)
            dev.run(PRESS_MS)
            dev.set_pin(select, "z")
            assert dev.until_flash("erase", timeout_ms=2000) is not None
            dev.run(rng.uniform(0.0, ERASE_WINDOW_MS - 8))
            at_cut, stats, ready = _cut(dev)
            hit += _hit_compaction(stats, ready)
            _after_boot(dev)
            history, total, problems = found(dev.nvm())
            kept = _store(dev.nvm())
            what = []
            if total != 3:
                what.append("statistics")
            if kept.read(R_CAMPAIGN) != b"\x01\x09":
                what.append("campaign")
            if kept.read(R_SETTINGS) is None:
                what.append("settings")
            key = ", ".join(what) or "nothing"
            lost[key] = lost.get(key, 0) + 1
            # the next round starts from the full log again, with the board idle in the menu
            dev.run(300)
            dev.write_flash(full)
            dev.reset()
            _after_boot(dev)
        assert dev.fs_image() == drive
        assert hit == cuts
        assert "Traceback" not in "\n".join(dev.console)
        return ("power cuts in a compaction: %d, %d of them in its erase or program; lost: %s"
                % (cuts, hit, lost))
    finally:
        dev.close()


@pytest.mark.full
def test_power_cuts_on_the_pico(tmp_path, firmware_option):
    """Both parts at once, each on a board of its own (two emulators, two cores)."""
    import threading
    second = {}

    def run_second():
        try:
            second["report"] = power_cuts_in_a_compaction(tmp_path / "compaction", firmware_option)
        except BaseException as e:          # noqa: BLE001 (re-raised in the test's thread)
            second["error"] = e

    thread = threading.Thread(target=run_second)
    thread.start()
    try:
        first = power_cuts_at_random_instants(tmp_path / "random", firmware_option)
    finally:
        thread.join()
    if "error" in second:
        raise second["error"]
    print(first)
    print(second["report"])

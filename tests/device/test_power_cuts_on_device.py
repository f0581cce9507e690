"""Power cuts at random instants on the emulated Pico, real CircuitPython 10.3:
both firmware kinds, stock (nvm one 4 KB sector) and Jarmo's (two sectors).

The board plays games against the greedy AI through its buttons (settings
changed now and then in the menu, games played to their end), and the power
is cut at random emulated instants: in a turn, in the AI's thinking, in the
middle of a flash program or erase (the harness then leaves it half done, as
a NOR chip does), in a compaction. After every cut the board starts again
and this is checked against what the log held at the instant of the cut:

- the CIRCUITPY drive is byte for byte what it was (the game never writes it);
- no damage is reported: a torn record is a power cut, not damage;
- the game resumes at the last saved turn or the one before (the record cut
  in half), a game that had ended is counted and not offered again, the
  statistics, settings and campaign are what they were (or the setting
  being written is lost, the old value kept);
- anything else lost was named on the display ("saves lost in a power cut:
  statistics, campaign"): on stock, a cut in a compaction's erase; on
  Jarmo's firmware nothing is lost at all. No cut is skipped.

Every fourth cut falls at a random instant inside the next page program of a
save (0.4 ms: random instants alone would seldom land there). The second
part boots with a log so full that the next game's start compacts it, and
cuts at a random instant of that compaction's erase or program (and, on
Jarmo's firmware, its last program, the R_FORMAT record); older versions'
saves lie on the drive, and must never come back unannounced.

JARMO_POWER_CUTS and JARMO_COMPACTION_CUTS set how many cuts a test makes
(default 10 and 25); JARMO_POWER_CUT_SEED the seed. Each kind's cuts are
four tests of each sort (seeds apart, each from a board of its own): 40
cuts at random instants and 100 in compactions a kind, in items short
enough for the test processes to share them out.
Slow (minutes each): the full tier.
"""

import os
import random

import pytest

from jarmo.store_flash import Flash
from jarmo.store_game import load as load_game
from jarmo.store_log import R_CAMPAIGN, R_SETTINGS, Store, parse_at
from jarmo.store_stats import Stats
from tests import needs
from tests.app.oldsaves import slot
from tests.device import stage
from tests.device.device import NVM_END, Device

PROFILE = "pico"
PRESS_MS = 80
GAP_MS = 120
ERASE_WINDOW_MS = 60        # a sector erase (45 ms) and its 16 page programs (6.4 ms), and slack
KINDS = stage.KINDS
ITEMS = ("game", "statistics", "settings", "campaign")


def _store(image):
    return Store(Flash(data=image))


def _without_last_record(image):
    """The log with its last record erased again: what a cut while programming it can leave."""
    store = _store(image)
    base = store.current * 4096 if store.sectors == 2 else 0
    end = base + store.end
    pos = last = base + parse_at(image, base, len(image))
    while base < pos < end:
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


def _total(stats):
    return sum(sum(c) for t in stats.table.values() for c in t.values())


def expected(image):
    """What the app makes of a log at its next start, by item (ITEMS): a
    game that had ended is counted (if it was not) and not resumed."""
    store = _store(image)
    stats = Stats(store)
    total = _total(stats)
    out = {"settings": store.read(R_SETTINGS), "campaign": store.read(R_CAMPAIGN)}
    found = store.game()
    out["game"] = None
    if found is not None:
        game = load_game(found[1], found[2], 255)[0]
        if game.result() is not None:
            total += stats.counted != found[0]
        else:
            out["game"] = game.history()
    out["statistics"] = total
    return out


def found(image):
    """What the log holds, by item (ITEMS)."""
    store = _store(image)
    game = store.game()
    return {"settings": store.read(R_SETTINGS), "campaign": store.read(R_CAMPAIGN),
            "statistics": _total(Stats(store)),
            "game": None if game is None else load_game(game[1], game[2], 255)[0].history()}


def lost_items(before, shorter, after):
    """The items `after` lost against the log at the cut (before), when
    `shorter` (its last record torn away) does not explain them; a game that
    resumes at an earlier turn of the same game is not lost."""
    out = []
    for item in ITEMS:
        if after[item] in (before[item], shorter[item]):
            continue
        if item == "game" and before["game"] and after["game"] == before["game"][:len(after["game"] or [])]:
            continue
        out.append(item)
    return out


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


def _boot_dev(tmp_path, kind, nvm=None, seed=1, files=None):
    prof = stage.profile(PROFILE)
    tmp_path.mkdir(parents=True, exist_ok=True)
    needs.require(stage.firmware_unavailable(PROFILE, kind))
    # the greedy AI, one game at a time, standard rules
    drive = stage.build_drive(str(tmp_path / "CIRCUITPY"), PROFILE, trace=1, JARMO_SEED=7,
                              frozen=kind == "frozen", files=files)
    dev = Device(stage.firmware(PROFILE, kind), drive, neopixel_pin=prof["pixel_pin"],
                 timeout_s=600, nvm=nvm if nvm is not None else stage.settings_nvm(), seed=seed)
    dev.profile = prof
    dev.start()
    return dev


# The line the app prints just before it reads the saves: the boots after a cut are alike up to
# there (the same firmware and drive; only nvm differs), so the emulator starts all but the
# first from where that one was (Device.reset's `until`: warm boots)
SAVES_READ_NEXT = r"^@@STORE"


def _after_boot(dev):
    """Run the new start-up until the app shows its first screen (its text, its first frame:
    the saves are read and anything they needed written by then)."""
    dev.wait_for(r"^@@BOOT", 15000)
    dev.wait_for(r"^@@STATE (menu|notice)", 15000)
    dev.wait_for(r"^@@FIRSTFRAME", 15000)
    return stage.Trace(dev.console[-40:]).state_names()[-1]


def _cut(dev):
    """Cut the power now and start again; (the log at the cut, the harness's
    flash stats then, the ready event, the state the app came up in, what
    the display said at start-up: its lines joined)."""
    at_cut = dev.nvm()
    stats = dev.stats()
    seen = len(dev.console)
    ready = dev.reset(until=SAVES_READ_NEXT)
    state = _after_boot(dev)
    said = " ".join(" ".join(t) for t in stage.Trace(dev.console[seen:]).texts())
    return at_cut, stats, ready, state, said


def _booted(dev, nvm, cold):
    """Powers on with `nvm` in nvm's sectors, to the first screen: (the ready event, what the boot
    did: its console lines with their times, frames, nvm, cycles)."""
    seen, frames, cycles = len(dev.console), len(dev.frames), dev.stats()["cycles"]
    ready = dev.reset(flash=(NVM_END - len(nvm), nvm), until=SAVES_READ_NEXT, cold=cold)
    _after_boot(dev)
    return ready, (dev.timed_console(seen), dev.frames[frames:], dev.nvm(),
                   dev.stats()["cycles"] - cycles)


def _power_on_after(dev, nvm, check_warm=False):
    """The board powered on after a cut that left `nvm`, up to its first screen: a warm boot
    where the emulator has one (Device.reset). check_warm: the same cut is then booted from
    power-on too, and must give the same lines, times, frames, saves and cycles. Returns the
    ready event."""
    ready, did = _booted(dev, nvm, cold=False)
    if check_warm:
        assert ready.get("warm")
        again, cold = _booted(dev, nvm, cold=True)
        assert not again.get("warm") and cold == did and len(did[0]) > 5
    return ready


def _hit_compaction(stats, ready):
    last = stats["flash"].get("last_erase_t") if stats["flash"] else None
    return ready.get("torn") == "erase" or (last is not None and stats["t"] - last < ERASE_WINDOW_MS)


def _named(lost, said):
    """The lost items the display did not name (a silent loss)."""
    if "lost in a power cut" not in said:
        return list(lost)
    return [item for item in lost if item not in said]


def _until_a_save(dev, player, most_ms=30000):
    """Play on until the board starts a save's page program: True, or False
    after most_ms emulated ms without one."""
    for _ in range(most_ms // 500):
        if dev.until_flash("program", timeout_ms=250) is not None:
            return True
        player.play_for(250)
    return False


def power_cuts_at_random_instants(tmp_path, kind, cuts, seed):
    """Cuts at random instants in continuous play. Returns its report line."""
    rng = random.Random(seed)
    dev = _boot_dev(tmp_path, kind)
    try:
        _after_boot(dev)
        drive = dev.fs_image()
        player = Player(dev, rng)
        torn = {"program": 0, "erase": 0}
        warm = 0
        outcomes = {"same": 0, "turn before": 0, "ended game counted": 0, "in a compaction": 0,
                    "lost, named": 0, "lost, silent": 0}
        for k in range(cuts):
            player.play_for(rng.uniform(10, 1500))
            # the last cut falls into a save's program too if none tore one
            # yet: played on until a save starts (a human's turn saves nothing)
            last_chance = k == cuts - 1 and not torn["program"]
            if last_chance and _until_a_save(dev, player):
                dev.run(rng.uniform(0.0, 0.35))
            elif k % 4 == 3 and dev.until_flash("program", timeout_ms=1500) is not None:
                # a random instant inside the next save's page program (0.4 ms)
                dev.run(rng.uniform(0.0, 0.45))
            at_cut, stats, ready, state, said = _cut(dev)
            warm += bool(ready.get("warm"))
            if ready.get("torn"):
                torn[ready["torn"]] += 1
            outcomes["in a compaction"] += _hit_compaction(stats, ready)
            now = found(dev.nvm())
            full = expected(at_cut)
            lost = lost_items(full, expected(_without_last_record(at_cut)), now)
            assert "damaged" not in said, (k, said)
            if lost:
                silent = _named(lost, said)
                outcomes["lost, silent" if silent else "lost, named"] += 1
                assert kind == "stock" and not silent, (k, kind, lost, said)
                continue        # checked: a loss, named
            assert state == "menu" or "lost in a power cut" in said, (k, state, said)
            outcomes["same" if now == full else "turn before"] += 1
            if full["game"] is None and _store(at_cut).game() is not None:
                outcomes["ended game counted"] += 1
        assert dev.fs_image() == drive, "the CIRCUITPY drive changed"
        wear = dev.stats()["wear"]
        assert "Traceback" not in "\n".join(dev.console)
        assert torn["program"] >= 1         # cuts landed in saves (a torn one: "turn before")
        return ("%s, power cuts at random instants: %d (%d warm boots); torn flash operations %s; "
                "outcomes %s; settings changes %d; erases by sector %s"
                % (kind, cuts, warm, torn, outcomes, player.settings_changes, wear))
    finally:
        dev.close()


# Saves an older version left on the drive: 9 games counted, another
# campaign. They were imported once (the full log says so) and must never
# come back unannounced.
OLD_SAVES = {"stats.0": slot(1, '{"v": 1, "standard": [5, 3, 1]}'),
             "campaign.0": slot(1, '{"v": 1, "best": [3, 3, 3]}')}


def power_cuts_in_a_compaction(tmp_path, kind, cuts, seed):
    """Cuts in a compaction's erase or program. Returns (its report line, the
    table row: cuts, lost, named, silent, re-imported said, re-imported silent).

    The compaction runs once: a new game's start compacts the full log in
    the next pass. The power is cut at `cuts` random instants of its erase
    (45 ms), its programs (6.4 ms) or its last program (the R_FORMAT record):
    at each, the flash is taken as a cut then leaves it (an erase or program
    in progress half done), and afterwards the board is powered on with each
    of them in turn, as after that cut. (Every cut replayed the compaction
    from a fresh start before: the emulated board plays it the same way each
    time, and the replay doubled the boots.)"""
    rng = random.Random(seed)
    full = stage.full_nvm(kind)
    dev = _boot_dev(tmp_path, kind, nvm=full, files=OLD_SAVES)
    try:
        _after_boot(dev)
        drive = dev.fs_image()
        select = stage.key_pin(dev.profile, "select")
        lost_by = {}
        row = {"cuts": 0, "in compaction": 0, "lost": 0, "named": 0, "silent": 0,
               "old saves said": 0, "old saves silent": 0}
        dev.set_pin(select, 0)                      # New game
        dev.run(PRESS_MS)
        dev.set_pin(select, "z")
        assert dev.until_flash("erase", timeout_ms=2000) is not None
        at_cuts = []
        ran = 0.0
        for instant in sorted(rng.uniform(0.0, ERASE_WINDOW_MS - 7) for _ in range(cuts)):
            if instant > ran:
                dev.run(instant - ran)
                ran = instant
            nvm, torn = dev.cut_nvm()
            at_cuts.append((nvm, torn, dev.stats()))
        warm = 0
        for k, (nvm, torn, stats) in enumerate(at_cuts):
            seen = len(dev.console)
            warm += bool(_power_on_after(dev, nvm, check_warm=k == 1).get("warm"))
            said = " ".join(" ".join(t) for t in stage.Trace(dev.console[seen:]).texts())
            row["cuts"] += 1
            row["in compaction"] += _hit_compaction(stats, {"torn": torn})
            now = found(dev.nvm())
            lost = []
            if now["statistics"] != 3:
                lost.append("statistics")
            if now["campaign"] != b"\x01\x09":
                lost.append("campaign")
            if now["settings"] is None:
                lost.append("settings")
            if now["statistics"] == 9 or "older saves" in said:
                row["old saves said" if "older saves taken over" in said else "old saves silent"] += 1
            assert "damaged" not in said, said
            print("cut: torn %s, lost %s, said %r" % (torn, lost, said))
            key = ", ".join(lost) or "nothing"
            lost_by[key] = lost_by.get(key, 0) + 1
            if lost:
                row["lost"] += 1
                row["silent" if _named(lost, said) else "named"] += 1
        assert dev.fs_image() == drive
        assert "Traceback" not in "\n".join(dev.console)
        assert row["in compaction"] == cuts
        assert warm == cuts - 1                     # (the first boot recorded the warm state)
        assert row["silent"] == 0 and row["old saves silent"] == 0, (row, lost_by)
        if kind == "frozen":
            assert row["lost"] == 0 and row["old saves said"] == 0, (row, lost_by)
        return ("%s, power cuts in a compaction: %d (%d warm boots); lost: %s; %s"
                % (kind, cuts, warm, lost_by, row)), row
    finally:
        dev.close()


def _count(name, default):
    return int(os.environ.get(name, str(default)))


def _seed():
    return _count("JARMO_POWER_CUT_SEED", 17)


@pytest.mark.full
@pytest.mark.parametrize("part", range(4))
@pytest.mark.parametrize("kind", KINDS)
def test_power_cuts_at_random_instants(tmp_path, kind, part):
    """10 cuts a part, four parts a kind: 40 cuts at random instants of play
    on each firmware kind, none lost unnamed."""
    print(power_cuts_at_random_instants(tmp_path, kind, _count("JARMO_POWER_CUTS", 10),
                                        _seed() + 1000 * part))


@pytest.mark.full
@pytest.mark.parametrize("part", range(4))
@pytest.mark.parametrize("kind", KINDS)
def test_power_cuts_in_a_compaction(tmp_path, kind, part):
    """25 cuts a part, four parts a kind: 100 cuts in compactions on each
    firmware kind. Jarmo's loses nothing; stock names every loss and never
    takes the drive's older saves back unannounced."""
    report, _row = power_cuts_in_a_compaction(tmp_path, kind, _count("JARMO_COMPACTION_CUTS", 25),
                                              _seed() + 1 + 1000 * part)
    print(report)

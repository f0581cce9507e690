"""The play modes (campaign, guided first game) on real CircuitPython
10 firmware on an emulated RP2040, through the board's buttons only.

Same harness and patterns as test_game_on_device.py: the project deployed as
`run.py deploy` does, the console trace (hardware/trace.py) read back.
Each boots a board, so both are in the full tier (run.py test --full).
"""

import pytest

from tests.device import stage
from tests.device.test_game_on_device import booted, hold, play_a_turn_and_the_ais, tap, trace, wait_state


def menu_to(dev, title, most_taps=24):
    """Tap next until the menu's cursor is on the item whose line starts with title."""
    for _ in range(most_taps):
        texts = trace(dev).texts()
        if texts and any(line.startswith(">" + title) for line in texts[-1]):
            return
        tap(dev, "next")
    raise AssertionError("no menu item %r: %s" % (title, trace(dev).texts()[-1:]))


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_qtpy_opens_the_campaign_and_starts_battle_one(tmp_path, firmware_option, kind):
    with booted(tmp_path, firmware_option, "qtpy_bff", kind=kind) as dev:
        wait_state(dev, "menu", 5000)
        menu_to(dev, "Campaign")
        tap(dev, "select")
        wait_state(dev, "campaign", 5000)
        assert trace(dev).texts()[-1][0].startswith("Campaign: 0/")
        assert dev.frames and dev.frames[-1][1] != bytes(75)      # the ladder is lit
        tap(dev, "select")                                         # battle 1
        wait_state(dev, "(play|ai)", 5000)
        tap(dev, "select")                                         # a piece
        tap(dev, "select")                                         # its first target
        wait_state(dev, "ai", 5000)
        wait_state(dev, "play", 20000)                             # the AI answered
        start = stage.board_store(dev).game()[1]                   # jarmo/store_game.py
        assert start[7] == 0 and start[5] == 1                     # battle 1, against AI 1
        t = trace(dev)
        assert "campaign" in t.state_names()
        longest = max(us for us, _state in t.max_passes())
        assert longest <= stage.BUDGETS[kind][0] * 1000, t.max_passes()
        assert "Traceback" not in "\n".join(dev.console)


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_qtpy_plays_the_first_steps_of_the_lesson_and_leaves_it(tmp_path, firmware_option, kind):
    with booted(tmp_path, firmware_option, "qtpy_bff", kind=kind) as dev:
        wait_state(dev, "menu", 5000)
        menu_to(dev, "First game")
        tap(dev, "select")
        wait_state(dev, "lesson", 5000)
        assert trace(dev).texts()[-1][0] == "First game 1/7"
        for _pick in ("e1", "d3"):                                 # NEXT to the lit point, SELECT
            for _ in range(12):
                if trace(dev).texts()[-1][-1].endswith(": SELECT"):
                    break
                tap(dev, "next")
            tap(dev, "select")
        dev.run(1500)                                              # North answers
        assert trace(dev).texts()[-1][0] == "First game 2/7"
        tap(dev, "back")                                           # BACK: out, to the menu
        wait_state(dev, "menu", 5000)
        assert "Traceback" not in "\n".join(dev.console)


@pytest.mark.full
@pytest.mark.parametrize("kind", stage.KINDS)
def test_pico_the_move_timer_and_a_hint_against_the_ai_within_the_budgets(tmp_path, firmware_option, kind):
    # 15 s a turn: some turns are played, one runs out and the greedy AI plays it
    pass_ms, heap, _first = stage.BUDGETS[kind]
    with booted(tmp_path, firmware_option, "pico", kind=kind,
                nvm=stage.settings_nvm(rules=1, opp=2, timer=1, timeout=0), **stage.HEAP) as dev:
        wait_state(dev, "menu", 8000)
        dev.run(1000)                                              # the AI module loads
        tap(dev, "select")                                         # New game
        for _ in range(3):
            wait_state(dev, "play", 20000)
            tap(dev, "select")
            tap(dev, "select")
        wait_state(dev, "play", 20000)
        before = len(trace(dev).last_game())
        dev.run(17000)                                             # time runs out
        wait_state(dev, "play", 20000)                             # and the AI answered
        assert len(trace(dev).last_game()) >= before + 2
        hold(dev, "menu")                                          # a hint, from the menu
        wait_state(dev, "menu", 5000)
        menu_to(dev, "Hint")
        tap(dev, "select")
        wait_state(dev, "play", 5000)
        dev.run(3000)
        hints = [line for text in trace(dev).texts() for line in text if line.startswith("Hint: ")]
        assert hints and "thinking" not in hints[-1], hints
        t = trace(dev)
        in_game = [free for name, free, _p, _ms in t.states() if name in ("play", "ai")]
        in_game += [free for _ms, free in t.ai_turns()]
        print("least free in a game with the timer", min(in_game), "longest pass", t.max_passes()[-1])
        assert min(in_game) >= heap, min(in_game)
        assert max(us for us, _s in t.max_passes()) <= pass_ms * 1000, t.max_passes()
        assert any(" s" in text[0] for text in t.texts())          # the seconds on the display text
        assert "Traceback" not in "\n".join(dev.console)


@pytest.mark.full
@pytest.mark.parametrize("kind", ("stock",))
@pytest.mark.parametrize("profile", ("pico", "feather_oled"))
def test_a_game_against_level_4_keeps_the_heap_budget(tmp_path, firmware_option, kind, profile):
    # Level 4 holds the most (transposition table, deeper stacks): its game
    # must still leave the budget free at the worst moment (docs/AI.md,
    # "Memory"): 50 KB on stock firmware, 96 KB on Jarmo's (bigger tables),
    # the Feather's OLED and its display stack included. On Jarmo's firmware
    # the same game, with the same checks, is played on every profile by
    # test_frozen_firmware.py (play_level_4_and_check).
    with booted(tmp_path, firmware_option, profile, kind=kind,
                nvm=stage.settings_nvm(rules=1, opp=5), **stage.HEAP) as dev:
        play_level_4_and_check(dev, kind, profile)


def play_level_4_and_check(dev, kind, profile, turns=3):
    """From the menu (settings: standard rules, level 4; the trace's heap figures: stage.HEAP): a
    new game, `turns` of the player's turns and the AI's answers; the heap left at every state
    and AI turn, each AI turn's time (3 s a turn, and slack) and the longest pass within the
    budgets of the firmware kind."""
    pass_ms, heap, _first = stage.BUDGETS[kind]
    wait_state(dev, "menu", 8000)
    dev.run(1000)                                              # the AI module and tables load
    tap(dev, "select")                                         # New game
    wait_state(dev, "play", 20000)
    for _ in range(turns):
        play_a_turn_and_the_ais(dev)
    t = trace(dev)
    ai_turns = t.ai_turns()
    assert len(ai_turns) >= turns, ai_turns
    in_game = [free for name, free, _p, _ms in t.states() if name in ("play", "ai")]
    in_game += [free for _ms, free in ai_turns]
    print(profile, kind, "least free against level 4", min(in_game), "AI turns ms", [ms for ms, _f in ai_turns],
          "passes", t.max_passes()[-3:])
    assert min(in_game) >= heap, min(in_game)
    assert all(ms <= 3100 for ms, _free in ai_turns), ai_turns
    assert max(us for us, _s in t.max_passes()) <= pass_ms * 1000, t.max_passes()
    assert "Traceback" not in "\n".join(dev.console)

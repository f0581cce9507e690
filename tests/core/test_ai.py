"""The AI players (jarmo.ai): legal turns only, determinism, slicing.

Plain functions and asserts: runs under pytest and under MicroPython 1.27
(tests/micropython/run.mjs --mptest tests.core.test_ai), so the work is
kept modest; tests/test_ai_strength.py plays thousands of games on CPython.
"""

from jarmo import Game
from jarmo.ai import Player, level_number
from jarmo.rng import Rng
from tests.core.random_games import MIXES


def play_turn(g, turn):
    """Play a turn, checking every action is legal and that it ends the turn exactly."""
    side = g.turn
    assert turn, "an empty turn while the game runs"
    for k, code in enumerate(turn):
        assert g.result() is None and g.turn == side, (turn, k)
        assert type(code) is int, "Player answers in action codes"
        assert code in g.legal_codes(), (code, g.legal(), g.history())
        g.play_code(code)
    assert g.result() is not None or g.turn != side, ("turn left open", turn, g.legal())


def play_game(rules, expansions, south, north, seed, ply_limit=40, check_unchanged=False):
    g = Game(rules, expansions, ply_limit)
    players = (Player(south, seed * 2 + 1), Player(north, seed * 2 + 2))
    while g.result() is None:
        before = g.dump() if check_unchanged else None
        turn = players[0 if g.turn == "south" else 1].choose(g)
        if check_unchanged:
            assert g.dump() == before
        play_turn(g, turn)
    return g


def test_rng_gives_fixed_numbers_on_every_interpreter():
    r = Rng(0)
    assert [r.next() for _ in range(3)] == [433089170, 112844035, 864469805]
    r = Rng(12345)
    assert [r.below(100) for _ in range(8)] == [87, 25, 55, 85, 38, 95, 43, 38]
    r = Rng(2 ** 40 + 3)      # a big seed is reduced once
    assert 0 < r.next() < 2 ** 30


def test_level_names():
    assert level_number("random") == 0
    assert level_number("greedy") == 1
    assert level_number("Greedy ") == 1
    assert level_number(2) == 2 and level_number("3") == 3 and level_number(4) == 4
    for bad in ("hard", "3-legacy", 5, -1, None, 2.0):   # 3-legacy: host/opponents.py
        try:
            level_number(bad)
        except ValueError:
            continue
        raise AssertionError("level %r accepted" % (bad,))
    assert Player().level == 1


def test_random_and_greedy_play_only_legal_turns_in_every_mix():
    for rules, expansions in MIXES:
        for seed in range(4):
            south, north = ("random", "greedy") if seed % 2 else ("greedy", "random")
            play_game(rules, expansions, south, north, seed)


def test_lookahead_levels_play_only_legal_turns_in_every_mix():
    for rules, expansions in MIXES:
        play_game(rules, expansions, 2, "greedy", 1, ply_limit=16)


def test_level_3_plays_legal_turns():
    for rules in ("classic", "standard", "legendary", "jasyr"):
        play_game(rules, (), 3, 2, 2, ply_limit=8)


def test_choose_leaves_the_game_unchanged():
    for rules, expansions in (("standard", ("heroes", "challenges")), ("legendary", ()),
                              ("classic", ())):
        play_game(rules, expansions, "greedy", 2, 3, ply_limit=12, check_unchanged=True)


def test_same_seed_same_game():
    for rules in ("classic", "standard", "legendary", "jasyr"):
        a = play_game(rules, (), "greedy", "greedy", 5).history()
        b = play_game(rules, (), "greedy", "greedy", 5).history()
        assert a == b
    a = play_game("standard", (), "random", "random", 5).history()
    assert a == play_game("standard", (), "random", "random", 5).history()


def test_seeds_vary_the_games():
    games = set()
    for seed in range(6):
        games.add(" ".join(play_game("classic", (), "greedy", "greedy", seed).history()))
    assert len(games) > 1


def midgame(rules="standard", expansions=(), plies=8, seed=1):
    g = Game(rules, expansions)
    players = (Player("greedy", seed), Player("greedy", seed + 1))
    while g.result() is None and g.plies < plies:
        for code in players[0 if g.turn == "south" else 1].choose(g):
            g.play_code(code)
    assert g.result() is None
    return g


def test_sliced_answer_equals_one_call_answer():
    for rules in ("classic", "standard", "legendary", "jasyr"):
        g = midgame(rules)
        for level in ("greedy", 2):
            whole = Player(level, 9).choose(g)
            p = Player(level, 9, slice_nodes=1)
            p.start(g)
            nones = 0
            answer = p.step()
            while answer is None:
                nones += 1
                answer = p.step()
            assert answer == whole, (rules, level, answer, whole)
            assert p.step() == whole       # asking again gives the same answer
            assert nones >= 1


def test_step_returns_none_for_a_level_2_search_in_a_midgame_position():
    g = midgame("standard", plies=10)
    p = Player(2, 4)
    p.start(g)
    before = g.dump()
    nones = 0
    answer = p.step()
    while answer is None:
        nones += 1
        assert g.dump() == before          # the game is never touched between slices
        answer = p.step()
    assert nones >= 1
    assert p.nodes <= p.budget
    play_turn(g, answer)


def test_a_slice_applies_at_most_slice_nodes_actions():
    g = midgame("classic", plies=6)
    p = Player(2, 1, slice_nodes=5)
    p.start(g)
    last = 0
    while p.step() is None:
        assert p.nodes - last <= 5
        last = p.nodes


def test_ai_answers_an_open_turn():
    # Random play until a turn is open after the move (held pieces or a
    # redeploy on offer); each level must finish that turn legally.
    found = 0
    for rules, expansions in (("standard", ()), ("standard", ("challenges",)),
                              ("legendary", ("heroes", "challenges"))):
        for seed in range(30):
            rng = Rng(seed)
            g = Game(rules, expansions, 80)
            while g.result() is None and not g.open_turn():
                legal = g.legal()
                g.play(legal[rng.below(len(legal))])
            if g.result() is not None:
                continue
            found += 1
            for level in ("random", "greedy", 2):
                copy = Game.load(g.dump())
                turn = Player(level, seed).choose(copy)
                play_turn(copy, turn)
            if found >= 6:
                return
    assert found, "no open turn reached"


def test_greedy_takes_a_winning_turn_when_there_is_one():
    # Walk seeded random games; wherever one action wins at once, greedy and
    # level 2 must win too.
    checked = 0
    for rules in ("classic", "standard", "legendary", "jasyr"):
        for seed in range(12):
            rng = Rng(seed + 100)
            g = Game(rules, (), 120)
            while g.result() is None:
                side = g.turn
                legal = g.legal()
                winning = False
                for action in legal:
                    g.play(action)
                    r = g.result()
                    if r is not None and r.winner == side:
                        winning = True
                    g.undo()
                if winning:
                    for level in ("greedy", 2):
                        copy = Game.load(g.dump())
                        play_turn(copy, Player(level, seed).choose(copy))
                        assert copy.result() is not None and copy.result().winner == side, (
                            rules, level, g.history())
                    checked += 1
                    break
                g.play(legal[rng.below(len(legal))])
    assert checked >= 5


def test_private_copy_plays_like_the_game():
    # The search runs on a private copy synchronised field by field: it must
    # offer the same actions and reach the same results as the real game.
    for rules, expansions in [MIXES[k] for k in range(0, len(MIXES), 2)]:
        rng = Rng(7)
        g = Game(rules, expansions, 60)
        p = Player("greedy", 1)
        while g.result() is None:
            p._sync(g)
            mine = p._g
            assert mine.legal() == g.legal()
            for action in g.legal():
                g.play(action)
                mine.play(action)
                assert mine.result() == g.result() and mine.turn == g.turn
                assert mine.legal() == g.legal()
                g.undo()
                mine.undo()
            legal = g.legal()
            g.play(legal[rng.below(len(legal))])


def test_a_finished_game_gets_an_empty_turn():
    g = play_game("classic", (), "greedy", "random", 1)
    assert g.result() is not None
    assert Player(2).choose(g) == []


def test_level_4_plays_legal_turns():
    for rules in ("standard", "jasyr"):
        play_game(rules, (), 4, 3, 3, ply_limit=4)


def test_a_time_budget_stops_the_search_at_the_deadline():
    # With a clock the player answers once time_ms have passed, with the best
    # turn of a finished look-ahead; while the clock stands still it thinks on.
    g = midgame("classic", plies=6)
    p = Player(3, 2)
    t0 = 5000
    p.start(g, t0)
    answer = p.step(t0)
    while answer is None and p.completed_depth < 2:
        answer = p.step(t0)
    assert answer is None, "answered before its time was up"
    assert p.step(t0 + p.time_ms - 1) is None
    answer = p.step(t0 + p.time_ms)
    assert answer is not None and p.completed_depth >= 2
    play_turn(g, answer)


def test_the_clock_may_wrap_around():
    g = midgame("standard", plies=4)
    p = Player(3, 2)
    t0 = 0x1FFFFFFF - 10                   # supervisor.ticks_ms wraps at 2**29
    p.start(g, t0)
    for _ in range(40):
        assert p.step((t0 + 20) & 0x1FFFFFFF) is None   # 20 ms later, past the wrap
    answer = p.step((t0 + p.time_ms) & 0x1FFFFFFF)
    assert answer is not None
    play_turn(g, answer)


def test_without_a_clock_the_node_budget_bounds_the_turn():
    g = midgame("standard", plies=8)
    for level in (3, 4):
        p = Player(level, 1)
        p.choose(g)
        assert 0 < p.nodes <= p.budget + p.slice_nodes
        assert p.completed_depth >= 2


def test_the_transposition_table_and_null_windows_keep_the_value():
    # Levels 3 and 4 prune with a transposition table and null-window
    # searches; the value of a look-ahead of fixed depth must be the plain
    # alpha-beta value (switching both off).
    # (Late-move reductions and the skipped 3-turn iteration are switched
    # off too: they change the value on purpose.)
    import jarmo.ai as ai
    saved = ai._SKIP3
    ai._SKIP3 = 0
    try:
        _check_table_value()
    finally:
        ai._SKIP3 = saved


def _check_table_value():
    for rules in ("classic", "legendary"):
        g = midgame(rules, plies=6)
        values = []
        for table in (True, False):
            p = Player(3, 5)
            p.depth = 3
            p.node_budget = 100000
            p.lmr_from = 99
            if not table:
                p._ttmask = -1
            p.choose(g)
            assert p.completed_depth == 3
            values.append(p._best[0])
        assert values[0] == values[1], (rules, values)


def test_race_rules_skip_the_three_turn_iteration_but_not_the_depth_limit():
    # Levels 3 and 4 in legendary and jasyr deepen 1, 2, 4 turns (docs/AI.md),
    # yet never beyond the level's depth, and the turn stays legal.
    g = midgame("legendary", plies=6)
    for depth in (3, 4):
        p = Player(3, 2)
        p.depth = depth
        p.node_budget = 100000
        turn = p.choose(g)
        assert p.completed_depth == depth
        h = Game.load(g.dump())
        for code in turn:
            h.play_code(code)


def full_four_turn_nodes(g, reductions_from):
    """Actions a level-3 look 4 turns ahead applies with late-move
    reductions from the given action (index from 0; 99: none) in standard."""
    p = Player(3, 5)
    p.depth = 4
    p.node_budget = 100000
    p.lmr_from = reductions_from
    p.choose(g)
    assert p.completed_depth == 4
    return p.nodes


def test_standard_reduces_every_null_window_action_so_four_turns_fit_level_3():
    # Standard reduces from a node's 2nd action (docs/AI.md, "Late-move
    # reductions"): a full 4-turn look then needs fewer actions than
    # reducing from the 4th, which needs fewer than not reducing.
    from jarmo.rulesets import AI_LMR, row
    assert row("standard")[AI_LMR] == 1
    totals = [0, 0, 0]
    for seed in (1, 2):
        g = midgame("standard", plies=10, seed=seed)
        for k, start in enumerate((1, 3, 99)):
            totals[k] += full_four_turn_nodes(g, start)
    assert totals[0] < totals[1] < totals[2], totals


def test_the_action_buffers_hold_every_legal_action():
    # At most 5 pieces a side, each with at most 6 neighbours, or frozen on
    # the enemy camp with one recall per free camp point (classic) or a flip
    # and a flip with a placement (legendary): 6 each; plus 5 placements.
    for rules in ("classic", "standard", "legendary", "jasyr"):
        g = Game(rules)
        assert max(len(points) for side in g.neighbours for points in side) <= 6
    assert 5 * 6 + 5 <= len(Player(2)._buffer(0))
    most = 0
    for rules, expansions in MIXES:
        for seed in (1, 2):
            g = Game(rules, expansions, 60)
            rng = Rng(seed)
            while g.result() is None:
                codes = g.legal_codes()
                most = max(most, len(codes))
                g.play_code(codes[rng.below(len(codes))])
    assert most <= 35


def test_a_search_path_longer_than_the_stacks_is_evaluated_where_they_end():
    # The stacks hold 32 actions (about 12 are used); a path that would go
    # deeper gets the evaluation there.  With stacks cut to 4 actions every
    # rule set still gets a legal turn.
    for rules in ("classic", "standard", "legendary", "jasyr"):
        g = midgame(rules, plies=6)
        p = Player(4, 3)
        p._size = 4
        p.node_budget = 400
        play_turn(g, p.choose(g))


def _check_updated_keys():
    # Where a turn of one quiet move began at a node with a known key, the
    # search updates that key (the piece's old and new point, the turn)
    # instead of computing it: it must equal _hash of the position.
    import jarmo.ai as ai
    checked = [0]
    enter = ai.Player._enter

    def checking_enter(self, d, mover, alpha, beta, tdep, neg, ft):
        if neg and not ft and self._ttmask >= 0:
            assert self._hash[d] == ai._hash(self._g, ai._ZOBRIST), (d, self._g.history())
            checked[0] += 1
        enter(self, d, mover, alpha, beta, tdep, neg, ft)

    ai.Player._enter = checking_enter
    try:
        for rules, expansions in (("classic", ()), ("standard", ("heroes",)), ("legendary", ()),
                                  ("jasyr", ("heroes", "challenges"))):
            g = midgame(rules, expansions, plies=6)
            p = Player(3, 1)
            p.node_budget = 300
            p.choose(g)
    finally:
        ai.Player._enter = enter
    assert checked[0] > 50


def test_the_updated_position_key_equals_the_full_one():
    import jarmo.ai as ai
    _check_updated_keys()
    assert len(ai._ZOBRIST) == 57 and max(ai._ZOBRIST) < 1 << 29   # sums stay small ints


def test_frozen_code_is_told_by_its_file_not_being_there():
    # Frozen into the firmware, a module's __file__ is its path in the frozen
    # set ("jarmo/ai.py") with no such file; loaded from a file, it names it.
    import jarmo.ai as ai
    assert not ai.FROZEN and not ai.frozen(ai.__file__)
    assert ai.frozen("jarmo/no_such_module.py")
    assert not ai.frozen(None)


def test_the_tables_of_frozen_code_are_bigger_and_key_the_search_alike():
    import jarmo.ai as ai
    ai.use_tables(True)
    try:
        assert len(ai._ZOBRIST) == 800 and max(ai._ZOBRIST) < 1 << 30
        p = Player(4, 1)
        assert len(p._ttkey) == ai.TT_FROZEN[4] > ai.TT_STOCK[4]
        assert len(Player(3, 1)._ttkey) == ai.TT_FROZEN[3] >= ai.TT_STOCK[3]
        _check_updated_keys()
        g = midgame("standard", plies=6)
        p.node_budget = 300
        play_turn(g, p.choose(g))                # a legal turn
    finally:
        ai.use_tables(False)
    assert len(Player(4, 1)._ttkey) == ai.TT_STOCK[4] and len(ai._ZOBRIST) == 57


def test_frozen_codes_hash_numbers_come_in_steps_and_are_the_same_numbers():
    # Jarmo's firmware draws its 800 numbers a part a pass (27 ms at once:
    # the import's pass took 46 ms); the menu's passes, or a player's first
    # steps, draw them, and a search sees the same numbers and plays the same
    import jarmo.ai as ai
    try:
        ai.use_tables(True)
        whole = list(ai._ZOBRIST)
        g = midgame("standard", plies=6)
        p = Player(4, 1)
        p.node_budget = 300
        p.book = None                                   # a search, not the opening book
        turn = p.choose(g)
        ai.use_tables(True, steps=True)
        steps = 0
        while not ai.prepare_tables_step("standard"):   # the menu's passes
            steps += 1
        assert steps >= 3 and list(ai._ZOBRIST) == whole        # 200 numbers a step
        ai.use_tables(True, steps=True)                 # none drawn yet:
        greedy = Player(1, 1)
        greedy.choose(g)                                # greedy has no table to key: not drawn
        assert ai._ZDRAW is not None and not any(ai._ZOBRIST)
        p = Player(4, 1)
        p.node_budget = 300
        p.book = None                                   # level 4 draws them
        assert p.choose(g) == turn and list(ai._ZOBRIST) == whole
    finally:
        ai.use_tables(False)
    assert len(ai._ZOBRIST) == 57


def test_prepared_tables_leave_the_first_turn_only_its_search():
    # The device builds the distance tables before a game (the menu's
    # passes): the first step() of a first greedy turn then searches at once
    # (else it builds tables, applying no action).
    from jarmo import ai
    ai.prepare_tables("standard")
    ai.prepare_tables("jasyr")
    for rules in ("classic", "standard", "legendary", "jasyr"):
        p = Player("greedy", 1)
        p.start(Game(rules))
        p.step()
        assert p.nodes > 0


def test_the_menu_keeps_only_the_tables_of_the_game_it_would_start():
    # Menu.tick calls prepare_tables_step every pass: two steps build the
    # tables of the rules' game kind, and the other kind's leave RAM.
    from jarmo import ai
    ai.prepare_tables("standard")
    while not ai.prepare_tables_step("classic"):        # (earlier tests built jasyr's)
        pass
    assert ai.prepare_tables_step("jasyr") is False      # one half built
    assert ai.prepare_tables_step("jasyr") is True
    assert list(ai._TABLES) == [True]                   # standard's are gone
    assert ai.prepare_tables_step("jasyr") is True      # nothing more to do
    assert ai.prepare_tables_step("legendary") is False   # standard's kind again
    assert ai.prepare_tables_step("classic") is True
    assert list(ai._TABLES) == [False]
    p = Player("greedy", 1)
    p.start(Game("standard"))
    p.step()
    assert p.nodes > 0                                  # no table left to build


def _full_end_check(g, mover):
    """The end-of-turn tests without the quick ones (RULES.md section 2 order)."""
    other = 1 - mover
    if not g.ban and 5 in (g.pool[other] + g.out_count[other], g.pool[mover] + g.out_count[mover]):
        return "wipeout"
    if g.all_in_camp(mover) or (g.scored and g.all_in_camp(other)):
        return "camp"
    if not g.ban and g.repeat_move(0) >= 0 and g.repeat_move(1) >= 0:
        return "repetition"
    if g.ply_limit is not None and g.ply_count >= g.ply_limit:
        return "limit"
    return None


def test_quick_end_of_turn_tests_give_the_full_tests_results():
    # The search ends a turn at almost every node, so Game._end_check rules
    # out most results from the last action; it must agree with the full tests.
    checked = [0]
    quick = Game._end_check

    def both(g, mover):
        result = quick(g, mover)
        assert (result is None) == (_full_end_check(g, mover) is None), g.history()
        checked[0] += 1
        return result
    Game._end_check = both
    try:
        for rules, expansions in MIXES:
            for seed in range(2):
                rng = Rng(seed + 5)
                g = Game(rules, expansions, 120)
                greedy = Player("greedy", seed)
                while g.result() is None:
                    if rng.below(2):
                        for code in greedy.choose(g):
                            g.play_code(code)
                    else:
                        legal = g.legal()
                        g.play(legal[rng.below(len(legal))])
    finally:
        Game._end_check = quick
    assert checked[0] > 600

# Start-up: loading the settings, the statistics and a saved game; and App.new_game's options.
#
# Code that runs once: App imports this module at start-up (and in
# App.recover, App.new_game) and forgets it right after, so on the device
# its code leaves the heap again (docs/ARCHITECTURE.md, On the device).

from jarmo import app_menu as M
from jarmo.app_base import (
    CHALLENGES,
    GAMES,
    HEROES,
    LINKED,
    MATCH,
    NEEDS,
    OPPONENT,
    RULE,
    S_MENU,
    S_NOTICE,
    SIDE,
    opponent_row,
    takes_expansions,
    wrap,
)
from jarmo.board import SIDE_NAMES
from jarmo.game import EXPANSIONS, RULE_SETS
from jarmo.store_log import R_GAME, R_SETTINGS
from jarmo.unload import forget_module


def boot(app, problems):
    """Load settings, statistics and a saved game; open the notice or the menu.

    problems: what the caller found wrong before; each damaged item found
    here is added, by name."""
    problems = list(problems)
    store = app.store
    if store is not None:
        problems.extend(store.problems)
        data = store.read(R_SETTINGS)
        if data is not None:
            M.load(app.settings, data)
        if app.stats.problem:
            problems.append(app.stats.problem)
        _load_game(app, problems)
        store.problems = []         # said once (a recovery boots again)
        store.damaged = []
    M.apply_brightness(app)
    if app.game is not None and _worth_resuming(app):
        app.menu_title = "Saved game found"
    if problems:
        lines = []
        for p in problems:
            lines.extend(wrap(p, 21, 2))
        app.goto(S_NOTICE, tuple(lines))
    else:
        app.goto(S_MENU)


def _worth_resuming(app):
    """A game found at start-up is announced unless nothing of it was played
    (a game started and left before a turn, as the simulator's own first
    game before the lesson): Resume still offers it, without the title."""
    m = app.match
    return (app.game.plies > 0 or (m is not None and m.number > 1) or app.battle >= 0
            or app.linked)


def _load_game(app, problems):
    store = app.store
    saved = store.game()
    if saved is None:
        return
    gid, start, codes = saved
    from jarmo.store_game import link_tag, load
    forget_module("jarmo.store_game")
    try:
        # turns damaged on flash (reported by the store): the game as far as it replays
        game, match, ident, human, battle = load(start, codes, 255,
                                                 R_GAME in store.damaged)
        opp = opponent_row(ident)       # the save keeps the opponent's id
        if opp < 0:
            raise ValueError("bad players")
    except ValueError as e:
        problems.append("game: " + (e.args[0] if e.args else "unreadable"))
        store.end_game()                # reported once
        return
    app.link_tag = link_tag(start)
    app.set_game(game, match, opp, human, app.stats.counted == gid, gid)
    if battle >= 0 and match is None and ident:
        app.battle = battle         # a campaign battle (jarmo.store_campaign; checked when recorded)
    if R_GAME in store.damaged:
        app.game_id = -1            # saved again as far as it replayed
        app.save()
    if game.result() is not None:
        _finished(app, app.linked)


def _finished(app, linked):
    """A game that ended before the power went: counted (if it was not yet),
    a battle's win recorded; then the match's next game, or nothing to resume.
    A linked game goes to its result instead: the other board may not hold
    its last turn yet (the link delivers it; the result says so)."""
    from jarmo.app_screens import count, forget
    if not app.counted:
        count(app)
    if linked:
        return
    if app.battle >= 0:
        from jarmo.store_campaign import record_battle
        record_battle(app)
    m = app.match
    if m is not None and not m.over():
        app.game = m.next_game()
        app.counted = False
        app.game_id = -1
        app.save()
        app.board.read(app.game)
    else:
        forget(app)


def set_options(app, rules, expansions, opponent, side, games):
    """App.new_game: put the given options into the settings (and save them)."""
    s = app.settings
    if rules is not None:
        s[0] = RULE_SETS.index(rules)
    if expansions is not None:
        for k in (0, 1):
            s[HEROES - RULE + k] = 1 if EXPANSIONS[k] in expansions else 0
    if opponent is not None:
        if opponent in ("link", "Link"):
            o = opponent_row(LINKED, NEEDS)
        elif opponent == "human":
            o = opponent_row(0)
        else:
            from jarmo.ai import level_number
            o = opponent_row(level_number(str(opponent)) + 1)      # an AI's id: 1 + its level
        if o < 0:
            raise ValueError("no such opponent in the menu: %r" % (opponent,))
        s[OPPONENT - RULE] = o
    if side is not None:
        s[SIDE - RULE] = SIDE_NAMES.index(side)
    if games is not None:
        s[MATCH - RULE] = GAMES.index(games)
    if not takes_expansions(s) and (s[HEROES - RULE] or s[CHALLENGES - RULE]):
        M.fix(s)
        raise ValueError("the %s rule set takes no expansions" % RULE_SETS[s[0]])
    M.save_settings(app)

# Start-up: loading the settings, the statistics and a saved game; and App.new_game's options.
#
# Code that runs once: App imports this module at start-up (and in
# App.recover, App.new_game) and forgets it right after, so on the device
# its code leaves the heap again (docs/ARCHITECTURE.md, On the device).

import json

from jarmo import app_menu as M
from jarmo.app_base import (
    CHALLENGES,
    GAMES,
    HEROES,
    MATCH,
    OPPONENT,
    OPPONENTS,
    RULE,
    S_MENU,
    S_NOTICE,
    SAVE,
    SETTINGS,
    SIDE,
    wrap,
)
from jarmo.board import SIDE_NAMES
from jarmo.game import EXPANSIONS, RULE_SETS, Game
from jarmo.match import Match


def boot(app):
    """Load settings, statistics and a saved game; open the notice or the menu."""
    problems = []
    store = app.store
    if store is not None:
        text = _read(store, SETTINGS, problems)
        if text is not None:
            try:
                M.load(app.settings, json.loads(text))
            except ValueError:
                _bad(store, SETTINGS, "settings: unreadable", problems)
        if app.stats.problem:
            problems.append(app.stats.problem)
        text = _read(store, SAVE, problems)
        if text is not None:
            _load_game(app, text, problems)
    M.apply_brightness(app)
    if app.game is not None:
        app.states[S_MENU].title = "Saved game found"
    if problems:
        lines = ["Damaged file set", "aside (.bad):"]
        for p in problems:
            lines.extend(wrap(p, 21, 2))
        app.goto(S_NOTICE, tuple(lines[:4]) + ("Press any button",))
    else:
        app.goto(S_MENU)


def _read(store, name, problems):
    """The body stored under name, or None; a damaged file is set aside (the
    store may still have the save before it, in its other slot)."""
    text = store.read(name)
    if store.error:
        _bad(store, name, store.error, problems)
    return text


def _bad(store, name, why, problems):
    problems.append(why)
    try:
        store.set_aside(name)
    except OSError:
        pass


def _load_game(app, text, problems):
    try:
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("v") != 1:
            raise ValueError("unknown version")
        opp = d.get("opp")
        human = d.get("human")
        if type(opp) is not int or not 0 <= opp < len(OPPONENTS) or human not in (0, 1):
            raise ValueError("bad players")
        if "match" in d:
            match = Match.load(d["match"])
            game = match.game
        else:
            match = None
            game = Game.load(d["game"])
    except (ValueError, KeyError, TypeError) as e:
        _bad(app.store, SAVE, "save: %s" % (e.args[0] if e.args else "unreadable"), problems)
        return
    app.set_game(game, match, opp, human, bool(d.get("counted")))
    battle = d.get("battle", -1)
    if type(battle) is int and battle >= 0 and match is None and opp:
        app.battle = battle         # a campaign battle (jarmo.campaign; checked when recorded)


def set_options(app, rules, expansions, opponent, side, games):
    """App.new_game: put the given options into the settings (and save them)."""
    s = app.settings
    if rules is not None:
        s[0] = RULE_SETS.index(rules)
    if expansions is not None:
        for k in (0, 1):
            s[HEROES - RULE + k] = 1 if EXPANSIONS[k] in expansions else 0
    if opponent is not None:
        o = 0
        if opponent != "human":
            from jarmo.ai import level_number
            o = level_number(str(opponent)) + 1
        if o >= len(OPPONENTS):
            raise ValueError("no such opponent in the menu: %r" % (opponent,))
        s[OPPONENT - RULE] = o
    if side is not None:
        s[SIDE - RULE] = SIDE_NAMES.index(side)
    if games is not None:
        s[MATCH - RULE] = GAMES.index(games)
    if s[0] == 0 and (s[HEROES - RULE] or s[CHALLENGES - RULE]):
        M.fix(s)
        raise ValueError("the classic rule set takes no expansions")
    M.save_settings(app)

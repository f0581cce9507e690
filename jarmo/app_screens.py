"""The app's screens outside play: start-up, menu, statistics, notice, end
and result. An *overlay*: App imports this module when one of these screens
opens and unloads it (with app_menu and stats) when play resumes, so its code
costs RAM only while a screen needs it. Every function takes the App.
"""

import json

from jarmo.buttons import NEXT, PREV, UP, DOWN, LEFT, RIGHT, SELECT, BACK, MENU
from jarmo.game import Game
from jarmo.match import Match
from jarmo import app_menu as M
from jarmo import app_view as V
from jarmo import app as A

SETTINGS = "settings"
_CELEBRATE = 3000           # ms of the end-of-game animation
_REASONS = {"camp": "camp", "wipeout": "wipe-out", "repetition": "repetition",
            "stuck": "no moves", "limit": "ply limit"}


# ---------------------------------------------------------------- start-up

def boot(app):
    """Load settings, statistics and a saved game; open the notice or menu."""
    problems = []
    store = app.store
    if store is not None:
        _load_settings(app, problems)
        stats = get_stats(app)
        if stats.problem:
            problems.append(stats.problem)
        _load_game(app, problems)
    app.brightness = M.BRIGHTNESS[app.settings[M.BRIGHT - M.RULE]]
    if app.game is not None:
        app._title = "Saved game found"
    if problems:
        show_notice(app, problems)
    else:
        open_menu(app, None)


def get_stats(app):
    if app._stats is None:
        from jarmo.stats import Stats
        app._stats = Stats(app.store)
    return app._stats


def _load_settings(app, problems):
    store = app.store
    text = store.read(SETTINGS)
    if text is None:
        if store.error:
            problems.append(store.error)
            store.set_aside(SETTINGS)
        return
    try:
        M.load(app.settings, json.loads(text))
    except ValueError:
        problems.append("settings: unreadable")
        store.set_aside(SETTINGS)


def save_settings(app):
    if app.store is None or not app._settings_dirty:
        return
    app._settings_dirty = False
    try:
        app.store.write(SETTINGS, json.dumps(M.dump(app.settings)))
    except OSError:
        pass


def _load_game(app, problems):
    store = app.store
    text = store.read(A.SAVE)
    if text is None:
        if store.error:
            problems.append(store.error)
            app._set_aside()
        return
    try:
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("v") != 1:
            raise ValueError("unknown version")
        opp = d.get("opp")
        human = d.get("human")
        if type(opp) is not int or not 0 <= opp < len(M.OPPONENTS) or human not in (0, 1):
            raise ValueError("bad players")
        if "match" in d:
            match = Match.load(d["match"])
            game = match.game
        else:
            match = None
            game = Game.load(d["game"])
    except (ValueError, KeyError, TypeError) as e:
        problems.append("save: %s" % (e.args[0] if e.args else "unreadable"))
        app._set_aside()
        return
    app.match = match
    app.game = game
    app._opp = opp
    app._human0 = human
    app._counted = bool(d.get("counted"))
    app._refresh_cells()


# ---------------------------------------------------------------- notice

def show_notice(app, problems):
    lines = ["Damaged file set", "aside (.bad):"]
    for p in problems:
        lines.extend(A.wrap(p, 21, 2))
    lines = lines[:4]
    lines.append("Press any button")
    app._state = A.S_NOTICE
    app._set_text(tuple(lines))


def press_notice(app, b, player):
    open_menu(app, None)


def draw_notice(app, buf):
    V.draw_icon(buf, V.ICON_CROSS, V.RED, app._now)


# ---------------------------------------------------------------- menu

def open_menu(app, item):
    app._state = A.S_MENU
    app._sel = -1
    if item is None or not M.visible(app.settings, item, app.game is not None):
        item = M.RESUME if app.game is not None else M.NEW
    app._item = item
    menu_text(app)


def _items(app):
    s = app.settings
    resumable = app.game is not None
    return [i for i in range(M.ITEMS) if M.visible(s, i, resumable)]


def menu_text(app):
    items = _items(app)
    k = items.index(app._item) if app._item in items else 0
    first = max(0, min(k - 1, len(items) - 4))
    lines = [app._title]
    for i in items[first:first + 4]:
        lines.append((">" if i == app._item else " ") + M.label(app.settings, i))
    app._set_text(tuple(lines))


def press_menu(app, b, player):
    s = app.settings
    items = _items(app)
    k = items.index(app._item) if app._item in items else 0
    item = items[k]
    if b == NEXT or b == DOWN:
        app._item = items[(k + 1) % len(items)]
    elif b == UP:
        app._item = items[(k - 1) % len(items)]
    elif b == PREV or b == BACK or b == MENU:
        if app.game is not None:
            resume(app)
            return
    elif item == M.RESUME or item == M.NEW or item == M.STATS:
        if b == SELECT:
            if item == M.RESUME:
                resume(app)
            elif item == M.NEW:
                new_game(app)
            else:
                app._stats_rules = s[0]
                app._state = A.S_STATS
                stats_text(app)
            return
    else:
        M.change(s, item, -1 if b == LEFT else 1)
        app._settings_dirty = True
        app.brightness = M.BRIGHTNESS[s[M.BRIGHT - M.RULE]]
    menu_text(app)


def draw_menu(app, buf):
    if app.has_display:
        app._draw_plain_board(buf)
        return
    item = app._item
    v = M.value(app.settings, item)
    if item == M.MATCH:
        v = M.GAMES[v] - 1
    colour = V.SIDE[v] if item == M.SIDE else 0x707070
    V.draw_menu(buf, item, v, colour, app._now)


def new_game(app):
    s = app.settings
    save_settings(app)
    rules = M.RULES[s[0]]
    games = M.GAMES[s[M.MATCH - M.RULE]]
    if games > 1:
        app.match = Match(rules, games, M.expansions(s))
        app.game = app.match.game
    else:
        app.match = None
        app.game = Game(rules, M.expansions(s))
    app._opp = s[M.OPPONENT - M.RULE]
    app._human0 = s[M.SIDE - M.RULE]
    app._player = None
    app._start_game()


OPPONENT_NAMES = ("human", "random", "greedy", "2", "3")


def start(app, rules=None, expansions=None, opponent=None, side=None, games=None):
    """App.new_game: set the given settings and start, as the menu would."""
    s = app.settings
    if rules is not None:
        s[0] = M.RULES.index(rules)
    if expansions is not None:
        s[M.HEROES - M.RULE] = 1 if "heroes" in expansions else 0
        s[M.CHALLENGES - M.RULE] = 1 if "challenges" in expansions else 0
    if opponent is not None:
        s[M.OPPONENT - M.RULE] = OPPONENT_NAMES.index(str(opponent))
    if side is not None:
        s[M.SIDE - M.RULE] = ("south", "north").index(side)
    if games is not None:
        s[M.MATCH - M.RULE] = M.GAMES.index(games)
    if s[0] == 0 and (s[M.HEROES - M.RULE] or s[M.CHALLENGES - M.RULE]):
        s[M.HEROES - M.RULE] = s[M.CHALLENGES - M.RULE] = 0
        raise ValueError("the classic rule set takes no expansions")
    app._settings_dirty = True
    new_game(app)


def resume(app):
    save_settings(app)
    if app.game.result() is not None:
        to_result(app)
    else:
        app._begin_turn()


# ---------------------------------------------------------------- statistics

def stats_text(app):
    lines = get_stats(app).lines(M.RULES[app._stats_rules])
    app._set_text(lines + ("NEXT: rules PREV:back",))


def press_stats(app, b, player):
    if b == PREV or b == BACK or b == MENU:
        open_menu(app, M.STATS)
        return
    step = -1 if b == LEFT or b == UP else 1
    app._stats_rules = (app._stats_rules + step) % len(M.RULES)
    stats_text(app)


def draw_stats(app, buf):
    V.draw_stats(buf, app._stats_rules, get_stats(app).counts(M.RULES[app._stats_rules]))


# ---------------------------------------------------------------- end, result

def game_over(app, record):
    """The game has ended (its final position is saved): count it, celebrate."""
    g = app.game
    result = g.result()
    if record:
        get_stats(app).record(g.rules, result.winner)
    app._state = A.S_END
    app._t0 = app._now
    w = result.winner
    app.celebrate = None if w is None else V.SIDE[0 if w == "south" else 1]
    result_text(app)


def press_end(app, b, player):
    to_result(app)


def tick_end(app):
    if V.ticks_diff(app._now, app._t0) >= _CELEBRATE:
        to_result(app)


def to_result(app):
    app.celebrate = None
    app._state = A.S_RESULT
    app._t0 = app._now
    result_text(app)


def draw_end(app, buf):
    c = app.celebrate
    V.draw_celebrate(buf, V.NEUTRAL if c is None else c, V.ticks_diff(app._now, app._t0))


def _players(app):
    if not app._opp:
        return ("P1", "P2")
    return ("You", "AI") if app._human0 == 0 else ("AI", "You")


def result_text(app):
    r = app.game.result()
    w = r.winner
    head = "Draw" if w is None else ("South" if w == "south" else "North") + " wins"
    lines = [head + ": " + _REASONS.get(r.reason, r.reason)]
    if r.points is not None:
        lines.append("Points S %d - N %d" % r.points)
    m = app.match
    if m is not None:
        a, b = m.totals
        p = _players(app)
        lines.append("Game %d/%d %s %d %s %d" % (m.number, m.games, p[0], a, p[1], b))
        if m.over():
            mw = m.winner()
            lines.append("Match: " + ("drawn" if mw is None else
                                      (p[0] if mw == "first" else p[1]) + " win"))
    more = m is not None and not m.over()
    lines.append("SELECT: next game" if more else "SELECT: menu")
    app._set_text(tuple(x[:21] for x in lines))


def press_result(app, b, player):
    if b == SELECT or b == NEXT:
        m = app.match
        if m is not None and not m.over():
            app.game = m.next_game()
            app._start_game()
        else:
            app._forget()
            open_menu(app, M.NEW)
    elif b == PREV or b == BACK or b == MENU:
        open_menu(app, None)


def draw_result(app, buf):
    if app.has_display:
        app._draw_plain_board(buf)
        return
    m = app.match
    if m is not None and app._now & 4096:
        # match totals, by side of the current game
        a, b = m.totals
        if m.side_of("first") == "north":
            a, b = b, a
        V.draw_points(buf, a, b, True)
        return
    r = app.game.result()
    if r.points is not None:
        s, n = r.points
    else:
        s = 5 if r.winner == "south" else 0
        n = 5 if r.winner == "north" else 0
    V.draw_points(buf, s, n)
    if not s and not n:
        V.put(buf, 12, V.NEUTRAL)


PRESS = {A.S_MENU: press_menu, A.S_STATS: press_stats, A.S_END: press_end,
         A.S_RESULT: press_result, A.S_NOTICE: press_notice}
DRAW = {A.S_MENU: draw_menu, A.S_STATS: draw_stats, A.S_END: draw_end,
        A.S_RESULT: draw_result, A.S_NOTICE: draw_notice}

# Overlay of the rarer screens: start-up, notice, statistics, end, result;
# and App.new_game (start), which the simulator and the tests use.
#
# App imports this module (with app_menu and stats) when one of them opens
# and unloads it when the menu or a game takes over (jarmo/app.py). Every
# function takes the App.

import json

from jarmo.buttons import PREV, UP, LEFT, SELECT, BACK, MENU, NEXT
from jarmo.game import Game
from jarmo.match import Match
from jarmo import app as A
from jarmo import app_menu as M
from jarmo import app_view as V
from jarmo.stats import key

_CELEBRATE = 3000           # ms of the end-of-game animation
_REASONS = {"camp": "camp", "wipeout": "wipe-out", "repetition": "repetition",
            "stuck": "no moves", "limit": "ply limit"}


def press(app, b, player):
    st = app._state
    if st == A.S_STATS:
        if b == PREV or b == BACK or b == MENU:
            M.open_menu(app, M.STATS)
        else:
            _stats_step(app, -1 if b == LEFT or b == UP else 1)
            _stats_text(app)
    elif st == A.S_RESULT:
        if b == SELECT or b == NEXT:
            m = app.match
            if m is not None and not m.over():
                app.game = m.next_game()
                app._use(A.PLAY).start_game(app)
            else:
                _forget(app)
                M.open_menu(app, M.NEW)
        elif b == PREV or b == BACK or b == MENU:
            M.open_menu(app)
    elif st == A.S_END:
        to_result(app)
    else:                   # the notice: any button
        M.open_menu(app)


def tick(app):
    if app._state == A.S_END and V.ticks_diff(app._now, app._t0) >= _CELEBRATE:
        to_result(app)


def draw(app, buf):
    st = app._state
    if st == A.S_NOTICE:
        V.draw_icon(buf, V.ICON_CROSS, V.RED, app._now)
    elif st == A.S_END:
        _draw_celebrate(buf, app.celebrate, V.ticks_diff(app._now, app._t0))
    elif st == A.S_STATS:
        _draw_stats(buf, app._stats_rules, app._stats_opp,
                    app.stats.counts(M.RULES[app._stats_rules], app._stats_opp))
    elif app.has_display:
        V.draw_board(buf, app._cells, app._under, app._markers, -1, app._now)
    else:
        _draw_result(app, buf)


# ---------------------------------------------------------------- start-up

def start(app, rules=None, expansions=None, opponent=None, side=None, games=None):
    """App.new_game: set the given settings and start, as the menu would."""
    s = app.settings
    if rules is not None:
        s[0] = M.RULES.index(rules)
    if expansions is not None:
        s[M.HEROES - M.RULE] = 1 if "heroes" in expansions else 0
        s[M.CHALLENGES - M.RULE] = 1 if "challenges" in expansions else 0
    if opponent is not None:
        o = 0
        if opponent != "human":
            from jarmo.ai import level_number
            o = level_number(str(opponent)) + 1
        if o >= len(M.OPPONENTS):
            raise ValueError("no such opponent in the menu: %r" % (opponent,))
        s[M.OPPONENT - M.RULE] = o
    if side is not None:
        s[M.SIDE - M.RULE] = ("south", "north").index(side)
    if games is not None:
        s[M.MATCH - M.RULE] = M.GAMES.index(games)
    if s[0] == 0 and (s[M.HEROES - M.RULE] or s[M.CHALLENGES - M.RULE]):
        M._fix(s)
        raise ValueError("the classic rule set takes no expansions")
    app._settings_dirty = True
    M.new_game(app)


def boot(app):
    """Load settings, statistics and a saved game; open the notice or menu."""
    problems = []
    store = app.store
    if store is not None:
        text = _read(store, M.SETTINGS, problems)
        if text is not None:
            try:
                M.load(app.settings, json.loads(text))
            except ValueError:
                _bad(store, M.SETTINGS, "settings: unreadable", problems)
        if app.stats.problem:
            problems.append(app.stats.problem)
        text = _read(store, A.SAVE, problems)
        if text is not None:
            _load_game(app, text, problems)
    app.brightness = M.BRIGHTNESS[app.settings[M.BRIGHT - M.RULE]]
    if app.game is not None:
        app._title = "Saved game found"
    if problems:
        lines = ["Damaged file set", "aside (.bad):"]
        for p in problems:
            lines.extend(A.wrap(p, 21, 2))
        app._state = A.S_NOTICE
        app._set_text(tuple(lines[:4]) + ("Press any button",))
    else:
        M.open_menu(app)


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
        if type(opp) is not int or not 0 <= opp < len(M.OPPONENTS) or human not in (0, 1):
            raise ValueError("bad players")
        if "match" in d:
            match = Match.load(d["match"])
            game = match.game
        else:
            match = None
            game = Game.load(d["game"])
    except (ValueError, KeyError, TypeError) as e:
        _bad(app.store, A.SAVE, "save: %s" % (e.args[0] if e.args else "unreadable"), problems)
        return
    app.match = match
    app.game = game
    app._opp = opp
    app._human0 = human
    app._counted = bool(d.get("counted"))
    app._refresh_cells()


def _forget(app):
    """The game or match is over and seen: nothing to resume any more."""
    app.game = None
    app.match = None
    app._player = None
    app._cells = bytearray(25)      # the menu shows an empty board
    app._under = bytearray(25)
    app._markers = 0
    if app.store is not None:
        try:
            app.store.delete(A.SAVE)
        except (OSError, AttributeError):
            pass


# ---------------------------------------------------------------- statistics

def open_stats(app):
    """Statistics of the rule set and opponent in the settings: one page per
    rule set and opponent with games (docs/APP.md)."""
    app._stats_rules = app.settings[0]
    app._stats_opp = key(app.settings[M.OPPONENT - M.RULE])
    app._state = A.S_STATS
    _stats_step(app, 0)
    _stats_text(app)


def _pages(app, r):
    """The opponent keys shown for rule set r: those with games, else the
    opponent in the settings (a page of zeros)."""
    return app.stats.keys(M.RULES[r]) or [key(app.settings[M.OPPONENT - M.RULE])]


def _stats_step(app, step):
    """The next (step 1) or previous (-1) page; through a rule set's
    opponents, then on to the next rule set."""
    r = app._stats_rules
    keys = _pages(app, r)
    k = keys.index(app._stats_opp) + step if app._stats_opp in keys else 0
    if not 0 <= k < len(keys):
        r = (r + step) % len(M.RULES)
        keys = _pages(app, r)
        k = 0 if step > 0 else len(keys) - 1
    app._stats_rules = r
    app._stats_opp = keys[k]


def _stats_text(app):
    opp = app._stats_opp
    lines = app.stats.lines(M.RULES[app._stats_rules], opp,
                            "AI %d" % (int(opp[2:]) + 1) if opp[0] == "a" else None)
    app._set_text(lines + ("NEXT: more PREV: back",))


def _draw_stats(buf, rules, opp, counts):
    """LED-only statistics: the rule set number on rank 5; the opponent on
    rank 4 (AI n: n white LEDs from a4; two players: a4 South's colour, e4
    North's; earlier games: dark); ranks 1..3 the counts as fifths of the
    games: rank 1 South's wins (against the AI: yours, yellow), rank 2
    draws (grey), rank 3 North's wins (the AI's, reddish purple)."""
    V.clear(buf)
    V.draw_count(buf, 20, rules + 1, V.WHITE)
    ai = opp[0] == "a"
    if ai:
        V.draw_count(buf, 15, int(opp[2:]) + 1, V.WHITE)
    elif opp == "p2":
        V.put(buf, 15, V.SIDE[0])
        V.put(buf, 19, V.SIDE[1])
    total = counts[0] + counts[1] + counts[2]
    rows = (0, 2, 1)      # South (you) -> rank 1, North (AI) -> rank 3, draws -> rank 2
    colours = (0xF0E442, 0xCC79A7, V.NEUTRAL) if ai else (V.SIDE[0], V.SIDE[1], V.NEUTRAL)
    for k in range(3 if total else 0):
        n = (counts[k] * 5 + total // 2) // total
        if counts[k] and not n:
            n = 1
        V.draw_count(buf, rows[k] * 5, n, colours[k])


# ---------------------------------------------------------------- end, result

def game_over(app, record):
    """The game has ended (its final position is saved): count it, celebrate."""
    g = app.game
    w = g.result().winner
    if record:
        m = app.match
        you = app._human0 if m is None or m.number % 2 else 1 - app._human0
        app.stats.record(g.rules, w, key(app._opp), ("south", "north")[you])
    app._state = A.S_END
    app._t0 = app._now
    app.celebrate = None if w is None else V.SIDE[0 if w == "south" else 1]
    _result_text(app)


def to_result(app):
    app.celebrate = None
    app._state = A.S_RESULT
    app._t0 = app._now
    _result_text(app)


def _draw_celebrate(buf, c, elapsed):
    """Rings of the winner's colour (grey for a draw) running out from c3."""
    if c is None:
        c = V.NEUTRAL
    phase = (elapsed >> 8) % 3
    for i in range(25):
        f = i % 5 - 2
        r = i // 5 - 2
        d = max(f if f > 0 else -f, r if r > 0 else -r)
        V.put_k(buf, i, c, 256 if d == phase else 24)


def _result_text(app):
    r = app.game.result()
    w = r.winner
    head = "Draw" if w is None else ("South" if w == "south" else "North") + " wins"
    lines = list(A.wrap(head + ": " + _REASONS.get(r.reason, r.reason), 21, 2))
    if r.points is not None:
        lines.append("Points S %d - N %d" % r.points)
    m = app.match
    if m is not None:
        a, b = m.totals
        if not app._opp:
            p = ("P1", "P2")
        else:
            p = ("You", "AI") if app._human0 == 0 else ("AI", "You")
        lines.append("Game %d/%d %s %d %s %d" % (m.number, m.games, p[0], a, p[1], b))
        if m.over():
            mw = m.winner()
            lines.append("Match: " + ("drawn" if mw is None else
                                      (p[0] if mw == "first" else p[1]) + " win"))
    more = m is not None and not m.over()
    lines.append("SELECT: next game" if more else "SELECT: menu")
    app._set_text(tuple(x[:21] for x in lines[:5]))


def _draw_result(app, buf):
    """LED-only result: South's points lit from a1 up, North's from e5 down
    (at most 12 each); in a match every other 4 s the match totals by side
    of the current game, marked by a white c3."""
    m = app.match
    totals = m is not None and app._now & 4096
    if totals:
        s, n = m.totals
        if m.side_of("first") == "north":
            s, n = n, s
    else:
        r = app.game.result()
        if r.points is not None:
            s, n = r.points
        else:
            s = 5 if r.winner == "south" else 0
            n = 5 if r.winner == "north" else 0
    V.clear(buf)
    V.draw_count(buf, 0, min(s, 12), V.SIDE[0])
    V.draw_count(buf, 24, min(n, 12), V.SIDE[1], -1)
    if totals:
        V.put(buf, 12, V.WHITE)
    elif not s and not n:
        V.put(buf, 12, V.NEUTRAL)       # a draw without points

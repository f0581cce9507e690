# Overlay of the states play (a human's turn) and ai (the AI's turn).
#
# App imports this module when a game starts or resumes and unloads it, with
# app_turn, when a screen opens (jarmo/app.py). Every function takes the App.
# Turn input (which picks make which action) is app_turn's; this module keeps
# the turn going: cursor, selection, refusals, the AI's slices, saving.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.board import NAMES, point
from jarmo.buttons import NEXT, PREV, UP, RIGHT, SELECT, BACK, MENU, LEFT, DOWN
from jarmo import app as A
from jarmo import app_turn as T
from jarmo import app_view as V

_AI_DELAY = const(400)      # ms between the AI's actions, and before the first
_FLASH = const(600)         # ms of a capture or refusal strobe
_ARRIVE = const(300)        # ms a moved piece glows on arrival
_POINTS = const(0x1FFFFFF)  # the 25 board points of a choice mask

_KIND_NAMES = ("archer", "marked archer", "guard", "gold archer", "gold guard")


# ------------------------------------------------------------ game flow

def start_game(app):
    """A game (or the next of a match) begins: save it, then its first turn."""
    app._counted = False
    app._trail = app._arrive = -1
    app._flash = -2
    app._msg = ()
    app._cursor = 0
    app._save()
    begin_turn(app)


def begin_turn(app):
    """The turn of the side to move: the AI's, a human's, or the game is over."""
    app._refresh_cells()
    app._sel = -1
    app._queue = None
    if app.game.result() is not None:
        app._use(A.SCREENS).game_over(app, False)
    elif app._turn_side() == _ai_side(app) and _start_ai(app):
        app._state = A.S_AI
        app._t0 = app._now
        app._dots = -1
        _ai_text(app)
    else:
        app._state = A.S_PLAY
        _build(app)
        _play_text(app)


def _ai_side(app):
    """The side the AI plays in the running game, or -1."""
    if not app._opp:
        return -1
    m = app.match
    swapped = m is not None and m.number % 2 == 0
    return 1 - app._human0 if not swapped else app._human0


def _act(app, a):
    """Play one action; None, or why it is refused (the game is unchanged)."""
    g = app.game
    frm = to = cap = -1
    if len(a) == 5 and a[2] == "-":
        frm = point(a[:2])
        to = point(a[3:])
        c = app._cells[to]
        if c and V.cell_side(c) != app._turn_side():
            cap = to
    elif "@" in a:
        to = point(a[-2:])
        if a[0] not in "@r":
            frm = point(a[:2])
    elif a[-1] == "*":
        to = point(a[:2])
    plies = g.plies
    try:
        g.play(a)
    except (ValueError, ImportError) as e:
        # IllegalMove is a ValueError; its text is "<action> is not legal: <why>"
        why = e.args[0] if e.args and isinstance(e, ValueError) else ""
        if not isinstance(why, str) or not why:
            return "not legal now"
        return why[why.find(": ") + 2:] if ": " in why else why
    app._trail = frm
    app._arrive = to
    app._arrive_t = app._now
    if cap >= 0:
        _flash_at(app, cap, V.WHITE)
    app._refresh_cells()
    if g.plies != plies or g.result() is not None:
        _turn_over(app)
    elif app._state == A.S_PLAY:
        _build(app)
    return None


def _turn_over(app):
    """The turn is complete: save, then the next turn or the end."""
    over = app.game.result() is not None
    # saved as counted first: a power cut loses a count, never doubles it
    record = over and not app._counted
    app._counted = app._counted or over
    app._save()
    if over:
        app._use(A.SCREENS).game_over(app, record)
    else:
        begin_turn(app)


def _flash_at(app, where, colour):
    app._flash = where
    app._flash_c = colour
    app._flash_t = app._now


def _title_line(app):
    g = app.game
    t = g.rules
    for e in g.expansions:
        t += "+" + e[0].upper()
    m = app.match
    if m is not None:
        t += " %d/%d" % (m.number, m.games)
    return t


def _who(app):
    return "South" if app._turn_side() == 0 else "North"


def press(app, b, player):
    if app._state == A.S_AI:
        if b == MENU or b == BACK or b == PREV:
            app._use(A.MENU).open_menu(app)
        return
    if b == MENU:
        app._use(A.MENU).open_menu(app)
        return
    if app.tabletop and not app._opp and player != app._turn_side():
        return
    if app._choices is None:    # this overlay was swapped out meanwhile
        _build(app)
    _press_turn(app, b, player)
    if app._state == A.S_PLAY:
        _play_text(app)


def tick(app):
    if app._state == A.S_AI:
        _tick_ai(app)


def draw(app, buf):
    now = app._now
    side = app._turn_side()
    c = app._cursor
    ai = app._state == A.S_AI
    if not ai and c >= 25:
        V.draw_icon(buf, V.ICONS[c - 25], V.CURSOR[side], V.ticks_diff(now, app._cur_t))
    else:
        V.draw_board(buf, app._cells, app._under, app._markers, app._trail, now)
        if app._arrive >= 0 and V.ticks_diff(now, app._arrive_t) < _ARRIVE:
            V.put_k(buf, app._arrive, V.WHITE, 160)
        if not ai:
            _draw_turn(app, buf, side, c)
        elif app._queue is None:
            V.draw_spinner(buf, V.CURSOR[side], now)
    # a capture or a refusal strobes over everything
    f = app._flash
    if f != -2:
        dt = V.ticks_diff(now, app._flash_t)
        if dt >= _FLASH:
            app._flash = -2
        elif not dt & 128:
            for i in range(25):
                if f == i or f == -1:
                    V.put(buf, i, app._flash_c)


# ------------------------------------------------------------ human turn

def _build(app):
    """Choices for the human's next pick (turn start or open turn)."""
    ch = app._choices
    if ch is None:
        ch = app._choices = T.Choices()
    ch.build(app.game.legal())
    _drop(app)
    pts = ch.firsts & _POINTS
    c = app._cursor
    if not (c < 25 and pts >> c & 1):
        c = T.cycle(pts or ch.firsts, -1)
    _cursor_to(app, c)


def _drop(app):
    """No selection: the one-pick points (placements) are the targets."""
    app._sel = -1
    app._tmask = app._choices.placements()


def _cursor_to(app, c):
    app._cursor = c
    app._cur_t = app._now


def _press_turn(app, b, player):
    app._msg = ()
    ch = app._choices
    sel = app._sel
    if b == NEXT:
        mask = ch.targets(sel) if sel >= 0 else ch.firsts
        _cursor_to(app, T.cycle(mask, app._cursor))
    elif b == PREV or b == BACK:
        if sel < 0:
            app._use(A.MENU).open_menu(app)
            return
        _drop(app)
        if sel < 25:
            _cursor_to(app, sel)
    elif b == SELECT:
        _pick(app, app._cursor)
    elif UP <= b <= RIGHT:
        dx = -1 if b == LEFT else 1 if b == RIGHT else 0
        dy = -1 if b == DOWN else 1 if b == UP else 0
        if app.tabletop and player == 1:
            dx = -dx
            dy = -dy
        _cursor_to(app, T.step(app._cursor, dx, dy, ch.firsts))


def _pick(app, c):
    ch = app._choices
    sel = app._sel
    if c == T.MENU:
        app._use(A.MENU).open_menu(app)
    elif sel >= 0 and app._tmask >> c & 1:
        _human(app, ch.action(app.game.legal(), sel, c))
    elif sel >= 0 and c == sel:
        _drop(app)
    elif ch.firsts >> c & 1:
        a = ch.action(app.game.legal(), c)
        if a is not None:
            _human(app, a)
        else:
            app._sel = c
            app._tmask = t = ch.targets(c)
            _cursor_to(app, T.cycle(t, c))
    else:
        _refuse(app, c, sel)


def _human(app, a):
    why = _act(app, a)
    if why is not None:        # cannot happen with legal() choices; be safe
        app._msg = A.wrap(why, 21, 3)


def _refuse(app, c, sel):
    """An illegal pick: a short reason and a red flash; the game is unchanged."""
    name = T.choice_name(c)
    why = None
    if sel == T.REDEPLOY:
        a = "r@" + name
    elif sel >= 0:
        a = NAMES[sel] + "-" + name
    elif c >= 25:
        a = name
    else:
        a = "@" + name
        cell = app._cells[c]
        if cell:
            mine = V.cell_side(cell) == app._turn_side()
            why = name + (" cannot act now" if mine else " is not yours")
    if why is None:
        why = _act(app, a)      # legal after all (not offered as a pick): keep it
        if why is None:
            return
    _drop(app)
    _flash_at(app, c if c < 25 else -1, V.RED)
    app._msg = ("No: " + a,) + A.wrap(why, 21, 2)


def _play_text(app):
    g = app.game
    lines = [_title_line(app), _who(app) + (" (you)" if app._opp else "")]
    lines[1] += ": place/done" if g.open_turn() else " to move"
    if app._msg:
        lines.extend(app._msg)
    else:
        sel = app._sel
        if sel >= 0:
            lines.append(T.choice_name(sel) + " > " + T.bits(app._tmask))
        lines.append("at " + _describe(app, app._cursor))
        s = g.held("south")
        n = g.held("north")
        if s or n:
            lines.append("held S%d N%d" % (s, n))
        h = g.history()
        if h and len(lines) < 5:
            lines.append("last " + h[-1])
    app._set_text(tuple(x[:21] for x in lines[:5]))


def _describe(app, c):
    if c >= 25:
        return T.choice_name(c)
    cell = app._cells[c]
    name = NAMES[c]
    if not cell:
        return name + (" marker" if app._markers >> c & 1 else " empty")
    text = name + (" S " if V.cell_side(cell) == 0 else " N ") + _KIND_NAMES[(cell - 1) % 5]
    if app._under[c]:
        text += "+hostage"
    return text


def _draw_turn(app, buf, side, c):
    now = app._now
    cells = app._cells
    sel = app._sel
    t = app._tmask
    if sel < 0:
        # free own-camp points where a held piece (or redeploy) can go
        if t and V.blink(now, 1024):
            arch = V.PIECE[side * 5]
            for i in range(25):
                if t >> i & 1:
                    V.put(buf, i, arch)
    else:
        blink = V.blink(now, 512)
        for i in range(25):
            # a capture target: the enemy piece alternates with the mark
            if t >> i & 1 and not (cells[i] and blink):
                V.put(buf, i, V.TARGET if not cells[i] else V.TARGET * 2)
        if sel < 25 and not (t >> sel & 1 and blink):
            V.put(buf, sel, V.SELECTED)
    if not V.ticks_diff(now, app._cur_t) & 512:
        V.put(buf, c, V.CURSOR[side])


# ------------------------------------------------------------ AI turn

def _start_ai(app):
    """Give the AI the position; False (play on as humans) if there is no AI."""
    p = app._player
    if p is None:
        m = app.match
        try:
            from jarmo.ai import Player
            # opponents 1..4 (random, greedy, 2, 3) are the AI's levels 0..3
            p = app._player = Player(app._opp - 1,
                                     seed=app.seed + (m.number if m is not None else 1))
        except (ImportError, ValueError):
            app._opp = 0
            app._msg = ("No AI: playing", "two-player")
            return False
    p.start(app.game)       # the AI thinks on its own copy
    return True


def _ai_text(app):
    if app._queue is None:
        dots = (V.ticks_diff(app._now, app._t0) >> 9) & 3
        if dots == app._dots and app.text:
            return      # unchanged: build no strings while thinking
        app._dots = dots
        second = " (AI) thinks" + "." * (dots + 1)
    else:
        second = " (AI) plays"
    h = app.game.history()
    lines = (_title_line(app), _who(app) + second)
    if h:
        lines += ("last " + h[-1],)
    app._set_text(lines + app._msg)


def _tick_ai(app):
    g = app.game
    now = app._now
    q = app._queue
    if q is None:
        p = app._player
        for _ in range(app.ai_steps):
            r = p.step()
            if r is not None:
                app._queue = r
                app._qi = 0
                app._due = V.ticks_add(now, _AI_DELAY)
                break
        _ai_text(app)
        return
    if V.ticks_diff(now, app._due) < 0:
        return
    app._due = V.ticks_add(now, _AI_DELAY)
    plies = g.plies
    app._dirty = True
    if app._qi < len(q):
        a = q[app._qi]
        app._qi += 1
        if _act(app, a) is None:
            if app._state == A.S_AI and g.plies == plies:
                _ai_text(app)
            return
        # an illegal action from the AI: play a legal one rather than stop
        legal = g.legal()
        if legal:
            _act(app, legal[0])
    # the AI's actions ran out and its turn is still open: think again
    if app._state == A.S_AI and g.plies == plies and g.result() is None:
        app._queue = None
        _start_ai(app)

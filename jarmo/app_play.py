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

_SIDE_WORDS = ("South", "North")
_SIDES = ("south", "north")

# The words of the display, in one string: one object on the heap instead of
# some thirty (RAM, docs/APP.md); _word(k) is its k-th phrase, and the code
# names each phrase it takes in a comment. (Named constants would cost an
# interned name each.) The events follow the actor's name: "AI" + " took ...".
_WORDS = (
    "archer|marked archer|guard|gold archer|gold guard|"    # 0..4 by cell kind
    "Golden Soldier|"                                       # 5
    " moved %s to %s.| took %s on %s.|"                     # 6 7
    " placed %s on %s.| recalled an archer to %s.|"         # 8 9
    " redeployed a piece to %s. Markers gone.|"             # 10
    " flipped the guard on %s: 1 piece back%s|"             # 11
    " Hostage freed.| Hostage taken.|"                      # 12 13
    " Now a guard.| Now marked.| It goes back held.|"       # 14 15 16
    " Guard in camp: 1 back, held.|"                        # 17
    " Guard in camp: 1 back, place or done.|"               # 18
    " Guard in camp, now an archer.|"                       # 19
    "Held: South %d North %d|: redeploy/done|: place or done|remote camp")  # 20..23


def _word(k):
    return _WORDS.split("|")[k]


# ------------------------------------------------------------ game flow

def start_game(app):
    """A game (or the next of a match) begins: save it, then its first turn."""
    app._counted = False
    app._trail = app._arrive = -1
    app._flash = -2
    app._msg = ()
    app._ev = []
    app._ev_side = -1
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
    side = app._turn_side()
    frm = to = -1
    if "-" in a:
        frm = point(a[:2])
        to = point(a[3:])
    elif "@" in a:
        to = point(a[-2:])
        if a[0] not in "@r":
            frm = point(a[:2])
    elif a[-1] == "*":
        to = point(a[:2])
    # the position before, for the words of the event (_tell)
    was = app._cells[to] if to >= 0 else 0
    under = app._under[to] if to >= 0 else 0
    mover = app._cells[frm] if frm >= 0 else 0
    held = g.held("south") | g.held("north") << 4
    plies = g.plies
    try:
        g.play(a)
    except (ValueError, ImportError):
        # IllegalMove is a ValueError. Every action played here comes from
        # legal() (refusals are explained by jarmo.explain before): be safe
        return "that is not possible now"
    app._trail = frm
    app._arrive = to
    app._arrive_t = app._now
    if was and frm >= 0 and "-" in a:
        _flash_at(app, to, V.WHITE)     # a capture
    app._refresh_cells()
    _tell(app, a, side, frm, to, was, under, mover, held)
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


# ------------------------------------------------------------ events in words

def _subject(app, side):
    """Who acted: "You" or "AI" against the AI, else "South" or "North"."""
    if app._opp:
        return "AI" if side == _ai_side(app) else "You"
    return _SIDE_WORDS[side]


def _a(app, side, cell):
    """A piece of `side` in words: "your archer" (the human's, against the
    AI), else (or with side -1) "an archer", "a guard", "a Golden Soldier"."""
    k = (cell - 1) % 5
    k = _word(k if k < 3 else 5)       # archer, marked archer, guard, Golden Soldier
    if side >= 0 and app._opp and side != _ai_side(app):
        return "your " + k
    return ("an " if k[0] == "a" else "a ") + k


def _tell(app, a, side, frm, to, was, under, mover, held):
    """Put the action just played into words (app._ev, the events of the
    latest turn): captures, hostages, promotions, pieces back, placements."""
    g = app.game
    if app._ev_side != side:
        app._ev = []
        app._ev_side = side
    if to < 0:
        return                  # done
    n = NAMES[to]
    now = app._cells[to]
    kind = (mover - 1) % 5
    who = _subject(app, side)
    if "*" in a:
        # flipped the guard on %s: 1 piece back%s
        t = _word(11) % (a[:2], " on " + n + "." if frm >= 0 else ", held.")
    elif a[0] == "r":
        t = _word(10) % n       # redeployed a piece to %s. Markers gone.
    elif a[0] == "@":
        t = _word(8) % (_a(app, -1, now), n)       # placed %s on %s.
    elif a[2] == "@":
        t = _word(9) % n        # recalled an archer to %s.
    elif not was:
        t = _word(6) % (a[:2], n)       # moved %s to %s.
    else:
        u = app._under[to]      # a Golden Soldier guard stays as a hostage
        t = _word(7) % (        # took %s on %s.
            _a(app, 1 - side, u) + " hostage" if u and not under else _a(app, 1 - side, was), n)
        if under:
            # Hostage freed. / Hostage taken. (the Golden Soldier below)
            t += _word(12 if V.cell_side(under) == side else 13)
        if kind == 0 and now != mover:
            t += _word(14 if (now - 1) % 5 == 2 else 15)   # Now a guard. / Now marked.
        if g.held(_SIDES[1 - side]) > held >> 4 * (1 - side) & 15:
            t += _word(16)      # It goes back held. (jasyr: a captured guard)
    if "-" in a and kind in (2, 4) and (now - 1) % 5 in (0, 3):
        # standard: a guard that enters the enemy camp turns archer, recovers one
        if g.held(_SIDES[side]) > held >> 4 * side & 15:
            # Guard in camp: 1 back, held. / place or done.
            t += _word(17 if who == "AI" or not g.open_turn() else 18)
        else:
            t += _word(19)      # Guard in camp, now an archer.
    app._ev.append(who + t)


def _events(app, room):
    """The latest turn's events in at most `room` lines, never cut in a word;
    when they do not fit, the captures (or else the last event) alone."""
    ev = app._ev
    t = A.wrap(" ".join(ev), 21, 9)
    if len(t) > room:
        t = ""
        for e in ev:
            if " took " in e:
                t += " " + e
        t = A.wrap(t or ev[-1], 21, room)
    return t[:room]


def _title_line(app):
    g = app.game
    t = g.rules
    for e in g.expansions:
        t += "+" + e[0].upper()
    m = app.match
    if m is not None:
        t += " %d/%d" % (m.number, m.games)
    return t


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
        app._msg = A.wrap("No: " + why, 21, 3)


def _refuse(app, c, sel):
    """An illegal pick: why, in words (jarmo.explain), and a red flash; the
    game is unchanged and the cursor stays (the display names its point)."""
    from jarmo.explain import refusal
    why = refusal(app.game, sel, c)
    _drop(app)
    _flash_at(app, c if c < 25 else -1, V.RED)
    app._msg = A.wrap("No: " + why, 21, 3)


def _play_text(app):
    """Who is to move, then a refusal, or the selection and the latest
    events, then held pieces; the cursor's point always on the last line.
    The title (rules, game of a match) takes the top line when there is room."""
    g = app.game
    top = _SIDE_WORDS[app._turn_side()]
    if g.open_turn():
        r = False
        for x in g.legal():
            r = r or x[0] == "r"
        top = ("You" if app._opp else top) + _word(21 if r else 22)    # : redeploy/done
    else:
        top += (" (you)" if app._opp else "") + " to move"
    body = list(app._msg)
    if not body:
        if app._sel >= 0:
            body = list(A.wrap(T.choice_name(app._sel) + " to " + T.bits(app._tmask), 21, 2))
        body += _events(app, 3 - len(body))
        s = g.held("south")
        n = g.held("north")
        if (s or n) and len(body) < 3:
            body.append(_word(20) % (s, n))      # Held: South %d North %d
    lines = [top] + body[:3] + [_describe(app, app._cursor)]
    if len(lines) < 5:
        lines.insert(0, _title_line(app))
    app._set_text(tuple(lines))


def _describe(app, c):
    """The point under the cursor and what stands there, in one line:
    "at c3: AI guard", "at d4: empty"; shortened to "c3: N gold guard" when
    too long (a hostage below is then told only if there is room)."""
    if c >= 25:
        return "at " + T.choice_name(c)
    cell = app._cells[c]
    name = NAMES[c]
    if not cell:
        return "at " + name + ": " + (_word(23) if app._markers >> c & 1 else "empty")  # remote camp
    own = _subject(app, V.cell_side(cell))
    own = "your" if own == "You" else own
    t = "%s %s" % (_word((cell - 1) % 5), "+hostage" if app._under[c] else "")
    if len(own) + len(t) > 13:
        return A.wrap("%s: %s %s" % (name, own[0] if own[0] in "NS" else own, t), 21, 1)[0]
    return "at %s: %s %s" % (name, own, t.strip())


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
            # opponents 1..5 (random, greedy, 2, 3, 4) are the AI's levels 0..4
            p = app._player = Player(app._opp - 1,
                                     seed=app.seed + (m.number if m is not None else 1))
        except (ImportError, ValueError):
            app._opp = 0
            app._msg = ("No AI: playing", "two-player")
            return False
    p.start(app.game, app._now)   # the AI thinks on its own copy, to a time budget
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
    lines = (_title_line(app), _SIDE_WORDS[app._turn_side()] + second)
    app._set_text(lines + (app._msg or _events(app, 3)))


def _tick_ai(app):
    g = app.game
    now = app._now
    q = app._queue
    if q is None:
        p = app._player
        for _ in range(app.ai_steps):
            r = p.step(now)
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

# Play: the states of a running game - a human's turn (Play) and the AI's (AiTurn).
#
# Both show app.board (app_view.Board: the position, the last move, a strobe,
# the cursor, the latest events) and play actions through act(), which tells
# each action in words. Which picks make which action is app_turn's; whose
# turn comes next, saving and the end of a game are the App's
# (App.next_turn, App.turn_over). The game is read and played in ints
# (action codes and piece bytes, jarmo/codes.py); text only for the display.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo import app_turn as T
from jarmo import app_view as V
from jarmo.app_base import S_AI, S_MENU, S_PLAY, SIDE_WORDS, State, opponent, wrap
from jarmo.app_buttons import BACK, DOWN, LEFT, MENU, NEXT, PREV, RIGHT, SELECT, UP
from jarmo.board import NAMES, SIDE_NAMES

_AI_DELAY = const(400)      # ms between the AI's actions, and before the first
_FLASH = const(600)         # ms of a capture or refusal strobe
_ARRIVE = const(300)        # ms a moved piece glows on arrival
_AGAIN = const(1500)        # ms: LED-only, the opponent's move shows again this often
_PAGE = const(3000)         # ms a page of events stays on the display
_GUARD = const(4)           # piece byte flags (jarmo.codes)
_MOVE = const(0)            # action kinds (jarmo.codes)
_RECALL = const(1)
_PLACE = const(2)
_DONE = const(3)
_FLIP = const(4)
_FLIP_PLACE = const(5)
_REDEPLOY = const(6)
_SOURCE = const(3)
_TARGET = const(8)
_KIND_BITS = const(7)
_POINT_BITS = const(31)

# The words of the display, in one string: one object on the heap instead of
# some thirty (RAM, docs/APP.md); _word(k) is its k-th phrase, named by the
# private constants below (which cost nothing). The events follow the
# actor's name: "AI" + " took ...". Every sentence has its own subject
# ("AI's archer on b2 is now a guard.", not "Now a guard."): a player who
# has not read the rules cannot guess whose piece a bare "Now a guard." is.
_WORDS = (
    "archer|marked archer|guard|gold archer|gold guard|"    # by kind (app_view.KIND)
    "Golden Soldier|"
    " moved %s to %s.| took %s on %s.|"
    " placed %s on %s.| recalled an archer to %s.|"
    " redeployed a piece to %s. The remote camps are gone.|"
    " flipped the guard on %s.|"
    " %s Golden Soldier is freed.| The Golden Soldier is now a hostage.|"
    " %s archer on %s is now a guard.| %s archer on %s is now marked.|"
    " The taken guard goes back %s.|"
    " In the enemy camp the guard turns archer.|"
    " A taken piece comes back %s.|"
    "Held: South %d North %d|: redeploy/done|: place a piece|remote camp|"
    "in your camp, or done|New? The menu's First game is a lesson.")
_W_GOLDEN = const(5)        # the kinds are 0..4
_W_MOVED = const(6)
_W_TOOK = const(7)
_W_PLACED = const(8)
_W_RECALLED = const(9)
_W_REDEPLOYED = const(10)
_W_FLIPPED = const(11)
_W_FREED = const(12)
_W_TAKEN = const(13)
_W_NOW_GUARD = const(14)
_W_NOW_MARKED = const(15)
_W_BACK_HELD = const(16)
_W_CAMP_ARCHER = const(17)
_W_COMES_BACK = const(18)
_W_HELD = const(19)
_W_REDEPLOY_DONE = const(20)
_W_PLACE = const(21)
_W_REMOTE_CAMP = const(22)
_W_IN_CAMP = const(23)      # the open turn's second line, under "You: place a piece"
_W_NEW = const(24)          # the first screen's pointer to the lesson


def _word(k):
    """The k-th phrase of _WORDS (only the phrase is allocated)."""
    i = 0
    for _ in range(k):
        i = _WORDS.find("|", i) + 1
    j = _WORDS.find("|", i)
    return _WORDS[i:j] if j >= 0 else _WORDS[i:]


def _kind(piece):
    """0..4: archer, marked archer, guard, gold archer, gold guard."""
    return V.KIND[piece >> 1] % 5


# ------------------------------------------------------------ playing an action

def act(app, code):
    """Play one action code; None, or why it is refused (the game is unchanged)."""
    g = app.game
    board = app.board
    side = app.turn_side()
    kind = code & _KIND_BITS
    a = code >> _SOURCE & _POINT_BITS
    b = code >> _TARGET & _POINT_BITS
    frm = a if kind == _MOVE or kind == _RECALL or kind == _FLIP_PLACE else -1
    to = a if kind == _FLIP else -1 if kind == _DONE else b
    # the position before, for the words of the event (_tell)
    was = board.cells[to] if to >= 0 else 0
    under = board.under[to] if to >= 0 else 0
    mover = board.cells[frm] if frm >= 0 else 0
    held = g.held("south") | g.held("north") << 4
    plies = g.plies
    try:
        g.play_code(code)
    except (ValueError, ImportError):
        # IllegalMove is a ValueError. Every action played here comes from
        # legal_codes() (refusals are explained by jarmo.explain before): be safe
        return "that is not possible now"
    if kind != _DONE and kind != _PLACE:
        # the turn's move (a placement or done after it keep its trail and arrival)
        board.trail = frm
        board.arrive = to
        board.arrive_t = app.now
        board.mover = side
        board.took = bool(was) and kind == _MOVE
    if was and kind == _MOVE:
        flash_at(app, to, V.WHITE)      # a capture
    board.read(g)
    _tell(app, kind, a, side, frm, to, was, under, mover, held)
    if g.plies != plies or g.result() is not None:
        app.turn_over()
    return None


def flash_at(app, where, colour):
    board = app.board
    board.flash = where
    board.flash_c = colour
    board.flash_t = app.now


def _draw_board(app, buf):
    """The position, the last move's trail and its arrival glow."""
    board = app.board
    board.draw(buf, app.now, board.trail)
    if board.arrive >= 0 and V.ticks_diff(app.now, board.arrive_t) < _ARRIVE:
        V.put_k(buf, board.arrive, V.WHITE, 160)


def _draw_their_move(app, buf):
    """Without a display the LEDs alone tell the opponent's move: until the
    player plays, its trail stays and its arrival glows again every 1.5 s,
    a capture as two white strobes (the display says it in words)."""
    board = app.board
    if app.has_display or board.arrive < 0 or board.mover != app.opponent_side():
        return
    t = V.ticks_diff(app.now, board.arrive_t) % _AGAIN
    if board.took:
        if t < 300 and not t & 128:     # two strobes, as the capture's
            V.put(buf, board.arrive, V.WHITE)
    elif t < _ARRIVE:
        V.put_k(buf, board.arrive, V.WHITE, 160)


def _draw_flash(app, buf):
    """A capture's or a refusal's strobe, over everything."""
    board = app.board
    f = board.flash
    if f != -2:
        dt = V.ticks_diff(app.now, board.flash_t)
        if dt >= _FLASH:
            board.flash = -2
        elif not dt & 128:
            for i in range(25):
                if f == i or f == -1:
                    V.put(buf, i, board.flash_c)


# ------------------------------------------------------------ events in words

def _subject(app, side):
    """Who acted: "You" or the opponent's name, else "South" or "North"."""
    return app.name_of(side)


def _to(app, side, held):
    """Where a taken piece of side's comes back: "to you", "to AI, held"."""
    name = _subject(app, side)
    return "to " + ("you" if name == "You" else name) + (", held" if held else "")


def _a(app, side, piece):
    """A piece of `side` in words: "your archer" (the human's, against an
    opponent), else (or with side -1) "an archer", "a guard", "a Golden Soldier"."""
    k = _kind(piece)
    k = _word(k if k < 3 else _W_GOLDEN)       # archer, marked archer, guard, Golden Soldier
    if side >= 0 and not app.opponent.local and side != app.opponent_side():
        return "your " + k
    return ("an " if k[0] == "a" else "a ") + k


def _tell(app, kind, a, side, frm, to, was, under, mover, held):
    """Put the action just played into words: board.events[side] holds the
    sentences of that side's latest turn (captures, hostages, promotions,
    pieces back, placements), the other side's stay until it acts again.
    Each sentence names its subject: whose archer turned guard, whose taken
    piece came back, and where."""
    g = app.game
    board = app.board
    if board.events_side != side:
        board.events[side] = []
        board.events_side = side
    if to < 0:
        return                  # done
    n = NAMES[to]
    now = board.cells[to]
    who = _subject(app, side)
    whose = "Your" if who == "You" else who + "'s"      # the actor's own, as a sentence begins
    if kind == _FLIP or kind == _FLIP_PLACE:
        # the recovered piece is placed at once (flip and place) or held
        t = _word(_W_FLIPPED) % NAMES[a] + _word(_W_COMES_BACK) % (
            "on " + n if frm >= 0 else _to(app, side, True))
    elif kind == _REDEPLOY:
        t = _word(_W_REDEPLOYED) % n
    elif kind == _PLACE:
        t = _word(_W_PLACED) % (_a(app, -1, now), n)
    elif kind == _RECALL:
        t = _word(_W_RECALLED) % n
    elif not was:
        t = _word(_W_MOVED) % (NAMES[a], n)
    else:
        t = _word(_W_TOOK) % (_a(app, 1 - side, was), n)
        if under or board.under[to]:
            # freed: the mover's own Golden Soldier below; a hostage: a Golden
            # Soldier guard stays below its taker, or the taken piece stood on
            # its own Golden Soldier (either way the one on that point)
            if under and under >> 1 & 1 == side:
                t += _word(_W_FREED) % whose
            else:
                t += _word(_W_TAKEN)
        if _kind(mover) == 0 and now != mover:
            # the taker is the one that changed (the taken piece left the board)
            t += _word(_W_NOW_GUARD if now & _GUARD else _W_NOW_MARKED) % (whose, n)
        if g.held(SIDE_NAMES[1 - side]) > held >> 4 * (1 - side) & 15:
            t += _word(_W_BACK_HELD) % _to(app, 1 - side, True)      # jasyr: a captured guard
    if kind == _MOVE and mover & _GUARD and not now & _GUARD:
        # standard: a guard that enters the enemy camp turns archer, recovers one
        t += _word(_W_CAMP_ARCHER)
        if g.held(SIDE_NAMES[side]) > held >> 4 * side & 15:
            # held when the other side played it (it places no piece here);
            # in the player's open turn the top lines say what to do with it
            held_back = side == app.opponent_side() or not g.open_turn()
            t += _word(_W_COMES_BACK) % _to(app, side, held_back)
    board.events[side].append(who + t)
    board.page = -1             # the page that holds this action, shown at once
    board.page_t = app.now


def _events(app, room):
    """The page of events shown now: the latest turn of each side in at most
    `room` lines of 21 characters, whole sentences only, never cut. When they
    need more than one page, the page shown is the one that holds sentence
    board.page (the newest action's first, when it is played), and the pages
    take turns every _PAGE ms (Play.tick). None at all if one sentence needs
    more lines than there are (a selection and the clock take the room)."""
    board = app.board
    last = board.events_side
    if last < 0:
        return ()
    events = board.events
    shown = _SHOWN
    # the pages laid out since nothing they depend on changed, by room: a
    # press redraws the text, and laying a page out again (strings and their
    # wraps, up to 4 KB of garbage) held a press's answer off the LEDs. The
    # sides' lists are only appended to or replaced, and the cache holds them
    # (no other list can take their place while it does).
    if not (board.page >= 0 and shown[0] is events[0] and shown[1] is events[1] and
            shown[2] == len(events[0]) and shown[3] == len(events[1]) and
            shown[4] == last and shown[5] == board.page):
        # the sentences of the latest turn of each side, the side that acted last at the end
        ss = " ".join(events[1 - last] + events[last]).replace(". ", ".|").split("|")
        ss.append("")
        if board.page < 0:              # a new action: its page first
            board.page = len(ss) - 2 - events[last][-1].count(". ")
        shown[0] = events[0]
        shown[1] = events[1]
        shown[2] = len(events[0])
        shown[3] = len(events[1])
        shown[4] = last
        shown[5] = board.page
        shown[6] = ss
        for r in range(len(shown) - 7):
            shown[7 + r] = None
    laid = shown[7 + room] if 0 <= room < len(shown) - 7 else None
    if laid is None:
        laid = (_page(board, shown[6], room), board.pages, board.next)
        if 0 <= room < len(shown) - 7:
            shown[7 + room] = laid
    board.pages = laid[1]
    board.next = laid[2]
    return laid[0]


def forget_pages():
    """Let go of _events's pages (they are laid out again when asked)."""
    for i in range(len(_SHOWN)):
        _SHOWN[i] = None
    _SHOWN[4] = _SHOWN[5] = -1


# _events's pages: the sides' event lists, their lengths, the side that acted
# last, the page, the sentences; then per room (0 to 4 lines) the page's
# lines, board.pages and board.next, once laid out
_SHOWN = [None, None, 0, 0, -1, -1, None, None, None, None, None, None]


def _page(board, ss, room):
    """The page of sentences ss that holds sentence board.page, in at most
    `room` lines; board.pages and board.next follow it."""
    shown = text = ""
    start = pages = k = 0               # start: the first sentence of the page being built
    for s in ss:
        t = text + " " + s if text else s
        if s and len(wrap(t, 21, 9)) <= room:
            text = t
        elif not text or s and len(wrap(s, 21, 9)) > room:
            board.pages = 0
            return ()                   # none, or the room is too small for a sentence
        else:
            if start <= board.page < k or not shown:
                shown = text
                board.next = k if s else 0      # where the next page begins (Play.tick)
            pages += 1
            start = k
            text = s
        k += 1
    board.pages = pages
    return wrap(shown, 21, room)


def title_line(app, room=21):
    """The game on one line of `room` characters: "standard+H 2/4 vs greedy",
    "Battle 4 standard" (a campaign battle); the opponent when it fits."""
    g = app.game
    t = g.rules
    for e in g.expansions:
        t += "+" + e[0].upper()
    if app.battle >= 0:
        t = "Battle %d %s" % (app.battle + 1, t)
    m = app.match
    if m is not None:
        t += " %d/%d" % (m.number, m.games)
    if not app.opponent.local:
        who = opponent(app.opp)
        who = " vs " + (who[3:] if who[:3] == "AI " else who)     # greedy, level 2, Link
        if len(t) + len(who) <= room:
            t += who
    return t[:room]


# ------------------------------------------------------------ human turn

# A human's turn: the picks (app_turn.Choices), the selected piece and its
# targets; the cursor is app.board's (it stays where it was over the menu).
# With the move timer or a hint, app_assist.Assisted (a Play) takes its place.
class Play(State):
    def __init__(self):
        self.choices = None     # app_turn.Choices of the turn
        self.sel = -1           # the selected choice, -1 none
        self.tmask = 0          # targets of the selection / one-pick points
        self.asked = -1         # an action that would end the game against its player, asked

    def enter(self, app, arg):
        self.build(app)
        self.text(app)

    def exit(self, app):
        # the events' pages laid out for the turn: not kept through the AI's
        # search (the least free heap of a game), and new by the next turn
        forget_pages()

    def build(self, app):
        """Choices for the human's next pick (turn start or open turn)."""
        ch = self.choices
        if ch is None:
            ch = self.choices = T.Choices()
        ch.build(app.game.legal_codes())
        self.drop()
        pts = ch.firsts & T.POINTS
        c = app.board.cursor
        if not (c < 25 and pts >> c & 1):
            c = T.cycle(pts or ch.firsts, -1)
        self._cursor_to(app, c)

    def drop(self):
        """No selection: the one-pick points (placements) are the targets."""
        self.sel = -1
        self.tmask = self.choices.placements()

    def _cursor_to(self, app, c):
        app.board.cursor = c
        app.board.cur_t = app.now & ~127   # a slot's start: its blink changes where
        # a still picture is drawn again (jarmo/app.py _SLOT)

    def press(self, app, b, player):
        if b == MENU:
            app.goto(S_MENU)
            return
        if app.tabletop and app.opponent.local and player != app.turn_side():
            return
        if b != SELECT:
            self.asked = -1     # any other button: not ended, the turn goes on
        app.msg = ()
        ch = self.choices
        sel = self.sel
        cursor = app.board.cursor
        if b == NEXT:
            mask = ch.targets(sel) if sel >= 0 else ch.firsts
            self._cursor_to(app, T.cycle(mask, cursor))
        elif b == PREV or b == BACK:
            if sel < 0:
                app.goto(S_MENU)
                return
            self.drop()
            if sel < 25:
                self._cursor_to(app, sel)
        elif b == SELECT:
            self._pick(app, cursor)
        elif UP <= b <= RIGHT:
            dx = -1 if b == LEFT else 1 if b == RIGHT else 0
            dy = -1 if b == DOWN else 1 if b == UP else 0
            if app.tabletop and player == 1:
                dx = -dx
                dy = -dy
            self._cursor_to(app, T.step(cursor, dx, dy, ch.firsts))
        if app.sid == S_PLAY:
            self.text(app)

    def _pick(self, app, c):
        ch = self.choices
        sel = self.sel
        if c == T.PICK_MENU:
            app.goto(S_MENU)
        elif sel >= 0 and self.tmask >> c & 1:
            self._choose(app, ch.action(sel, c), c)
        elif sel >= 0 and c == sel:
            self.drop()
        elif ch.firsts >> c & 1:
            code = ch.action(c)
            if code >= 0:
                self._choose(app, code, c)
            else:
                self.sel = c
                self.tmask = t = ch.targets(c)
                self._cursor_to(app, T.cycle(t, c))
        else:
            self._refuse(app, c, sel)

    def _choose(self, app, code, c):
        """The player picked action `code`: play it, unless it would end the
        game without a win for them: that is asked first, and SELECT again
        (the same pick) plays it."""
        if code != self.asked:
            end = _ends_against(app, code)
            if end is not None:
                self.asked = code
                flash_at(app, c if c < 25 else -1, V.RED)
                app.msg = wrap("That ends the game: " + end + ". SELECT again: yes", 21, 3)
                return
        self.asked = -1
        self.human(app, code)

    def human(self, app, code):
        g = app.game
        plies = g.plies
        why = act(app, code)
        if why is not None:        # cannot happen with legal_codes() choices; be safe
            app.msg = wrap("No: " + why, 21, 3)
        elif g.plies == plies and g.result() is None:
            self.build(app)         # the open turn's next pick

    def _refuse(self, app, c, sel):
        """An illegal pick: why, in words (jarmo.explain), and a red flash; the
        game is unchanged and the cursor stays (the display names its point)."""
        from jarmo.explain import refusal
        why = refusal(app.game, sel, c)
        self.drop()
        flash_at(app, c if c < 25 else -1, V.RED)
        app.msg = wrap("No: " + why, 21, 3)

    def refresh(self, app):
        self.text(app)

    def tick(self, app):
        board = app.board
        if board.pages > 1 and V.ticks_diff(app.now, board.page_t) >= _PAGE:
            board.page = board.next         # the next page of events
            board.page_t = app.now
            self.text(app)

    def text(self, app, clock=None):
        """Who is to move ("South (you) to move"; an open turn's "You: place
        a piece" / "in your camp, or done"; below the clock's line, from
        Assisted), then a refusal, or the selection, the latest turn of each
        side (paged) and held pieces; the cursor's point always on the last
        line. The title (rules, game of a match) takes the top line when
        there is room. A message is never cut: the clock's line yields."""
        g = app.game
        top = SIDE_WORDS[app.turn_side()]
        body = []
        if g.open_turn():
            if self.choices.can_redeploy():
                w = _W_REDEPLOY_DONE
            else:
                # what to do, in words: the held piece goes on a free point of
                # the own camp (they blink), or "done" keeps it for later
                w = _W_PLACE
                body.append(_word(_W_IN_CAMP))
            top = (top if app.opponent.local else "You") + _word(w)
        else:
            top += ("" if app.opponent.local else " (you)") + " to move"
        head = [clock, top] if clock else [top]
        room = 4 - len(head)
        if app.msg:
            body = list(app.msg)
        if len(body) > room:
            head = head[-1:]
            room = 3
        if not app.msg:
            if self.sel >= 0:
                body = list(wrap(T.choice_name(self.sel) + " to " + T.bits(self.tmask), 21, 2))
            elif not g.plies and not app.attended:
                # the first screen a newcomer sees (the simulator starts a
                # game at once): where the lesson is, until the first button
                body = list(wrap(_word(_W_NEW), 21, 2))
            body += _events(app, room - len(body))
            s = g.held("south")
            n = g.held("north")
            if (s or n) and len(body) < room:
                body.append(_word(_W_HELD) % (s, n))
        lines = head + body[:room] + [_describe(app, app.board.cursor)]
        if len(lines) < 5 and len(head) == 1:
            lines.insert(0, title_line(app))
        app.set_text(tuple(lines))

    def draw(self, app, buf):
        board = app.board
        now = app.now
        side = app.turn_side()
        c = board.cursor
        if c >= 25:
            V.draw_icon(buf, V.ICONS[c - 25], V.CURSOR[side], V.ticks_diff(now, board.cur_t))
        else:
            _draw_board(app, buf)
            _draw_their_move(app, buf)
            self._draw_turn(app, buf, side, c)
        _draw_flash(app, buf)

    def _draw_turn(self, app, buf, side, c):
        now = app.now
        cells = app.board.cells
        sel = self.sel
        t = self.tmask
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
        if not V.ticks_diff(now, app.board.cur_t) & 512:
            V.put(buf, c, V.CURSOR[side])


def _ends_against(app, code):
    """How the game ends if its mover plays `code` and does not win ("North
    wins 3 to 2", "AI wins", "a draw"), else None (it goes on, or the mover wins)."""
    g = app.game
    mover = g.turn
    g.play_code(code)               # (legal: from legal_codes) tried, then taken back
    r = g.result()
    g.undo()
    if r is None or r.winner == mover:
        return None
    if r.winner is None:
        return "a draw"
    p = r.points
    won = app.name_of(SIDE_NAMES.index(r.winner)) + " wins"
    if p is not None and r.reason != "wipeout":
        a, b = p if r.winner == "south" else (p[1], p[0])
        won += " %d to %d" % (a, b)
    return won


def _describe(app, c):
    """The point under the cursor and what stands there, in one line:
    "at c3: AI guard", "at d4: empty"; shortened to "c3: N gold guard" when
    too long (a hostage below is then told only if there is room)."""
    if c >= 25:
        return "at " + T.choice_name(c)
    board = app.board
    piece = board.cells[c]
    name = NAMES[c]
    if not piece:
        return "at " + name + ": " + (_word(_W_REMOTE_CAMP) if board.markers >> c & 1 else "empty")
    own = _subject(app, piece >> 1 & 1)     # the NORTH bit: the side
    own = "your" if own == "You" else own
    t = "%s %s" % (_word(_kind(piece)), "+hostage" if board.under[c] else "")
    if len(own) + len(t) > 13:
        return wrap("%s: %s %s" % (name, own[0] if own[0] in "NS" else own, t), 21, 1)[0]
    return "at %s: %s %s" % (name, own, t.strip())


# ------------------------------------------------------------ AI turn

# The other side's turn, played by app.opponent (jarmo/app_players.py: the AI
# thinking in slices, or a linked board): its answer's actions are played
# one at a time, _AI_DELAY apart. enter() gives it the position.
class AiTurn(State):
    def __init__(self):
        self.queue = None       # the answer being played, None while it thinks
        self.qi = 0             # the next action of the queue
        self.due = 0            # when it is played
        self.t0 = 0             # when the thinking began (the dots)
        self.dots = -1          # dots shown after "thinks"
        self.started = False    # the player starts thinking at the first tick

    def enter(self, app, arg):
        self.queue = None
        self.t0 = app.now
        self.dots = -1
        self.started = False
        self._text(app)

    def press(self, app, b, player):
        if b == MENU or b == BACK or b == PREV:
            app.goto(S_MENU)

    def refresh(self, app):
        self.dots = -1
        self._text(app)

    def busy(self, app):
        # thinking (or about to start); a linked board's turn is waited for
        # asleep (its bytes wait in the UART's buffer)
        return self.queue is None and app.opponent.level >= 0

    def tick(self, app):
        g = app.game
        now = app.now
        q = self.queue
        if not self.started:
            # The engine is loaded here, not as the turn began: in this pass
            # the completed turn is saved already (App.tick saves first).
            if not app.opponent_ready():
                app.next_turn()         # no AI: two at the table, with a note
                return
            # It thinks on its own copy, to a time budget from this first
            # tick: a turn entered before the clock's first reading (a game
            # started or resumed at start-up) must not count that jump.
            self.started = True
            self.t0 = now
            app.opponent.start(g, now)
            return
        if q is None:
            p = app.opponent
            for _ in range(app.ai_steps):
                r = p.step(now)
                if r is not None:
                    self.queue = r
                    self.qi = 0
                    self.due = V.ticks_add(now, p.pause)     # its first action
                    note = p.note() if p.level >= 0 else ()
                    if note:
                        app.msg = note
                    break
            self._text(app)
            q = self.queue
            if q is None or p.pause:
                return
        if V.ticks_diff(now, self.due) < 0:
            return
        self.due = V.ticks_add(now, _AI_DELAY)
        plies = g.plies
        app.dirty = True
        if self.qi < len(q):
            code = q[self.qi]
            self.qi += 1
            if act(app, code) is None:
                if app.sid == S_AI and g.plies == plies:
                    self._text(app)
                return
            # an illegal action from the AI: play a legal one rather than stop
            # (a linked board's turn was checked when it came: never replaced)
            legal = g.legal_codes()
            if legal and app.opponent.level >= 0:
                act(app, legal[0])
        # the opponent's actions ran out and its turn is still open: ask again
        if app.sid == S_AI and g.plies == plies and g.result() is None:
            self.queue = None
            app.opponent.start(g, now)

    def _text(self, app):
        if self.queue is None:
            dots = (V.ticks_diff(app.now, self.t0) >> 9) & 3
            if dots == self.dots and app.text:
                return      # unchanged: build no strings while thinking
            self.dots = dots
            second = " (%s)%s%s" % (app.opponent.name, app.opponent.verb, "." * (dots + 1))
        else:
            second = " (%s) plays" % app.opponent.name
        lines = (title_line(app), SIDE_WORDS[app.turn_side()] + second)
        app.set_text(lines + (app.msg or _events(app, 3)))

    def draw(self, app, buf):
        _draw_board(app, buf)
        if self.queue is None:
            V.draw_spinner(buf, V.CURSOR[app.turn_side()], app.now)
        _draw_flash(app, buf)

"""The handheld's app: a hardware-free state machine (docs/APP.md).

    app = App(store=None, has_display=True, tabletop=False, seed=0)
    app.press(button, player=0)    # one debounced button (jarmo.buttons)
    app.tick(now_ms)               # wrapping int ms; bounded work
    app.frame, app.frame_version   # 25 RGB points, a1 = bytes 0..2
    app.text, app.text_version     # up to 5 lines of up to 21 characters
    app.brightness, app.celebrate

States are small ints with one press, tick and draw function each (tables
at the end of the file). Turn input lives in app_turn, the LED picture in
app_view. The screens outside play (start-up, menu, statistics, notice, end,
result) live in the overlay app_screens, which is imported when one opens and
unloaded (with app_menu and stats) when play resumes: see _screens().

Saving: after every completed turn the game (or match) goes to the store as
``game``; settings go to ``settings`` when the menu is left; statistics to
``stats`` when a game ends. A damaged file is reported and set aside.
"""

import json
import sys

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo.board import NAMES, point
from jarmo.buttons import NEXT, PREV, UP, RIGHT, SELECT, BACK, MENU, LEFT, DOWN
from jarmo import app_turn as T
from jarmo import app_view as V

# States (public names: the app_screens overlay uses them too).
S_MENU = const(0)
S_STATS = const(1)
S_PLAY = const(2)
S_AI = const(3)
S_END = const(4)
S_RESULT = const(5)
S_NOTICE = const(6)
STATE_NAMES = ("menu", "stats", "play", "ai", "end", "result", "notice")
_PLAY = const(2)
_AI = const(3)

SAVE = "game"
AI_LEVELS = (None, "random", "greedy", 2, 3)    # by the Opponent setting
_OVERLAY = ("jarmo.app_screens", "jarmo.app_menu", "jarmo.stats")

_AI_STEPS = const(2)        # player.step() calls per tick (32 actions each)
_AI_DELAY = const(400)      # ms between the AI's actions, and before the first
_FLASH = const(600)         # ms of a capture or refusal strobe
_ARRIVE = const(300)        # ms a moved piece glows on arrival
_REDRAW = const(32)         # ms between redraws when nothing happened
_POINTS = const(0x1FFFFFF)  # the 25 board points of a choice mask

_KIND_NAMES = ("archer", "marked archer", "guard", "gold archer", "gold guard")


def wrap(text, width=21, lines=2):
    """Up to `lines` lines of at most `width` characters, cut at spaces."""
    out = []
    words = text.split()
    line = ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            if len(out) == lines:
                return tuple(out)
            line = ""
        line = (line + " " + w if line else w)[:width]
    if line:
        out.append(line)
    return tuple(out[:lines])


def _try(game, a):
    """Play an action; None, or why it is refused (the game is unchanged)."""
    try:
        game.play(a)
    except (ValueError, ImportError) as e:
        # IllegalMove is a ValueError; its text is "<action> is not legal: <why>"
        why = e.args[0] if e.args and isinstance(e, ValueError) else "not legal now"
        if not isinstance(why, str):
            why = "not legal now"
        k = why.find(": ")
        return why[k + 2:] if k >= 0 else why
    return None


def _side(name):
    return 0 if name == "south" else 1


def _unload(name):
    """Forget a module so its code can be collected (MicroPython RAM)."""
    mod = sys.modules.pop(name, None)
    if mod is not None:
        pkg = sys.modules.get("jarmo")
        short = name[name.rfind(".") + 1:]
        if pkg is not None and getattr(pkg, short, None) is mod:
            delattr(pkg, short)


class App:
    def __init__(self, store=None, has_display=True, tabletop=False, seed=0):
        self.frame = bytearray(75)
        self._work = bytearray(75)
        self.frame_version = 0
        self.text = ()
        self.text_version = 0
        self.celebrate = None
        self.store = store
        self.has_display = has_display
        self.tabletop = tabletop
        self.seed = seed
        self.ai_steps = _AI_STEPS
        self.settings = bytearray((1, 0, 0, 0, 0, 0, 5))   # see app_menu
        self.brightness = 128
        self.match = None
        self.game = None
        self._opp = 0           # opponent index of the running game (0 human)
        self._human0 = 0        # side the human plays in game 1 against the AI
        self._counted = False   # the running game's result is in the statistics
        self._player = None     # the AI, created when first needed
        self._queue = None      # the AI's turn being shown, or None while it thinks
        self._qi = 0
        self._due = 0
        self._cells = bytearray(25)
        self._under = bytearray(25)
        self._markers = 0
        self._choices = T.Choices()
        self._sel = -1
        self._tmask = 0         # targets of the selection / one-pick points
        self._cursor = 0
        self._cur_t = 0
        self._trail = -1
        self._arrive = -1
        self._arrive_t = 0
        self._flash = -2        # point, -1 whole board, -2 none
        self._flash_c = 0
        self._flash_t = 0
        self._msg = ()
        self._item = 1
        self._stats_rules = 1
        self._title = "Jarmo"
        self._settings_dirty = False
        self._now = 0
        self._t0 = 0
        self._drawn = 0
        self._dirty = True
        self._dots = -1
        self._state = S_MENU
        self._scr = None        # the app_screens overlay while loaded
        self._stats = None      # jarmo.stats.Stats while the overlay is loaded
        self._screens().boot(self)

    # ------------------------------------------------------------ public

    @property
    def state(self):
        """The current state's name (for tests and the simulator)."""
        return STATE_NAMES[self._state]

    def press(self, button, player=0):
        if not 0 <= button <= 8:
            return
        self._dirty = True
        _PRESS[self._state](self, button, player)

    def tick(self, now_ms):
        self._now = now = now_ms & 0x1FFFFFFF
        _TICK[self._state](self)
        if self._dirty or V.ticks_diff(now, self._drawn) >= _REDRAW:
            self._render()

    def pixel(self, where):
        """The 0xRRGGBB colour of a point given as index or name ("c3")."""
        if isinstance(where, str):
            where = point(where)
        return V.get(self.frame, where)

    @staticmethod
    def legend():
        """(meaning, 0xRRGGBB) pairs: the LED legend of the manual."""
        from jarmo.app_legend import LEGEND
        return LEGEND

    def new_game(self, rules=None, expansions=None, opponent=None, side=None, games=None):
        """Start a game now, as the menu's New game would (simulator, tests).

        rules: "classic" "standard" "legendary" "jasyr"; expansions: a tuple of
        "heroes"/"challenges"; opponent: "human" "random" "greedy" "2" "3";
        side: "south"/"north" (the human's, against the AI); games: 1 2 4 6.
        Unset options keep the current settings. ValueError for bad values."""
        self._screens().start(self, rules, expansions, opponent, side, games)

    @property
    def stats(self):
        """The statistics (jarmo.stats.Stats), loaded on demand."""
        return self._screens().get_stats(self)

    # ------------------------------------------------------------ helpers

    def _screens(self):
        """The app_screens overlay, imported on first use."""
        if self._scr is None:
            from jarmo import app_screens
            self._scr = app_screens
        return self._scr

    def _drop_screens(self):
        """Unload the overlay (and what only it uses) while a game is played."""
        if self._scr is not None:
            self._scr = None
            self._stats = None
            for name in _OVERLAY:
                _unload(name)

    def _press_screen(self, b, player):
        self._screens().PRESS[self._state](self, b, player)

    def _draw_screen(self, buf):
        self._screens().DRAW[self._state](self, buf)

    def _tick_end(self):
        self._screens().tick_end(self)

    def _open_menu(self, item=None):
        self._screens().open_menu(self, item)

    def _set_text(self, lines):
        if lines != self.text:
            self.text = lines
            self.text_version += 1

    def _render(self):
        work = self._work
        _DRAW[self._state](self, work)
        frame = self.frame
        changed = False
        for j in range(75):
            v = work[j]
            if frame[j] != v:
                frame[j] = v
                changed = True
        if changed:
            self.frame_version += 1
        self._drawn = self._now
        self._dirty = False

    def _turn_side(self):
        return _side(self.game.turn)

    def _game_no(self):
        return self.match.number if self.match is not None else 1

    def _ai_side(self):
        """The side the AI plays in the running game, or -1."""
        if not self._opp:
            return -1
        human = self._human0
        if self._game_no() % 2 == 0:
            human = 1 - human
        return 1 - human

    def _flash_at(self, where, colour):
        self._flash = where
        self._flash_c = colour
        self._flash_t = self._now

    def _refresh_cells(self):
        g = self.game
        cells = self._cells
        under = self._under
        for i in range(25):
            t = g.piece(NAMES[i])
            if t is None:
                cells[i] = under[i] = 0
            else:
                cells[i] = V.cell_of(t[:2])
                under[i] = V.cell_of(t[3:5]) if len(t) > 2 else 0
        m = 0
        for name in g.markers():
            m |= 1 << point(name)
        self._markers = m

    # ------------------------------------------------------------ persistence

    def _set_aside(self):
        try:
            self.store.set_aside(SAVE)
        except OSError:
            pass

    def _save(self):
        """Save the running game or match (after every completed turn)."""
        if self.store is None or self.game is None:
            return
        d = {"v": 1, "opp": self._opp, "human": self._human0, "counted": self._counted}
        if self.match is not None:
            d["match"] = self.match.dump()
        else:
            d["game"] = self.game.dump()
        try:
            self.store.write(SAVE, json.dumps(d))
        except OSError:
            self._msg = ("Cannot save: the", "drive is read-only")

    def _forget(self):
        """The game or match is over and seen: nothing to resume any more."""
        self.game = None
        self.match = None
        self._player = None
        if self.store is not None:
            try:
                self.store.delete(SAVE)
            except (OSError, AttributeError):
                pass

    def _tick_idle(self):
        pass

    def _draw_plain_board(self, buf):
        if self.game is None:
            V.clear(buf)
        else:
            V.draw_board(buf, self._cells, self._under, self._markers, -1, self._now)

    # ------------------------------------------------------------ game flow

    def _start_game(self):
        self._counted = False
        self._trail = self._arrive = -1
        self._flash = -2
        self._msg = ()
        self._cursor = 0
        self._save()
        self._begin_turn()

    def _begin_turn(self):
        g = self.game
        self._refresh_cells()
        self._sel = -1
        self._queue = None
        if g.result() is not None:
            self._screens().game_over(self, False)
            return
        self._drop_screens()
        if self._turn_side() == self._ai_side() and self._start_ai():
            self._state = _AI
            self._t0 = self._now
            self._dots = -1
            self._ai_text()
            return
        self._state = _PLAY
        self._build()
        self._play_text()

    def _build(self):
        """Choices for the human's next pick (turn start or open turn)."""
        ch = self._choices
        ch.build(self.game.legal())
        self._sel = -1
        self._tmask = ch.placements()
        pts = ch.firsts & _POINTS
        c = self._cursor
        if not (c < 25 and pts >> c & 1):
            c = T.cycle(pts or ch.firsts, -1)
        self._move_cursor(c)

    def _move_cursor(self, c):
        self._cursor = c
        self._cur_t = self._now

    def _act(self, a):
        """Play one action; None, or the refusal reason (game unchanged)."""
        g = self.game
        mover = self._turn_side()
        plies = g.plies
        frm = to = cap = -1
        if len(a) == 5 and a[2] == "-":
            frm = point(a[:2])
            to = point(a[3:])
            c = self._cells[to]
            if c and V.cell_side(c) != mover:
                cap = to
        elif "@" in a:
            to = point(a[-2:])
            if a[0] not in "@r":
                frm = point(a[:2])
        elif a[-1] == "*":
            to = point(a[:2])
        why = _try(g, a)
        if why is not None:
            return why
        self._trail = frm
        self._arrive = to
        self._arrive_t = self._now
        if cap >= 0:
            self._flash_at(cap, V.WHITE)
        self._refresh_cells()
        if g.plies != plies or g.result() is not None:
            self._turn_over()
        elif self._state == _PLAY:
            self._build()
        return None

    def _turn_over(self):
        g = self.game
        result = g.result()
        if result is None:
            self._save()
            self._begin_turn()
            return
        # saved as counted first: a power cut loses a count, never doubles it
        record = not self._counted
        self._counted = True
        self._save()
        self._refresh_cells()
        self._screens().game_over(self, record)

    # ------------------------------------------------------------ human turn

    def _press_play(self, b, player):
        if b == MENU:
            self._open_menu()
            return
        if self.tabletop and not self._opp and player != self._turn_side():
            return
        self._msg = ()
        ch = self._choices
        sel = self._sel
        if b == NEXT:
            mask = ch.targets(sel) if sel >= 0 else ch.firsts
            self._move_cursor(T.cycle(mask, self._cursor))
        elif b == PREV or b == BACK:
            if sel >= 0:
                self._sel = -1
                self._tmask = ch.placements()
                if sel < 25:
                    self._move_cursor(sel)
            else:
                self._open_menu()
                return
        elif b == SELECT:
            self._pick(self._cursor)
        elif UP <= b <= RIGHT:
            dx = -1 if b == LEFT else 1 if b == RIGHT else 0
            dy = -1 if b == DOWN else 1 if b == UP else 0
            if self.tabletop and player == 1:
                dx = -dx
                dy = -dy
            self._move_cursor(T.step(self._cursor, dx, dy, ch.firsts))
        if self._state == _PLAY:
            self._play_text()

    def _select(self, c):
        self._sel = c
        self._tmask = t = self._choices.targets(c)
        self._move_cursor(T.cycle(t, c))

    def _pick(self, c):
        ch = self._choices
        sel = self._sel
        if c == T.MENU:
            self._open_menu()
            return
        if sel >= 0 and self._tmask >> c & 1:
            self._human(ch.action(self.game.legal(), sel, c))
            return
        if sel >= 0 and c == sel:
            self._sel = -1
            self._tmask = ch.placements()
            return
        if ch.firsts >> c & 1:
            a = ch.action(self.game.legal(), c) if ch.index(c) >= 0 else None
            if a is not None:
                self._human(a)
            else:
                self._select(c)
            return
        self._refuse(c, sel)

    def _human(self, a):
        why = self._act(a)
        if why is not None:        # cannot happen with legal() choices; be safe
            self._msg = wrap(why, 21, 3)

    def _refuse(self, c, sel):
        """An illegal pick: a short reason and a red flash; the game is unchanged."""
        g = self.game
        name = T.choice_name(c)
        why = None
        if sel >= 0:
            if sel == T.REDEPLOY:
                a = "r@" + name
            else:
                a = NAMES[sel] + "-" + name
        elif c >= 25:
            a = name
        else:
            cell = self._cells[c]
            a = "@" + name
            if cell:
                if V.cell_side(cell) != self._turn_side():
                    why = "%s is not yours" % name
                else:
                    why = "%s cannot act now" % name
        if why is None:
            before = g.plies
            why = _try(g, a)    # legal after all (not offered as a pick): keep it
            if why is None:
                self._refresh_cells()
                if g.plies != before or g.result() is not None:
                    self._turn_over()
                else:
                    self._build()
                return
        self._sel = -1
        self._tmask = self._choices.placements()
        self._flash_at(c if c < 25 else -1, V.RED)
        self._msg = ("No: " + a,) + wrap(why, 21, 2)

    def _play_text(self):
        g = self.game
        side = self._turn_side()
        lines = [self._title_line()]
        who = "South" if side == 0 else "North"
        if self._opp:
            who += " (you)"
        if g.open_turn():
            lines.append(who + ": place/done")
        else:
            lines.append(who + " to move")
        if self._msg:
            lines.extend(self._msg)
        else:
            sel = self._sel
            if sel >= 0:
                lines.append(T.choice_name(sel) + " > " + T.bits(self._tmask))
            lines.append("at " + self._describe(self._cursor))
            held = g.held("south") + g.held("north")
            if held:
                lines.append("held S%d N%d" % (g.held("south"), g.held("north")))
            h = g.history()
            if h and len(lines) < 5:
                lines.append("last " + h[-1])
        self._set_text(tuple(x[:21] for x in lines[:5]))

    def _title_line(self):
        g = self.game
        t = g.rules
        for e in g.expansions:
            t += "+" + e[0].upper()
        if self.match is not None:
            t += " %d/%d" % (self.match.number, self.match.games)
        return t

    def _describe(self, c):
        if c >= 25:
            return T.choice_name(c)
        cell = self._cells[c]
        name = NAMES[c]
        if not cell:
            return name + (" marker" if self._markers >> c & 1 else " empty")
        text = name + (" S " if V.cell_side(cell) == 0 else " N ") + _KIND_NAMES[(cell - 1) % 5]
        if self._under[c]:
            text += "+hostage"
        return text

    def _draw_board_layers(self, buf):
        now = self._now
        V.draw_board(buf, self._cells, self._under, self._markers, self._trail, now)
        if self._arrive >= 0 and V.ticks_diff(now, self._arrive_t) < _ARRIVE:
            V.put_k(buf, self._arrive, V.WHITE, 160)

    def _draw_flash(self, buf):
        if self._flash == -2:
            return
        dt = V.ticks_diff(self._now, self._flash_t)
        if dt >= _FLASH:
            self._flash = -2
            return
        if dt & 128:
            return
        if self._flash >= 0:
            V.put(buf, self._flash, self._flash_c)
        else:
            for i in range(25):
                V.put(buf, i, self._flash_c)

    def _draw_play(self, buf):
        now = self._now
        side = self._turn_side()
        c = self._cursor
        if c >= 25:
            V.draw_icon(buf, V.ICONS[c - 25], V.CURSOR[side], V.ticks_diff(now, self._cur_t))
            self._draw_flash(buf)
            return
        self._draw_board_layers(buf)
        cells = self._cells
        sel = self._sel
        t = self._tmask
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
                if t >> i & 1:
                    if cells[i] and blink:
                        pass        # a capture: the enemy piece alternates
                    else:
                        V.put(buf, i, V.TARGET if not cells[i] else V.TARGET * 2)
            if sel < 25 and not (t >> sel & 1 and blink):
                V.put(buf, sel, V.SELECTED)
        if not V.ticks_diff(now, self._cur_t) & 512:
            V.put(buf, c, V.CURSOR[side])
        self._draw_flash(buf)

    # ------------------------------------------------------------ AI turn

    def _start_ai(self):
        """Give the AI the position; False (play on as humans) if there is no AI."""
        p = self._player
        if p is None:
            try:
                from jarmo.ai import Player
                p = self._player = Player(AI_LEVELS[self._opp], seed=self.seed + self._game_no())
            except (ImportError, ValueError) as e:
                self._opp = 0
                self._msg = ("No AI: playing", "two-player")
                return False
        p.start(self.game)      # the AI thinks on its own copy
        return True

    def _ai_text(self):
        who = "South" if self._turn_side() == 0 else "North"
        if self._queue is None:
            dots = (V.ticks_diff(self._now, self._t0) >> 9) & 3
            if dots == self._dots and self.text:
                return      # unchanged: build no strings while thinking
            self._dots = dots
            second = who + " (AI) thinks" + "." * (dots + 1)
        else:
            second = who + " (AI) plays"
        h = self.game.history()
        lines = (self._title_line(), second)
        if h:
            lines += ("last " + h[-1],)
        self._set_text(lines + self._msg)

    def _press_ai(self, b, player):
        if b == MENU or b == BACK or b == PREV:
            self._open_menu()

    def _tick_ai(self):
        g = self.game
        now = self._now
        if self._queue is None:
            p = self._player
            for _ in range(self.ai_steps):
                r = p.step()
                if r is not None:
                    self._queue = r
                    self._qi = 0
                    self._due = V.ticks_add(now, _AI_DELAY)
                    break
            self._ai_text()
            return
        if V.ticks_diff(now, self._due) < 0:
            return
        self._due = V.ticks_add(now, _AI_DELAY)
        plies = g.plies
        q = self._queue
        self._dirty = True
        if self._qi < len(q):
            a = q[self._qi]
            self._qi += 1
            if self._act(a) is None:
                if self._state == _AI and g.plies == plies:
                    self._ai_text()
                return
            # an illegal action from the AI: play a legal one rather than stop
            legal = g.legal()
            if legal:
                self._act(legal[0])
        # the AI's actions ran out and its turn is still open: think again
        if self._state == _AI and g.plies == plies and g.result() is None:
            self._queue = None
            self._start_ai()

    def _draw_ai(self, buf):
        self._draw_board_layers(buf)
        if self._queue is None:
            V.draw_spinner(buf, V.CURSOR[self._turn_side()], self._now)
        self._draw_flash(buf)

_PRESS = (App._press_screen, App._press_screen, App._press_play, App._press_ai,
          App._press_screen, App._press_screen, App._press_screen)
_TICK = (App._tick_idle, App._tick_idle, App._tick_idle, App._tick_ai,
         App._tick_end, App._tick_idle, App._tick_idle)
_DRAW = (App._draw_screen, App._draw_screen, App._draw_play, App._draw_ai,
         App._draw_screen, App._draw_screen, App._draw_screen)

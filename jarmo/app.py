# App: the handheld's state machine, without hardware (docs/APP.md).
#
#     app = App(store=None, has_display=True, tabletop=False, seed=0)
#     app.press(button, player=0)    # one debounced button (jarmo.app_buttons)
#     app.tick(now_ms)               # wrapping int ms; bounded work
#     app.frame, app.frame_version   # 25 RGB points, a1 = bytes 0..2
#     app.text, app.text_version     # up to 5 lines of up to 21 characters
#     app.brightness, app.celebrate
#     app.busy                       # an AI thinks or a save is in steps: no sleep
#
# Each screen is a state object (app_base.State: enter, exit, press, tick,
# draw) that keeps its own fields: Play and AiTurn (app_play) are made with the
# App and stay; End, Result and Notice (app_screens), Menu (app_menu), Help
# (app_help), Stats (app_stats), Campaign (app_campaign) and Lesson
# (app_lesson) are imported when they open and forgotten when they close,
# so a game is played without their code (the menu's: 3.8 KB on stock
# firmware). App.goto makes every transition. App holds what the states
# share: the running game and
# its players (the session), the board as shown, the settings, the store,
# the clock, the frame and the text; and the game's flow between turns
# (start_game, next_turn, turn_over), which menu, result and play all use.
#
# Saving (jarmo/store_log.py, a log in flash): a game (or each game of a match)
# starts with a GAME record and every completed turn appends its action
# codes (jarmo/store_game.py); settings are written when a value changes,
# statistics when a game is counted, a battle's win when it is seen.
# Damage found at start-up is reported, each damaged item by name.

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from jarmo import app_view as V
from jarmo.app_base import (
    DEFAULT_SETTINGS,
    IDENT,
    LINKED,
    MAKER,
    NEEDS,
    RULE,
    S_AI,
    S_END,
    S_HELP,
    S_MENU,
    S_PLAY,
    SCREEN,
    SCREENS,
    SIDE_WORDS,
    TICKS_MASK,
    TIMER,
    opponent,
)
from jarmo.app_buttons import KEY_DOWN
from jarmo.app_play import Play
from jarmo.app_players import Human
from jarmo.board import point
from jarmo.store_log import RESERVE
from jarmo.unload import forget_module

# What the device imports after start-up, one module per main-loop pass, so
# that no state change waits for an import (docs/ARCHITECTURE.md). Every
# state's module is imported with this one; jarmo.explain (only for a
# refused pick) and the How to play pages load when first needed.
PRELOAD = ("jarmo.evaluation", "jarmo.ai")     # the AI and its evaluation, a pass each

_AI_STEPS = const(1)        # player.step() calls per tick (the buttons are polled
                            # between ticks: hardware/mainloop.py); each applies at most
                            # ai.SLICE actions (the player's slice_nodes)
_REDRAW = const(32)         # ms between redraws while the picture moves (a breath)
_STILL = const(5)           # drawings in a row without a change (160 ms or more): the picture
                            # is still, and drawn again only in a new slot of 2**_SLOT ms, where every
                            # blink, the spinner and the hostage's glimpse change (the
_SLOT = const(7)            # cursor's blink starts at one): an idle pass mostly draws nothing


def _state(sid):
    """A new state of screen sid (its row in app_base.SCREENS)."""
    module, name = SCREENS[sid * SCREEN + 1], SCREENS[sid * SCREEN + 2]
    return getattr(__import__(module, None, None, (name,)), name)()


def _on_demand(sid):
    return SCREENS[sid * SCREEN + 3]


# the modules App() imports as it starts (its first screen, the menu; the
# start-up's own; the statistics the menu reads): a board imports them
# before it reads the saves (hardware/startup.py), with everything else that
# does not depend on them (tests/app/test_app_menu.py: App() imports no other)
STARTUP = ("jarmo.app_menu", "jarmo.app_start", "jarmo.store_stats")


def _start():
    """The start-up module (loading, App.new_game's options), used once."""
    from jarmo import app_start
    forget_module("jarmo.app_start")
    return app_start


class App:
    def __init__(self, store=None, has_display=True, tabletop=False, seed=0, problems=(),
                 line=None):
        # line: the byte transport of a link cable (jarmo/link.py), a function
        # that opens it when link play is first chosen, or None
        self.line = line
        self.link = None        # jarmo.linkplay.AppLink, made when link play is first chosen
        self.link_tag = -1      # the linked game's tag (its offer's seed; saved with it)
        self.frame = bytearray(75)
        self._work = bytearray(75)
        self.frame_version = 0
        self.text = ()
        self.text_version = 0
        self.celebrate = None
        self.brightness = 128
        self.store = store
        self._store_turn = False    # the store was busy at the last tick: compact in this one
        self.has_display = has_display
        self.tabletop = tabletop
        self.seed = seed
        self.ai_steps = _AI_STEPS
        self.settings = bytearray(DEFAULT_SETTINGS)
        self.board = V.Board()
        self.msg = ()           # a note for the display (a refusal, a failed save)
        self.menu_title = "Jarmo"   # "Saved game found" from a start-up that found one until it is left
        self.now = 0
        # the move timer runs only while the player can act (app_assist):
        # not before the first button since start-up, not while the game is
        # out of sight: a bit per cover, each set and cleared by its own owner
        # (1: the board dark when idle, hardware/mainloop; 2: the simulator's
        # rules pager), so that one going away does not uncover the other
        self.attended = False
        self.hidden = 0
        self.looped = False     # a main loop runs passes: saves wait for its next one
        self.unsaved = False    # a completed turn's save waits for the next pass (save_soon)
        self.dirty = True
        self.key_down = False   # a key with a hold is down: its press is shown (_render)
        self._drawn = 0
        self._still = 0         # drawings in a row that changed nothing (_STILL: no more counted)
        self._stats = None      # jarmo.store_stats.Stats once loaded
        self._make_states()
        self.set_game(None, None, 0, 0, False)
        # problems: what the caller found wrong before (settings.toml, saves
        # imported from the drive), shown with the store's at start-up
        _start().boot(self, problems)
        if self.linked:
            self.resume_saved()     # a linked game goes on at once after a restart

    def _make_states(self):
        # by screen id (app_base.SCREENS); the on-demand ones are made when
        # they open: the menu (on demand too) now, the app starts in it
        self.states = [None if _on_demand(k) else _state(k) for k in range(len(SCREENS) // SCREEN)]
        self.sid = S_MENU
        if self.states[S_MENU] is None:
            self.states[S_MENU] = _state(S_MENU)

    # ------------------------------------------------------------ public

    @property
    def state(self):
        """The current state's name (for tests and the simulator)."""
        return SCREENS[self.sid * SCREEN]

    @property
    def cursor(self):
        """The point 0..24 under the cursor in a human's turn, else -1 (the
        lesson's: its state's cursor())."""
        c = self.board.cursor
        return c if self.sid == S_PLAY and c < 25 else -1

    @property
    def busy(self):
        """True while work waits for every pass: an AI thinks (its turn, a
        hint, a timed-out turn) or the store compacts. The device's main loop
        sleeps between passes only while it is False (hardware/mainloop.py)."""
        store = self.store
        return (self.unsaved or self.states[self.sid].busy(self)
                or (store is not None and store.busy))

    @property
    def thinking(self):
        """True while the AI searches for its turn (traces and tests)."""
        return self.sid == S_AI and self.states[S_AI].queue is None

    def press(self, button, player=0):
        """Button `button` (jarmo.app_buttons) from seat `player`. With KEY_DOWN
        or'ed in, a key that has a hold went down (its tap comes at its
        release): True when the tap acted now (the state gives the hold
        nothing of its own: State.tap_at_down; the key's release and hold
        then do nothing more), else False, and the press is shown at once
        until its tap or hold comes: the player sees the key was felt."""
        if button & KEY_DOWN:
            button &= KEY_DOWN - 1
            if not self.states[self.sid].tap_at_down(button):
                self.key_down = self.dirty = self.attended = True
                return False
        self.key_down = False
        if self.unsaved:
            self.save()             # (a press in the very next pass: the save first)
        if 0 <= button <= 8:
            self.dirty = True
            self.attended = True
            self.states[self.sid].press(self, button, player)
        return True

    def tick(self, now_ms):
        self.now = now = now_ms & TICKS_MASK
        store = self.store
        if self.unsaved:
            self.save()             # the save, in a pass of its own
            if self.link is not None:
                self.link.send_turn(now)    # a linked turn goes out once saved
        elif store is not None and store.busy and self._store_turn:
            # a compaction (a game's start, or a full log): half of it a
            # pass, and nothing else; never in the pass that asked for it
            # (a button's work is in it): erasing a flash sector costs ~50 ms
            self._saving(store.step)
        else:
            link = self.link
            if link is not None:
                link.tick(self, now)        # what came: the other board's turn, this pass
            self.states[self.sid].tick(self)
            if link is not None and not self.unsaved:
                link.send_turn(now)         # a turn completed and saved goes out in this pass
        self._store_turn = store is not None and store.busy
        if self.dirty or (V.ticks_diff(now, self._drawn) >= _REDRAW and (
                self._still < _STILL or (now ^ self._drawn) >> _SLOT)):
            self._render()

    def draw(self, now_ms):
        """Only the picture brought up to date (a pass that took a press, or
        the first: the answer is lit before the state's own work of
        tick(), which the next pass does)."""
        self.now = now_ms & TICKS_MASK
        if self.dirty:
            self._render()

    def get_link(self):
        """The link (jarmo.linkplay.AppLink), made now if it was not."""
        if self.link is None:
            from jarmo.linkplay import make
            self.link = make(self)
        return self.link

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
        _start().set_options(self, rules, expansions, opponent, side, games)
        from jarmo.app_menu import new_game
        new_game(self)
        if self.sid != S_MENU:
            forget_module("jarmo.app_menu")     # as leaving the menu does

    def recover(self):
        """After a MemoryError in a pass: drop all that can be rebuilt and resume.

        The AI's search, the turn being picked, the statistics and How to
        play go; the game comes back from its last save (made after every
        turn, so at most the turn in progress is lost) and is resumed, or
        the menu opens when there is none. If start-up runs out of memory
        too, code.py restarts and resumes from the flash."""
        self.set_game(None, None, 0, 0, False)
        self._stats = None
        self.celebrate = None
        for k in range(len(SCREENS) // SCREEN):
            if _on_demand(k):
                forget_module(SCREENS[k * SCREEN + 1])
        self._make_states()         # new states hold nothing of the old ones
        import gc
        gc.collect()
        _start().boot(self, ())
        self.resume_saved()

    def resume_saved(self):
        """Resume the saved game, if start-up found one, as the menu's Resume would."""
        if self.game is not None and self.sid == S_MENU:
            from jarmo.app_menu import resume  # (loaded: the menu is open)
            resume(self)
        self.dirty = True

    def how_to_play(self):
        """Open How to play, as the menu's item does (the simulator's ? key);
        leaving it goes back to the turn it was opened in, else to the menu."""
        self.dirty = True
        self.goto(S_HELP, self.sid)

    @property
    def stats(self):
        """The statistics (jarmo.store_stats.Stats), loaded on demand; with a store
        they leave RAM at the next state change (App.goto)."""
        if self._stats is None:
            from jarmo.store_stats import Stats
            self._stats = Stats(self.store)
        return self._stats

    # ------------------------------------------------------------ for the states

    def goto(self, sid, arg=None):
        """Leave the current state (its exit) and enter state `sid` with `arg`."""
        old = self.sid
        self.states[old].exit(self)
        if _on_demand(old):
            self.states[old] = None         # its code leaves RAM
            forget_module(SCREENS[old * SCREEN + 1])
        forget_module("jarmo.store_campaign")     # the ladder's data, or a battle's record
        if self.store is not None:
            self._stats = None              # read again from the store when needed
            forget_module("jarmo.store_stats")
        if _on_demand(sid):
            self.states[sid] = _state(sid)
        self.sid = sid
        self.dirty = True
        self.states[sid].enter(self, arg)

    def set_text(self, lines):
        if lines != self.text:
            self.text = lines
            self.text_version += 1

    def _render(self):
        work = self._work
        self.states[self.sid].draw(self, work)
        if self.link is not None:
            self.link.overlay(self, work)
        if self.key_down:
            V.mark_press(work, self.cursor)
        frame = self.frame
        # compared and copied in C: no allocation, a fraction of a loop's time
        if work != frame:
            frame[:] = work
            self.frame_version += 1
            self._still = 0
        elif self._still < _STILL:
            self._still += 1
        self._drawn = self.now
        self.dirty = False

    # ------------------------------------------------------------ the running game

    def set_game(self, game, match, opp, human0, counted, game_id=-1):
        """The game (or match) that runs now, or None: its players (opp: the
        opponent's row in app_base.OPPONENTS, the menu's place; human0: the
        human's side in game 1), whether its result is already in the
        statistics, and the id of its GAME record in the store (-1: not
        saved yet)."""
        self.game = game
        self.game_id = game_id
        self.saved = 0 if game is None else game.actions    # actions in the store
        self.match = match
        self.opp = opp
        self.human0 = human0
        self.counted = counted
        # the game goes over the link cable (its row's needs)
        self.linked = game is not None and opponent(opp, NEEDS) & LINKED != 0
        # who plays the side the human does not (jarmo/app_players.py), made
        # by the function its row names
        self.opponent = None if game is None else self._player(opp)
        self.battle = -1        # the campaign's battle this game is (jarmo.store_campaign), or -1
        self.states[S_PLAY] = Play()    # no timer or hint yet (app_assist)
        forget_module("jarmo.app_assist")
        self.board.read(game)

    def _player(self, row):
        maker = opponent(row, MAKER + 1)
        module = __import__(opponent(row, MAKER), None, None, (maker,))
        return getattr(module, maker)(self, opponent(row, IDENT))

    def turn_side(self):
        return 0 if self.game.turn == "south" else 1

    def human_side(self):
        """The side the board's own player has in the running game: human0
        in game 1, swapped every game of a match (Match.side_of)."""
        m = self.match
        if m is None:
            return self.human0
        return (m.side_of("first") == "north") ^ self.human0

    def opponent_side(self):
        """The side a player who is not here plays in the running game (the
        AI, a linked board), or -1: two at the table."""
        return -1 if self.opponent.local else 1 - self.human_side()

    def name_of(self, side):
        """Who plays side (0 South, 1 North), as sentences name them: "You"
        and the opponent's name ("AI"), or "South" / "North" at the table."""
        if self.opponent.local:
            return SIDE_WORDS[side]
        return self.opponent.name if side == self.opponent_side() else "You"

    def start_game(self):
        """A game (or the next of a match) begins: save it, then its first turn.
        The first game of a match asks the store for room for all of it, so
        that a compaction (the one erase) falls now, never in its middle."""
        self.counted = False
        self.game_id = -1
        self.board.reset()
        self.msg = ()
        m = self.match
        if self.store is not None and (m is None or m.number == 1):
            self.store.tidy(RESERVE * (1 if m is None else m.games))
        self.save_soon()
        self.next_turn()

    def next_turn(self):
        """The turn of the side to move: the AI's, a human's, or the game is over."""
        g = self.game
        self.board.read(g)
        if g.result() is not None:
            self.goto(S_END, False)
        elif self.turn_side() == self.opponent_side():
            # the AI's engine is loaded at its state's first tick (AiTurn.tick,
            # opponent_ready), after the turn's save: what it takes from the
            # heap never leaves a completed turn unsaved
            self.goto(S_AI)
        else:
            if self.settings[TIMER - RULE] or type(self.states[S_PLAY]) is not Play:
                from jarmo.app_assist import install  # the move timer (a hint)
                install(self)
            self.goto(S_PLAY)

    def turn_over(self):
        """A turn is complete: saved (save_soon), then the next turn or the end."""
        over = self.game.result() is not None
        # the end and a linked turn too: no save inside a press's call; the
        # main loop saves the turn (a linked one in the press's pass, any
        # other in the next pass) through App.tick, which saves before any
        # state's tick, so the statistics are counted (End.tick) and a linked
        # turn goes out (App.tick) only once the turn is saved
        self.save_soon()
        if self.link is not None and not self.unsaved:
            self.link.send_turn(self.now)
        if over:
            # counted at the end (the statistics name this saved game, so a
            # power cut before or after counts it exactly once)
            self.goto(S_END, not self.counted)
        else:
            self.next_turn()

    def opponent_ready(self):
        """True if the opponent can play; an AI that cannot be loaded leaves
        the game to two humans, with a note."""
        try:
            if self.opponent.level >= 0:
                self.opponent.engine()      # an AI: the Player interface's engine()
        except (ImportError, ValueError):
            self.opp = 0
            self.opponent = Human()
            self.msg = ("No AI: playing", "two-player")
            return False
        return True

    def save(self):
        """Save the running game: its GAME record once, then the actions
        played since the last save (after every completed turn)."""
        self.unsaved = False
        if self.store is None or self.game is None:
            return
        self._saving(self._save)

    def save_soon(self):
        """save(), in the main loop's next pass when one runs (App.looped),
        which comes at once (busy) and saves before any state's tick. A save
        takes up to 25 ms of Python and flash work on the stock Pico, which
        held the buttons over 50 ms in the pass of the press that completed
        the turn; and a press's call chain is deep already (with the save's,
        it exhausted the stock firmware's Python stack). A power cut before
        that pass costs that turn only (the turn in progress)."""
        if not self.looped:
            self.save()
        else:
            self.unsaved = True

    def _save(self):
        store = self.store
        g = self.game
        if self.game_id < 0:
            from jarmo.store_game import start_payload
            forget_module("jarmo.store_game")
            self.game_id = store.start_game(
                start_payload(g, self.match, opponent(self.opp, IDENT), self.human0,
                              self.battle, self.link_tag if self.linked else -1))
            self.saved = 0
        codes = g.history_codes(self.saved)
        if codes:
            store.add_turn(codes)
            self.saved += len(codes)

    def _saving(self, work):
        # a save the flash refuses (a board that keeps its log in a file on a
        # read-only drive) is said on the display; the game goes on
        try:
            work()
        except OSError:
            self.msg = ("Cannot save:", "the flash refused")

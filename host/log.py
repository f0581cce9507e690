"""The simulator's short log: what happened in the game, turn by turn, in the
display's own words, kept while the display moves on.

Host only.  The device's display holds the latest turn of each side (paged
when long, jarmo/app_play.py); on a PC the screen has room for more, so the
log keeps the turns that went before, and says when a game begins and ends.
A game is logged from when it is played, not while a menu offers it
("Saved game found"), and a new game starts a new log.
"""

KEEP = 40       # entries kept (the screen shows the last ones that fit)
# the screens (App.state) where a game is being played: a game the app holds
# elsewhere (the start's menu offering Resume) is not yet the one shown
PLAYING = ("play", "ai", "end", "result")


class EventLog:
    """Watches the app (see()) and keeps its events as log entries."""

    def __init__(self):
        self.entries = []
        self._game = None
        self._lists = [None, None]     # each side's list of events, as the app keeps it
        self._seen = [0, 0]            # how many of them are in the log
        self._over = False
        self._shadow = None            # the lesson's game as far as it is logged

    def see(self, app):
        """Take what the app tells now; call it at every screen drawn."""
        game = getattr(app, "game", None)
        board = getattr(app, "board", None)
        state = getattr(app, "state", None)
        if state == "lesson":
            self._see_lesson(app.states[app.sid])
            return
        if state == "replay" or board is None:
            return
        if game is None:
            self._game = None
            return
        if game is not self._game:
            if state not in PLAYING:
                return          # offered, not played: "Resumed" waits for Resume
            self._game = game
            self._lists = [None, None]
            self._seen = [0, 0]
            self._over = False
            self.entries = []   # the game before is over: its lines are not this one's
            what = game.rules + "".join("+" + e for e in game.expansions)
            self._add("Started: %s" % what if not game.plies else
                      "Resumed: %s, after %d turn%s" % (what, game.plies,
                                                             "" if game.plies == 1 else "s"))
        events = getattr(board, "events", None)
        last = getattr(board, "events_side", -1)
        if isinstance(events, list) and len(events) == 2 and last >= 0:
            for side in (1 - last, last):
                now = events[side]
                # the app starts a new list for each turn of a side
                seen = self._seen[side] if now is self._lists[side] else 0
                if len(now) > seen:
                    self._add(" ".join(now[seen:]))
                self._lists[side] = now
                self._seen[side] = len(now)
        result = game.result()
        if result is not None and not self._over:
            self._over = True
            # the end screen's own words (jarmo/app_screens.py), whole
            from jarmo.app_end import end_words
            self._add("Game over: " + " ".join(w for w in end_words(app) if w))

    def _see_lesson(self, lesson):
        """The guided first game (jarmo/app_lesson.py): its own game, whose
        actions the lesson plays without the game's words; told here as
        "You played e1-d3." and "North played b5-a3.", then its end."""
        from jarmo.app_lesson import STEPS
        from jarmo.game import Game
        game = lesson.game
        if game is None:
            return
        if game is not self._game:
            self._game = game
            self._shadow = Game(game.rules)     # who played each action
            self._over = False
            self.entries = []
            self._add("Started: First game (the lesson)")
        history = game.history()
        for action in history[self._shadow.actions:]:
            who = "You" if self._shadow.turn == "south" else "North"
            self._shadow.play(action)
            self._add("%s played %s." % (who, action))
        if game.result() is not None and not self._over:
            self._over = True
            self._add("Game over: " + STEPS[-1])

    def _add(self, text):
        self.entries.append(text)
        del self.entries[:-KEEP]

    def lines(self, width, height):
        """The last entries that fit in height lines of width (wrapped,
        newest last), under the title "Log:"; [] when empty or no room."""
        import textwrap
        if not self.entries or height < 2:
            return []
        out = []
        for entry in reversed(self.entries):
            wrapped = textwrap.wrap(entry, max(10, width), subsequent_indent="  ")
            if len(out) + len(wrapped) > height - 1:
                break
            out = wrapped + out
        return ["Log:"] + out if out else []

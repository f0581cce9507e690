# Players: who plays a side of the running game, one interface for every kind.
#
#     player.name              how the display names it: "AI moved a5 to b3."
#     player.local             True: its turns are picked here, with the buttons
#                              (the Play screen); False: it answers by itself
#                              (the screen that waits for the other side)
#     player.level             its jarmo.ai level, or -1 if it is no AI
#     player.start(game, now)  its turn begins (now: int ms, wrapping)
#     player.step(now)         None while it thinks or waits, else the action
#                              codes of its turn (jarmo/codes.py)
#     player.drop()            let go of what can be made again (RAM)
#     player.engine()          only where level >= 0 (an AI picks its turns):
#                              that jarmo.ai Player (made again if dropped), for
#                              its turns and the hint; ImportError or ValueError
#                              if the AI cannot be had
#     player.note()            only where level >= 0: lines for the display
#                              about its last answer, or ()
#
#     player.pause             ms before its first action is shown
#     player.verb              what the display says while it is to move
#
# The kinds: Human (a second player at this table), Ai (jarmo.ai at a
# level), and the board at the other end of a link cable (jarmo.linkplay's
# LinkPlayer, loaded only for link play: RAM). App.opponent is the player of
# the side the human (the board's own player) does not play, made by the
# function its row of app_base.OPPONENTS names (below): maker(app, ident).


# Level 4 without its opening book (jarmo.book: the file missing or damaged
# on the drive) searches from the first turn: the player is told.
BOOK_NOTE = ("AI: opening book", "missing or damaged")


def human(app, ident):
    return Human()


def ai(app, ident):
    """The AI of level ident - 1, seeded by the game of the match."""
    m = app.match
    return Ai(ident - 1, app.seed + (m.number if m is not None else 1))


def linked(app, ident):
    return app.get_link().player()


class Human:
    local = True
    level = -1
    name = "P2"
    pause = 0
    verb = ""

    def start(self, game, now):
        pass

    def step(self, now):
        return None     # picked with the buttons, never answered here

    def drop(self):
        pass


class Ai:
    local = False
    name = "AI"
    pause = 400         # ms: the AI's actions are shown one by one
    verb = " thinks"

    def __init__(self, level, seed):
        self.level = level
        self.seed = seed
        self.search = None      # jarmo.ai.Player, made at its first turn (RAM)

    def engine(self):
        """The jarmo.ai Player (made now if it was dropped); ImportError or
        ValueError if the AI cannot be had."""
        if self.search is None:
            from jarmo.ai import Player
            self.search = Player(self.level, seed=self.seed)
        return self.search

    def start(self, game, now):
        self.engine().start(game, now)

    def step(self, now):
        return self.search.step(now)

    def note(self):
        """What the player should know of the last answer: level 4's opening
        book missing or damaged (it searched instead, a little weaker)."""
        return BOOK_NOTE if getattr(self.search, "book_problem", None) else ()

    def drop(self):
        self.search = None      # it starts every turn afresh anyway

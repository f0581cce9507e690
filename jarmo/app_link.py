# Link wait: New game against the link, until both boards start the same game.
#
# The board whose player chose New game first proposes (jarmo.link OFFER:
# its rule set, expansions, match length, its side in game 1 and the seed
# of the AI's hints, from its settings); the other board's player, choosing
# New game while that offer is heard, accepts it. Both then start that game,
# each with its own side as "you". Back (or Menu) leaves; nothing is kept.
# Imported when it opens, forgotten when it closes (App.goto). The link's
# own module (jarmo/linkplay.py) is reached through app.get_link(): it
# imports this one for the rare paths below.

from jarmo import app_view as V
from jarmo.app_base import (
    GAMES,
    LINKED,
    MATCH,
    NEEDS,
    RULE,
    S_LINK,
    S_MENU,
    SIDE,
    SIDE_WORDS,
    State,
    expansions,
    opponent_row,
)
from jarmo.app_buttons import BACK, MENU, PREV
from jarmo.game import EXPANSIONS, Game
from jarmo.rulesets import RULE_SETS
from jarmo.unload import forget_module


def offer_of(app):
    """The offer the settings make: rule set, expansion bits, games (0: one
    game), the proposer's side in game 1, the hints' seed (2 bytes)."""
    s = app.settings
    bits = 0
    for e in expansions(s):
        bits |= 1 << EXPANSIONS.index(e)
    games = GAMES[s[MATCH - RULE]]
    # a new seed for every offer: it is the game's tag too (jarmo/link.py)
    seed = (app.seed + app.now * 40503) & 0xFFFF
    return bytes((s[0], bits, games if games > 1 else 0, s[SIDE - RULE], seed >> 8, seed & 255))


def start_offer(app, offer, ours):
    """Both boards start the game of the offer; ours: this board proposed it."""
    start_game_of(app, offer[0], offer[1], offer[2], offer[3] if ours else 1 - offer[3],
                  offer[4] << 8 | offer[5])


def start_game_of(app, rule, bits, games, side, tag, finished=()):
    """Start a linked game (or match): rule set index, expansion bits,
    games in the match (0 one game), this board's side in game 1, the tag;
    finished: the results of the match's games before this one."""
    rules = RULE_SETS[rule]
    exp = tuple(EXPANSIONS[k] for k in range(len(EXPANSIONS)) if bits >> k & 1)
    if games:
        from jarmo.match import Match  # (only for a match: a single game keeps it off the heap)
        match = Match(rules, games, exp, finished=finished)
        game = match.game
    else:
        match = None
        game = Game(rules, exp)
    app.seed = app.link_tag = tag       # the same hints on both boards
    app.set_game(game, match, opponent_row(LINKED, NEEDS), side, False)
    app.start_game()


class LinkWait(State):
    def __init__(self):
        self.status = -1

    def enter(self, app, arg):
        link = app.get_link()
        link.lean(app)                      # no AI in a linked game: RAM for it
        link.accepted = None
        if link.offered(app.now) is not None:
            link.accept(app.now)            # the other board proposed first
        else:
            link.propose(offer_of(app), app.now)
        self.status = -1
        self.tick(app)

    def exit(self, app):
        app.link.withdraw()

    def press(self, app, b, player):
        if b == BACK or b == PREV or b == MENU:
            app.goto(S_MENU)

    def tick(self, app):
        link = app.link
        if link.accepted is not None:
            offer = link.accepted
            link.accepted = None
            start_offer(app, offer, link.accepted_ours)
            return
        status = link.status(app.now)
        if status != self.status:
            self.status = status
            s = app.settings
            app.set_text(("New game: Link", "Waiting for the", "other board. You: " +
                          SIDE_WORDS[s[SIDE - RULE]][0], link.note(status) or "Link: cable OK",
                          "Back: menu"))

    def draw(self, app, buf):
        """The spinner in white; the red corners blink while no board answers."""
        V.clear(buf)
        V.draw_spinner(buf, V.WHITE, app.now)
        if self.status and V.blink(app.now, 1024):
            for i in (0, 4, 20, 24):
                V.put(buf, i, V.RED)


# ---------------------------------------------------------------- the rare paths
# (jarmo/linkplay.py calls them; this module is loaded for them and let go)

def adopt(app, desc):
    """This board has no game and the other board has a linked one it
    should hold (this board's save was lost): start it from the other
    board's description; its actions come as a resync. A match's later
    game starts with the results before it, from the other board (PAST:
    the caller waits for them)."""
    finished = ()
    number = desc[3]
    if number > 1:
        from jarmo.store_game import results_of
        forget_module("jarmo.store_game")
        try:
            finished = results_of(app.link.peer_past[7:])
            if number > desc[2] or len(finished) != number - 1:
                raise ValueError
        except ValueError:
            return              # not results of this match: not taken
    # desc[4]: the other board's side in this game; this board's in game 1
    # is the other one, swapped back once for every game before (Match.side_of)
    side = (1 - desc[4]) ^ (0 if number <= 1 else (number - 1) & 1)
    start_game_of(app, desc[0], desc[1], desc[2], side, desc[5] << 8 | desc[6], finished)
    if app.sid != S_LINK:
        forget_module("jarmo.app_link")     # (this module: loaded for this only)


def catch_up(app):
    """Actions of this board's own side came back from the other board
    (this board lost them): the turn being picked is dropped and they are
    played and saved at once."""
    g = app.game
    while g.actions > app.saved:
        g.undo()
    codes = app.link.take()
    for c in codes:
        g.play_code(c)          # checked when they came (jarmo/link.py)
    app.msg = ("Link: turns back", "from the other board")
    app.turn_over()
    if app.sid != S_LINK:
        forget_module("jarmo.app_link")


def release(app, game_id):
    """A kept linked game is held by both boards, and both know it: the
    store lets it go, if it is still the store's game."""
    store = app.store
    if store is not None and app.game is None:
        saved = store.game()
        if saved is not None and saved[0] == game_id:
            try:
                store.end_game()    # compaction waits for the next game's start
            except OSError:
                pass
    if app.sid != S_LINK:
        forget_module("jarmo.app_link")

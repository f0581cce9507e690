# End: the end of a game in words - how it ended, who wins, and why the points decide it.
#
# The result screen's pages (app_screens.End and ResultScreen) and the
# simulator's log say it with these words. Imported when a game's end is
# shown and forgotten when its result is left (ResultScreen.exit), so the
# words take no RAM during a game.

from jarmo.app_base import wrap
from jarmo.board import SIDE_NAMES
from jarmo.game import REASONS


def _all_in_camp(app, side):
    """All of side's pieces on the board stand on its enemy camp (the board as shown)."""
    cells = app.board.cells
    camp = 20 if side == 0 else 0
    n = 0
    for i in range(25):
        q = cells[i]
        if q and q >> 1 & 1 == side:
            if not camp <= i < camp + 5:
                return False
            n += 1
    return n > 0


def _name(app, side, start):
    """Who plays side, as a sentence names it: "You"/"you", "North", "AI"."""
    name = app.name_of(side)
    return name if start or name != "You" else "you"


def _whose(app, side, start):
    """Side's own: "Your"/"your", "AI's", "North's"."""
    name = _name(app, side, start)
    return name + ("r" if name in ("You", "you") else "'s")


def end_words(app):
    """The end of the game in sentences, each with its subject: how it ended
    ("AI's pieces are all in your camp."), who wins (and by how many
    points), and why the points decide it (or ""). The simulator's log says
    them as they are; the result's first page says them with a short why
    (result_pages)."""
    g = app.game
    r = g.result()
    ender = 1 - app.turn_side()         # the turn that ended the game was the other side's
    other = 1 - ender
    k = REASONS.index(r.reason)
    if k == 0:                          # camp: the ender, or (after a capture) the other
        s = ender if _all_in_camp(app, ender) else other
        how = _whose(app, s, True) + " pieces are all in " + _whose(app, 1 - s, False) + " camp."
    elif k == 1:
        loser = other if r.winner == SIDE_NAMES[ender] else ender
        how = _whose(app, loser, True) + " pieces are all taken."
    elif k == 3:
        how = _name(app, other, True) + " cannot move."
    else:
        how = "The turn limit is up." if k == 4 else "Both sides went back and forth."
    w = r.winner
    p = r.points
    tally = p is not None and k != 1    # a wipe-out wins outright, whatever the points
    if w is None:
        won = "A draw"
    else:
        name = _name(app, SIDE_NAMES.index(w), True)
        won = name + (" win" if name == "You" else " wins")
    why = ""
    if tally:
        a, b = p if w != "north" else (p[1], p[0])
        won += " %d to %d" % (a, b)
        why = ("Equal points: more pieces in camp wins." if a == b and w is not None else
               "Points: 2 a piece in the enemy camp, 1 on the board, 0 held.")
    return how, won + ".", why


def result_pages(app):
    """The result on the display, in pages of at most 4 lines: how it ended,
    who wins and, in one line, what the points are for (a score needs its
    reason on the same page: on a later one the score reads as a riddle);
    the points rule in full; the match. The SELECT line follows each page."""
    how, won, why = end_words(app)
    pages = [wrap(how, 21, 2) + (won,)]
    if why:
        # the why in one line of 21 (it has three in full, the page after)
        pages[0] += ("Tie: more in camp won" if why[0] == "E" else "Camp 2 each, others 1",)
        pages.append(wrap(why, 21, 3))
    m = app.match
    if m is not None:
        a, b = m.totals
        if app.opponent.local:
            p = ("P1", "P2")
        else:
            name = app.opponent.name        # the match's "first" player was South in game 1
            p = ("You", name) if app.human0 == 0 else (name, "You")
        lines = ("Game %d/%d %s %d %s %d" % (m.number, m.games, p[0], a, p[1], b),)
        if m.over():
            mw = m.winner()
            lines += ("Match: " + ("drawn" if mw is None else
                                   (p[0] if mw == "first" else p[1]) + " win"),)
        if len(pages[-1]) + len(lines) <= 4:
            pages[-1] += lines
        else:
            pages.append(lines)
    return pages


def result_text(app, page=0):
    """Show page `page` of the result (wrapping round); how many pages there are."""
    pages = result_pages(app)
    m = app.match
    more = m is not None and not m.over()
    last = ("SELECT: next game" if more else
            "SELECT: campaign" if app.battle >= 0 else "SELECT: menu")
    shown = pages[page % len(pages)]
    if app.linked and not app.link.delivered():
        # the other board does not hold the last turn yet: say so on every
        # page, in the link's words (jarmo/linkplay.py's AppLink)
        shown = shown[:3] + (app.link.ON_ITS_WAY,)
    app.set_text(tuple(x[:21] for x in shown) + (last,))
    return len(pages)



# End: the end of a game in words - who ended it and how, who wins, and why the points decide it.
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


def end_words(app):
    """The end of the game in sentences: who ended it and how, who wins (and
    by how many points), and why the points decide it (or "")."""
    g = app.game
    r = g.result()
    ender = 1 - app.turn_side()         # the turn that ended the game was the other side's
    other = 1 - ender
    k = REASONS.index(r.reason)
    if k == 0:                          # camp: the ender, or (after a capture) the other
        how = "all in camp." if _all_in_camp(app, ender) else \
            _name(app, other, False) + " all in camp."
    elif k == 1:
        loser = other if r.winner == SIDE_NAMES[ender] else ender
        how = _name(app, loser, False) + " out of pieces."
    else:
        how = ("moves repeated.", _name(app, other, False) + " cannot move.", "turn limit.")[k - 2]
    story = _name(app, ender, True) + " ended it: " + how
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
    return story, won + ".", why


def result_pages(app):
    """The result on the display, in pages of at most 4 lines: how it ended
    and who wins; why the points decide it; the match. The SELECT line
    follows each page."""
    story, won, why = end_words(app)
    pages = [wrap(story, 21, 3) + (won,)]
    if why:
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
        # the other board does not hold the last turn yet: say so on every page
        from jarmo.linkplay import ON_ITS_WAY
        shown = shown[:3] + (ON_ITS_WAY,)
    app.set_text(tuple(x[:21] for x in shown) + (last,))
    return len(pages)



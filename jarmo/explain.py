# Explain: why an action is refused - the message a player reads.
#
# Imported only when an action is refused, so its strings cost no RAM until
# someone makes a mistake. Reasons are plain words, short enough for three
# lines of the handheld's 21-character display after "No: " (at most 59
# characters), and name points but never use action notation.

from jarmo.board import HOME_ROW, NAMES, ROW, SIDE_NAMES
from jarmo.codes import (
    AFTER,
    AFTER_R,
    DONE,
    FLIP,
    FLIP_PLACE,
    GOLD,
    GUARD,
    MARK,
    MOVE,
    NORTH,
    PLACE,
    RECALL,
    REDEPLOY,
    START,
    action,
    source,
    target,
)
from jarmo.codes import (
    kind as kind_of,
)


def why_illegal(game, code, text):
    """A sentence saying why `code` (parsed from `text`) is not legal in `game`."""
    reason = _reason(game, code)
    return "%s is not legal: %s" % (text.strip(), reason)


def _reason(game, code):
    if game.outcome is not None:
        return "the game is over"
    kind = kind_of(code)
    a = source(code)
    b = target(code)
    side = game.mover
    if kind == MOVE:
        return _move_reason(game, side, a, b)
    if kind == DONE:
        if game.stage < AFTER:
            return "move first: done only ends a turn after the move"
        return "done is not possible now"
    if kind == RECALL and not game.marks:
        return "recalls are only in the classic rules"
    if kind in (FLIP, FLIP_PLACE) and not game.guards_stay:
        return "flipping a guard is only in the legendary rules"
    if kind == REDEPLOY and game.stage != AFTER_R:
        return "a redeploy needs both remote camps, right after your move"
    if kind in (RECALL, FLIP, FLIP_PLACE):
        reason = _source_reason(game, side, kind, a)
        if reason:
            return reason
    if kind != FLIP:
        reason = _camp_reason(game, side, kind, b)
        if reason:
            return reason
    return "that is not possible now"


def _move_reason(game, side, a, b):
    top = game.top
    p = top[a]
    enemy_row = HOME_ROW[1 - side]
    if game.stage >= AFTER:
        return _moved(game)
    if not p:
        return "there is no piece on %s" % NAMES[a]
    if (p & NORTH) >> 1 != side:
        return "the piece on %s is not yours" % NAMES[a]
    if ROW[a] == enemy_row:
        return "%s is on the enemy camp, where pieces never move" % NAMES[a]
    if b not in game.neighbours[side][a]:
        if game.forward and b in game.neighbours[1 - side][a]:
            return "in %s pieces never move backwards" % game.rules
        return "no line joins %s and %s" % (NAMES[a], NAMES[b])
    q = top[b]
    if q and (q & NORTH) >> 1 == side:
        return "your own piece stands on %s" % NAMES[b]
    if q and game.camp_safe and ROW[b] == HOME_ROW[side]:
        return "the piece on %s is on the enemy camp: it cannot be taken" % NAMES[b]
    if game.ban:
        return "no third back-and-forth: play another move first"
    return "that move is not possible now"


def _source_reason(game, side, kind, a):
    p = game.top[a]
    if game.stage != START:
        return "that takes a whole turn and you have already acted"
    if not p or (p & NORTH) >> 1 != side or ROW[a] != HOME_ROW[1 - side]:
        return "you need your own piece on the enemy camp at %s" % NAMES[a]
    if kind == RECALL and not p & MARK:
        return "the archer on %s has not captured yet" % NAMES[a]
    if kind != RECALL and (not p & GUARD or p & GOLD and not p & GUARD):
        return "the piece on %s is not a guard" % NAMES[a]
    if not game.pool[side]:
        return "none of your pieces is captured"
    return None


def _camp_reason(game, side, kind, b):
    if kind == PLACE:
        if not game.held_count[side]:
            return "you hold no pieces"
        if game.one_action and game.stage != START:
            return "in %s placing a held piece takes a whole turn" % game.rules
    if kind == REDEPLOY and not game.pool[side]:
        return "none of your pieces is captured"
    if ROW[b] != HOME_ROW[side]:
        return "pieces come back on your own camp (rank %d)" % (HOME_ROW[side] + 1)
    if game.top[b]:
        return "%s is not empty" % NAMES[b]
    if game.on_board(SIDE_NAMES[side]) >= 5:
        return "a side has at most 5 pieces on the board"
    return None


def _moved(game):
    if game.stage == AFTER_R:
        return "you have moved: redeploy, place or say done"
    return "you have moved: place a held piece or say done"


def piece_reason(game, name):
    """Why the own piece on `name` offers nothing to do this turn."""
    a = NAMES.index(name)
    side = game.mover
    if game.outcome is not None:
        return "the game is over"
    if game.stage >= AFTER:
        return _moved(game)
    if ROW[a] == HOME_ROW[1 - side]:
        return "%s is on the enemy camp, where pieces never move" % name
    return "%s has no free line to move along" % name


def refusal(game, sel, c):
    """Why a pick on the handheld is refused. `sel` is the selected choice
    (-1 none, a point 0..24, or 26 the redeploy), `c` the pick (a point, or
    25 done). The app offers every legal action as picks, so the pick is
    never legal; this builds the action it would be and says why not."""
    side = game.mover
    if sel == 26:
        return _reason(game, action(REDEPLOY, 0, c))
    if sel >= 0:
        if ROW[sel] == HOME_ROW[1 - side]:      # frozen: it recalls or flips
            kind = RECALL if game.marks else FLIP_PLACE
        else:
            kind = MOVE
        return _reason(game, action(kind, sel, c))
    if c >= 25:
        return _reason(game, DONE)
    p = game.top[c]
    name = NAMES[c]
    if p and (p & NORTH) >> 1 == side:
        return piece_reason(game, name)
    if p:
        return "the piece on %s is not yours" % name
    if not game.held_count[side] and game.stage < AFTER:
        return "%s is empty: pick one of your pieces first" % name
    return _reason(game, action(PLACE, 0, c))

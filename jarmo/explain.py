"""Why an action is refused: the message a player reads.

Imported only when an action is refused, so its strings cost no RAM until
someone makes a mistake.
"""

from jarmo.board import HOME_ROW, NAMES, ROW
from jarmo.game import (
    AFTER, AFTER_R, DONE, FLIP, FLIP_PLACE, GOLD, GUARD, MARK, MOVE, PLACE, RECALL, REDEPLOY,
    NORTH, START, action_text,
)


def why_illegal(game, code, text):
    """A sentence saying why `code` (parsed from `text`) is not legal in `game`."""
    reason = _reason(game, code)
    return "%s is not legal: %s" % (text.strip(), reason)


def _reason(game, code):
    if game._result is not None:
        return "the game is over"
    kind = code & 7
    a = (code >> 3) & 31
    b = code >> 8
    side = game._turn
    rules = game.rules
    if kind == MOVE:
        return _move_reason(game, side, a, b)
    if kind == DONE:
        if game._stage < AFTER:
            return "you must move first; done only ends a turn after the move"
        return "done is not possible now"
    if kind == RECALL and rules != "classic":
        return "recalls are a classic rule"
    if kind in (FLIP, FLIP_PLACE) and rules != "legendary":
        return "flipping a guard is a legendary rule"
    if kind == REDEPLOY and game._stage != AFTER_R:
        return "a redeploy needs your pieces on both remote camps right after your move"
    if kind in (RECALL, FLIP, FLIP_PLACE):
        reason = _source_reason(game, side, kind, a)
        if reason:
            return reason
    if kind != FLIP:
        reason = _camp_reason(game, side, kind, b)
        if reason:
            return reason
    return "%s is not possible now" % action_text(code)


def _move_reason(game, side, a, b):
    top = game._top
    p = top[a]
    enemy_row = HOME_ROW[1 - side]
    if game._stage >= AFTER:
        return "you have already moved this turn: place a held piece, redeploy or say done"
    if not p:
        return "there is no piece on %s" % NAMES[a]
    if (p & NORTH) >> 1 != side:
        return "the piece on %s is not yours" % NAMES[a]
    if ROW[a] == enemy_row:
        return "the piece on %s is frozen on the enemy camp" % NAMES[a]
    if b not in game._nbrs[side][a]:
        if game._jasyr and b in game._nbrs[1 - side][a]:
            return "in jasyr pieces never move backwards"
        return "no line joins %s and %s" % (NAMES[a], NAMES[b])
    q = top[b]
    if q and (q & NORTH) >> 1 == side:
        return "your own piece stands on %s" % NAMES[b]
    if q and game._camp_safe and ROW[b] == HOME_ROW[side]:
        return "the piece on %s stands on its enemy camp and cannot be captured" % NAMES[b]
    if game._classic:
        return "a side may not go back and forth a third time; play another move first"
    return "that move is not possible now"


def _source_reason(game, side, kind, a):
    p = game._top[a]
    if game._stage != START:
        return "that takes your whole turn, and you have already acted this turn"
    if not p or (p & NORTH) >> 1 != side or ROW[a] != HOME_ROW[1 - side]:
        return "you need your own piece on the enemy camp at %s" % NAMES[a]
    if kind == RECALL and not p & MARK:
        return "the archer on %s has not captured (it is not marked)" % NAMES[a]
    if kind != RECALL and (not p & GUARD or p & GOLD and not p & GUARD):
        return "the piece on %s is not a guard" % NAMES[a]
    if not game._pool[side]:
        return "none of your pieces is captured"
    return None


def _camp_reason(game, side, kind, b):
    if kind == PLACE:
        if not game._held[side]:
            return "you hold no pieces"
        if game._jasyr and game._stage != START:
            return "in jasyr placing a held piece takes a whole turn"
    if kind == REDEPLOY and not game._pool[side]:
        return "none of your pieces is captured"
    if ROW[b] != HOME_ROW[side]:
        return "pieces come back on your own camp (rank %d)" % (HOME_ROW[side] + 1)
    if game._top[b]:
        return "%s is not empty" % NAMES[b]
    if game.on_board("south" if side == 0 else "north") >= 5:
        return "a side never has more than 5 pieces on the board"
    return None

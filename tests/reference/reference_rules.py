"""Independent reference implementation of the Jarmo rules.

Written from the project's rules reference (RULES.md, given with the brief) only, for differential testing of the
production engine.  Clarity over speed.  Every rule carries a comment naming
the RULES.md section it comes from ("R2" = RULES.md section 2, etc.).
Where RULES.md is silent or ambiguous the choice made is numbered "D<n>" and
explained in tests/reference/DECISIONS.md.

API:
    g = RefGame("classic" | "standard" | "legendary" | "jasyr",
                expansions=(), ply_limit=None)
    g.turn, g.legal(), g.play(text), g.piece(point), g.held(side),
    g.captured(side), g.out(side), g.result()
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------
# R1: the board, kept as data in one place.
# ---------------------------------------------------------------------------

FILES = "abcde"
RANKS = "12345"
POINTS = [f + r for r in RANKS for f in FILES]

# R1: the 38 printed lines, as unordered pairs (copied from RULES.md).
LINES_TEXT = """
a1-c2 a1-b3 b1-d2 b1-a3 c1-a2 c1-e2 c1-d3 d1-b2 d1-c3 e1-c2 e1-d3
a2-c3 b2-c2 b2-b3 b2-c4 c2-d2 c2-e3 d2-b3 d2-d3 e2-d4
a3-b5 b3-b4 b3-a5 b3-c5 c3-a4 c3-e4 d3-b4 d3-d4 d3-e5 e3-d5
a4-c5 b4-c4 b4-d5 c4-d4 c4-a5 c4-e5 d4-b5 e4-c5
"""
LINES = [tuple(pair.split("-")) for pair in LINES_TEXT.split()]

# R1: the dotted line, usable only in jasyr (R6).  One data item.
DOTTED_LINE = ("c3", "b5")

# R8: the two remote-camp markers of the challenges expansion.  One data item.
MARKER_POINTS = ("b3", "d3")

# R1: neighbour table as printed in RULES.md, used only to cross-check LINES.
NEIGHBOURS_TEXT = """
a5: b3 c4
b5: a3 d4
c5: b3 a4 e4
d5: e3 b4
e5: d3 c4
a4: c3 c5
b4: b3 d3 c4 d5
c4: b2 b4 d4 a5 e5
d4: e2 d3 c4 b5
e4: c3 c5
a3: b1 b5
b3: a1 b2 d2 b4 a5 c5
c3: d1 a2 a4 e4
d3: c1 e1 d2 b4 d4 e5
e3: c2 d5
a2: c1 c3
b2: d1 c2 b3 c4
c2: a1 e1 b2 d2 e3
d2: b1 c2 b3 d3
e2: c1 d4
a1: c2 b3
b1: d2 a3
c1: a2 e2 d3
d1: b2 c3
e1: c2 d3
"""


def _build_neighbours(lines):
    table = {p: set() for p in POINTS}
    for a, b in lines:
        table[a].add(b)
        table[b].add(a)
    return table


NEIGHBOURS = _build_neighbours(LINES)
NEIGHBOURS_WITH_DOTTED = _build_neighbours(LINES + [DOTTED_LINE])
# The same neighbours in sorted order, the order in which legal() lists the
# moves; tables, so that no query sorts.
SORTED_NEIGHBOURS = {p: tuple(sorted(NEIGHBOURS[p])) for p in POINTS}
SORTED_NEIGHBOURS_WITH_DOTTED = {p: tuple(sorted(NEIGHBOURS_WITH_DOTTED[p])) for p in POINTS}


def _check_board_data():
    """R1: 38 lines, 30 knight-shaped + 8 orthogonal ring steps, and the
    per-point table agrees with the line list."""
    assert len(LINES) == 38
    assert len({frozenset(line) for line in LINES}) == 38
    knight = ortho = 0
    for a, b in LINES:
        df = abs(FILES.index(a[0]) - FILES.index(b[0]))
        dr = abs(int(a[1]) - int(b[1]))
        if {df, dr} == {1, 2}:
            knight += 1
        elif df + dr == 1:
            ortho += 1
    assert (knight, ortho) == (30, 8)
    printed = {}
    for row in NEIGHBOURS_TEXT.strip().splitlines():
        point, rest = row.split(":")
        printed[point.strip()] = set(rest.split())
    assert printed == NEIGHBOURS, "neighbour table disagrees with line list"
    assert DOTTED_LINE[1] not in NEIGHBOURS[DOTTED_LINE[0]]


_check_board_data()

SIDES = ("south", "north")
RULESETS = ("classic", "standard", "legendary", "jasyr")
EXPANSIONS = ("heroes", "challenges")


def other(side):
    return "north" if side == "south" else "south"


def rank(point):
    return int(point[1])


def home_rank(side):
    """R1: South's camp is rank 1, North's camp is rank 5."""
    return 1 if side == "south" else 5


def own_camp(side):
    return [f + str(home_rank(side)) for f in FILES]


# A table, as on_enemy_camp() is asked about every move tried.
ENEMY_CAMP = {side: frozenset(own_camp(other(side))) for side in SIDES}


def on_enemy_camp(side, point):
    """R1: the enemy camp of a side is the other side's home row."""
    return point in ENEMY_CAMP[side]


def forward_step(side):
    """R6: direction 'towards the enemy camp' in ranks."""
    return 1 if side == "south" else -1


# ---------------------------------------------------------------------------
# Pieces and results
# ---------------------------------------------------------------------------


class Piece:
    """One soldier / archer.  face is 'a' (archer) or 'g' (guard)."""

    def __init__(self, owner, golden=False):
        self.owner = owner
        self.golden = golden            # R7: Golden Soldier
        self.face = "g" if golden else "a"  # R4: all start as archers; R7: golden starts guard
        self.marked = False             # R3: classic mark

    def copy(self):
        p = Piece(self.owner, self.golden)
        p.face = self.face
        p.marked = self.marked
        return p

    def code(self):
        letter = "S" if self.owner == "south" else "N"
        face = "m" if (self.face == "a" and self.marked) else self.face
        if self.golden:
            face = face.upper()
        return letter + face


class Result:
    def __init__(self, winner, points, reason):
        self.winner = winner    # "south" / "north" / None (draw)
        self.points = points    # (south, north) or None
        self.reason = reason    # camp / wipeout / repetition / stuck / limit

    def __repr__(self):
        return f"Result(winner={self.winner!r}, points={self.points!r}, reason={self.reason!r})"


BREAK = ("break",)  # R2: a recall/placement/flip/redeploy in the move history

_SQ = r"([a-e][1-5])"
_RE_MOVE = re.compile(rf"^{_SQ}[-x]{_SQ}$")
_RE_RECALL = re.compile(rf"^{_SQ}@{_SQ}$")
_RE_PLACE = re.compile(rf"^@{_SQ}$")
_RE_FLIP = re.compile(rf"^{_SQ}\*$")
_RE_FLIP_PLACE = re.compile(rf"^{_SQ}\*@{_SQ}$")
_RE_REDEPLOY = re.compile(rf"^r@{_SQ}$")


class RefGame:
    def __init__(self, ruleset, expansions=(), ply_limit=None):
        if ruleset not in RULESETS:
            raise ValueError(f"unknown rule set {ruleset!r}")
        if isinstance(expansions, str):
            expansions = (expansions,)
        expansions = tuple(expansions)
        for name in expansions:
            if name not in EXPANSIONS:
                raise ValueError(f"unknown expansion {name!r}")
        # R7: heroes with standard, legendary or jasyr; R8: challenges with any but classic.
        if ruleset == "classic" and expansions:
            raise ValueError("classic takes no expansions")
        if ply_limit is not None:
            # D16: the limit is a positive number of completed turns.
            if isinstance(ply_limit, bool) or not isinstance(ply_limit, int) or ply_limit < 1:
                raise ValueError("ply_limit must be a positive integer or None")
        self.ruleset = ruleset
        self.heroes = "heroes" in expansions
        self.challenges = "challenges" in expansions
        self.ply_limit = ply_limit

        # board: point -> list of pieces, bottom first; the last one is the top (R7).
        self.board = {p: [] for p in POINTS}
        # R2: each side starts with 5 pieces on its own camp.
        for side in SIDES:
            for point in own_camp(side):
                self.board[point].append(Piece(side))
        # R7: right-hand corner piece is the Golden Soldier (South e1, North a5), guard face up.
        if self.heroes:
            self.board["e1"] = [Piece("south", golden=True)]
            self.board["a5"] = [Piece("north", golden=True)]

        self.held_pieces = {s: [] for s in SIDES}      # R4: held beside the board
        self.captured_pieces = {s: [] for s in SIDES}  # captured, recoverable
        self.out_pieces = {s: [] for s in SIDES}       # out of the game for good
        self.history = {s: [] for s in SIDES}          # R2: move history per side
        self.markers_present = self.challenges          # R8

        self.turn = "south"          # R2: South moves first
        self.phase = "start"         # start / premove (placed, move still due) / post (moved, turn open)
        self.redeploy_earned = False  # R8: this turn's move left the mover on both markers
        self.completed_turns = 0     # R2: the ply limit counts completed turns
        self._result = None
        self._check_no_legal_action()  # R2: checked when a turn begins

    # ------------------------------------------------------------------
    # Queries
    # ------------------------------------------------------------------

    def piece(self, point):
        point = point.strip().lower()
        if point not in self.board:
            raise ValueError(f"no such point {point!r}")
        stack = self.board[point]
        if not stack:
            return None
        # Stack shown as "top/bottom".
        return "/".join(p.code() for p in reversed(stack))

    def held(self, side):
        return len(self.held_pieces[side])

    def captured(self, side):
        return len(self.captured_pieces[side])

    def out(self, side):
        return len(self.out_pieces[side])

    def result(self):
        return self._result

    def on_board(self, side):
        """Pieces of `side` on the board, hostages included (R7)."""
        count = 0
        for stack in self.board.values():
            for p in stack:
                if p.owner == side:
                    count += 1
        return count

    def _top(self, point):
        stack = self.board[point]
        return stack[-1] if stack else None

    def _empty_own_camp_points(self, side):
        return [p for p in own_camp(side) if not self.board[p]]

    def _room(self, side, extra=0):
        """A placement is possible: an empty own-camp point and the 5-on-board
        limit (R4, R8; D7: hostages count for their owner)."""
        return bool(self._empty_own_camp_points(side)) and self.on_board(side) + extra < 5

    # ------------------------------------------------------------------
    # Legal actions
    # ------------------------------------------------------------------

    def legal(self):
        if self._result is not None:
            return []  # D8
        side = self.turn
        actions = []
        if self.phase == "post":
            # R4 / R8: the turn stays open after the move.
            if self._can_place_after_move():
                actions += ["@" + p for p in self._empty_own_camp_points(side)]
            if self._can_redeploy():
                actions += ["r@" + p for p in self._empty_own_camp_points(side)]
            actions.append("done")
            return actions

        if self.ruleset == "classic":
            actions += self._moves(side)
            actions += self._recalls(side)
            return actions

        # R4: place held pieces before the move (standard, legendary);
        # R6: in jasyr placing is the whole turn, so only at the turn's start.
        if self.held_pieces[side] and self._room(side):
            if self.ruleset != "jasyr" or self.phase == "start":
                actions += ["@" + p for p in self._empty_own_camp_points(side)]
        actions += self._moves(side)
        # R5: the flip is a whole turn (D6: only as the turn's first action).
        if self.ruleset == "legendary" and self.phase == "start":
            actions += self._flips(side)
        return actions

    def _line_neighbours(self, point):
        # R6: the dotted line is usable only in jasyr.
        table = SORTED_NEIGHBOURS_WITH_DOTTED if self.ruleset == "jasyr" else SORTED_NEIGHBOURS
        return table[point]

    def _move_problem(self, side, src, dst):
        """None if src-dst is a legal move for `side` now, else the reason."""
        problem = self._source_problem(side, src)
        if problem is not None:
            return problem
        if dst not in self._line_neighbours(src):
            return f"no line joins {src} and {dst}"  # R1 (R6: dotted line in jasyr)
        return self._step_problem(side, src, dst)

    def _source_problem(self, side, src):
        """None if the piece on src may move at all, else the reason."""
        stack = self.board[src]
        if not stack or stack[-1].owner != side:
            # R7: only the top piece of a stack moves.
            return f"no {side} piece that can move on {src}"
        if on_enemy_camp(side, src):
            return f"the piece on {src} stands on the enemy camp and is frozen"  # R2
        return None

    def _step_problem(self, side, src, dst):
        """For a piece that may move (_source_problem) and points joined by
        a line: None if src-dst is legal, else the reason."""
        if self.ruleset == "jasyr" and (rank(dst) - rank(src)) * forward_step(side) < 0:
            return "jasyr moves go forward or sideways, never backwards"  # R6
        target = self._top(dst)
        if target is not None:
            if target.owner == side:
                return f"{dst} holds an own piece"  # R2
            if self.ruleset in ("legendary", "jasyr") and on_enemy_camp(target.owner, dst):
                return f"the piece on {dst} stands on its enemy camp and cannot be captured"  # R5, R6
        if self.ruleset == "classic" and self._triple_back_and_forth(side, src, dst):
            return f"{src}-{dst} would be a third back-and-forth"  # R3
        return None

    def _moves(self, side):
        # _move_problem's checks, split so that those about src run once per
        # piece, not once per line; points without an own piece are passed
        # over before any reason is worded.
        moves = []
        for src in POINTS:
            stack = self.board[src]
            if not stack or stack[-1].owner != side:
                continue
            if self._source_problem(side, src) is not None:
                continue
            for dst in self._line_neighbours(src):
                if self._step_problem(side, src, dst) is None:
                    moves.append(f"{src}-{dst}")
        return moves

    def _triple_back_and_forth(self, side, src, dst):
        """R3: may not play x-y when the own last four moves were x-y, y-x, x-y, y-x."""
        last4 = self.history[side][-4:]
        x, y = src, dst
        return last4 == [("move", x, y), ("move", y, x), ("move", x, y), ("move", y, x)]

    def _recalls(self, side):
        """R3: classic recall, '<marked archer>@<empty own camp point>'."""
        if not self.captured_pieces[side]:
            return []
        result = []
        for src in POINTS:
            top = self._top(src)
            if top is not None and top.owner == side and top.marked and on_enemy_camp(side, src):
                for dst in self._empty_own_camp_points(side):
                    result.append(f"{src}@{dst}")
        return result

    def _flips(self, side):
        """R5: turn an own guard standing on the enemy camp to an archer and
        recover one captured piece.  D4: only if a piece is captured."""
        if not self.captured_pieces[side]:
            return []
        result = []
        for src in POINTS:
            top = self._top(src)
            if top is not None and top.owner == side and top.face == "g" and on_enemy_camp(side, src):
                result.append(f"{src}*")
                # R5: placing at once needs room and the 5-piece limit.
                if self._room(side, extra=0):
                    for dst in self._empty_own_camp_points(side):
                        result.append(f"{src}*@{dst}")
        return result

    def _can_place_after_move(self):
        side = self.turn
        # R6: in jasyr held pieces never keep a turn open after a move.
        if self.ruleset == "jasyr":
            return False
        return bool(self.held_pieces[side]) and self._room(side)  # R4

    def _can_redeploy(self):
        side = self.turn
        return (
            self.challenges
            and self.markers_present
            and self.redeploy_earned
            and bool(self.captured_pieces[side])
            and self._room(side)
        )  # R8

    def _on_both_markers(self, side):
        """R8; D11: a point counts as the side's when its top piece is the side's."""
        return all(self._top(p) is not None and self._top(p).owner == side for p in MARKER_POINTS)

    # ------------------------------------------------------------------
    # Playing
    # ------------------------------------------------------------------

    @staticmethod
    def normalize(text):
        """R9: case-insensitive, surrounding spaces tolerated, 'x' for '-' in moves."""
        if not isinstance(text, str):
            raise ValueError("an action must be a string")
        t = text.strip().lower()
        m = _RE_MOVE.match(t)
        if m:
            return f"{m.group(1)}-{m.group(2)}"
        for rx in (_RE_RECALL, _RE_PLACE, _RE_FLIP, _RE_FLIP_PLACE, _RE_REDEPLOY):
            if rx.match(t):
                return t
        if t == "done":
            return t
        raise ValueError(f"cannot read action {text!r}: expected e.g. 'b1-d2', '@a1', 'done', "
                         f"'c5@a1', 'c5*', 'c5*@a1' or 'r@a1'")

    def play(self, text):
        if self._result is not None:
            raise ValueError("the game is over")
        action = self.normalize(text)
        if action not in self.legal():
            raise ValueError(self._why_illegal(action))

        side = self.turn
        m = _RE_MOVE.match(action)
        if m:
            self._do_move(side, m.group(1), m.group(2))
            return
        m = _RE_RECALL.match(action)
        if m:
            self._do_recall(side, m.group(1), m.group(2))
            return
        m = _RE_PLACE.match(action)
        if m:
            self._do_place(side, m.group(1))
            return
        m = _RE_FLIP.match(action)
        if m:
            self._do_flip(side, m.group(1), None)
            return
        m = _RE_FLIP_PLACE.match(action)
        if m:
            self._do_flip(side, m.group(1), m.group(2))
            return
        m = _RE_REDEPLOY.match(action)
        if m:
            self._do_redeploy(side, m.group(1))
            return
        if action == "done":
            self._end_turn()  # R2: 'done' enters nothing in the history
            return
        raise AssertionError(action)

    def _why_illegal(self, action):
        side = self.turn
        if self.phase == "post":
            return f"{side} has moved; now only placing, redeploying or 'done' is possible, not {action!r}"
        if action == "done":
            return "'done' only ends a turn that is open after the move; the move is compulsory"
        m = _RE_MOVE.match(action)
        if m:
            problem = self._move_problem(side, m.group(1), m.group(2))
            return problem or f"{action} is not legal now"
        if _RE_RECALL.match(action):
            if self.ruleset != "classic":
                return "recall exists only in classic"
            return (f"{action}: recall needs a marked archer on the enemy camp, a captured archer"
                    " and an empty own-camp point")
        if _RE_PLACE.match(action):
            if self.ruleset == "classic":
                return "classic has no held pieces"
            if not self.held_pieces[side]:
                return f"{side} holds no piece"
            return f"{action}: placing needs an empty point of the own camp"
        if _RE_FLIP.match(action) or _RE_FLIP_PLACE.match(action):
            if self.ruleset != "legendary":
                return "the flip exists only in legendary"
            if self.phase != "start":
                return "the flip is a whole turn"
            return f"{action}: needs an own guard on the enemy camp there, a captured piece, and room to place"
        if _RE_REDEPLOY.match(action):
            return "a redeploy needs the challenges markers, a move onto both, a captured piece and room"
        return f"{action} is not legal now"

    def _place_on_camp(self, side, piece, point):
        """R4/R8: a piece comes back archer face up (D14: unmarked)."""
        piece.face = "a"
        piece.marked = False
        assert not self.board[point] and rank(point) == home_rank(side)
        self.board[point] = [piece]

    @staticmethod
    def _take_for_return(pool):
        """D5: ordinary pieces come back before the Golden Soldier."""
        for i, p in enumerate(pool):
            if not p.golden:
                return pool.pop(i)
        return pool.pop(0)

    def _dispose_captured(self, victim):
        """Where a captured piece goes (R2, R6, R7)."""
        owner = victim.owner
        if self.heroes and victim.golden and victim.face == "a":
            self.out_pieces[owner].append(victim)  # R7: golden captured as archer: out for good
        elif self.ruleset == "jasyr":
            if victim.face == "a":
                self.out_pieces[owner].append(victim)  # R6: captured archer out for good
            else:
                victim.face = "a"
                self.held_pieces[owner].append(victim)  # R6: captured guard straight back, held (D13 for golden)
        else:
            victim.face = "a"  # R7: a golden captured like an ordinary piece comes back as an archer
            victim.marked = False
            self.captured_pieces[owner].append(victim)  # recoverable (R3 recall, R4 recovery)

    def _do_move(self, side, src, dst):
        mover = self.board[src].pop()  # R7: the top piece moves; a piece below stays
        target_stack = self.board[dst]
        if target_stack:
            victim = target_stack[-1]
            under = target_stack[:-1]
            # R4 promotion condition: victim not on its own camp.
            victim_on_own_camp = rank(dst) == home_rank(victim.owner)
            if self.heroes and victim.golden and victim.face == "g" and not under:
                # R7: golden captured as a guard (not on top of a stack): it stays,
                # turns archer face up, the capturer stands on top -> hostage.
                victim.face = "a"
                self.board[dst] = [victim, mover]
            else:
                # R2: the enemy piece leaves the board.  R7: on a stack only
                # the top piece is captured; the piece below stays (rescue, or
                # an own golden becoming the capturer's hostage).
                self._dispose_captured(victim)
                self.board[dst] = under + [mover]
            # R3: an archer that captured is marked (classic).
            if self.ruleset == "classic":
                mover.marked = True
            # R4: promotion (not in classic).  R7: golden archer never again guard.
            elif mover.face == "a" and not victim_on_own_camp and not mover.golden:
                mover.face = "g"
        else:
            self.board[dst] = [mover]

        # R4: entering the enemy camp (the piece is now frozen, R2).
        if on_enemy_camp(side, dst) and mover.face == "g":
            if self.ruleset in ("standard", "jasyr"):
                mover.face = "a"  # R4: guard turns back into an archer
                if self.captured_pieces[side]:
                    recovered = self._take_for_return(self.captured_pieces[side])
                    self.held_pieces[side].append(recovered)  # R4: recovered piece is held
            # R5 legendary: stays a guard, recovers nothing now.

        self.history[side].append(("move", src, dst))  # R2

        if self.ruleset == "classic":
            self._end_turn()  # R3: one move is the whole turn
            return
        # R8: did this move leave the mover on both markers?
        self.redeploy_earned = self.challenges and self.markers_present and self._on_both_markers(side)
        self.phase = "post"
        if self._can_place_after_move() or self._can_redeploy():
            return  # R4/R8: the turn stays open
        self._end_turn()

    def _do_recall(self, side, src, dst):
        # R3: put one captured archer back on an empty own-camp point; the
        # marked archer used loses its mark.
        archer = self.captured_pieces[side].pop(0)
        self._place_on_camp(side, archer, dst)
        self._top(src).marked = False
        self.history[side].append(BREAK)  # R2
        self._end_turn()

    def _do_place(self, side, point):
        piece = self._take_for_return(self.held_pieces[side])  # D5
        self._place_on_camp(side, piece, point)  # R4
        self.history[side].append(BREAK)  # R2
        if self.ruleset == "jasyr":
            self._end_turn()  # R6: placing takes the whole turn
            return
        if self.phase == "post":
            # D9: further placements / a redeploy keep the turn open.
            if self._can_place_after_move() or self._can_redeploy():
                return
            self._end_turn()
            return
        # R4: placing before the move does not end the turn; the move is due.
        self.phase = "premove"
        self._check_no_legal_action()  # R2: checked after an action that leaves the turn open

    def _do_flip(self, side, src, place_at):
        # R5: guard on the enemy camp turns archer, one captured piece recovered.
        self._top(src).face = "a"
        recovered = self._take_for_return(self.captured_pieces[side])  # D5
        if place_at is None:
            self.held_pieces[side].append(recovered)
        else:
            self._place_on_camp(side, recovered, place_at)
        self.history[side].append(BREAK)  # R2
        self._end_turn()  # R5: the flip is the whole turn

    def _do_redeploy(self, side, point):
        # R8: one captured piece back on an empty own-camp point, archer face up;
        # both markers leave the game.
        piece = self._take_for_return(self.captured_pieces[side])  # D5
        self._place_on_camp(side, piece, point)
        self.markers_present = False
        self.history[side].append(BREAK)  # R2
        if self._can_place_after_move() or self._can_redeploy():
            return
        self._end_turn()

    # ------------------------------------------------------------------
    # End of turn, end of game
    # ------------------------------------------------------------------

    def _end_turn(self):
        mover = self.turn
        opponent = other(mover)
        self.completed_turns += 1
        # The turn ends: the other side will act next (D8).
        self.turn = opponent
        self.phase = "start"
        self.redeploy_earned = False

        # R2 order: wipe-out (non-mover first, then mover).  D2: none in classic.
        if self.ruleset != "classic":
            for s in (opponent, mover):
                if self._wiped_out(s):
                    self._finish_wipeout(loser=s)
                    return
        # R2 order: camp (mover first, then the other side).
        if self.ruleset in ("classic", "standard"):
            for s in (mover, opponent):
                if self._camp_complete(s):  # R3 end, R4 end 1
                    self._finish_scored("camp")
                    return
        else:
            # R5/R6: a side wins when, at the end of ITS turn, ... (D1: mover only)
            if self._camp_complete(mover):
                self._result = Result(mover, None, "camp")
                return
        # R4 end 3: both sides went back and forth twice (not classic, R3).
        if self.ruleset != "classic":
            if self._back_and_forth_twice("south") and self._back_and_forth_twice("north"):
                self._finish_scored("repetition")
                return
        # R2: optional ply limit, counting completed turns.
        if self.ply_limit is not None and self.completed_turns >= self.ply_limit:
            self._finish_scored("limit")
            return
        # R2: a new turn begins.
        self._check_no_legal_action()

    def _check_no_legal_action(self):
        # R2 / R3 / R4 end 4: the side to move has no legal action.
        if self._result is None and not self.legal():
            self._finish_scored("stuck")

    def _wiped_out(self, side):
        """R4 end 2 / R5: no piece left on the board or held."""
        return self.on_board(side) == 0 and not self.held_pieces[side]

    def _camp_complete(self, side):
        """R3 / R4 end 1: all own pieces on the board (at least one) stand on
        the enemy camp.  R7: a hostage counts for its owner."""
        has_piece = False
        for pt, stack in self.board.items():
            for p in stack:
                if p.owner == side:
                    if not on_enemy_camp(side, pt):
                        return False
                    has_piece = True
        return has_piece

    def _back_and_forth_twice(self, side):
        """R4 end 3: own last four moves are x-y, y-x, x-y, y-x."""
        last4 = self.history[side][-4:]
        if len(last4) < 4 or any(e[0] != "move" for e in last4):
            return False
        (_, x, y) = last4[0]
        return last4 == [("move", x, y), ("move", y, x), ("move", x, y), ("move", y, x)]

    def _tally(self, side):
        """R3 score / R4 tally: 2 per own piece on the enemy camp, 1 per other
        own piece on the board (R7: hostages count for their owner)."""
        points = 0
        in_camp = 0
        for pt, stack in self.board.items():
            for p in stack:
                if p.owner == side:
                    if on_enemy_camp(side, pt):
                        points += 2
                        in_camp += 1
                    else:
                        points += 1
        return points, in_camp

    def _finish_scored(self, reason):
        if self.ruleset in ("legendary", "jasyr"):
            # R5/R6: no points; ends by repetition, no legal action (and the
            # ply limit, R2) are draws.
            self._result = Result(None, None, reason)
            return
        (s_pts, s_camp) = self._tally("south")
        (n_pts, n_camp) = self._tally("north")
        if s_pts != n_pts:
            winner = "south" if s_pts > n_pts else "north"
        elif self.ruleset == "standard" and s_camp != n_camp:
            winner = "south" if s_camp > n_camp else "north"  # R4 tie-break
        else:
            winner = None  # R3 / R4: draw
        self._result = Result(winner, (s_pts, n_pts), reason)

    def _finish_wipeout(self, loser):
        winner = other(loser)
        if self.ruleset == "standard":
            # R4 end 2: winner scores as in the tally, loser 0.
            pts = self._tally(winner)[0]
            points = (pts, 0) if winner == "south" else (0, pts)
        else:
            points = None  # R5/R6: no points
        self._result = Result(winner, points, "wipeout")

    # ------------------------------------------------------------------
    # Testing helpers
    # ------------------------------------------------------------------

    def clone(self):
        """An independent copy (for trying every legal action in tests)."""
        g = RefGame.__new__(RefGame)
        g.__dict__.update(self.__dict__)
        g.board = {pt: [p.copy() for p in stack] for pt, stack in self.board.items()}
        g.held_pieces = {s: [p.copy() for p in v] for s, v in self.held_pieces.items()}
        g.captured_pieces = {s: [p.copy() for p in v] for s, v in self.captured_pieces.items()}
        g.out_pieces = {s: [p.copy() for p in v] for s, v in self.out_pieces.items()}
        g.history = {s: list(v) for s, v in self.history.items()}
        return g

    def snapshot(self):
        """A comparable picture of the whole state."""
        return (
            tuple(self.piece(p) for p in POINTS),
            tuple((self.held(s), self.captured(s), self.out(s)) for s in SIDES),
            tuple(tuple(self.history[s]) for s in SIDES),
            self.turn, self.phase, self.redeploy_earned, self.markers_present,
            self.completed_turns, repr(self._result),
        )

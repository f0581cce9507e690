# Codes: the ints the rules core trades in - piece bytes, action codes and undo-log entries.
#
# This comment is the written contract; jarmo.game, jarmo.explain,
# jarmo.notation, the AI and the app read and write exactly these bits.
# Importing this module costs about 800 bytes of RAM (its public names and
# helpers), so modules loaded at start-up keep private `_NAME = const(...)`
# mirrors instead, which MicroPython inlines at no cost;
# tests/test_core_imports.py checks every mirror in jarmo/ against the names
# here. jarmo.explain, loaded only when an action is refused, imports it.
#
# Piece byte (Game.piece_at(p), Game.under_at(p); 0 = no piece)
#   bit 0  PRESENT  a piece stands here (set on every piece)
#   bit 1  NORTH    it is North's (clear: South's)
#   bit 2  GUARD    guard face up (clear: archer)
#   bit 3  MARK     classic: an archer that has captured (may recall)
#   bit 4  GOLD     heroes: the Golden Soldier
#
# Action code (Game.legal_codes(), Game.play_code(code); notation in jarmo.notation)
#   bits 0-2   kind    MOVE RECALL PLACE DONE FLIP FLIP_PLACE REDEPLOY (7 unused)
#   bits 3-7   source  point 0..24 (a1 = 0, e5 = 24); 0 when the kind has none
#   bits 8-12  target  point 0..24; 0 when the kind has none
#   kind     source        target        notation
#   MOVE     from          to            b1-d2
#   RECALL   marked archer camp point    c5@a1
#   PLACE    -             camp point    @a1
#   DONE     -             -             done
#   FLIP     guard         -             c5*
#   FLIP_PLACE guard       camp point    c5*@a1
#   REDEPLOY -             camp point    r@a1
#
# Undo-log entry (Game.undo_log: one small int per action played, < 2**28)
#   bits 0-12   the action code (entry & ACTION_BITS)
#   bit 13      the side that acted (0 south, 1 north)
#   bits 14-15  the turn's stage before the action (START PLACED AFTER AFTER_R)
#   bits 16-20  MOVE: the piece byte captured on the target, 0 if none
#   bits 21-23  MOVE: the mover's GUARD MARK GOLD bits before the move (byte >> 2)
#   bits 24-25  MOVE with a capture: where the captured piece went
#               (TO_POOL TO_OUT TO_HELD TO_HOSTAGE)
#   bits 26-27  the piece brought into the hand or onto the board: 0 none,
#               1 ordinary, 2 the Golden Soldier (MOVE: recovered by a guard
#               entering the enemy camp; FLIP: recovered; PLACE, FLIP_PLACE,
#               REDEPLOY: the piece put on the target)

try:
    from micropython import const
except ImportError:  # CPython: const is only a hint to the MicroPython compiler
    def const(value):
        return value

PRESENT = const(1)
NORTH = const(2)
GUARD = const(4)
MARK = const(8)
GOLD = const(16)

MOVE = const(0)
RECALL = const(1)
PLACE = const(2)
DONE = const(3)
FLIP = const(4)
FLIP_PLACE = const(5)
REDEPLOY = const(6)

ACTION_BITS = const(0x1FFF)

# The fields of a code and an entry, as masks and shifts.
KIND_BITS = const(7)        # code & KIND_BITS: the kind
SOURCE = const(3)           # code >> SOURCE & POINT_BITS: the source point
TARGET = const(8)           # code >> TARGET & POINT_BITS: the target point
POINT_BITS = const(31)
SIDE_BIT = const(13)        # entry >> SIDE_BIT & 1: the side that acted
STAGE = const(14)           # entry >> STAGE & 3: the stage before
CAPTURED = const(16)        # entry >> CAPTURED & 31: the piece byte captured
MOVER = const(21)           # entry >> MOVER & 7: the mover's flags before (byte >> FLAGS)
WHERE = const(24)           # entry >> WHERE & 3: where the captured piece went
BROUGHT = const(26)         # entry >> BROUGHT & 3: the piece brought to hand or board
FLAGS = const(2)            # byte >> FLAGS & 7: a piece's GUARD MARK GOLD bits

# Where a turn stands (undo entry bits 14-15).
START = const(0)      # nothing done yet
PLACED = const(1)     # placed held pieces, the move is still due
AFTER = const(2)      # moved; may place held pieces or say done
AFTER_R = const(3)    # moved onto both markers; may also redeploy

# What became of a captured piece (undo entry bits 24-25).
TO_POOL = const(0)     # captured, recoverable
TO_OUT = const(1)      # out of the game for good
TO_HELD = const(2)     # straight back to its owner's hand (jasyr guards)
TO_HOSTAGE = const(3)  # a Golden Soldier left under the capturer


def action(kind, a, b):
    """The action code of a kind with source point a and target point b."""
    return kind | a << SOURCE | b << TARGET


def kind(code):
    return code & KIND_BITS


def source(code):
    return code >> SOURCE & POINT_BITS


def target(code):
    return code >> TARGET & POINT_BITS


# The search interface of a Game: the members the search (jarmo.ai), its
# evaluation (jarmo.evaluation) and the explanations (jarmo.explain) use
# besides the public API.  The position as arrays and small ints (read
# only: the search changes a position through the methods below), the rule
# set's features as flags (jarmo/rulesets.py) and the move tables, and the
# fast generation, play and undo the rules use themselves (no legality
# check, no text).  Nothing else of a Game is theirs to touch, and they
# touch no private member (tests/test_game_interface.py reads the modules).
SEARCH_MEMBERS = (
    # the position: top[p] and under[p] piece bytes per point; per side
    # (index 0 South, 1 North) held_count, pool (captured, recoverable),
    # out_count (out for good), held_gold and pool_gold (the Golden Soldier
    # among them); marker_points, markers_on; mover (the side to act, 0 or
    # 1), stage (the turn's stage), ply_count, outcome (a Result or None),
    # undo_log (one entry a played action, as above)
    "top", "under", "held_count", "pool", "out_count", "held_gold", "pool_gold",
    "marker_points", "markers_on", "mover", "stage", "ply_count", "outcome", "undo_log",
    # the rule set's features, the expansions, the move tables
    "scored", "marks", "ban", "camp_safe", "guards_stay", "forward",
    "taken_held", "one_action", "heroes", "neighbours",
    # generation into a buffer, play and undo of a code, the rules' own
    # tests, and the quiet-move fast path's halves of do_code
    "gen_into", "do_code", "undo_code", "move_piece", "unmove_piece", "repeat_move",
    "turn_end", "can_move", "all_in_camp", "end_quiet_turn",
)

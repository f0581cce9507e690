# Legend: the LED legend for players, (meaning, 0xRRGGBB) in manual order.
#
# Kept out of app_view so its strings cost no RAM on the device unless a
# tool (the simulator, the manual) asks for it: ``App.legend()``. The
# colours are app_view's palette; the timer's countdown red is
# app_assist's (private there: a const MicroPython inlines), kept equal by
# tests/web/test_page.py, which checks that every colour the App draws is here.

from jarmo import app_view as V

COUNTDOWN = 0x500000    # app_assist: the timer's last seconds on rank 3

LEGEND = (
    ("South archer", V.PIECE[0]), ("South guard", V.PIECE[2]),
    ("South Golden Soldier (guard, yellow)", V.PIECE[4]),
    ("South Golden Soldier (archer)", V.PIECE[3]),
    ("South marked archer (breathes)", V.PIECE[1]),
    ("North archer", V.PIECE[5]), ("North guard", V.PIECE[7]),
    ("North Golden Soldier (guard, bluish green)", V.PIECE[9]),
    ("North Golden Soldier (archer)", V.PIECE[8]),
    ("North marked archer (breathes)", V.PIECE[6]),
    ("cursor, South to move (blinks)", V.CURSOR[0]), ("cursor, North to move (blinks)", V.CURSOR[1]),
    ("selected piece", V.SELECTED), ("legal target", V.TARGET),
    ("last move came from (no display: the opponent's move, until you play)", V.TRAIL),
    ("a move's arrival (white glow; no display: again every 1.5 s)", V.WHITE),
    ("remote-camp marker", V.MARKER),
    ("capture (white strobe; no display: two white strobes again every 1.5 s)", V.WHITE),
    ("refused choice (red strobe)", V.RED),
    ("a question (every LED flashes red): SELECT again is yes", V.RED),
    ("the AI thinks: a dot circling c3 in the cursor's colour", V.CURSOR[1]),
    ("hint: its points in turn (the lesson's next pick; on a new board's menu, First game)",
     V.HINT_COLOUR),
    ("timer: the last seconds, one dim red point each on rank 3", COUNTDOWN),
)

"""What the app shows now, read from its state: the pieces' letters, the
marks on the points, whether the dotted line counts, and what the LEDs mean
when they do not show the board.

Host only: it reads the app's states (jarmo/app_*.py) the way a person
reads the LEDs and the display, and never changes them.
"""

from host.legend import piece_label
from jarmo import app_base as B
from jarmo import board as jboard

REPLAY = -1      # host.replay's screen: the position of a game file, no App


def _screen(app):
    """The screen shown: its id (jarmo.app_base.S_*), REPLAY, or None."""
    if getattr(app, "state", None) == "replay":
        return REPLAY
    return getattr(app, "sid", None)


def _game_shown(app):
    """The Game whose position the LEDs show now, or None."""
    sid = _screen(app)
    if sid == B.S_LESSON:                   # the guided first game has its own game
        return app.states[app.sid].game
    game = getattr(app, "game", None)
    if game is None or sid not in SCREEN_LEDS:
        return None
    has_display = getattr(app, "has_display", True)
    if sid == B.S_PLAY and app.board.cursor >= 25:
        return None           # done / redeploy / menu: an icon replaces the board
    shows = SCREEN_LEDS[sid][0]
    return game if shows == ALWAYS or (shows == BESIDE_DISPLAY and has_display) else None


def board_labels(app):
    """The 25 labels (piece letters, "" for an empty point) of the position the
    LEDs show, or None while they show something else (an LED-only menu or
    screen, a pseudo choice's icon)."""
    game = _game_shown(app)
    if game is None:
        return None
    return [piece_label(game.piece(name)) for name in jboard.NAMES]


def dotted_counts(app):
    """True when the dotted line c3-b5 is a line of the game shown (jasyr)."""
    game = _game_shown(app)
    from jarmo import rulesets as R
    return game is not None and bool(game.row[R.FEATURES] & R.FORWARD)   # jasyr's lines


def _hint_shown():
    """app_assist's mode while a hint is shown (-1 when the module is not loaded)."""
    import sys
    assist = sys.modules.get("jarmo.app_assist")
    return assist._SHOWN if assist is not None else -1


def _bits(mask):
    return [p for p in range(25) if mask >> p & 1]


def board_marks(app):
    """{point: mark} of what the LEDs single out now (host.board_text.MARKS):
    the cursor, the selected piece, where it (or a held piece) can go, the
    hint's points, the last move's two ends."""
    marks = {}
    if _game_shown(app) is None:
        return marks
    sid = _screen(app)
    if sid == REPLAY:
        for p in app.last_move():
            marks[p] = "last"
        return marks
    if sid == B.S_LESSON:
        lesson = app.states[app.sid]
        board = lesson.board
        if board.trail >= 0:
            marks[board.trail] = "last"
        wanted = lesson._wanted()
        if 0 <= wanted < 25:
            marks[wanted] = "hint"
        if 0 <= lesson.sel < 25:
            marks[lesson.sel] = "selected"
    else:
        board = app.board
        for p in (board.trail, board.arrive):
            if 0 <= p < 25:
                marks[p] = "last"
        play = app.states[app.sid] if sid == B.S_PLAY else None
        if play is not None:
            if getattr(play, "mode", 0) == _hint_shown():
                for p in play.points[:play.n]:
                    marks[p] = "hint"
            for p in _bits(play.tmask & 0x1FFFFFF):
                marks[p] = "target"
            if 0 <= play.sel < 25:
                marks[play.sel] = "selected"
    c = cursor(app)
    if c >= 0:
        marks[c] = "cursor"
    return marks


def cursor(app):
    """The point under the cursor while a human picks (in a game or in the
    lesson), else -1."""
    if _screen(app) == B.S_LESSON:
        return app.states[app.sid].cursor()
    c = getattr(app, "cursor", -1)
    return c if 0 <= c < 25 else -1


def bold_points(app):
    """The points whose lines matter now: the cursor's and the selected piece's."""
    marks = board_marks(app)
    return tuple(p for p, m in marks.items() if m in ("cursor", "selected"))


# ---------------------------------------------------------------- LEDs without the board


def _names(points):
    return " ".join(jboard.NAMES[p] for p in points)


def _menu_leds(app, has_display):
    from jarmo import app_menu as M
    menu = app.states[app.sid]
    item = menu.item
    row = item * M.ITEM
    out = ["LEDs: %s lit white = the item %s" % (jboard.NAMES[M.ITEMS[row + M.SPOT]],
                                                 M.ITEMS[row + M.TITLE])]
    v = M.value(app.settings, item)
    if v < 0:
        out.append("(it blinks: SELECT does it)")
    else:
        n = M.GAMES[v] if item == M.MATCH else v + 1
        out.append("from a1, %d lit = its value: %s" % (n, M.label(app.settings, item)
                                                       .split(": ", 1)[-1]))
    return out


def _choice_leds(app, has_display):
    if app.board.cursor < 25:
        return []
    from jarmo import app_turn as T
    icon = {"done": "a check mark", "redeploy": "the ring", "menu": "three bars"}
    name = T.choice_name(app.board.cursor)
    return ["LEDs: %s = the choice %r" % (icon[name], name)]


def _thinking_leds(app, has_display):
    if not app.thinking:
        return []
    if getattr(app.opponent, "level", 0) < 0:      # no AI: the other board (or side) moves
        return ["LEDs: the dot running round b2-c2-d2-d3-d4-c4-b4-b3: the other "
                "board's turn"]
    return ["LEDs: the dot running round b2-c2-d2-d3-d4-c4-b4-b3: the AI thinks"]


def _end_leds(app, has_display):
    if getattr(app, "celebrate", None) is not None:
        return ["LEDs: the whole grid breathes in the winner's colour"]
    return ["LEDs: grey rings from c3: a draw"]


def _result_leds(app, has_display):
    from jarmo import app_view as V
    lit = [V.get(app.frame, p) for p in range(25)]
    s = sum(1 for c in lit if c == V.SIDE_COLOURS[0])
    n = sum(1 for c in lit if c == V.SIDE_COLOURS[1])
    return ["LEDs: South's points lit from a1 (%d), North's from e5 (%d);" % (s, n),
            "a win without points: 5; in a match, every 4 s",
            "the match's totals, c3 white"]


def _help_leds(app, has_display):
    return ["LEDs: an example: a move, a capture,",
            "a camp entry (NEXT: the next one)" if not has_display else "a camp entry"]


NEVER, ALWAYS, BESIDE_DISPLAY = 0, 1, 2     # when a screen's LEDs show the game
# Per screen (jarmo.app_base's ids, and host.replay's): when its LEDs show
# the game's position, and what they mean when they do not (lines, or a
# function of the app and has_display; on an LED-only board only, where
# the display would say it, with LED_ONLY). Every screen has its row
# (tests/hardware/test_sim_view.py).
LED_ONLY = 1
SCREEN_LEDS = {
    B.S_MENU: (BESIDE_DISPLAY, _menu_leds, LED_ONLY),
    B.S_PLAY: (ALWAYS, _choice_leds, 0),
    B.S_AI: (ALWAYS, _thinking_leds, 0),
    B.S_END: (ALWAYS, _end_leds, 0),
    B.S_RESULT: (BESIDE_DISPLAY, _result_leds, LED_ONLY),
    B.S_NOTICE: (NEVER, ["LEDs: a red X: something was found wrong at start-up"], 0),
    B.S_HELP: (NEVER, _help_leds, 0),
    B.S_STATS: (NEVER, ["LEDs: rank 5 the rules (1-4), rank 4 the",
                        "opponent, ranks 1-3: wins, draws, losses",
                        "in fifths of the games"], 0),
    B.S_CAMPAIGN: (NEVER, ["LEDs: battle 1 on a1, 2 on b1 ...: green won,",
                           "white open, red locked; blinking: this one"], 0),
    B.S_LESSON: (ALWAYS, ["LEDs: blinking purple: the point to pick"], LED_ONLY),
    B.S_LINK: (NEVER, ["LEDs: the white dot running round: waiting for the other board",
                       "(red corners blinking: nothing heard on the link)"], 0),
    REPLAY: (ALWAYS, [], 0),
}


def led_meaning(app):
    """What the LEDs say when they do not show the position (an LED-only menu
    or screen, an icon, the AI's spinner, the end's celebration), in a few
    short lines; [] when the LEDs show the board as it is."""
    sid = _screen(app)
    if sid not in SCREEN_LEDS:
        return []
    has_display = getattr(app, "has_display", True)
    _shows, meaning, only = SCREEN_LEDS[sid]
    lines = [] if only == LED_ONLY and has_display else (
        meaning(app, has_display) if callable(meaning) else list(meaning))
    if lines and sid in (B.S_MENU, B.S_PLAY):
        return lines          # the LED-only menu and a choice's icon cover the corners
    link = getattr(app, "link", None)
    if link is not None and sid != B.S_LINK and getattr(link, "lost", lambda: False)():
        return ["LEDs: the red corners blink: the link to the other board is lost"]
    return lines

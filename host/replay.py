"""Stepping through a finished or saved game (--replay FILE).

Host only.  Replay stands in for the App in the main loop: it draws the
position after `pos` actions with the app's own piece colours
(jarmo/app_view.py), so a shared position looks as on the device.
"""

from host.terminal import TerminalInput
from jarmo import app_buttons as codes
from jarmo import board as jboard


class Replay:
    """Steps through a game; an App look-alike for the main loop.

    `full` is the whole game, `game` the position shown. It opens at the
    start, as a player expects a replay to (End jumps to the last action).
    """

    replay = True
    has_display = True

    def __init__(self, game):
        self.full = game
        self.actions = game.history()
        self.rules = game.rules
        self.expansions = game.expansions
        self.ply_limit = game.ply_limit
        self.pos = 0
        self.game = None
        self.frame = bytearray(75)
        self.frame_version = 0
        self.text = ()
        self.text_version = 0
        self.key_down = False       # no key has a hold to wait for here (App.key_down)
        self.brightness = 255
        self.celebrate = None
        self.state = "replay"
        self._cells = bytearray(25)
        self._under = bytearray(25)
        self._draw()

    def position(self, n):
        """The game after its first n actions."""
        from jarmo import Game
        g = Game(self.rules, expansions=self.expansions, ply_limit=self.ply_limit)
        for a in self.actions[:n]:
            g.play(a)
        return g

    def last_move(self):
        """The points of the last action shown: where it came from and went."""
        last = self.actions[self.pos - 1] if self.pos else ""
        return tuple(p for p in (jboard.point(last[:2]), jboard.point(last[3:5])) if p >= 0)

    def _draw(self):
        from jarmo import app_view as V
        g = self.game = self.position(self.pos)
        for p in range(25):
            piece = g.piece(jboard.NAMES[p]) or ""
            top, _, under = piece.partition("/")
            self._cells[p] = V.cell_of(top)
            self._under[p] = V.cell_of(under)
        markers = 0
        for name in g.markers():
            markers |= 1 << jboard.point(name)
        last = self.actions[self.pos - 1] if self.pos else "start"
        trail = jboard.point(last[:2]) if len(last) == 5 and last[2] == "-" else -1
        V.draw_board(self.frame, self._cells, self._under, markers, trail, 1000)
        self.frame_version += 1
        res = g.result()
        lines = ["Replay %d/%d" % (self.pos, len(self.actions)),
                 ("%s %s" % (self.rules, "+".join(self.expansions))).strip()[:21],
                 "last: %s" % last]
        if res is not None:
            lines.append(("%s wins" % res.winner.capitalize()) if res.winner else "A draw")
        else:
            lines.append("to move: %s" % g.turn)
        self.text = tuple(lines)
        self.text_version += 1

    def press(self, button, player=0):
        n = self.pos
        if button in (codes.NEXT, codes.RIGHT, codes.SELECT, codes.DOWN):
            n = min(len(self.actions), n + 1)
        elif button in (codes.PREV, codes.LEFT, codes.BACK, codes.UP):
            n = max(0, n - 1)
        elif button == codes.MENU:
            n = 0
        if n != self.pos:
            self.pos = n
            self._draw()

    def tick(self, now):
        pass


class ReplayKeys(TerminalInput):
    """Keys of the replay viewer: Home jumps to the start, End to the last action."""

    def on_key(self, name, now, press):
        if self.extra_key(name):
            return
        if name == "home":
            press(codes.MENU, 0)
        elif name == "end":
            for _ in range(1000):
                press(codes.NEXT, 0)
        elif name in codes.NAMES:
            press(codes.code(name), 0)

"""The C kernels against the Python they replace (runs as code.py on Jarmo's firmware).

Jarmo's firmware puts the _jarmo C module's functions in the place of some
of the rules core's (tools/firmware.py C_KERNELS); each frozen module keeps
the Python ones in its PLAIN dict.  tests/device/test_c_kernels.py copies
this file as code.py with a kernels.txt of lines

    M standard heroes+challenges 2 40     rules, expansions (- for none), games, plies

and plays that many seeded random games of each mix.  In every position
it compares, C against Python:
  - gen_into (all actions and the first only), can_move, repeat_move and
    all_in_camp of both sides, and the evaluation of both sides (eval_scored with the
    targets it leaves, or eval_race);
  - for every legal move: move_piece's undo fields and the position after
    it, and unmove_piece back to the position before;
  - the same generation tests in a second game at its start, in turn with
    the first (whose dict grows by a few names after its first ply): the C
    keeps where it last found each attribute, and must not mix games up;
  - for every legal action: do_code (with _end_check and the stuck test)
    with every method of Game in C, then in Python (the position, the turn,
    the stage, the ply count, the outcome and the undo log after it), and
    undo_code back.
It prints

    @@NATIVE game evaluation ai      C functions of each module (0: not Jarmo's firmware)
    @@K mix positions actions moves captures recovered hostages outcomes
    @@KINDS n0 n1 ... n6              actions checked of each kind (jarmo/codes.py MOVE .. REDEPLOY)
    @@REASONS camp=n limit=n ...      the game ends met (do_code's outcomes), by reason
    @@DIFF what mix ply detail       for each difference (none expected)
    @@END
"""

from array import array

import jarmo.ai as ai
import jarmo.evaluation as evaluation
import jarmo.game as game_module
from jarmo.codes import ACTION_BITS, BROUGHT, DONE, KIND_BITS, MOVE, POINT_BITS, SOURCE, TARGET, TO_HOSTAGE, WHERE
from jarmo.game import Game
from jarmo.rng import Rng


def mixes(name="kernels.txt"):
    with open(name) as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == "M":
                expansions = () if parts[2] == "-" else tuple(parts[2].split("+"))
                yield parts[1], expansions, int(parts[3]), int(parts[4])


def snapshot(g):
    """Everything an action or its undo may change: the position
    (Game.snapshot), the ply count, the undo log's end and the outcome."""
    outcome = g.outcome
    return (g.snapshot(), g.ply_count, len(g.undo_log), g.undo_log[-1] if g.undo_log else -1,
            None if outcome is None else (outcome.winner, outcome.points, outcome.reason))


def pick(g, codes, rng, repeat_from):
    """A random action; half the time one of the rarer ones if there are any,
    else, from turn repeat_from on, half the time the mover's last move back
    if it may (back and forth: the repetition rules)."""
    markers = g.marker_points if g.markers_on else ()
    rare = [c for c in codes if c & KIND_BITS not in (MOVE, DONE)
            or (c & KIND_BITS == MOVE and c >> TARGET in markers)]
    if rare and rng.below(2):
        return rare[rng.below(len(rare))]
    log = g.undo_log
    if g.ply_count >= repeat_from and len(log) >= 2 and rng.below(2):
        last = log[-2] & ACTION_BITS              # the mover's own last action
        back = (last >> TARGET & POINT_BITS) << SOURCE | (last >> SOURCE & POINT_BITS) << TARGET
        if last & KIND_BITS == MOVE and back in codes:
            return back
    return codes[rng.below(len(codes))]


class Check:
    def __init__(self, out):
        self.out = out
        self.c_methods = {}
        for name in game_module.PLAIN:
            self.c_methods[name] = getattr(Game, name)
        self.buf_c = array("H", [0] * 96)
        self.buf_p = array("H", [0] * 96)
        self.counts = [0] * 7     # positions actions moves captures recovered hostages outcomes
        self.where = ""
        self.kinds = [0] * 7
        self.reasons = {}

    def differ(self, what, detail):
        self.out("@@DIFF %s %s %s" % (what, self.where, detail))

    def plain(self, on):
        """Game's methods in Python (on) or in C."""
        for name, fun in (game_module.PLAIN if on else self.c_methods).items():
            setattr(Game, name, fun)

    def generation(self, g):
        plain = game_module.PLAIN
        for first in (False, True):
            n_c = g.gen_into(self.buf_c, first)
            n_p = plain["gen_into"](g, self.buf_p, first)
            if n_c != n_p or self.buf_c[:n_c] != self.buf_p[:n_p]:
                self.differ("gen_into", "%r %r" % (list(self.buf_c[:n_c]), list(self.buf_p[:n_p])))
        for side in (0, 1):
            for name in ("can_move", "repeat_move", "all_in_camp"):
                c = getattr(g, name)(side)
                p = plain[name](g, side)
                if c != p:
                    self.differ(name, "side %d: %r %r" % (side, c, p))

    def evaluation(self, g, tables):
        name = "eval_scored" if g.scored else "eval_race"
        for side in (0, 1):
            evaluation.TARGETS[0] = -1
            c = getattr(evaluation, name)(g, tables, side)
            c_targets = evaluation.TARGETS[0]
            evaluation.TARGETS[0] = -1
            p = evaluation.PLAIN[name](g, tables, side)
            if c != p or c_targets != evaluation.TARGETS[0]:
                self.differ(name, "side %d: %d %d targets %d %d" % (
                    side, c, p, c_targets, evaluation.TARGETS[0]))

    def move(self, g, code):
        """move_piece and unmove_piece of a move, C against Python."""
        side = g.mover
        f = code >> SOURCE & POINT_BITS
        t = code >> TARGET
        before = snapshot(g)
        if g.top[t]:
            self.counts[3] += 1
        results = []
        for on in (False, True):
            self.plain(on)                  # Game's methods in C, then in Python
            fields = g.move_piece(side, f, t)
            results.append((fields, snapshot(g)))
            g.unmove_piece(side, f, t, fields)
            if snapshot(g) != before:
                self.differ("unmove_piece", "%d %s" % (code, "Python" if on else "C"))
        self.plain(False)
        if results[0] != results[1]:
            self.differ("move_piece", "%d: %r %r" % (code, results[0], results[1]))
        if results[0][0] >> BROUGHT:
            self.counts[4] += 1
        if results[0][0] >> WHERE & 3 == TO_HOSTAGE:
            self.counts[5] += 1

    def action(self, g, code):
        """do_code then undo_code, Game's methods in C and in Python."""
        before = snapshot(g)
        after = []
        for on in (False, True):
            self.plain(on)
            g.do_code(code)
            after.append(snapshot(g))
            g.undo_code()
            if snapshot(g) != before:
                self.differ("undo_code", "%d %s" % (code, "Python" if on else "C"))
        self.plain(False)
        if after[0] != after[1]:
            self.differ("do_code", "%d: %r %r" % (code, after[0], after[1]))
        if after[0][4] is not None:
            self.counts[6] += 1
            reason = after[0][4][2]
            self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def position(self, g, tables):
        self.counts[0] += 1
        self.generation(g)
        self.evaluation(g, tables)
        codes = g.legal_codes()
        for code in codes:
            self.counts[1] += 1
            self.kinds[code & KIND_BITS] += 1
            if code & KIND_BITS == MOVE:
                self.counts[2] += 1
                self.move(g, code)
            self.action(g, code)
        return codes

    def done(self):
        self.out("@@KINDS %s" % " ".join(str(n) for n in self.kinds))
        self.out("@@REASONS %s" % " ".join("%s=%d" % item for item in sorted(self.reasons.items())))

    def mix(self, rules, expansions, games, plies):
        ai.prepare_tables(rules)
        label = "+".join((rules,) + expansions)
        for seed in range(games):
            rng = Rng(1000 + seed * 31 + len(label))
            g = Game(rules, expansions, plies)      # (its last turn ends it by the limit)
            # a second game at its start: the C reads the two games' attributes
            # in turn (it keeps where it last found each name: in g's dict)
            other = Game(rules, expansions, plies)
            tables = ai._TABLES[g.forward]
            while g.outcome is None and g.ply_count < plies:
                self.where = "%s %d" % (label, g.ply_count)
                codes = self.position(g, tables)
                self.generation(other)
                if g.ply_count == 1:
                    # g's dict grows by a name (it may move as it grows): the
                    # C must find its attributes anew, not where they were
                    for k in range(8):
                        setattr(g, "grown_%d" % k, k)
                g.play_code(pick(g, codes, rng, plies // 2))
        self.out("@@K %s %s" % (label, " ".join(str(n) for n in self.counts)))
        self.counts = [0] * 7


def main(out=print):
    out("@@NATIVE %d %d %d" % tuple(len(getattr(m, "PLAIN", ())) for m in (game_module, evaluation, ai)))
    check = Check(out)
    for rules, expansions, games, plies in mixes():
        check.mix(rules, expansions, games, plies)
    check.done()
    out("@@END")


if __name__ == "__main__":
    main()

"""What the simulator's screen means, in words: piece letters, marks, the
lines of the board, what lit LEDs say on a board without a display, and the
keys.

Host only.  Each explanation is made from what is on the screen now, so a
player never meets a letter, a mark or a lit LED that nothing explains.
"""

from hardware import profiles
from jarmo import board as jboard
from jarmo import rulesets as R

# The face letters of Game.piece() ("Sa", "Ng", "SG", "Na/SA") -> the letter
# drawn; South upper case, North lower case.
PIECE_LETTERS = {"a": "A", "g": "G", "m": "M", "G": "S", "A": "T"}


def piece_label(piece):
    """Game.piece() text -> the letters drawn on its point: "Sa" "A", "Ng" "g",
    "SG" "S" (Golden Soldier), "NA" "t" (Golden Soldier, archer face),
    "Sm" "M" (marked), a stack "Na/SA" "aT" (top, then its hostage); "" if empty."""
    if not piece:
        return ""
    out = ""
    for face in piece.split("/"):
        letter = PIECE_LETTERS.get(face[1:2], "?")
        out += letter if face[:1] == "S" else letter.lower()
    return out


def _marks(game):
    """True when the game's rule set marks a capturing archer (classic)."""
    rules = getattr(game, "rules", None)
    return rules is not None and bool(R.row(rules)[R.FEATURES] & R.MARKS)


def piece_legend(game):
    """Lines (at most 25 characters) that say what the letters mean, for the
    pieces this game's rules can show."""
    heroes = "heroes" in getattr(game, "expansions", ())
    out = ["Letters: South A, North a",
           "A archer  M marked archer" if _marks(game) else "A archer   G guard"]
    if heroes:
        out += ["S Golden Soldier (guard)", "T Golden S., archer face",
                "At: A holds hostage t"]
    return out


def short_piece_legend(game, width):
    """The piece legend in one line that fits width ("" if none does)."""
    kinds = "A archer, M marked" if _marks(game) else "A archer, G guard"
    if "heroes" in getattr(game, "expansions", ()):
        kinds += ", S/T Golden Soldier"
    for text in ("South A, North a: " + kinds, "South A, North a", ""):
        if len(text) <= width:
            return text
    return ""


# ---------------------------------------------------------------- marks

MARK_WORDS = (("cursor", "cursor"), ("selected", "selected"), ("target", "can go there"),
              ("hint", "hint: pick it"), ("last", "last move"))


def mark_legend(marks, dotted=False, width=None):
    """The marks on the board now, in words, with the points they are on:
    "[a1] cursor  (c2) (d2) can go there  *a5* *b3* last move"; and the
    dotted line when it is drawn. "" when there is none. With a width, a
    list of lines that never part a mark from its words."""
    from host.board_text import MARK_OF
    parts = []
    for name, words in MARK_WORDS:
        points = sorted(p for p, m in marks.items() if m == name)
        if points:
            pair = MARK_OF[name]
            parts.append(" ".join(pair[0] + jboard.NAMES[p] + pair[1] for p in points)
                         + " " + words)
    if dotted:
        parts.append("dotted c3-b5: a line in jasyr")
    if width is None:
        return "  ".join(parts)
    lines = []
    for part in parts:
        if lines and len(lines[-1]) + 2 + len(part) <= width:
            lines[-1] += "  " + part
        else:
            lines.append(part)
    return lines


# ---------------------------------------------------------------- keys

# The keyboard, by the device's button names (jarmo/app_buttons.py): the
# in-app help and the display say NEXT, PREV, SELECT, BACK, MENU.
KEYS = (
    ("arrows", "UP/DOWN/LEFT/RIGHT"),
    ("Enter", "SELECT"),
    ("Tab", "NEXT"),
    ("S-Tab", "PREV"),
    ("Esc", "BACK"),
    ("m", "MENU"),
    ("?", "how to play"),
    ("r", "rules"),
    ("x", "export"),
    ("q", "quit"),
)


def key_legend(profile, replay=False):
    """Key legend lines for the chosen profile."""
    if replay:
        return ["Keys: Tab/right next action, S-Tab/left previous, Home start,",
                "End last, r rules, x export, q quit"]
    out = ["Keys: " + ", ".join("%s %s" % kv for kv in KEYS)]
    keys = profile["keys"]
    if keys:
        parts = []
        for label, _pin, seat, short, long in keys:
            text = "%s %s" % (label, short.upper())
            if long:
                text += " (%s: %s)" % (label.upper() if label.isalpha() else "hold " + label,
                                       long.upper())
            if profile["tabletop"]:
                text = "P%d %s" % (seat + 1, text)
            parts.append(text)
        out.append("Buttons: " + ", ".join(parts))
    return out


def short_key_legend(profile, width, replay=False):
    """The fullest one-line key legend that fits width ("" if none does)."""
    if replay:
        options = [" ".join(key_legend(profile, replay=True)),
                   "Tab/right next, S-Tab/left prev, Home start, End last, q quit",
                   "Tab next, S-Tab prev, q quit",
                   "q quit"]
    else:
        generic = ("Keys: Enter SELECT, Tab NEXT, S-Tab PREV, Esc BACK, m MENU, "
                   "? how to play, r rules, x export, q quit")
        options = ["; ".join(key_legend(profile))]
        if profile["keys"]:
            options.append(generic + "; buttons " + ", ".join(
                "%s %s" % (key[0], key[3].upper()) for key in profile["keys"]))
        options += [generic,
                    "Enter SELECT, Tab NEXT, S-Tab PREV, Esc BACK, m MENU, ? help, q quit",
                    "Enter SELECT, Tab NEXT, Esc BACK, m MENU, ? help, q quit",
                    "Enter SELECT, Esc BACK, m MENU, ? help, q quit",
                    "Esc BACK, m MENU, ? help, q quit",
                    "m MENU, ? help, q quit",
                    "m MENU, q quit"]
    for text in options:
        if len(text) <= width:
            return text
    return ""


def profile_name(profile):
    """The --profile name of a profile dict."""
    for name, p in profiles.PROFILES.items():
        if p is profile:
            return name
    return "?"


def neighbours_text(p):
    """"c3: d1 a2 a4 e4" - the points one line away from p."""
    table = jboard.neighbours()
    return "%s: %s" % (jboard.NAMES[p], " ".join(jboard.NAMES[q] for q in table[p]))

"""Saves in the formats older versions wrote on the drive (read by jarmo/store_legacy.py).

Two slot files a name, ``name.0`` and ``name.1``, each holding one record
("JARMO2 <sequence> <length> <adler32>", the body, "END <sequence>", zero
padding), or, older still, one file ``name`` ("JARMO1 <length> <adler32>" and
the body). Only the tests write these now.
"""

import json
import os

from jarmo.checksum import checksum


def single(text):
    """The single-file form of a text."""
    return "JARMO1 %d %s\n%s" % (len(text.encode()), checksum(text), text)


def slot(seq, text, size=4096):
    """A slot file's bytes holding text as record number seq."""
    raw = text.encode()
    out = ("JARMO2 %d %d %s\n" % (seq, len(raw), checksum(raw))).encode() + raw
    out += ("\nEND %d\n" % seq).encode()
    return out + bytes(max(0, size - len(out)))


def write_slots(folder, name, text, seq=1):
    """name.0 with text (and a blank name.1), as an older version left them."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + ".0"), "wb") as f:
        f.write(slot(seq, text))
    with open(os.path.join(folder, name + ".1"), "wb") as f:
        f.write(bytes(512))


def game_text(game, opp=2, human=0, counted=False, match=None, battle=None):
    """The older versions' `game` save text of a Game (or a Match's)."""
    d = {"v": 1, "opp": opp, "human": human, "counted": counted}
    if battle is not None:
        d["battle"] = battle
    if match is not None:
        d["match"] = match.dump()
    else:
        d["game"] = game.dump()
    return json.dumps(d)

# Legacy: the saves of older versions, found on the drive, imported once.
#
# Older versions kept four texts on the CIRCUITPY drive: game, settings,
# stats and campaign, each in two slot files ``name.0`` and ``name.1`` (a
# header "JARMO2 <sequence> <length> <adler32>", the body, a trailer
# "END <sequence>", zero padding) or, older still, in one file ``name``
# ("JARMO1 <length> <adler32>" and the body). At the first start of this
# version the newest intact copy of each is read (the drive is only read,
# never written), turned into the store's records, and an R_IMPORTED record
# says it is done, so it happens once. Imported at start-up only when that
# record is missing, and forgotten after.

import json

from jarmo.checksum import checksum
from jarmo.store_log import R_IMPORTED, R_SETTINGS

# The settings' names in the older files, in the order of the items.
SETTING_KEYS = ("rules", "heroes", "challenges", "opp", "side", "games", "bright",
                "timer", "timeout", "hints")
_NAMES = ("game", "settings", "stats", "campaign")


def import_once(store, root="/"):
    """Import the older saves under root into store, unless done before.
    Returns what could not be imported, in words (one line an item)."""
    if store.read(R_IMPORTED) is not None:
        return []
    problems = []
    texts = {}
    for name in _NAMES:
        text, found = read_text(root, name)
        if text is not None:
            texts[name] = text
        elif found:
            problems.append("old %s file: damaged" % name)
    counted = -1
    taken = []
    for name in _NAMES:
        if name not in texts:
            continue
        try:
            data = json.loads(texts[name])
            if name == "game":
                counted = _game(store, data)
            elif name == "settings":
                _settings(store, data)
            elif name == "stats":
                _stats(store, data, counted)
            else:
                _campaign(store, data)
            taken.append("statistics" if name == "stats" else name)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):
            problems.append("old %s file: unreadable" % name)
    if taken:
        # said every time: a log wiped by a power cut in its erase looks new,
        # so the player is told where these saves came from
        problems[0:0] = ["older saves taken over from the drive:", ", ".join(taken)]
    if counted >= 0:
        from jarmo.store_stats import Stats
        stats = Stats(store)
        if stats.counted != counted:        # the game was counted: never again
            stats.counted = counted
            stats.save()
    store.write(R_IMPORTED, b"\x01")
    return problems


def read_text(root, name):
    """(text, found) of the newest intact copy of an older save: text None
    when there is none; found True when files were there all the same."""
    if root and not root.endswith("/"):
        root += "/"
    best = -1
    text = None
    found = False
    for k in (0, 1):
        data = _load(root + "%s.%d" % (name, k))
        if data is None:
            continue
        found = found or bool(data.strip(b"\x00"))
        try:
            seq, body = _slot(data)
        except ValueError:
            continue
        if seq > best:
            best = seq
            text = body
    if best >= 0 or found:
        return text, found
    data = _load(root + name)
    if data is None:
        return None, False
    try:
        return single_body(data), True
    except ValueError:
        return None, True


def _load(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _slot(data):
    # (sequence, body or None if deleted) of an intact slot; ValueError if not
    nl = data.find(b"\n")
    head = data[:nl].decode().split() if 0 < nl < 80 else ()
    if len(head) != 4 or head[0] != "JARMO2":
        raise ValueError("not a slot")
    seq = int(head[1])
    size = int(head[2])
    raw = data[nl + 1:nl + 1 + size]
    end = ("\nEND %d\n" % seq).encode()
    if len(raw) != size or data[nl + 1 + size:nl + 1 + size + len(end)] != end:
        raise ValueError("torn")
    if head[3] == "deleted" and size == 0:
        return seq, None
    if checksum(raw) != head[3]:
        raise ValueError("bad checksum")
    return seq, raw.decode()


def single_body(data):
    """The body of an older single-file save (bytes); ValueError if it is not intact."""
    text = data.decode()
    nl = text.find("\n")
    head = text[:nl].split() if nl >= 0 else ()
    if len(head) != 3 or head[0] != "JARMO1":
        raise ValueError("not a Jarmo file")
    body = text[nl + 1:]
    if int(head[1]) != len(body.encode()) or checksum(body) != head[2]:
        raise ValueError("damaged")
    return body


def _game(store, d):
    # the older game save: {"v": 1, "opp", "human", "counted", "battle", "match" or "game"}
    from jarmo.game import Game
    from jarmo.match import Match
    from jarmo.store_game import start_payload
    if d.get("v") != 1:
        raise ValueError("version")
    match = Match.load(d["match"]) if "match" in d else None
    game = match.game if match is not None else Game.load(d["game"])
    battle = d.get("battle", -1)
    gid = store.start_game(start_payload(game, match, int(d["opp"]), int(d["human"]),
                                         battle if type(battle) is int else -1))
    codes = game.history_codes()
    for i in range(0, len(codes), 127):
        store.add_turn(codes[i:i + 127])
    return gid if d.get("counted") else -1


def _settings(store, d):
    # 255, a value no item takes, where the file has none: the app reads it
    # as its default (app_menu.load)
    out = bytearray(b"\xff" * len(SETTING_KEYS))
    for k in range(len(SETTING_KEYS)):
        v = d.get(SETTING_KEYS[k])
        if type(v) is int and 0 <= v < 256:
            out[k] = v
    store.write(R_SETTINGS, bytes(out))


def _stats(store, d, counted):
    # {"v": 1, rules: [south, north, draws]} or {"v": 2, rules: {key: [a, b, d]}}
    from jarmo.store_stats import OLD, Stats
    v = d.get("v")
    if v not in (1, 2):
        raise ValueError("version")
    stats = Stats(store)
    for rules in stats.table:
        c = d.get(rules)
        if c is None:
            continue
        for key, counts in (("old", c),) if v == 1 else c.items():
            if len(counts) != 3 or not (key in ("p2", "old") or key[:2] == "ai" and key[2:].isdigit()):
                raise ValueError("shape")
            # its keys: "p2", "old", "ai" and the level (the opponent id 1 + level)
            opp = 0 if key == "p2" else OLD if key == "old" else 1 + int(key[2:])
            if key != "old" and opp >= OLD:
                raise ValueError("shape")
            stats.table[rules][opp] = [int(counts[0]), int(counts[1]), int(counts[2])]
    stats.counted = counted
    stats.save()


def _campaign(store, d):
    from jarmo.store_campaign import Progress
    best = d["best"]
    if d.get("v") != 1 or not isinstance(best, list):
        raise ValueError("shape")
    progress = Progress(store)
    for k in range(min(len(best), len(progress.best))):
        progress.best[k] = min(max(int(best[k]), 0), 255)
    progress.save()

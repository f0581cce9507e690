# Checksum: one checksum for every file the game writes - saves (jarmo.save) and
# the store's header (jarmo.storage).
#
# Adler-32 kept in small integers, so on the microcontroller it allocates
# nothing per byte (a 32-bit multiply-and-mask hash would make a big int for
# every character of every save).


def checksum(data):
    """Adler-32 of a str (as UTF-8) or bytes-like object, as 8 hex digits."""
    if isinstance(data, str):
        data = data.encode()
    a = 1
    b = 0
    for c in data:
        a += c
        if a >= 65521:
            a -= 65521
        b += a
        if b >= 65521:
            b -= 65521
    return "%04x%04x" % (b, a)

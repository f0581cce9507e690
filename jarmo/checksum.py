# Checksums: Adler-32 for the text saves and exports (jarmo.save), CRC-16 for
# the store's records (jarmo.store_log).
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


# CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF), four bits at a time
# from a 16-entry table: the store's records and the link's frames. The table
# is a tuple of small ints, so nothing is built at import.
_CRC_NIBBLE = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
               0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(data, start=0, end=-1, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of data[start:end] (end -1: to the end), as an int."""
    t = _CRC_NIBBLE
    if end < 0:
        end = len(data)
    for i in range(start, end):
        b = data[i]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc

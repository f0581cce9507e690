// The SH1107 OLED controller behind an I2C target (the 128x64 OLED FeatherWing, 0x3C): its
// display RAM kept from the bytes written to it, and the picture the panel shows.
//
// Each I2C write starts with a control byte: 0x80 (a command byte follows, then maybe another
// control byte) or 0x00 (command bytes to the end), 0x40 (display data to the end). The RAM is
// 16 pages of 128 columns, a byte 8 pixels down a page (bit 0 first); in page addressing mode
// (what CircuitPython's displayio drives) each data byte goes to the current page and column,
// and the column counts up. Commands kept: page 0xB0-0xBF, column 0x00-0x0F (low nibble) and
// 0x10-0x17 (high), display on/off 0xAE/0xAF, normal/inverse 0xA6/0xA7, contrast 0x81 n;
// two-byte commands (0x81, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB, 0xDC, 0xAD) take their argument.
//
// The FeatherWing's panel is the controller's 64 RAM columns by 128 RAM rows turned a quarter:
// the picture's x (0..127, left to right) is the RAM row (page * 8 + bit), its y (0..63, top to
// bottom) is 63 - the RAM column (measured: the menu's text reads the right way up, as the
// display driver's rotation=90 draws it).

const TWO_BYTE = new Set([0x81, 0xa8, 0xd3, 0xd5, 0xd9, 0xda, 0xdb, 0xdc, 0xad]);

export class Sh1107 {
  constructor(address = 0x3c) {
    this.address = address;
    this.ram = new Uint8Array(16 * 128);
    this.page = 0;
    this.column = 0;
    this.on = false;
    this.inverse = false;
    this.contrast = 0x80;
    this.version = 0; // counts changes of the picture
    this.pending = -1; // a two-byte command waiting for its argument
  }

  /** One I2C transaction ({address, mode 'W'|'R', ack, bytes}); others' are ignored. */
  transaction(tx) {
    if (tx.address !== this.address || tx.mode !== 'W' || !tx.ack || !tx.bytes.length) return;
    const b = tx.bytes;
    let i = 0;
    while (i < b.length) {
      const control = b[i++];
      if (control & 0x40) {
        this.data(b.subarray ? b.subarray(i) : b.slice(i));
        return;
      }
      if (control & 0x80) {
        if (i < b.length) this.command(b[i++]);
        continue;
      }
      while (i < b.length) this.command(b[i++]);
    }
  }

  command(c) {
    if (this.pending >= 0) {
      if (this.pending === 0x81) this.contrast = c;
      this.pending = -1;
      this.version++;
      return;
    }
    if (c >= 0xb0 && c <= 0xbf) this.page = c & 0x0f;
    else if (c <= 0x0f) this.column = (this.column & 0x70) | c;
    else if (c >= 0x10 && c <= 0x17) this.column = ((c & 0x07) << 4) | (this.column & 0x0f);
    else if (c === 0xae || c === 0xaf) {
      this.on = c === 0xaf;
      this.version++;
    } else if (c === 0xa6 || c === 0xa7) {
      this.inverse = c === 0xa7;
      this.version++;
    } else if (TWO_BYTE.has(c)) this.pending = c;
  }

  data(bytes) {
    for (const d of bytes) {
      this.ram[this.page * 128 + (this.column & 0x7f)] = d;
      this.column = (this.column + 1) & 0x7f;
    }
    this.version++;
  }

  /** The picture the FeatherWing shows: 128 x 64 bytes, 1 lit, 0 dark, row by row from the top
   * left (all dark while the display is off). */
  picture() {
    const out = new Uint8Array(128 * 64);
    if (!this.on) return out;
    const flip = this.inverse ? 1 : 0;
    for (let y = 0; y < 64; y++) {
      const column = 63 - y;
      for (let x = 0; x < 128; x++) {
        out[y * 128 + x] = ((this.ram[(x >> 3) * 128 + column] >> (x & 7)) & 1) ^ flip;
      }
    }
    return out;
  }
}

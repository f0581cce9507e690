// Firmware files and boards: UF2 decoding, the RP2040 bootrom, board detection and pin names.
//
// The board is recognised from the firmware itself: CircuitPython stores
// sys.implementation._machine as "<board name> with rp2040" in flash.
// Bytes in, no file access: the Node harness reads the files (files.mjs), the web page fetches
// them, and both hand the bytes to these functions.

import { fromBase64, indexOf, latin1, latin1Bytes } from './portable.mjs';

export const FLASH_BASE = 0x10000000;
// CircuitPython's RP2040 flash layout (ports/raspberrypi/mpconfigport.h): firmware 1020 KiB,
// NVM 4 KiB, then the CIRCUITPY drive from 0x100000 to the end of the flash.
export const CIRCUITPY_OFFSET = 0x100000;
/** microcontroller.nvm: the 4 KiB sector just below CIRCUITPY (CIRCUITPY_INTERNAL_NVM_START_ADDR). */
export const NVM_OFFSET = CIRCUITPY_OFFSET - 4096;
export const NVM_SIZE = 4096;
export const CIRCUITPY_IMAGE_SIZE = 1024 * 1024; // the FAT12 image we build (FatFs mounts it by its BPB)

/** The RP2040 B1 bootrom (16 KiB) as 32-bit words, from the text of bootrom-b1.b64 (see README.md). */
export function decodeBootrom(base64Text) {
  const bytes = fromBase64(base64Text);
  if (bytes.length !== 16384) throw new Error(`bootrom-b1.b64: expected 16384 bytes, got ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const words = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(i * 4, true);
  return words;
}

const UF2_MAGIC0 = 0x0a324655;
const UF2_MAGIC1 = 0x9e5d5157;
const UF2_MAGIC_END = 0x0ab16f30;
const UF2_FLAG_NOT_MAIN_FLASH = 0x1;

/**
 * Writes a firmware file's bytes (`data`, a Uint8Array; `file` names it in errors) into `flash`
 * (a Uint8Array mapped at 0x10000000).
 * A UF2 is decoded block by block (256-byte payloads at their target addresses); any other file
 * is taken as a raw image linked at 0x10000000. Returns {kind, bytes, end}.
 */
export function writeFirmware(data, flash, file = 'firmware') {
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  const word = (off) => view.getUint32(off, true);
  const isUf2 = data.length >= 512 && word(0) === UF2_MAGIC0 && word(4) === UF2_MAGIC1;
  if (!isUf2) {
    flash.set(data, 0);
    return { kind: 'bin', bytes: data.length, end: data.length };
  }
  let bytes = 0;
  let end = 0;
  for (let off = 0; off + 512 <= data.length; off += 512) {
    if (word(off) !== UF2_MAGIC0 || word(off + 4) !== UF2_MAGIC1) continue;
    if (word(off + 508) !== UF2_MAGIC_END) continue;
    if (word(off + 8) & UF2_FLAG_NOT_MAIN_FLASH) continue;
    const target = word(off + 12) - FLASH_BASE;
    const size = word(off + 16);
    if (target < 0 || size > 476 || target + size > flash.length) {
      throw new Error(`${file}: UF2 block for 0x${(target + FLASH_BASE).toString(16)} is outside the flash`);
    }
    flash.set(data.subarray(off + 32, off + 32 + size), target);
    bytes += size;
    end = Math.max(end, target + size);
  }
  if (!bytes) throw new Error(`${file}: no RP2040 flash blocks in this UF2`);
  if (end > CIRCUITPY_OFFSET - 4096) throw new Error(`${file}: firmware ends at 0x${end.toString(16)}, over the NVM/CIRCUITPY area`);
  return { kind: 'uf2', bytes, end };
}

// ---------------------------------------------------------------- boards
// flashMiB/jedec: the board's flash chip, answered to JEDEC RDID (0x9f) so CircuitPython sizes
// its CIRCUITPY block device like on the real board. i2c: [SDA, SCL] pairs of board.I2C() /
// STEMMA_I2C (they get external pull-ups and the I2C target with --i2c-ack).
// pins: board pin names -> GPIO numbers (same names as CircuitPython's `board` module).
const gpNames = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`GP${i}`, i]));

export const BOARDS = {
  raspberry_pi_pico: {
    name: 'Raspberry Pi Pico',
    flashMiB: 2,
    jedec: [0xef, 0x40, 0x15], // Winbond W25Q16JV
    i2c: [],
    pins: { ...gpNames(29), LED: 25, SMPS_MODE: 23, VBUS_SENSE: 24, A0: 26, A1: 27, A2: 28, A3: 29, VOLTAGE_MONITOR: 29 },
  },
  adafruit_qtpy_rp2040: {
    name: 'Adafruit QT Py RP2040',
    flashMiB: 8,
    jedec: [0xef, 0x40, 0x17], // Winbond W25Q64JV
    i2c: [
      [24, 25],
      [22, 23],
    ],
    pins: {
      A0: 29, D0: 29, A1: 28, D1: 28, A2: 27, D2: 27, A3: 26, D3: 26, SDA: 24, D4: 24, SCL: 25, D5: 25,
      TX: 20, D6: 20, RX: 5, D7: 5, SCK: 6, D8: 6, MISO: 4, D9: 4, MOSI: 3, D10: 3,
      NEOPIXEL: 12, NEOPIXEL_POWER: 11, BUTTON: 21, SDA1: 22, SCL1: 23,
    },
  },
  adafruit_feather_rp2040: {
    name: 'Adafruit Feather RP2040',
    flashMiB: 8,
    jedec: [0xc8, 0x40, 0x17], // GigaDevice GD25Q64C
    i2c: [[2, 3]],
    pins: {
      A0: 26, A1: 27, A2: 28, A3: 29, D24: 24, D25: 25, SCK: 18, MOSI: 19, MISO: 20,
      D0: 1, RX: 1, D1: 0, TX: 0, D4: 6, SDA: 2, SCL: 3, D5: 7, D6: 8, D9: 9, D10: 10,
      D11: 11, D12: 12, D13: 13, LED: 13, BUTTON: 4, BOOT: 4, NEOPIXEL: 16,
    },
  },
};

/** The board id whose "<name> with rp2040" string is in the first `end` bytes of flash, else null. */
export function detectBoard(flash, end) {
  const image = flash.subarray(0, end);
  for (const [id, board] of Object.entries(BOARDS)) {
    if (indexOf(image, latin1Bytes(`${board.name} with rp2040\0`)) >= 0) return id;
  }
  return null;
}

/**
 * The boot_out.txt CircuitPython writes at power-up when boot.py prints nothing: its banner
 * (a string in the firmware), board id, the flash's unique id, and "boot.py output:" when there is
 * a boot.py. Null when the firmware or board is not recognised.
 */
export function predictBootOut(flash, end, boardId, uid, hasBootPy) {
  const image = latin1(flash.subarray(0, end));
  const banner = /Adafruit CircuitPython [\x20-\x7e]+ with rp2040(?=\0)/.exec(image);
  if (!banner || !boardId) return null;
  const hex = uid.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
  return `${banner[0]}\r\nBoard ID:${boardId}\r\nUID:${hex}\r\n` + (hasBootPy ? 'boot.py output:\r\n' : '');
}

/** GPIO number of a pin given as 26, "GPIO26", "GP26" or a board name ("A3", "board.D10"). */
export function pinNumber(name, boardId) {
  const text = String(name).trim().replace(/^board\./, '');
  const m = /^(?:GPIO|GP)?(\d+)$/i.exec(text);
  if (m && Number(m[1]) < 30) return Number(m[1]);
  const pins = BOARDS[boardId]?.pins;
  const key = text.toUpperCase();
  if (pins && key in pins) return pins[key];
  throw new Error(`unknown pin "${name}"` + (boardId ? ` on ${boardId}` : ' (board unknown: use GPIO numbers)'));
}

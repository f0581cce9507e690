#!/usr/bin/env node
// Unit checks of the harness's own models, without firmware (run by test_harness.py):
// the NOR flash chip, the SSI/IO_QSPI pair as the bootrom drives them, and the FAT builder.
//
//   node tests/device/selftest.mjs                 -> "selftest ok: N checks", exit 0 (1 on failure)
//   node tests/device/selftest.mjs --fat DIR OUT   -> writes the CIRCUITPY image of DIR to OUT

import assert from 'assert/strict';
import fs from 'fs';
import { SpiFlash, Ssi, IoQspi, TYPICAL_TIMING } from './flash.mjs';
import { buildFat12 } from './fat.mjs';
import { readFolder } from './files.mjs';
import { indexOf, latin1Bytes } from './portable.mjs';
import { Sh1107 } from './sh1107.mjs';

if (process.argv[2] === '--fat') {
  fs.writeFileSync(process.argv[4], buildFat12(readFolder(process.argv[3])).image);
  process.exit(0);
}

let checks = 0;
const check = (name, fn) => {
  try {
    fn();
    checks++;
  } catch (e) {
    process.stderr.write(`selftest FAILED: ${name}\n${e.stack}\n`);
    process.exit(1);
  }
};

const SIZE = 2 * 1024 * 1024;
const JEDEC = [0xef, 0x40, 0x15];
// a transaction straight on the chip: command bytes out, answers back
const txn = (chip, bytes) => {
  chip.select();
  const answers = bytes.map((b) => chip.transfer(b));
  chip.deselect();
  return answers;
};
const addr = (a) => [(a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff];

check('chip: RDID, status, unique id', () => {
  const chip = new SpiFlash(new Uint8Array(SIZE).fill(0xff), SIZE, JEDEC);
  assert.deepEqual(txn(chip, [0x9f, 0, 0, 0]).slice(1), JEDEC);
  assert.deepEqual(txn(chip, [0x05, 0]), [0xff, 0x00]);
  txn(chip, [0x06]);
  assert.deepEqual(txn(chip, [0x05, 0]), [0xff, 0x02]); // WEL set
  assert.equal(txn(chip, [0x4b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).slice(5).length, 8);
});

check('chip: program needs write enable, ANDs bits, wraps in its page', () => {
  const array = new Uint8Array(SIZE).fill(0xff);
  const chip = new SpiFlash(array, SIZE, JEDEC);
  txn(chip, [0x02, ...addr(0x1000), 0x00]);
  assert.equal(array[0x1000], 0xff); // no WREN: ignored
  txn(chip, [0x06]);
  txn(chip, [0x02, ...addr(0x10fe), 0xf0, 0x0f, 0x55]);
  assert.deepEqual([...array.subarray(0x10fe, 0x1100)], [0xf0, 0x0f]);
  assert.equal(array[0x1000], 0x55); // third byte wrapped to the start of the page
  txn(chip, [0x06]);
  txn(chip, [0x02, ...addr(0x10fe), 0x3c]);
  assert.equal(array[0x10fe], 0x30); // 0xf0 & 0x3c
  assert.deepEqual(txn(chip, [0x05, 0]), [0xff, 0x00]); // WEL cleared after the program
});

check('chip: sector and block erase', () => {
  const array = new Uint8Array(SIZE).fill(0x00);
  const chip = new SpiFlash(array, SIZE, JEDEC);
  txn(chip, [0x20, ...addr(0x2345)]);
  assert.equal(array[0x2000], 0x00); // no WREN
  txn(chip, [0x06]);
  txn(chip, [0x20, ...addr(0x2345)]);
  assert.equal(array[0x1fff], 0x00);
  assert.ok(array.subarray(0x2000, 0x3000).every((b) => b === 0xff));
  assert.equal(array[0x3000], 0x00);
  txn(chip, [0x06]);
  txn(chip, [0x52, ...addr(0x8000)]);
  assert.ok(array.subarray(0x8000, 0x10000).every((b) => b === 0xff) && array[0x10000] === 0);
  txn(chip, [0x06]);
  txn(chip, [0xd8, ...addr(0x20000)]);
  assert.ok(array.subarray(0x20000, 0x30000).every((b) => b === 0xff) && array[0x30000] === 0);
  assert.equal(chip.stats.erases, 3);
});

check('chip: read 0x03 and fast read 0x0b', () => {
  const array = new Uint8Array(SIZE);
  array.set([1, 2, 3, 4], 0x100);
  const chip = new SpiFlash(array, SIZE, JEDEC);
  assert.deepEqual(txn(chip, [0x03, ...addr(0x100), 0, 0, 0, 0]).slice(4), [1, 2, 3, 4]);
  assert.deepEqual(txn(chip, [0x0b, ...addr(0x101), 0, 0, 0, 0]).slice(5), [2, 3, 4]);
});

check('chip: busy for the typical time after an erase; only status reads answered', () => {
  let now = 0;
  const array = new Uint8Array(SIZE).fill(0);
  const chip = new SpiFlash(array, SIZE, JEDEC, { ...TYPICAL_TIMING, now: () => now });
  txn(chip, [0x06]);
  txn(chip, [0x20, ...addr(0)]);
  assert.deepEqual(txn(chip, [0x05, 0]), [0xff, 0x01]);
  assert.deepEqual(txn(chip, [0x9f, 0, 0, 0]), [0xff, 0xff, 0xff, 0xff]); // ignored while busy
  now = TYPICAL_TIMING.erase4k - 1;
  assert.equal(txn(chip, [0x05, 0])[1] & 1, 1);
  now = TYPICAL_TIMING.erase4k;
  assert.deepEqual(txn(chip, [0x05, 0]), [0xff, 0x00]);
  assert.deepEqual(txn(chip, [0x9f, 0, 0, 0]).slice(1), JEDEC);
});

// The bootrom's way: CS forced through IO_QSPI SS_CTRL OUTOVER, bytes through the SSI FIFOs.
const fakeMcu = () => ({
  qspi: Array.from({ length: 6 }, () => ({ ctrl: 0, status: 0, checkForUpdates() {} })),
  logger: { warn() {}, error() {}, debug() {}, info() {} },
});
const bootromLike = () => {
  const mcu = fakeMcu();
  const array = new Uint8Array(SIZE).fill(0xff);
  const chip = new SpiFlash(array, SIZE, JEDEC);
  const ssi = new Ssi(mcu, chip);
  const io = new IoQspi(mcu, ssi);
  const cs = (over) => io.writeUint32(0x0c, over << 8); // 2 = low, 3 = high
  const putGet = (bytes) => {
    const rx = [];
    for (const b of bytes) {
      ssi.writeUint32(0x60, b);
      while (ssi.readUint32(0x24)) rx.push(ssi.readUint32(0x60)); // RXFLR, DR0
    }
    return rx;
  };
  return { array, chip, ssi, io, cs, putGet };
};

check('ssi: forced chip select frames a command; RX FIFO holds the answers', () => {
  const { array, cs, putGet, io } = bootromLike();
  cs(2);
  assert.deepEqual(putGet([0x9f, 0, 0, 0]), [0xff, ...JEDEC]);
  cs(3);
  assert.equal(io.readUint32(0x1c) & 0x30000, 0); // SD1_CTRL INOVER clear: "not aborted"
  cs(2);
  putGet([0x06]);
  cs(3);
  cs(2);
  putGet([0x02, ...addr(0x100000), 0x12, 0x34]);
  cs(3);
  assert.deepEqual([...array.subarray(0x100000, 0x100002)], [0x12, 0x34]);
  cs(0); // back to the SSI's own chip select
});

check('ssi: with its own chip select, polling SR ends the transfer (boot2)', () => {
  const { ssi, chip } = bootromLike();
  ssi.writeUint32(0x60, 0x9f);
  ssi.writeUint32(0x60, 0);
  assert.equal(ssi.readUint32(0x28) & 0x0c, 0x0c); // TFE, RFNE
  assert.equal(chip.selected, false);
  assert.equal(ssi.readUint32(0x60), 0xff);
  assert.equal(ssi.readUint32(0x60), JEDEC[0]);
  ssi.writeUint32(0x08, 0); // SSIENR = 0 clears the FIFOs
  assert.equal(ssi.readUint32(0x24), 0);
});

check('fat: long names, case, subfolders, fixed layout', () => {
  const dir = fs.mkdtempSync('/tmp/jarmo-fat-');
  fs.mkdirSync(`${dir}/lib/sub`, { recursive: true });
  fs.writeFileSync(`${dir}/code.py`, 'print(1)\n');
  fs.writeFileSync(`${dir}/lib/sub/A long file name.txt`, 'x'.repeat(1500));
  const a = buildFat12(readFolder(dir), { extra: { 'settings.toml': 'A = 1\n' } });
  const b = buildFat12(readFolder(dir), { extra: { 'settings.toml': 'A = 1\n' } });
  fs.rmSync(dir, { recursive: true });
  assert.equal(a.image.length, 1024 * 1024);
  assert.deepEqual(a.image, b.image); // same folder, same image
  assert.equal(a.files, 3);
  assert.equal(a.image[510] | (a.image[511] << 8), 0xaa55);
  assert.ok(indexOf(a.image, latin1Bytes('CODE    PY ')) > 0);
  assert.ok(indexOf(a.image, latin1Bytes('A\0 \0l\0o\0n\0')) > 0); // UTF-16 long name part
});

check('fat: the same image from a map of files (the web page) as from the folder', () => {
  const files = { 'code.py': 'print(1)\n', 'lib/': null, 'lib/x.py': new Uint8Array([120, 10]) };
  const dir = fs.mkdtempSync('/tmp/jarmo-fat-');
  fs.mkdirSync(`${dir}/lib`);
  fs.writeFileSync(`${dir}/code.py`, 'print(1)\n');
  fs.writeFileSync(`${dir}/lib/x.py`, 'x\n');
  const fromFolder = buildFat12(readFolder(dir)).image;
  fs.rmSync(dir, { recursive: true });
  assert.deepEqual(buildFat12(files).image, fromFolder);
});

check('sh1107: commands and data as displayio sends them, the picture turned a quarter', () => {
  const oled = new Sh1107();
  const w = (...bytes) => oled.transaction({ address: 0x3c, mode: 'W', ack: true, bytes });
  w(0x80, 0xaf); // display on
  w(0x80, 0x10, 0x80, 0x05); // column 5
  w(0x80, 0xb2); // page 2
  w(0x40, 0x01, 0x80); // column 5: bit 0; column 6: bit 7
  oled.transaction({ address: 0x3d, mode: 'W', ack: false, bytes: [0x40, 0xff] }); // another address
  const pic = oled.picture();
  const lit = [...pic.keys()].filter((i) => pic[i]).map((i) => [i % 128, Math.floor(i / 128)]);
  assert.deepEqual(lit, [[23, 57], [16, 58]]); // x = page * 8 + bit, y = 63 - column
  w(0x00, 0xa7); // inverse
  assert.equal(oled.picture()[0], 1);
  w(0x80, 0xae); // off: dark
  assert.ok(oled.picture().every((b) => b === 0));
});

process.stdout.write(`selftest ok: ${checks} checks\n`);

#!/usr/bin/env node
// fastcore.mjs's decoder (and its RAM writes, RAM and flash reads) against rp2040js's own, instruction by instruction (run by
// test_harness.py; no firmware needed): every one of the 65,536 first half-words, the 32-bit
// ones with several second half-words, each from the same random registers, flags and RAM on
// two chips. After the instruction the registers, flags, cycles, sleep state and the RAM they
// point into must be the same.
//
//   node tests/device/fastcore_check.mjs   -> "fastcore ok: N instructions", exit 0 (1 on a difference)

import { coreParts, rp2040js } from './rp2040js.mjs';
import { speedUp } from './fastcore.mjs';

const { RP2040 } = rp2040js;
const RAM = 0x20000000;
const CODE = 0x100; // the instruction's offset in RAM
const WINDOW = [0x1000, 0x3000]; // RAM the registers point into (offsets), compared after
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
// rp2040js's SIO reports stray addresses (random pointers reach it) on the console: not here
console.log = console.warn = console.error = () => {};

let seed = 12345;
const random = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; // (any fixed sequence: both chips get it)
  return seed;
};

function chip(fast) {
  const mcu = new RP2040();
  mcu.logger = quiet;
  mcu.core.onBreak = () => {};
  if (fast && !speedUp(mcu.core, coreParts)) throw new Error('fastcore could not read rp2040js');
  return mcu;
}

const ram = new Uint8Array(WINDOW[1] - WINDOW[0]); // what the window holds before each instruction
for (let i = 0; i < ram.length; i++) ram[i] = random() & 0xff;

/** A random state: half the registers point into the window, the others hold any value. */
function randomState() {
  const regs = new Uint32Array(16);
  for (let r = 0; r < 13; r++) {
    regs[r] = random() & 1 ? RAM + WINDOW[0] + 0x800 + ((random() % 0x1000) & ~3) : random();
  }
  return { regs, ram, apsr: random() & 0xf0000000, sp: RAM + WINDOW[0] + 0x1000 + ((random() % 0x400) & ~3) };
}

function load(mcu, state, opcode, opcode2) {
  const core = mcu.core;
  const inFlash = opcode & 1; // (half of them run from flash)
  mcu.sram.set(state.ram, WINDOW[0]);
  for (let r = 0; r < 13; r++) core.registers[r] = state.regs[r];
  core.SP = state.sp;
  core.registers[14] = RAM + 0x2001; // LR
  core.PC = (inFlash ? 0x10000000 : RAM) + CODE;
  core.APSR = state.apsr;
  core.PM = false;
  core.waiting = false;
  core.cycles = 0;
  const code = new DataView(inFlash ? mcu.flash.buffer : mcu.sram.buffer, inFlash ? mcu.flash.byteOffset : 0);
  code.setUint16(CODE, opcode, true);
  code.setUint16(CODE + 2, opcode2, true);
}

function outcome(mcu) {
  const core = mcu.core;
  let threw = null;
  try {
    core.executeInstruction();
  } catch (e) {
    threw = String(e && e.message);
  }
  return {
    threw,
    regs: Array.from(core.registers),
    sp: core.SP,
    apsr: core.APSR,
    pm: core.PM,
    waiting: core.waiting,
    cycles: core.cycles,
    ram: Buffer.from(mcu.sram.buffer, WINDOW[0], WINDOW[1] - WINDOW[0]),
  };
}

const plain = chip(false);
const fast = chip(true);
let count = 0;
const compare = (opcode, opcode2, state) => {
  load(plain, state, opcode, opcode2);
  load(fast, state, opcode, opcode2);
  const a = outcome(plain);
  const b = outcome(fast);
  count++;
  for (const k of Object.keys(a)) {
    if (k === 'ram' ? !a.ram.equals(b.ram) : JSON.stringify(a[k]) !== JSON.stringify(b[k])) {
      process.stderr.write(
        `fastcore differs on ${opcode.toString(16)} ${opcode2.toString(16)} (${k}): ` +
          `${JSON.stringify(a[k]).slice(0, 200)} != ${JSON.stringify(b[k]).slice(0, 200)}\n`,
      );
      process.exit(1);
    }
  }
};

const wide = (op) => op >> 12 === 0b1111 || op >> 11 === 0b11101;
for (let opcode = 0; opcode < 65536; opcode++) {
  const state = randomState();
  if (!wide(opcode)) compare(opcode, random() & 0xffff, state);
  else for (let k = 0; k < 6; k++) compare(opcode, random() & 0xffff, state);
}
// the 32-bit instructions rp2040js knows, with second half-words that pick them
for (const [op, op2] of [[0xf3bf, 0x8f50], [0xf3bf, 0x8f40], [0xf3bf, 0x8f60], [0xf3ef, 0x8008], [0xf380, 0x8808],
  [0xf000, 0xf800], [0xf7ff, 0xfffe]]) {
  compare(op, op2, randomState());
}
// a word written at RAM's edges (and just outside) lands, or fails, alike
const end = RAM + plain.sram.length;
for (const address of [RAM - 4, RAM, RAM + 4, end - 8, end - 4, end - 3, end - 2, end - 1, end, 0x20041000]) {
  const result = (mcu) => {
    try {
      mcu.writeUint32(address, 0xa5a5a5a5);
    } catch (e) {
      return 'threw ' + e.constructor.name;
    }
    return Buffer.from(mcu.sram.buffer, mcu.sram.length - 16, 16).toString('hex') + Buffer.from(mcu.sram.buffer, 0, 8).toString('hex');
  };
  const a = result(plain);
  const b = result(fast);
  count++;
  if (a !== b) {
    process.stderr.write(`fastcore differs on a word written at ${address.toString(16)}: ${a} != ${b}\n`);
    process.exit(1);
  }
}
// a word read at the edges of RAM and flash, from flash's mirrors, the bootrom, the SIO and a
// peripheral, aligned or not, reads alike
plain.flash.fill(0x5a, 0, 64);
fast.flash.fill(0x5a, 0, 64);
const flashEnd = 0x10000000 + plain.flash.length;
for (const base of [RAM - 4, RAM, end - 8, end - 4, end, 0x10000000 - 4, 0x10000000, flashEnd - 8, flashEnd - 4,
  flashEnd, 0x11000000, 0x13000000, 0x14000000, 0, 0x3ffc, 0xd0000000, 0x40054028]) {
  for (const address of [base, base + 1, base + 2]) {
    const a = plain.core.readUint32(address);
    const b = fast.core.readUint32(address);
    count++;
    if (a !== b) {
      process.stderr.write(`fastcore differs on a word read at ${address.toString(16)}: ${a} != ${b}\n`);
      process.exit(1);
    }
  }
}
process.stdout.write(`fastcore ok: ${count} instructions, writes and reads\n`);

// rp2040js's instruction decoder, dispatched by a table: the same instructions, faster.
//
// rp2040js's CortexM0Core.executeInstruction tests each 16-bit opcode against its ~85
// instruction patterns one after the other (an if / else-if chain), so a common instruction
// (a load, a branch) pays for tens of failed tests before its own. Here the chain is read from
// rp2040js's own source and each branch becomes a case of a switch, chosen by a table that holds
// for every opcode the first branch whose test it passes: the chain's order is kept exactly,
// and the branches' code is rp2040js's, unchanged. The few patterns that also test the
// instruction's second half-word (32-bit instructions: BL, MSR, MRS, the barriers) keep the
// chain of those patterns alone. The instruction itself is read from flash or RAM directly, and
// executeUntil runs instructions in a loop of its own until Machine.run has something to do; a
// word read from or written to RAM (or read from flash) goes straight to its view. The
// emulator runs about 1.6 times as fast, with the same emulated cycles (test_harness.py compares
// a run on each core).
//
// Only the emulator's speed changes: JARMO_PLAIN_CORE=1 runs rp2040js's own decoder.

import { FLASH_BASE as FLASH_START } from './firmware.mjs';

const RAM_START = 0x20000000;
const HEAD = '    executeInstruction() {\n';
const CHAIN_START = '        let deltaCycles = 1;\n';
const CHAIN_END = '        this.cycles += deltaCycles;\n';
const FETCH = '        const opcode = this.readUint16(opcodePC);\n';
// the same half-word, read from flash or RAM directly (speedUp gives the core their views)
const FAST_FETCH =
  `        const opcode = opcodePC >= ${FLASH_START} && opcodePC < this.flashEnd16 ? this.flash16[(opcodePC - ${FLASH_START}) >>> 1]\n` +
  `            : opcodePC >= ${RAM_START} && opcodePC < this.sramEnd16 ? this.sram16[(opcodePC - ${RAM_START}) >>> 1]\n` +
  '            : this.readUint16(opcodePC);\n';
const BRANCH = /^ {8}(?:else )?if \((.*)\) \{$|^ {8}else \{$/;

/** The chain's branches: [{cond, body}], cond null for the final else. */
function readChain(chainText) {
  const branches = [];
  let current = null;
  for (const line of chainText.split('\n')) {
    const m = BRANCH.exec(line);
    if (m) {
      current = { cond: m[1] === undefined ? null : m[1], body: [] };
      branches.push(current);
    } else if (line === '        }' || /^ {8}\/\//.test(line) || line === '') {
      // a branch's closing brace, or the comment naming the next instruction
    } else if (current && line.startsWith('            ')) {
      current.body.push(line);
    } else {
      throw new Error(`fastcore: unexpected line in executeInstruction: ${JSON.stringify(line)}`);
    }
  }
  return branches;
}

/** Its part that tests the first half-word only, or null if it has none (whole test on opcode2). */
function firstHalfTest(cond) {
  if (!cond.includes('opcode2')) return cond;
  const head = cond.split(' && ')[0];
  return head.includes('opcode2') ? null : head;
}

/**
 * The branches an opcode may run, in the chain's order: those whose first-half-word test it
 * passes or that test the second half-word only, up to the first it is sure to run.
 */
function candidates(tests, opcode) {
  const out = [];
  for (let i = 0; i < tests.length; i++) {
    const t = tests[i];
    if (t.always || (t.head !== null && !t.second && t.head(opcode))) {
      out.push(i);
      return out;
    }
    if (t.head === null || t.head(opcode)) out.push(i);
  }
  throw new Error('fastcore: the chain has no final else');
}

/**
 * The switch's cases: {table, chains}. table[opcode] is the case it runs: the branch's index
 * where the first half-word decides, else branches.length + k for chains[k], the few branches
 * (tested in the chain's order) that the second half-word decides between.
 */
function dispatchTable(branches) {
  const tests = branches.map((b) => {
    if (b.cond === null) return { always: true };
    const head = firstHalfTest(b.cond);
    return { head: head === null ? null : new Function('opcode', `return ${head};`), second: b.cond !== head };
  });
  const table = new Uint8Array(65536);
  const chains = [];
  const known = new Map();
  for (let opcode = 0; opcode < 65536; opcode++) {
    const list = candidates(tests, opcode);
    if (list.length === 1) {
      table[opcode] = list[0];
      continue;
    }
    const key = list.join(',');
    if (!known.has(key)) {
      known.set(key, branches.length + chains.length);
      chains.push(list);
    }
    table[opcode] = known.get(key);
  }
  if (branches.length + chains.length > 255) throw new Error('fastcore: too many cases for the table');
  return { table, chains };
}

/** The method's source with the chain replaced by a switch on DISPATCH[opcode]. */
function switchedMethod(method, branches, chains) {
  const start = method.indexOf(CHAIN_START) + CHAIN_START.length;
  const end = method.indexOf(CHAIN_END);
  const block = (b) => `{\n${b.body.join('\n')}\n            }`;
  const cases = branches.map((b, i) => `        case ${i}: {\n${b.body.join('\n')}\n            break;\n        }`);
  chains.forEach((list, k) => {
    const last = branches[list[list.length - 1]];
    const tests = list.slice(0, -1).map((i) => `if (${branches[i].cond}) ${block(branches[i])}`);
    cases.push(`        case ${branches.length + k}:\n            ${[...tests, block(last)].join(' else ')}\n            break;`);
  });
  return (
    method.slice(0, start).replace(FETCH, FAST_FETCH) +
    '        switch (DISPATCH[opcode]) {\n' +
    cases.join('\n') +
    '\n        }\n' +
    method.slice(end)
  );
}

/**
 * executeUntil(clock, limitNs, machine, most): the same instructions one after the other, the
 * clock ticked after each as Machine.run ticks it, until `most` ran or one leaves something for
 * Machine.run to do (the machine stopped, its limit reached, the core waiting for an interrupt,
 * a PIO block running, the pico-sdk's busy wait reached); returns how many ran. Machine.run's
 * loop without a call and its tests per instruction.
 */
function loopMethod(switched) {
  const inner = switched.slice(HEAD.length, switched.indexOf(CHAIN_END));
  return (
    '    executeUntil(clock, limitNs, machine, most) {\n' +
    '        const regs = this.registers;\n' +
    '        for (let count = 1; count <= most; count++) {\n' +
    inner +
    '        this.cycles += deltaCycles;\n' +
    '        const dt = deltaCycles * machine.cycleNs;\n' +
    '        const alarm = clock.nextAlarm;\n' +
    '        const t = clock.nanosCounter + dt;\n' +
    '        if (alarm !== null && alarm.nanos <= t) clock.tick(dt);\n' +
    '        else clock.nanosCounter = t;\n' +
    '        if (machine.stopped || clock.nanosCounter >= limitNs || this.waiting || machine.pio.running ||\n' +
    '            regs[15] === machine.spinPc) return count;\n' +
    '        }\n' +
    '        return most;\n' +
    '    }\n'
  );
}

/**
 * A faster executeInstruction for rp2040js's CortexM0Core, and executeUntil (loopMethod), made
 * from that module's source text: {execute, executeUntil}, or null when the text is not the shape
 * this expects (then rp2040js's own is kept; fastcore_check.mjs fails).
 */
function fastCoreMethods(source, imports) {
  const from = source.indexOf(HEAD);
  const to = source.indexOf(CHAIN_END, from);
  if (from < 0 || to < 0 || source.indexOf(CHAIN_START, from) < 0 || source.indexOf(FETCH, from) < 0) return null;
  const methodEnd = source.indexOf('\n    }\n', to) + 7;
  const method = source.slice(from, methodEnd);
  const chainText = method.slice(method.indexOf(CHAIN_START) + CHAIN_START.length, method.indexOf(CHAIN_END));
  let branches, table, chains;
  try {
    branches = readChain(chainText.replace(/\n$/, ''));
    ({ table, chains } = dispatchTable(branches));
  } catch (e) {
    return null; // a line or a chain of another shape
  }
  const switched = switchedMethod(method, branches, chains);
  const body = (source.slice(0, from) + switched + loopMethod(switched) + source.slice(methodEnd))
    .replace(/^import .*$/gm, '')
    .replace(/^export /gm, '');
  const names = Object.keys(imports);
  const make = new Function(...names, 'DISPATCH', `${body}\nreturn CortexM0Core;`);
  const proto = make(...names.map((n) => imports[n]), table).prototype;
  return { execute: proto.executeInstruction, executeUntil: proto.executeUntil };
}

/**
 * rp2040js's RP2040.writeUint32 looks the address up among the peripherals before anything
 * else, even for RAM (a push, a store): here a word to RAM goes straight in, as its writeUint8 and
 * writeUint16 already do; every other address takes rp2040js's way.
 */
function ramFirst(mcu) {
  const { sram, sramView } = mcu;
  const end = RAM_START + sram.length - 3;
  const others = mcu.writeUint32;
  mcu.writeUint32 = function writeUint32(address, value) {
    address >>>= 0;
    if (address >= RAM_START && address < end) sramView.setUint32(address - RAM_START, value, true);
    else others.call(this, address, value);
  };
}

/**
 * Data reads likewise: an aligned word from RAM or from flash's first window (literal pools, the
 * firmware's tables) is read straight from its view, as rp2040js reads it; anything else takes
 * rp2040js's readUint32 (its bootrom test first, the flash mirrors, the peripherals, and its log
 * of a misaligned read). Returns the chip's flash read watch, {lo, hi, seen}: a read of flash
 * offsets [lo, hi), by the core or DMA, through any mirror and of any size, sets `seen`
 * (session.mjs's warm boots check that a boot has not read nvm yet). Off while hi is 0.
 */
function fastReads(core, mcu) {
  const { sramView, flashView } = mcu;
  const watch = { lo: 0, hi: 0, seen: false };
  const ramEnd = RAM_START + mcu.sram.length - 3;
  const flashEnd = FLASH_START + mcu.flash.length - 3;
  const note = (address, size) => {
    const offset = address & 0xffffff; // (flash is mirrored at 0x10, 0x11, 0x12 and 0x13000000)
    if (offset < watch.hi && offset + size > watch.lo) watch.seen = true;
  };
  for (const [name, size] of [['readUint32', 4], ['readUint16', 2], ['readUint8', 1]]) {
    const plain = mcu[name];
    mcu[name] = function read(address) {
      if (address >>> 26 === 0x10000000 >>> 26) note(address, size);
      return plain.call(this, address);
    };
  }
  core.readUint32 = function readUint32(address) {
    address >>>= 0;
    if (!(address & 3)) {
      if (address >= RAM_START && address < ramEnd) return sramView.getUint32(address - RAM_START, true);
      if (address >= FLASH_START && address < flashEnd) {
        if (address - FLASH_START < watch.hi) note(address, 4);
        return flashView.getUint32(address - FLASH_START, true);
      }
    }
    return mcu.readUint32(address);
  };
  return watch;
}

let built = null; // {parts, fast}: made once per process, for every Machine

/**
 * Puts the faster decoder on `core` (a CortexM0Core) when rp2040js's source is at hand (`parts`:
 * rp2040js.mjs's coreParts); returns whether it did.
 */
export function speedUp(core, parts) {
  if (!parts || (typeof process !== 'undefined' && process.env.JARMO_PLAIN_CORE === '1')) return false;
  if (!built || built.parts !== parts) built = { parts, fast: fastCoreMethods(parts.source, parts.imports) };
  if (!built.fast) return false;
  const mcu = core.rp2040;
  core.flash16 = new Uint16Array(mcu.flash.buffer, mcu.flash.byteOffset, mcu.flash.length >> 1);
  core.flashEnd16 = FLASH_START + mcu.flash.length - 1; // (rp2040js's readUint16 reads no mirror)
  core.sram16 = new Uint16Array(mcu.sram.buffer, mcu.sram.byteOffset, mcu.sram.length >> 1);
  core.sramEnd16 = RAM_START + mcu.sram.length - 1;
  core.executeInstruction = built.fast.execute;
  core.executeUntil = built.fast.executeUntil;
  ramFirst(mcu);
  core.flashReadWatch = fastReads(core, mcu);
  return true;
}

// rp2040js's instruction decoder, dispatched by a table: the same instructions, faster.
//
// rp2040js's CortexM0Core.executeInstruction tests each 16-bit opcode against its ~85
// instruction patterns one after the other (an if / else-if chain), so a common instruction
// (a load, a branch) pays for tens of failed tests before its own. Here the chain is read from
// rp2040js's own source and each branch becomes a case of a switch, chosen by a table that holds
// for every opcode the first branch whose test it passes: the chain's order is kept exactly,
// and the branches' code is rp2040js's, unchanged. The few patterns that also test the
// instruction's second half-word (32-bit instructions: BL, MSR, MRS, the barriers) keep the
// whole chain. A device test runs about 1.5 times as fast, with the same emulated cycles
// (test_harness.py compares a run on each core).
//
// Only the emulator's speed changes: JARMO_PLAIN_CORE=1 runs rp2040js's own decoder.

const HEAD = '    executeInstruction() {\n';
const CHAIN_START = '        let deltaCycles = 1;\n';
const CHAIN_END = '        this.cycles += deltaCycles;\n';
const BRANCH = /^ {8}(?:else )?if \((.*)\) \{$|^ {8}else \{$/;
const WHOLE_CHAIN = 255; // table value: the opcode's patterns also test the second half-word

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

/** For every opcode, the index of the branch the chain runs, or WHOLE_CHAIN. */
export function dispatchTable(branches) {
  const tests = branches.map((b) => {
    if (b.cond === null) return { always: true };
    const head = firstHalfTest(b.cond);
    return { head: head === null ? null : new Function('opcode', `return ${head};`), second: b.cond !== head };
  });
  const table = new Uint8Array(65536);
  for (let opcode = 0; opcode < 65536; opcode++) {
    let choice = WHOLE_CHAIN;
    for (let i = 0; i < tests.length; i++) {
      const t = tests[i];
      if (t.always) {
        choice = i;
        break;
      }
      if (t.head === null) break; // cannot tell from this half-word alone
      if (t.head(opcode)) {
        if (!t.second) choice = i;
        break;
      }
    }
    table[opcode] = choice;
  }
  return table;
}

/** The method's source with the chain replaced by a switch on DISPATCH[opcode]. */
function switchedMethod(method, branches) {
  const start = method.indexOf(CHAIN_START) + CHAIN_START.length;
  const end = method.indexOf(CHAIN_END);
  const cases = branches.map((b, i) => `        case ${i}: {\n${b.body.join('\n')}\n            break;\n        }`);
  return (
    method.slice(0, start) +
    '        switch (DISPATCH[opcode]) {\n' +
    cases.join('\n') +
    '\n        default: {\n' +
    method.slice(start, end) +
    '        }\n        }\n' +
    method.slice(end)
  );
}

/**
 * A faster executeInstruction for rp2040js's CortexM0Core, made from that module's source text,
 * or null when the text is not the shape this expects (then rp2040js's own is kept).
 */
export function fastExecuteInstruction(source, imports) {
  const from = source.indexOf(HEAD);
  const to = source.indexOf(CHAIN_END, from);
  if (from < 0 || to < 0 || source.indexOf(CHAIN_START, from) < 0) return null;
  const methodEnd = source.indexOf('\n    }\n', to) + 7;
  const method = source.slice(from, methodEnd);
  const chainText = method.slice(method.indexOf(CHAIN_START) + CHAIN_START.length, method.indexOf(CHAIN_END));
  const branches = readChain(chainText.replace(/\n$/, ''));
  const table = dispatchTable(branches);
  const body = (source.slice(0, from) + switchedMethod(method, branches) + source.slice(methodEnd))
    .replace(/^import .*$/gm, '')
    .replace(/^export /gm, '');
  const names = Object.keys(imports);
  const make = new Function(...names, 'DISPATCH', `${body}\nreturn CortexM0Core;`);
  return make(...names.map((n) => imports[n]), table).prototype.executeInstruction;
}

const RAM_START = 0x20000000;

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

let built = null; // {parts, fast}: made once per process, for every Machine

/**
 * Puts the faster decoder on `core` (a CortexM0Core) when rp2040js's source is at hand (`parts`:
 * rp2040js.mjs's coreParts); returns whether it did.
 */
export function speedUp(core, parts) {
  if (!parts || (typeof process !== 'undefined' && process.env.JARMO_PLAIN_CORE === '1')) return false;
  if (!built || built.parts !== parts) built = { parts, fast: fastExecuteInstruction(parts.source, parts.imports) };
  if (!built.fast) return false;
  core.executeInstruction = built.fast;
  ramFirst(core.rp2040);
  return true;
}

#!/usr/bin/env node
// Two emulated boards cross-wired by a UART cable, in one process, stepped in lockstep.
//
//   node tests/device/pair.mjs --config JSON
//
// JSON: {"boards": [BOARD, BOARD], "baud": 115200, "slice_ms": 1}; a BOARD is {"firmware": path,
// "drive": folder, "neopixelPins": [...], "i2cAck": [...], "nvm": path|null, "seed": n|null,
// "uart": 0|1 (the UART the board's link pins use: the QT Py's TX GPIO20 / RX GPIO5 are UART1,
// the Feather's and the Pico's GPIO0/1 UART0)}.
//
// The JSON-lines control protocol of emulator.mjs --control (README.md), with "board": 0|1 on the
// commands that concern one board (pin, input, until, reset, stats, flash-read, flash-write,
// fs-image, until-flash) and on every event. Time runs on both boards together: `run`, `until`,
// `until-flash` advance both in slices of slice_ms emulated ms, one after the other, the board behind
// first brought up to the other (runBoth). Extra commands:
//   {"cmd":"wire","connected":false}         pull the cable (bytes sent meanwhile are lost) / put it back
//   {"cmd":"inject","board":1,"hex":"7e00"}  bytes arriving at board 1's RX, as noise on the line
//   {"cmd":"wire-stats"}                     bytes carried, lost, injected, dropped by full FIFOs,
//                                            garbled (read at another baud rate)
//
// The wire: a byte a board transmits (rp2040js onByte) is queued for the other board and fed into
// its 32-byte receive FIFO (feedByte) one byte per 10 bit-times of the baud rate, by an alarm on the
// receiving board's own clock, from the next slice on. Nothing is delivered to a board until it has
// finished starting (its "ready"): bytes fed earlier crashed the emulator ("read from address ...
// which is not 32 bit aligned"), so they wait, and a board's queue is emptied when it is reset
// (what was on the way is lost with the power). A full FIFO drops the byte, as the UART does.
// Each byte carries its sender's baud rate (rp2040js computes it from clk_peri and the divisor);
// a receiver more than 2.5 % off reads it garbled, as a real UART would (a board that changed
// its clock and left its UART's divisor for the old clk_peri).

import './v8tuning.mjs'; // first: V8's inlining budget, before anything is optimised
import fs from 'fs';
import readline from 'readline';
import { Session, EmulatorError, WallTimeout } from './session.mjs';
import { FLASH_UNIQUE_ID } from './flash.mjs';
import { NVM_OFFSET, NVM_SIZE } from './firmware.mjs';
import { readBootrom, readBytes, readFolder } from './files.mjs';
import { fromHex, hex } from './portable.mjs';

const MS = 1e6;

function fail(msg) {
  process.stderr.write(`pair.mjs: ${msg}\n`);
  process.exit(64);
}

const argv = process.argv.slice(2);
const at = argv.indexOf('--config');
if (at < 0 || at + 1 >= argv.length) fail('usage: node tests/device/pair.mjs --config JSON');
const cfg = JSON.parse(argv[at + 1]);
if (!Array.isArray(cfg.boards) || cfg.boards.length !== 2) fail('config: "boards" must hold two boards');
const BYTE_NS = (10 / (cfg.baud || 115200)) * 1e9; // one byte: start bit, 8 data bits, stop bit
const SLICE_MS = cfg.slice_ms || 1;

const send = (event) => process.stdout.write(JSON.stringify(event) + '\n');
const bootrom = readBootrom();

// ---------------------------------------------------------------- the boards and the wire
class Wire {
  constructor() {
    this.connected = true;
    this.queues = [[], []]; // bytes on their way to board i, each followed by its sender's baud rate
    this.hooked = [null, null]; // the Machine whose UART is hooked, per board
    this.alarms = [null, null];
    this.stats = { carried: 0, lost: 0, injected: 0, dropped: 0, garbled: 0 };
  }

  /** Hooks board i's UART (again after each power-on: every boot makes a new Machine). */
  hook(i) {
    const s = sessions[i];
    const m = s.machine;
    if (!m || this.hooked[i] === m || !s.ready) return;
    this.hooked[i] = m;
    this.queues[i] = []; // what was on its way to the board before it started is lost
    const uart = m.mcu.uart[cfg.boards[i].uart ?? 0];
    const other = 1 - i;
    uart.onByte = (b) => {
      if (!this.connected) {
        this.stats.lost++;
        return;
      }
      this.queues[other].push(b, uart.baudRate);
    };
    const rx = m.mcu.uart[cfg.boards[i].uart ?? 0];
    const alarm = m.clock.createAlarm(() => {
      alarm.scheduled = false; // (rp2040js leaves the flag set when an alarm fires)
      const q = this.queues[i];
      if (!q.length) return;
      if (rx.rxFIFO.full) this.stats.dropped++;
      else this.stats.carried++;
      const b = q.shift();
      const baud = q.shift(); // the sender's (undefined: injected noise)
      const misread = baud !== undefined && Math.abs(baud - rx.baudRate) > 0.025 * rx.baudRate;
      if (misread) this.stats.garbled++;
      rx.feedByte(misread ? b ^ 0xa5 : b); // a full FIFO drops it (rp2040js's FIFO.push)
      if (q.length) alarm.schedule(BYTE_NS);
    });
    this.alarms[i] = alarm;
  }

  /** After a slice: start feeding board i what waits for it. */
  pump(i) {
    const alarm = this.alarms[i];
    if (alarm && this.hooked[i] === sessions[i].machine && this.queues[i].length && !alarm.scheduled) {
      alarm.schedule(BYTE_NS);
    }
  }

  forget(i) {
    this.hooked[i] = null;
    this.alarms[i] = null;
    this.queues[i] = [];
  }
}

const wire = new Wire();
const sessions = cfg.boards.map((b, i) => {
  const s = new Session(
    {
      firmwareName: b.firmware,
      firmware: readBytes(b.firmware),
      drive: readFolder(b.drive),
      bootrom,
      board: b.board || null,
      neopixelPins: b.neopixelPins || [],
      i2cAck: b.i2cAck || [],
      nvm: b.nvm ? readBytes(b.nvm) : null,
      seed: b.seed || 1,
      // each board its own flash unique id (microcontroller.cpu.uid), as two real boards
      uniqueId: i ? [...FLASH_UNIQUE_ID.slice(0, 7), FLASH_UNIQUE_ID[7] ^ 0x5a] : null,
    },
    (ev) => send({ ...ev, board: i }),
  );
  return s;
});

/**
 * Runs both boards for `ms` emulated ms in slices, or until stop() is true. Both first go to the
 * same time: a stop (a line on one board) leaves the other up to a slice behind, and steps run
 * from each board's own time would let that gap grow (40 ms over a linked game, measured), with
 * every latency measured across the boards.
 */
async function runBoth(ms, stop = () => false) {
  const lead = Math.max(sessions[0].now, sessions[1].now);
  for (let i = 0; i < 2; i++) {
    if (sessions[i].now < lead && (await runBoard(i, lead, stop))) return true;
  }
  const end = lead + ms * MS;
  const reached = [false, false];
  for (;;) {
    for (let i = 0; i < 2; i++) {
      wire.hook(i);
      wire.pump(i);
    }
    for (let i = 0; i < 2; i++) {
      if (!reached[i]) reached[i] = await slice(i, end, stop);
      if (stop()) return true;
    }
    if (reached[0] && reached[1]) return false;
  }
}

/** Board i alone up to session time `until` (the other is there), in slices; true if stopped. */
async function runBoard(i, until, stop) {
  for (;;) {
    wire.hook(i);
    wire.pump(i);
    const reached = await slice(i, until, stop);
    if (stop()) return true;
    if (reached) return false;
  }
}

/**
 * Board i's next slice towards session time `end`; whether it reached `end`. (A board is done when
 * its execute() says it reached its end: s.now, a sum of floats, may stay a fraction of a ns under
 * it, and comparing that never ended the run.)
 */
async function slice(i, end, stop) {
  const s = sessions[i];
  const last = s.now + SLICE_MS * MS >= end;
  const why = await s.execute(last ? end : s.now + SLICE_MS * MS, stop);
  return last && why === 'limit';
}

// ---------------------------------------------------------------- control
const queue = [];
let wake = null;
let closed = false;
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) return;
  queue.push(line);
  if (wake) wake();
});
rl.on('close', () => {
  closed = true;
  if (wake) wake();
});
async function nextCommand() {
  while (!queue.length) {
    if (closed) return null;
    await new Promise((resolve) => (wake = resolve));
    wake = null;
  }
  return queue.shift();
}

async function exit(code) {
  for (const s of sessions) s.flush();
  const stats = sessions.map((s) => s.stats());
  await new Promise((resolve) => process.stdout.write(JSON.stringify({ ev: 'exit', code, boards: stats, wire: wire.stats }) + '\n', resolve));
  process.exit(code);
}

function boardOf(cmd) {
  const i = cmd.board ?? 0;
  if (i !== 0 && i !== 1) throw new Error(`board must be 0 or 1, not ${JSON.stringify(cmd.board)}`);
  return i;
}

function levelOf(v) {
  if (v === 0 || v === '0') return 0;
  if (v === 1 || v === '1') return 1;
  if (v === 'z' || v === 'Z' || v === null) return null;
  throw new Error(`pin level must be 0, 1 or "z", not ${JSON.stringify(v)}`);
}

// both boards start before any byte goes over the wire
try {
  for (let i = 0; i < 2; i++) send({ ...(await sessions[i].boot()), board: i });
} catch (e) {
  send({ ev: 'error', message: e.message });
  await exit(1);
}
for (;;) {
  const line = await nextCommand();
  if (line === null) await exit(0);
  let cmd;
  try {
    cmd = JSON.parse(line);
  } catch (e) {
    send({ ev: 'error', message: `not JSON: ${line.slice(0, 200)}` });
    continue;
  }
  const i = cmd.board ?? 0;
  const reply = (event) => send({ ...event, ...(cmd.id !== undefined ? { id: cmd.id } : {}), board: i });
  try {
    const b = boardOf(cmd);
    const s = sessions[b];
    switch (cmd.cmd) {
      case 'pin': {
        const gpio = s.setPin(cmd.pin, levelOf(cmd.level));
        reply({ ev: 'ok', cmd: 'pin', t: s.t(s.now), gpio, level: levelOf(cmd.level) ?? 'z' });
        break;
      }
      case 'run':
        await runBoth(Number(cmd.ms));
        reply({ ev: 'done', t: s.t(s.now) });
        break;
      case 'until': {
        const regex = new RegExp(cmd.match);
        let matched = null;
        s.lineHandler = (text) => {
          if (matched === null && regex.test(text)) {
            matched = text;
            s.machine.stop();
          }
        };
        try {
          await runBoth(Number(cmd.timeout_ms ?? 60000), () => matched !== null);
        } finally {
          s.lineHandler = null;
        }
        reply(matched === null ? { ev: 'timeout', t: s.t(s.now), match: cmd.match } : { ev: 'matched', t: s.t(s.now), line: matched });
        break;
      }
      case 'input':
        s.input(String(cmd.text));
        reply({ ev: 'ok', cmd: 'input', t: s.t(s.now) });
        break;
      case 'reset':
        wire.forget(b); // the power goes: bytes on their way are lost
        reply(await s.boot('reset'));
        break;
      case 'stats':
        reply({ ev: 'stats', ...s.stats() });
        break;
      case 'flash-read': {
        const data = s.readFlash(cmd.offset ?? NVM_OFFSET, cmd.length ?? NVM_SIZE);
        reply({ ev: 'flash', t: s.t(s.now), offset: cmd.offset ?? NVM_OFFSET, hex: hex(data) });
        break;
      }
      case 'flash-write':
        s.writeFlash(cmd.offset ?? NVM_OFFSET, fromHex(String(cmd.hex)));
        reply({ ev: 'ok', cmd: 'flash-write', t: s.t(s.now) });
        break;
      case 'fs-image':
        fs.writeFileSync(cmd.path, s.fsImage());
        reply({ ev: 'ok', cmd: 'fs-image', t: s.t(s.now), path: cmd.path });
        break;
      case 'wire':
        wire.connected = Boolean(cmd.connected);
        if (!wire.connected) wire.queues = [[], []]; // bytes on the wire when it is pulled are lost
        reply({ ev: 'ok', cmd: 'wire', t: s.t(s.now), connected: wire.connected });
        break;
      case 'inject': {
        const bytes = fromHex(String(cmd.hex));
        for (const x of bytes) wire.queues[b].push(x, undefined); // noise: no sender's baud
        wire.stats.injected += bytes.length;
        reply({ ev: 'ok', cmd: 'inject', t: s.t(s.now), bytes: bytes.length });
        break;
      }
      case 'uart-regs': {
        const u = s.machine.mcu.uart[cfg.boards[b].uart ?? 0];
        reply({ ev: 'uart', t: s.t(s.now), mask: u.interruptMask, status: u.interruptStatus, cr: u.ctrlRegister,
          lcr: u.lineCtrlRegister, rx: u.rxFIFO.itemCount, dmaTx: s.machine.mcu.dma.dreq ? Array.from(s.machine.mcu.dma.dreq || []).slice(20, 24) : null });
        break;
      }
      case 'wire-stats':
        reply({ ev: 'wire', t: s.t(s.now), ...wire.stats, connected: wire.connected });
        break;
      case 'quit':
        await exit(0);
        break;
      default:
        reply({ ev: 'error', message: `unknown command ${JSON.stringify(cmd.cmd)}` });
    }
  } catch (e) {
    if (e instanceof WallTimeout) {
      reply({ ev: 'error', message: 'wall-clock timeout' });
      await exit(2);
    }
    const bug = e instanceof TypeError || e instanceof ReferenceError || e instanceof RangeError;
    reply({ ev: 'error', message: bug ? String(e.stack) : e.message });
    if (e instanceof EmulatorError) await exit(1);
  }
}

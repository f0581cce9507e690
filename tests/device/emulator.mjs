#!/usr/bin/env node
// Boots a real CircuitPython RP2040 firmware (UF2) in the rp2040js emulator, with a CIRCUITPY
// drive made from a host folder. See README.md in this folder for the models and the protocol.
//
//   node tests/device/emulator.mjs --firmware F.uf2 --drive DIR [options]
//
// Batch mode (default): the console of code.py goes to stdout, stats to stderr. Exit status:
// 0 when a line contains --end-marker (or code.py ended, without --end-marker), 3 when code.py
// ended without the marker, 2 on --timeout-s (wall clock), 1 on errors.
// Control mode (--control): JSON lines in on stdin (commands), JSON lines out on stdout (events).

import './v8tuning.mjs'; // first: V8's inlining budget, before anything is optimised
import fs from 'fs';
import readline from 'readline';
import { Session, EmulatorError, WallTimeout } from './session.mjs';
import { NVM_OFFSET, NVM_SIZE } from './firmware.mjs';
import { readBootrom, readBytes, readFolder } from './files.mjs';
import { fromHex, hex } from './portable.mjs';

const USAGE = `usage: node tests/device/emulator.mjs --firmware F.uf2 --drive DIR [options]
  --control                JSON lines protocol on stdin/stdout (see README.md)
  --serve                  (alone) control mode for one session after another, each opened by
                           {"cmd":"open","argv":[...]} and ended by "quit" (README.md)
  --board ID               override board detection (raspberry_pi_pico, adafruit_qtpy_rp2040, ...)
  --neopixel-pin PIN       decode WS2812 frames on PIN (repeat or comma-separate for several)
  --neopixel-out FILE      batch mode: frames to FILE (default stderr)
  --i2c-ack 0x3C[,ADDR]    I2C target ACKing these addresses; pull-ups on the board's I2C pins
  --i2c-pins SDA,SCL[;..]  I2C bus pins for the target (default: board.I2C()/STEMMA buses)
  --i2c-log FILE           every I2C transaction: "t_ms bus addr W|R ACK|NACK bytes"
  --oled                   an SH1107 OLED (FeatherWing, 0x3C) on the I2C target: each I2C burst's
                           event (control mode) says whether the panel is on and how many of
                           its pixels are lit after it (oled_on, oled_lit)
  --gpio-script FILE       batch mode: lines "TIME_MS PIN 0|1|z" (ms after code.py starts)
  --end-marker S           batch mode: exit 0 when a console line contains S
  --timeout-s N            wall-clock limit (batch default 300; control mode: none)
  --fs-image OUT           write the CIRCUITPY image (1 MiB FAT12) at exit
  --no-fast-boot           keep CircuitPython's 1 s safe-mode wait at power-up
  --cold-boots             control mode: every "reset" with "until" boots from power-on (no warm
                           boots: README.md; also JARMO_COLD_BOOTS=1)
  --no-attach              don't re-run code.py with the console attached (Ctrl-C, Ctrl-D)
  --usb MODE               what is on the USB cable at every power-on: console (default: a host
                           that opens the console), host (enumerates, no console: t counts from
                           power-on), none (a battery-powered board: no console, t from power-on)
  --instant-flash          flash program/erase take no emulated time (default: datasheet typical)
  --boot-timeout-ms N      emulated ms allowed from power-on to code.py (default 10000)
  --nvm FILE               put FILE (4 or 8 KiB) into microcontroller.nvm, ending at CIRCUITPY, before power-on
  --seed N                 seed of the random bits a power cut leaves in a torn flash operation
  --uart-tcp PORT          control mode: the board's link UART (--uart N, default 0) bridged to a
                           TCP socket on localhost:PORT (a simulator's --link PORT; README.md)
  --verbose                show console output from before the attach (stderr / "log" events)
  --quiet                  batch mode: no stats on stderr`;

function parseArgs(argv) {
  const o = { neopixelPins: [], i2cAck: [], positional: [] };
  const take = (i) => {
    if (i + 1 >= argv.length) fail(`${argv[i]} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const flags = {
      '--control': () => (o.control = true),
      '--no-fast-boot': () => (o.fastBoot = false),
      '--no-attach': () => (o.attach = false),
      '--cold-boots': () => (o.coldBoots = true),
      '--instant-flash': () => (o.flashTiming = false),
      '--verbose': () => (o.verbose = true),
      '--quiet': () => (o.quiet = true),
      '--oled': () => (o.oled = true),
      '-h': () => {
        console.log(USAGE);
        process.exit(0);
      },
    };
    flags['--help'] = flags['-h'];
    const values = {
      '--firmware': (v) => (o.firmware = v),
      '--drive': (v) => (o.drive = v),
      '--board': (v) => (o.board = v),
      '--neopixel-pin': (v) => o.neopixelPins.push(...v.split(',').filter(Boolean)),
      '--neopixel-out': (v) => (o.neopixelOut = v),
      '--i2c-ack': (v) => o.i2cAck.push(...v.split(',').filter(Boolean).map((x) => Number(x))),
      '--i2c-pins': (v) => (o.i2cPins = v.split(';').map((pair) => pair.split(','))),
      '--i2c-log': (v) => (o.i2cLog = v),
      '--gpio-script': (v) => (o.gpioScript = v),
      '--end-marker': (v) => (o.endMarker = v),
      '--timeout-s': (v) => (o.timeoutS = Number(v)),
      '--fs-image': (v) => (o.fsImage = v),
      '--boot-timeout-ms': (v) => (o.bootTimeoutMs = Number(v)),
      '--clock-hz': (v) => (o.clockHz = Number(v)),
      '--nvm': (v) => (o.nvm = readBytes(v)),
      '--seed': (v) => (o.seed = Number(v)),
      '--uart-tcp': (v) => (o.uartTcp = Number(v)),
      '--uart': (v) => (o.uart = Number(v)),
      '--usb': (v) => (o.usb = v),
    };
    if (flags[a]) flags[a]();
    else if (values[a]) values[a](take(i++));
    else if (a.startsWith('--')) fail(`unknown option ${a}`);
    else o.positional.push(a);
  }
  // also accept "emulator.mjs FIRMWARE DRIVE" like the reference runner
  if (!o.firmware && o.positional.length) o.firmware = o.positional.shift();
  if (!o.drive && o.positional.length) o.drive = o.positional.shift();
  if (!o.firmware || !o.drive) fail('--firmware and --drive are required');
  if (!fs.existsSync(o.firmware)) fail(`firmware not found: ${o.firmware}`);
  if (!fs.statSync(o.drive, { throwIfNoEntry: false })?.isDirectory()) fail(`drive folder not found: ${o.drive}`);
  if (o.usb && !['console', 'host', 'none'].includes(o.usb)) fail('--usb: console, host or none');
  if (o.i2cAck.some((x) => !Number.isInteger(x) || x < 0 || x > 127)) fail('--i2c-ack: 7-bit addresses, e.g. 0x3C');
  return o;
}

/** The Session's options: the files' bytes read here (the models take bytes, not paths). */
function sessionOptions(o) {
  return {
    ...o,
    firmwareName: o.firmware,
    firmware: readBytes(o.firmware),
    drive: readFolder(o.drive),
    bootrom: readBootrom(),
    onI2cTransaction: i2cLogger(o.i2cLog),
    coldBoots: o.coldBoots || process.env.JARMO_COLD_BOOTS === '1',
  };
}

function fail(msg) {
  process.stderr.write(`emulator.mjs: ${msg}\n${USAGE}\n`);
  process.exit(64);
}

function levelOf(v) {
  if (v === 0 || v === '0') return 0;
  if (v === 1 || v === '1') return 1;
  if (v === 'z' || v === 'Z' || v === null) return null;
  throw new Error(`pin level must be 0, 1 or "z", not ${JSON.stringify(v)}`);
}

function duration(v, name) {
  const ms = Number(v);
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`${name} must be a number of emulated ms >= 0, not ${JSON.stringify(v)}`);
  return ms;
}

function writeOut(text) {
  return new Promise((resolve) => process.stdout.write(text, resolve));
}

function i2cLogger(file) {
  if (!file) return null;
  const fd = fs.openSync(file, 'w');
  return (tx) => {
    const addr = '0x' + tx.address.toString(16).padStart(2, '0');
    const bytes = tx.bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ');
    fs.writeSync(fd, `${tx.t.toFixed(3)} ${tx.bus} ${addr} ${tx.mode} ${tx.ack ? 'ACK' : 'NACK'} ${bytes}\n`);
  };
}

// ---------------------------------------------------------------- control mode
/** Command lines from stdin, one at a time: {nextCommand() -> line or null at its end, send(event)}. */
function lineIo() {
  const send = (event) => process.stdout.write(JSON.stringify(event) + '\n');
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
  const nextCommand = async () => {
    while (!queue.length) {
      if (closed) return null;
      await new Promise((resolve) => (wake = resolve));
      wake = null;
    }
    return queue.shift();
  };
  return { send, nextCommand };
}

/**
 * One board's session: boot, then commands until "quit". `io`: a serving process's (--serve),
 * which goes on to its next session after a "quit"; without it the process is this session's
 * and exits with it. Any other end (an error, a wall-clock timeout, stdin closed) ends the process.
 */
async function controlMode(o, io = null) {
  const own = io === null;
  const { send, nextCommand } = io || lineIo();
  const session = new Session(sessionOptions(o), send);
  let quit = false;
  // ends the session; the process too unless a serving process's session quit cleanly
  const exit = async (code, extra = {}, endProcess = own || code !== 0) => {
    session.flush();
    if (o.fsImage) fs.writeFileSync(o.fsImage, session.fsImage());
    await writeOut(JSON.stringify({ ev: 'exit', code, ...session.stats(), ...extra }) + '\n');
    if (endProcess) process.exit(code);
    quit = true;
  };
  if (o.timeoutS) session.opts.wallDeadline = performance.now() + o.timeoutS * 1000;

  try {
    send(await session.boot());
  } catch (e) {
    send({ ev: 'error', message: e.message });
    await exit(e instanceof WallTimeout ? 2 : 1);
  }
  if (o.uartTcp) await bridgeUart(session, o.uartTcp, o.uart || 0);
  while (!quit) {
    const line = await nextCommand();
    if (line === null) await exit(0, { reason: 'stdin closed' }, true);
    let cmd;
    try {
      cmd = JSON.parse(line);
    } catch (e) {
      send({ ev: 'error', message: `not JSON: ${line.slice(0, 200)}` });
      continue;
    }
    const reply = (event) => send(cmd.id !== undefined ? { ...event, id: cmd.id } : event);
    try {
      switch (cmd.cmd) {
        case 'pin': {
          const gpio = session.setPin(cmd.pin, levelOf(cmd.level));
          reply({ ev: 'ok', cmd: 'pin', t: session.t(session.now), gpio, level: levelOf(cmd.level) ?? 'z' });
          break;
        }
        case 'run':
          reply({ ev: 'done', t: await session.runFor(duration(cmd.ms, 'ms')) });
          break;
        case 'until': {
          const regex = new RegExp(cmd.match);
          const line = await session.runUntil(regex, duration(cmd.timeout_ms ?? 60000, 'timeout_ms'));
          const t = session.t(session.now);
          reply(line === null ? { ev: 'timeout', t, match: cmd.match } : { ev: 'matched', t, line });
          break;
        }
        case 'until-flash': {
          const op = await session.runUntilFlash(cmd.kind ?? 'program', cmd.from ?? 0, cmd.to ?? 2 ** 32,
            duration(cmd.timeout_ms ?? 60000, 'timeout_ms'));
          const t = session.t(session.now);
          reply(op === null ? { ev: 'timeout', t, kind: cmd.kind ?? 'program' } : { ev: 'flash-op', t, ...op });
          break;
        }
        case 'input':
          session.input(String(cmd.text));
          reply({ ev: 'ok', cmd: 'input', t: session.t(session.now) });
          break;
        case 'reset': {
          // "flash": {"offset", "hex"}: powered on with these bytes in its flash (a cut's, "cut-read")
          const restore = cmd.flash ? { offset: cmd.flash.offset ?? NVM_OFFSET, bytes: fromHex(String(cmd.flash.hex)) } : null;
          if (cmd.until === undefined) {
            reply(await session.boot('reset', cmd.usb ?? null, restore));
            break;
          }
          // "until": and run until a console line matches (one step: a warm boot where it can, unless
          // "cold")
          const timeout = duration(cmd.timeout_ms ?? 60000, 'timeout_ms');
          const { ready, line } = await session.bootUntil('reset', cmd.usb ?? null, restore, new RegExp(cmd.until), timeout,
            Boolean(cmd.cold));
          reply({ ...ready, line });
          break;
        }
        case 'cut-read': {
          const cut = session.cutFlash(cmd.offset ?? NVM_OFFSET, cmd.length ?? NVM_SIZE);
          reply({ ev: 'flash', t: session.t(session.now), offset: cmd.offset ?? NVM_OFFSET, hex: hex(cut.bytes), torn: cut.torn });
          break;
        }
        case 'stats':
          reply({ ev: 'stats', ...session.stats() });
          break;
        case 'flash-read': {
          const data = session.readFlash(cmd.offset ?? NVM_OFFSET, cmd.length ?? NVM_SIZE);
          reply({ ev: 'flash', t: session.t(session.now), offset: cmd.offset ?? NVM_OFFSET, hex: hex(data) });
          break;
        }
        case 'flash-write':
          session.writeFlash(cmd.offset ?? NVM_OFFSET, fromHex(String(cmd.hex)));
          reply({ ev: 'ok', cmd: 'flash-write', t: session.t(session.now) });
          break;
        case 'fs-image':
          fs.writeFileSync(cmd.path, session.fsImage());
          reply({ ev: 'ok', cmd: 'fs-image', t: session.t(session.now), path: cmd.path });
          break;
        case 'quit':
          await exit(0, cmd.id !== undefined ? { id: cmd.id } : {});
          break;
        default:
          reply({ ev: 'error', message: `unknown command ${JSON.stringify(cmd.cmd)}` });
      }
    } catch (e) {
      if (e instanceof WallTimeout) {
        reply({ ev: 'error', message: `wall-clock timeout (${o.timeoutS} s)` });
        await exit(2);
      }
      // bad arguments give their message; a bug in the harness gives its stack
      const bug = e instanceof TypeError || e instanceof ReferenceError || e instanceof RangeError;
      reply({ ev: 'error', message: bug ? String(e.stack) : e.message });
      if (e instanceof EmulatorError) await exit(1);
    }
  }
}

// ---------------------------------------------------------------- the link UART over TCP
// The board's link UART bridged to localhost:PORT (the simulator's `--link PORT` listens there
// when nobody else does): what the board transmits goes out on the socket; what comes in is fed
// into its receive FIFO one byte per 10 bit-times at 115200 baud, by an alarm on the board's
// clock, and only once the board has started (as tests/device/pair.mjs's wire).
async function bridgeUart(session, port, index) {
  const net = await import('net');
  const BYTE_NS = (10 / 115200) * 1e9;
  let sock = null;
  let hooked = null;
  let alarm = null;
  const inbox = [];
  const connect = () => {
    const s = net.connect(port, '127.0.0.1');
    s.setNoDelay(true);
    s.on('connect', () => (sock = s));
    s.on('data', (data) => {
      inbox.push(...data);
      pump();
    });
    s.on('error', () => {});
    s.on('close', () => {
      if (sock === s) sock = null;
      setTimeout(connect, 200);
    });
  };
  const hook = () => {
    const m = session.machine;
    if (!m || hooked === m || !session.ready) return;
    hooked = m;
    const uart = m.mcu.uart[index];
    uart.onByte = (b) => sock && sock.write(Uint8Array.of(b));
    alarm = m.clock.createAlarm(() => {
      alarm.scheduled = false;
      if (!inbox.length) return;
      uart.feedByte(inbox.shift());
      if (inbox.length) alarm.schedule(BYTE_NS);
    });
  };
  const pump = () => {
    hook();
    if (alarm && hooked === session.machine && inbox.length && !alarm.scheduled) alarm.schedule(BYTE_NS);
  };
  // every run of the board: hook a new power-on, feed what waits
  const execute = session.execute.bind(session);
  session.execute = async (limit, done) => {
    pump();
    return execute(limit, () => {
      pump();
      return done();
    });
  };
  connect();
}

// ---------------------------------------------------------------- batch mode
async function batchMode(o) {
  const stat = (msg) => o.quiet || process.stderr.write(`[emu] ${msg}\n`);
  const npOut = o.neopixelOut ? fs.openSync(o.neopixelOut, 'w') : 2;
  let outcome = null; // [code, reason]
  const events = (ev) => {
    switch (ev.ev) {
      case 'console':
        process.stdout.write(ev.line + '\n');
        if (outcome) break;
        if (o.endMarker && ev.line.includes(o.endMarker)) outcome = [0, `end marker "${o.endMarker}" seen`];
        else if (ev.line.startsWith('Code done running.')) {
          outcome = o.endMarker ? [3, 'code.py finished without the end marker'] : [0, 'code.py finished'];
        }
        if (outcome) session.machine.stop();
        break;
      case 'frame': {
        const px = ev.grb.match(/.{6}/g) || [];
        fs.writeSync(npOut, `NEOPIXEL t_ms=${ev.t.toFixed(3)} pin=GPIO${ev.pin} pixels=${px.length} grb=${px.join(',')}\n`);
        break;
      }
      case 'i2c':
        stat(`i2c t_ms=${ev.t.toFixed(3)} ${ev.transactions} transactions, ${ev.bytes} bytes in ${ev.ms} ms to ${ev.addresses.join(',')}`);
        break;
      case 'log':
        process.stderr.write(ev.text);
        break;
      case 'reboot':
        stat(`reboot (${ev.reason}) at t_ms=${ev.t}`);
        break;
      case 'ready':
        if (ev.usb) stat(`boot ${ev.boot}: power-on, USB ${ev.usb}: t_ms counts from power-on`);
        else stat(`boot ${ev.boot}: code.py runs with the console attached after ${ev.boot_ms} emulated ms (${ev.boot_wall_s} s wall)`);
        break;
    }
  };
  const session = new Session(sessionOptions(o), events);
  session.opts.wallDeadline = performance.now() + (o.timeoutS ?? 300) * 1000;
  stat(
    `firmware ${o.firmware}: ${session.firmware.bytes} bytes, board ${session.boardId || 'unknown'}; ` +
      `CIRCUITPY ${session.fat.files} files, ${session.fat.bytes} bytes, ${session.fat.clustersUsed}/${session.fat.clusters} clusters`,
  );
  // --gpio-script: "TIME_MS PIN 0|1|z", times after code.py starts with the console attached
  const script = [];
  if (o.gpioScript) {
    fs.readFileSync(o.gpioScript, 'utf8')
      .split('\n')
      .forEach((raw, n) => {
        const text = raw.replace(/#.*/, '').trim();
        if (!text) return;
        const [t, pin, level] = text.split(/\s+/);
        if (!Number.isFinite(Number(t)) || !['0', '1', 'z', 'Z'].includes(level)) {
          throw new Error(`${o.gpioScript}:${n + 1}: expected "TIME_MS PIN 0|1|z"`);
        }
        script.push({ t: Number(t), pin: session.pin(pin), level: levelOf(level), text });
      });
    script.sort((a, b) => a.t - b.t);
  }
  let code = 1;
  let reason = '';
  try {
    events(await session.boot());
    for (const step of [...script, null]) {
      const until = step ? step.t : Infinity;
      while (!outcome && session.t(session.now) < until) {
        const chunk = Math.min(until - session.t(session.now), 1000);
        const why = await session.execute(session.now + chunk * 1e6, () => outcome !== null);
        if (why === 'limit' && chunk < 1000) break; // there (the sum of times may round just under)
      }
      if (outcome) break;
      session.setPin(step.pin, step.level);
      stat(`gpio t_ms=${session.t(session.now).toFixed(3)}: GPIO${step.pin} = ${step.level ?? 'z'} (${step.text})`);
    }
    [code, reason] = outcome;
  } catch (e) {
    if (e instanceof WallTimeout) [code, reason] = [2, `timeout after ${o.timeoutS ?? 300} s wall clock`];
    else [code, reason] = [1, e instanceof EmulatorError ? e.message : String(e.stack || e)];
  }
  session.flush();
  if (o.fsImage) fs.writeFileSync(o.fsImage, session.fsImage());
  const s = session.stats();
  stat(
    `${reason}; emulated ${s.emulated_s} s (${(s.cycles / 1e6).toFixed(1)} M cycles), wall ${s.wall_s} s, ` +
      `speed ${s.speed}x real time (${s.cpu_s} s CPU: ${s.cpu_speed}x); ${s.frames} NeoPixel frames` +
      (s.flash ? `; flash writes: ${s.flash.erases} erases, ${s.flash.programs} page programs, busy ${s.flash.busyMs} ms` : ''),
  );
  for (const [addr, v] of Object.entries(s.i2c)) stat(`I2C ${addr}: ${v.transactions} transactions, ${v.bytes} bytes`);
  await writeOut('');
  process.exit(code);
}

/**
 * --serve: one process for many sessions, one after the other (device.py's pool): each begins
 * with {"cmd":"open","argv":[control mode's arguments]} and ends with "quit" (its "exit" event
 * sent), and the next may open. A Node process and its compiled emulator cost about 1.6 CPU
 * seconds to start (V8 compiling fastcore's loop); a session opened in a warm one, none of it.
 */
async function serveMode() {
  const io = lineIo();
  for (;;) {
    const line = await io.nextCommand();
    if (line === null) process.exit(0);
    let cmd;
    try {
      cmd = JSON.parse(line);
    } catch (e) {
      cmd = null;
    }
    if (!cmd || cmd.cmd !== 'open' || !Array.isArray(cmd.argv)) {
      io.send({ ev: 'error', message: `--serve: open a session first ({"cmd":"open","argv":[...]}), not ${line.slice(0, 200)}` });
      continue;
    }
    const o = parseArgs(cmd.argv.map(String));
    if (o.uartTcp) fail('--serve: --uart-tcp needs a process of its own');
    await controlMode({ ...o, control: true }, io);
  }
}

process.on('SIGINT', () => process.exit(130));
if (process.argv[2] === '--serve') await serveMode();
else {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.control) await controlMode(opts);
  else await batchMode(opts);
}

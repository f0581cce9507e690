// A Session is one emulated board over time: its flash (firmware, CIRCUITPY and everything the
// firmware wrote) survives power cycles; each power-on builds a new Machine from it.
//
// Time: every event carries `t`, emulated milliseconds since the current console run of code.py
// started (the "ready" moment of the latest boot), or since power-on for a boot whose `usb` is
// "none" or "host" (no console attach: see boot()). Session time (`now`) adds up all boots.
//
// Bytes in, events out, no file access: the Node harness (emulator.mjs) reads the firmware, the
// drive folder and the bootrom (files.mjs), the web page's worker fetches them.

import {
  BOARDS,
  CIRCUITPY_IMAGE_SIZE,
  CIRCUITPY_OFFSET,
  NVM_OFFSET,
  detectBoard,
  pinNumber,
  predictBootOut,
  writeFirmware,
} from './firmware.mjs';
import { Sh1107 } from './sh1107.mjs';
import { FLASH_UNIQUE_ID } from './flash.mjs';
import { buildFat12, FAT_STAMP_S } from './fat.mjs';
import { Machine } from './machine.mjs';
import { restore, take } from './snapshot.mjs';
import { cpuSeconds, hex, utf8, utf8Bytes, yieldNow } from './portable.mjs';

const MS = 1e6; // ns
// the flash offsets of nvm's sectors, on either firmware kind (4 KiB on stock, 8 KiB on Jarmo's),
// ending where CIRCUITPY starts: what warm boots may differ in
const NVM_WINDOW = [NVM_OFFSET + 4096 - 8192, NVM_OFFSET + 4096];

/** Whether two flash images hold the same bytes in [from, to) (multiples of 4). */
function sameBytes(a, b, from, to) {
  const x = new Uint32Array(a.buffer, a.byteOffset + from, (to - from) >> 2);
  const y = new Uint32Array(b.buffer, b.byteOffset + from, (to - from) >> 2);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

export class Session {
  /**
   * @param {object} opts firmware (the UF2's bytes), firmwareName, drive (the files of CIRCUITPY,
   *   as fat.mjs takes them), bootrom (words: firmware.mjs decodeBootrom), board, clockHz,
   *   fastBoot, attach, neopixelPins, i2cAck, i2cPins, bootTimeoutMs, nvm, seed
   * @param {function(object)} emit receives every event object ({ev: ...})
   */
  constructor(opts, emit) {
    this.opts = opts;
    this.emit = emit;
    this.wallStart = performance.now();
    this.cpuStart = cpuSeconds();
    this.flash = new Uint8Array(16 * 1024 * 1024).fill(0xff);
    this.firmware = writeFirmware(opts.firmware, this.flash, opts.firmwareName);
    this.boardId = opts.board || detectBoard(this.flash, this.firmware.end);
    this.board = BOARDS[this.boardId] || null;
    const extra = {};
    if (opts.fastBoot !== false) {
      // skip CircuitPython's 1 s safe-mode window at power-up (saves ~1 emulated s per boot)
      const own = opts.drive && opts.drive['settings.toml'];
      let text = !own ? '' : typeof own === 'string' ? own : utf8(own);
      if (!/^\s*CIRCUITPY_SAFE_MODE_DELAY\s*=/m.test(text)) {
        if (text && !text.endsWith('\n')) text += '\n';
        text += 'CIRCUITPY_SAFE_MODE_DELAY = 0.0\n';
      }
      extra['settings.toml'] = text;
      // CircuitPython waits 1 s before it (re)writes boot_out.txt, so the first power-up of a
      // fresh drive takes 1.2 emulated s instead of 0.2 s. Start from the file a board that has
      // booted this firmware before would have (if boot.py prints something, it is rewritten).
      const has = (name) => Boolean(opts.drive && name in opts.drive);
      if (!has('boot_out.txt')) {
        let out = predictBootOut(this.flash, this.firmware.end, this.boardId, opts.uniqueId || FLASH_UNIQUE_ID, has('boot.py'));
        const bootPy = has('boot.py') ? opts.drive['boot.py'] : '';
        if (out && /settings_check\.report\(\)/.test(typeof bootPy === 'string' ? bootPy : utf8(bootPy))) {
          // Jarmo's boot.py names settings.toml by its size and time (every file here is
          // stamped 2024-01-01 12:00), then what is wrong in it: a sound file is predicted
          // (hardware/settings_check.py's report)
          out += `jarmo settings.toml ${utf8Bytes(text).length} ${FAT_STAMP_S}\r\n`;
        }
        if (out) extra['boot_out.txt'] = out;
      }
    }
    this.fat = buildFat12(opts.drive, { extra, size: CIRCUITPY_IMAGE_SIZE });
    this.flash.set(this.fat.image, CIRCUITPY_OFFSET);
    // what an earlier program left in microcontroller.nvm: 4 KiB (stock) or 8 KiB (Jarmo's
    // firmware), ending where CIRCUITPY starts
    // (an image of up to 4 KiB fills the last sector from its start; a longer one, two sectors)
    if (opts.nvm) this.flash.set(opts.nvm.subarray(0, 8192), NVM_OFFSET + 4096 - (opts.nvm.length > 4096 ? 8192 : 4096));
    this.wear = {}; // flash sector number -> erases, over all power cycles
    this.torn = { program: 0, erase: 0 }; // flash operations a power cut left half done
    this.randomState = (opts.seed || 1) >>> 0 || 1;
    this.neopixelPins = (opts.neopixelPins || []).map((p) => this.pin(p));
    this.i2cPins = opts.i2cPins ? opts.i2cPins.map((pair) => pair.map((p) => this.pin(p))) : null;
    this.external = new Array(30).fill(null); // external pin drives, kept across power cycles
    this.machine = null;
    this.boots = 0;
    this.pastNs = 0; // emulated ns of earlier power cycles
    this.pastIdleNs = 0; // of which the core waited for an interrupt
    this.pastCycles = 0; // clk_sys cycles of earlier power cycles
    this.baseNs = 0; // session ns when the current console run started
    this.ready = false;
    this.pending = []; // events before "ready" of this boot (their t is known only then)
    this.earlyText = '';
    this.frames = 0;
    this.lineHandler = null; // (text) => void, set while waiting for a console line
  }

  /** GPIO number of a pin name/number on this board. */
  pin(name) {
    return pinNumber(name, this.boardId);
  }

  get now() {
    return this.pastNs + (this.machine ? this.machine.clock.nanos : 0);
  }

  t(sessionNs) {
    return round3((sessionNs - this.baseNs) / MS);
  }

  /** Emits an event stamped at session time `ns` (queued until the boot's "ready"). */
  stamped(ns, event) {
    if (this.ready) this.emit(withT(event, this.t(ns)));
    else this.pending.push([ns, event]);
  }

  /** What is on the USB cable for a boot: `usb`, or the session's, or a console. */
  usbMode(usb) {
    const mode = usb || this.opts.usb || 'console';
    if (!['console', 'host', 'none'].includes(mode)) throw new Error(`usb must be "console", "host" or "none", not ${JSON.stringify(mode)}`);
    return mode;
  }

  /**
   * The power goes: a flash program or erase in progress is left half done (returns which, or
   * null), the machine's time is added up, its flash kept; `restore` ({offset, bytes}) then goes
   * into the flash before the next power-on: what an earlier cut left (readFlash(..., cut)), so
   * that one run of the firmware can be cut at many instants.
   */
  powerOff(restore) {
    let torn = null;
    if (this.machine) {
      torn = this.machine.flashChip.tearIfBusy(() => this.random());
      if (torn) this.torn[torn]++;
      this.pastNs += this.machine.clock.nanos;
      this.pastIdleNs += this.machine.idleNs;
      this.pastCycles += this.machine.cycles();
      this.flash = this.machine.mcu.flash; // keep what the firmware wrote
      this.machine = null;
    }
    if (restore) this.flash.set(restore.bytes, restore.offset);
    return torn;
  }

  /**
   * Powers the board on (again). `usb` says what is on the USB cable:
   * - "console" (default, or opts.usb): a host that opens the console: runs until code.py runs
   *   with the console attached (Ctrl-C, Ctrl-D, a soft reboot: usb.mjs), `t` counts from then;
   * - "host": a host that enumerates the board (charging from a PC) but opens no console;
   * - "none": no host at all (a battery-powered handheld): no console output.
   * For "host" and "none" the board has not run yet when this returns: `t` counts from power-on.
   */
  async boot(reason = 'power-on', usb = null, restore = null) {
    const mode = this.usbMode(usb);
    const torn = this.powerOff(restore);
    this.boots++;
    this.ready = false;
    this.pending = [];
    this.earlyText = '';
    this.earlyLine = '';
    const wall0 = performance.now();
    const start = this.now;
    this.bootPast = this.pastNs; // (the hooks read it: a warm boot's machine keeps the hooks it was made with)
    // opts.oled: the OLED FeatherWing's panel, powered with the board (its RAM lost at a power
    // cut): each I2C burst's event says how many of its pixels are lit once the burst is done
    const oled = this.opts.oled ? new Sh1107() : null;
    const onTransaction = this.opts.onI2cTransaction;
    const hooks = {
      onReady: (ns) => {
        if (mode !== 'console') return; // t counts from power-on
        this.baseNs = this.bootPast + ns;
        this.ready = true;
        for (const [at, ev] of this.pending) this.emit(withT(ev, this.t(at)));
        this.pending = [];
        this.machine.stop();
      },
      onLine: (text, ns) => {
        this.stamped(this.bootPast + ns, { ev: 'console', line: text });
        if (this.lineHandler) this.lineHandler(text);
      },
      onEarly: (text) => {
        this.earlyText = (this.earlyText + text).slice(-4000);
        if (!this.opts.verbose) return;
        // --verbose: the console before the attach, a line at a time
        this.earlyLine += text;
        const lines = this.earlyLine.split('\n');
        this.earlyLine = lines.pop();
        for (const line of lines) this.emit({ ev: 'log', text: line + '\n' });
      },
      onFrame: (pin, ns, bytes) => {
        this.frames++;
        this.stamped(this.bootPast + ns, { ev: 'frame', pin, grb: hex(bytes) });
      },
      onI2cBurst: (b) => {
        const addresses = b.addresses.map((a) => '0x' + a.toString(16).padStart(2, '0'));
        const ev = { ev: 'i2c', ms: round3(b.ms), transactions: b.transactions, bytes: b.bytes, addresses };
        if (oled) {
          ev.oled_on = oled.on;
          ev.oled_lit = oled.picture().reduce((n, px) => n + px, 0);
        }
        this.stamped(this.bootPast + b.t, ev);
      },
      onI2cTransaction:
        oled || onTransaction
          ? (tx) => {
              if (oled) oled.transaction(tx);
              if (onTransaction) onTransaction({ ...tx, t: this.t(this.bootPast + tx.t) });
            }
          : null,
    };
    this.hooks = hooks;
    this.machine = new Machine({
      flash: this.flash,
      bootrom: this.opts.bootrom,
      boardId: this.boardId,
      clockHz: this.opts.clockHz || 125e6,
      external: this.external,
      neopixelPins: this.neopixelPins,
      i2cAck: this.opts.i2cAck || [],
      i2cPins: this.i2cPins,
      attach: mode === 'console' ? this.opts.attach !== false : false,
      usbHost: mode !== 'none',
      flashTiming: this.opts.flashTiming,
      uniqueId: this.opts.uniqueId || null,
      wear: this.wear,
      hooks,
    });
    // bootUntil(): nvm's sectors watched from power-on, to know whether the boot read them
    const watch = this.machine.core.flashReadWatch;
    if (watch) {
      watch.lo = this.armWatch ? NVM_WINDOW[0] : 0;
      watch.hi = this.armWatch ? NVM_WINDOW[1] : 0;
      watch.seen = false;
    }
    if (mode !== 'console') {
      this.baseNs = start;
      this.ready = true;
      return { ev: 'ready', t: 0, boot: this.boots, reason, board: this.boardId, torn, usb: mode, boot_ms: 0, usb_ms: null, boot_wall_s: 0 };
    }
    const limit = start + (this.opts.bootTimeoutMs || 10000) * MS;
    const stoppedFor = await this.execute(limit, () => this.ready);
    if (!this.ready) {
      const tail = this.earlyText.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '').slice(-1500);
      throw new EmulatorError(
        `boot ${this.boots}: code.py did not start with the console attached within ` +
          `${this.opts.bootTimeoutMs || 10000} emulated ms (${stoppedFor}). Console output so far:\n${tail}`,
      );
    }
    return {
      ev: 'ready',
      t: 0,
      boot: this.boots,
      reason,
      board: this.boardId,
      torn,
      boot_ms: round3((this.baseNs - start) / MS),
      usb_ms: round3(this.machine.console.connectedAt / MS),
      boot_wall_s: round3((performance.now() - wall0) / 1000),
    };
  }

  /**
   * Powers on (boot) and runs until a console line matches `regex` (runUntil): {ready, line}.
   * The same as boot() then runUntil(), and as fast as one can be where many boots are alike
   * (the power cut tests: hundreds of boots from the same firmware and drive, each with another
   * nvm). The first such boot records the board's state at the line, its "warm" snapshot
   * (snapshot.mjs), if up to there the board read no byte of nvm's sectors and wrote no flash.
   * A later boot that would start the same way (the same flash outside nvm's sectors, the same
   * pins driven, the same line, USB console) starts from that state: the boot up to the line
   * depends on nothing that differs, so its events, cycles and times are those of a cold boot
   * (test_harness.py and the power cut tests compare them). `cold`, or opts.coldBoots
   * (emulator.mjs --cold-boots, JARMO_COLD_BOOTS=1): a boot from power-on, which records nothing.
   */
  async bootUntil(reason, usb, restore, regex, timeoutMs, cold = false) {
    const mode = this.usbMode(usb);
    const torn = this.powerOff(restore);
    const key = { mode, regex: String(regex), external: this.external.join() };
    cold = cold || this.opts.coldBoots;
    if (!cold && this.warm && this.warmFits(this.warm, key, timeoutMs)) return this.warmBoot(this.warm, reason, torn);
    const watchable = !cold && mode === 'console' && !this.opts.oled && !this.opts.onI2cTransaction;
    const events = [];
    const emit = this.emit;
    if (watchable) this.emit = (ev) => (events.push(ev), emit(ev));
    try {
      const frames0 = this.frames;
      this.armWatch = watchable;
      const ready = await this.boot(reason, usb, null);
      ready.torn = torn;
      const machine = this.machine;
      const line = await this.runUntil(regex, timeoutMs);
      const watch = machine.core.flashReadWatch;
      const chip = machine.flashChip.stats;
      const unread = Boolean(watch) && !watch.seen;
      if (watch) watch.hi = 0; // (reads of nvm from here on are the firmware's business)
      if (watchable && line !== null && this.machine === machine && machine.i2c === null && unread &&
          chip.programs === 0 && chip.erases === 0) {
        this.warm = {
          key,
          state: take(machine, new Set([this.hooks, this.wear, machine.mcu.flash.buffer])),
          machine,
          hooks: this.hooks,
          powerOnFlash: machine.mcu.flash.slice(), // (no flash written yet: as it was at power-on)
          ready,
          line,
          events,
          frames: this.frames - frames0,
          earlyText: this.earlyText,
          earlyLine: this.earlyLine,
          readyNs: this.baseNs - this.bootPast,
          untilMs: (machine.clock.nanos - (this.baseNs - this.bootPast)) / MS,
        };
      }
      return { ready, line };
    } finally {
      this.armWatch = false;
      this.emit = emit;
    }
  }

  /** Whether `warm` starts the boot that `key` and this session's flash describe. */
  warmFits(warm, key, timeoutMs) {
    if (warm.key.mode !== key.mode || warm.key.regex !== key.regex || warm.key.external !== key.external) return false;
    if (warm.untilMs > timeoutMs) return false;
    const [lo, hi] = NVM_WINDOW;
    const a = this.flash;
    const b = warm.powerOnFlash;
    return a.length === b.length && sameBytes(a, b, 0, lo) && sameBytes(a, b, hi, a.length);
  }

  /** The boot `warm` recorded, from its state at the line: boot()'s and runUntil()'s effects. */
  warmBoot(warm, reason, torn) {
    const wall0 = performance.now();
    const machine = warm.machine;
    restore(warm.state);
    if (machine.mcu.flash !== this.flash) machine.mcu.flash.set(this.flash); // (else it holds it already)
    this.machine = machine;
    this.hooks = warm.hooks;
    this.boots++;
    this.bootPast = this.pastNs;
    this.pending = [];
    this.earlyText = warm.earlyText;
    this.earlyLine = warm.earlyLine;
    this.baseNs = this.pastNs + warm.readyNs;
    this.ready = true;
    this.frames += warm.frames;
    for (const ev of warm.events) this.emit({ ...ev });
    const ready = { ...warm.ready, boot: this.boots, reason, torn, boot_wall_s: round3((performance.now() - wall0) / 1000), warm: true };
    return { ready, line: warm.line };
  }

  /**
   * Runs the machine until session time `limitNs` or until done() is true. Reboots the board if the
   * firmware resets itself (watchdog, microcontroller.reset()). Returns 'limit' or 'done'.
   */
  async execute(limitNs, done) {
    for (;;) {
      const m = this.machine;
      // the limit on this machine's clock, compared on that clock: pastNs + nanos can round
      // to just under limitNs (fractional ns: a run of 0.37 ms), and the loop never ended
      const local = limitNs - this.pastNs;
      const finished = m.run(local);
      if (m.rebootReason) {
        this.emit({ ev: 'reboot', t: this.t(this.now), reason: m.rebootReason });
        const ready = await this.boot(m.rebootReason);
        this.emit(ready);
        continue;
      }
      if (done()) return 'done';
      if (finished && m.clock.nanos >= local) return 'limit';
      if (this.opts.wallDeadline && performance.now() > this.opts.wallDeadline) throw new WallTimeout();
      await yieldNow(); // let stdin/stdout/signals (or the page's messages) through
    }
  }

  /** Advances `ms` emulated milliseconds. */
  async runFor(ms) {
    await this.execute(this.now + ms * MS, () => false);
    return this.t(this.now);
  }

  /** Runs until a new console line matches `regex` (returns it) or `timeoutMs` pass (returns null). */
  async runUntil(regex, timeoutMs) {
    let matched = null;
    this.lineHandler = (text) => {
      if (matched === null && regex.test(text)) {
        matched = text;
        this.machine.stop();
      }
    };
    try {
      await this.execute(this.now + timeoutMs * MS, () => matched !== null);
    } finally {
      this.lineHandler = null;
    }
    return matched;
  }

  /**
   * Runs until the flash chip starts a `kind` operation ("program" or "erase") at an address in
   * [from, to) (returns {kind, address}), or `timeoutMs` pass (returns null). The chip is then busy
   * with it: a reset soon after cuts the power in the middle of it.
   */
  async runUntilFlash(kind, from, to, timeoutMs) {
    let seen = null;
    const chip = this.machine.flashChip;
    chip.onOperation = (k, address) => {
      if (seen === null && k === kind && address >= from && address < to) {
        seen = { kind: k, address };
        this.machine.stop();
      }
    };
    try {
      await this.execute(this.now + timeoutMs * MS, () => seen !== null);
    } finally {
      chip.onOperation = null;
    }
    return seen;
  }

  /** Reports what is still pending: an I2C burst not yet ended by bus silence, a NeoPixel frame
   * not yet latched (used before exiting). */
  flush() {
    if (!this.machine) return;
    if (this.machine.i2c) this.machine.i2c.endBurst();
    for (const decoder of this.machine.neopixels) decoder.flush();
  }

  /** Drives a pin from outside now: 0, 1 or null (released). Kept across power cycles. */
  setPin(name, level) {
    const pin = this.pin(name);
    this.external[pin] = level;
    if (this.machine) this.machine.pads.drive(pin, level);
    return pin;
  }

  /** Sends text to the console (like typing it). */
  input(text) {
    if (!this.machine.console) throw new Error('no console: the board has no USB host (usb "none")');
    this.machine.console.send(utf8Bytes(text));
  }

  /** A byte 0..255 from a seeded xorshift (torn flash operations), the same on every run. */
  random() {
    let x = this.randomState;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.randomState = x >>> 0;
    return this.randomState & 0xff;
  }

  /**
   * The flash's bytes as a power cut now would leave them ({bytes, torn}; a flash operation in
   * progress torn on a copy, from the same random bits a cut takes): the board runs on.
   */
  cutFlash(offset, length) {
    if (!this.machine) return { bytes: this.flash.slice(offset, offset + length), torn: null };
    const cut = this.machine.flashChip.cutCopy(() => this.random(), offset, length);
    if (cut.torn) this.torn[cut.torn]++;
    return cut;
  }

  /** Bytes of the flash now (offset from the start of the flash), a copy. */
  readFlash(offset, length) {
    const flash = this.machine ? this.machine.mcu.flash : this.flash;
    return flash.slice(offset, offset + length);
  }

  /** Puts bytes into the flash now, as if written long ago (the board is frozen between commands). */
  writeFlash(offset, bytes) {
    const flash = this.machine ? this.machine.mcu.flash : this.flash;
    flash.set(bytes, offset);
  }

  /** The CIRCUITPY FAT image as the firmware left it (1 MiB from flash offset 0x100000). */
  fsImage() {
    const flash = this.machine ? this.machine.mcu.flash : this.flash;
    return flash.slice(CIRCUITPY_OFFSET, CIRCUITPY_OFFSET + CIRCUITPY_IMAGE_SIZE);
  }

  stats() {
    const wallS = (performance.now() - this.wallStart) / 1000;
    const emulatedS = this.now / 1e9;
    const chip = this.machine ? { ...this.machine.flashChip.stats } : null;
    if (chip) {
      chip.busyMs = round3(chip.busyMs);
      // when this power cycle's last erase began (console-run time, like every `t`)
      if (chip.lastEraseNs !== undefined) chip.last_erase_t = this.t(this.pastNs + chip.lastEraseNs);
      delete chip.lastEraseNs;
    }
    // I2C totals of this power cycle: per ACKed address, and all other addresses together
    const i2c = {};
    if (this.machine && this.machine.i2c) {
      for (const [a, v] of this.machine.i2c.totals) {
        const key = this.machine.i2c.acked.has(a) ? '0x' + a.toString(16).padStart(2, '0') : 'nacked';
        const sum = i2c[key] || (i2c[key] = { transactions: 0, bytes: 0 });
        sum.transactions += v.transactions;
        sum.bytes += v.bytes;
      }
    }
    const cpuS = this.cpuStart === null ? null : cpuSeconds() - this.cpuStart;
    const idleNs = this.pastIdleNs + (this.machine ? this.machine.idleNs : 0);
    return {
      t: this.t(this.now),
      boots: this.boots,
      emulated_s: round3(emulatedS),
      idle_s: round3(idleNs / 1e9), // of which the core waited for an interrupt (WFI: sleeping)
      wall_s: round3(wallS),
      cpu_s: cpuS === null ? null : round3(cpuS), // null where the host cannot tell (a browser)
      speed: round3(emulatedS / wallS), // emulated / wall seconds (lower when the machine is busy)
      cpu_speed: cpuS === null ? null : round3(emulatedS / cpuS), // emulated / CPU seconds of this process
      cycles: Math.round(this.pastCycles + (this.machine ? this.machine.cycles() : 0)),
      clock_hz: this.machine ? this.machine.clockHz : null, // clk_sys now (microcontroller.cpu.frequency)
      decoder: this.machine ? (this.machine.fastCore ? 'fastcore' : 'rp2040js') : null, // the CPU's (fastcore.mjs)
      frames: this.frames,
      flash: chip, // of the current power cycle
      wear: { ...this.wear }, // erases per 4 KiB sector number, all power cycles
      torn: { ...this.torn },
      i2c,
    };
  }
}

export class EmulatorError extends Error {}
export class WallTimeout extends Error {
  constructor() {
    super('wall-clock timeout');
  }
}

/** The event with its time right after "ev" (easier to read). */
function withT({ ev, ...rest }, t) {
  return { ev, t, ...rest };
}

function round3(x) {
  return Math.round(x * 1000) / 1000;
}

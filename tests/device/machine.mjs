// One emulated board from power-on: rp2040js's RP2040 plus the models that CircuitPython needs.
//
// A Machine is built from a flash image (firmware + CIRCUITPY + whatever the firmware wrote) and
// lives until the next power cycle; Session (session.mjs) keeps the flash between Machines.

import { coreParts, rp2040js } from './rp2040js.mjs';
import { speedUp } from './fastcore.mjs';
import { BOARDS } from './firmware.mjs';
import { installFlash, TYPICAL_TIMING } from './flash.mjs';
import { Pads } from './pads.mjs';
import { PioClock } from './pio.mjs';
import { NeoPixelDecoder } from './neopixel.mjs';
import { I2cTarget } from './i2c.mjs';
import { UsbConsole } from './usb.mjs';

const { Simulator, ConsoleLogger, LogLevel, BasePeripheral } = rp2040js;

/**
 * VREG_AND_CHIP_RESET's registers, kept as written (rp2040js reads them as 0xffffffff): the
 * pico-sdk's vreg_get_voltage() then reads the regulator's 1.10 V at power-on, as on a board.
 */
class VregRegisters extends BasePeripheral {
  constructor(rp2040) {
    super(rp2040, 'VREG_AND_CHIP_RESET_BASE');
    this.regs = [0xb1, 0x91, 0]; // VREG (enabled, 1.10 V), BOD, CHIP_RESET: their reset values
  }

  readUint32(offset) {
    return offset < 12 ? this.regs[offset >> 2] : 0;
  }

  writeUint32(offset, value) {
    if (offset < 8) this.regs[offset >> 2] = value >>> 0;
  }
}

// The pico-sdk's busy_wait_us() loop (hardware_timer: TIMERAWH checked, TIMERAWL compared with
// the target's low word in r4, the timer's base in r2), as compiled in CircuitPython 10.3, stock
// and Jarmo's: `ldr r1,[r2,#36]; cmp r1,r3; bne out; ldr r1,[r2,#40]; cmp r1,r4; bcc loop`.
const SPIN_LOOP = [0x51, 0x6a, 0x99, 0x42, 0x02, 0xd1, 0x91, 0x6a, 0xa1, 0x42, 0xf9, 0xd3];
const TIMER_BASE = 0x40054000;

/** The address of that loop's TIMERAWL read in a flash image (firmware at its start), or -1. */
export function findSpinLoop(flash, limit = 0x200000) {
  const end = Math.min(flash.length, limit) - SPIN_LOOP.length;
  for (let i = flash.indexOf(SPIN_LOOP[0]); i >= 0 && i < end; i = flash.indexOf(SPIN_LOOP[0], i + 1)) {
    let k = 1;
    while (k < SPIN_LOOP.length && flash[i + k] === SPIN_LOOP[k]) k++;
    if (k === SPIN_LOOP.length) return 0x10000000 + i + 6;
  }
  return -1;
}

export class Machine {
  /**
   * @param {object} o
   * @param {Uint8Array} o.flash flash contents to start from (copied in)
   * @param {Uint32Array} o.bootrom the RP2040 bootrom (firmware.mjs decodeBootrom)
   * @param {string|null} o.boardId
   * @param {number} o.clockHz emulated clock at power-on (125 MHz, as CircuitPython sets it); it
   *   follows clk_sys after that (microcontroller.cpu.frequency), so an instruction, a PIO cycle
   *   and an I2C bit take as long as on a board at that clock
   * @param {(number|null)[]} o.external external pin drives to start with (kept across power cycles)
   * @param {number[]} o.neopixelPins GPIOs to decode WS2812 frames on
   * @param {number[]} o.i2cAck I2C addresses to ACK ([] = no I2C target, no bus pull-ups)
   * @param {number[][]} o.i2cPins [SDA, SCL] pairs (default: the board's I2C buses)
   * @param {boolean} o.attach re-run code.py with the console attached (Ctrl-C, Ctrl-D)
   * @param {boolean} o.usbHost false: no USB host on the cable (a battery-powered board): the
   *   device's USB never enumerates, there is no console
   * @param {boolean} o.flashTiming false: flash program/erase take no emulated time
   * @param {object} o.hooks onReady(ns), onLine(text, ns), onEarly(text), onFrame(pin, ns, bytes, info),
   *   onI2cBurst(burst), onI2cTransaction(tx)
   */
  constructor(o) {
    const board = BOARDS[o.boardId] || null;
    this.cycleNs = 1e9 / o.clockHz;
    this.simulator = new Simulator();
    const mcu = (this.mcu = this.simulator.rp2040);
    const clock = (this.clock = this.simulator.clock);
    this.clockHz = o.clockHz;
    this.cyclesBefore = 0; // cycles of clk_sys before the last clock change
    this.clockSince = 0; // emulated ns of the last clock change
    mcu.addClockListener((hz) => this.setClock(hz));
    this.core = mcu.core;
    this.fastCore = speedUp(this.core, coreParts);
    mcu.logger = new ConsoleLogger(LogLevel.Error);
    mcu.peripherals[0x40064] = new VregRegisters(mcu);
    mcu.loadBootrom(o.bootrom); // (also fills the flash with 0xff)
    mcu.flash.set(o.flash);
    this.spinPc = findSpinLoop(o.flash); // busy_wait_us()'s loop: skipped to its end (skipSpin)

    // Flash chip behind the SSI: program/erase persist; RDID answers the board's chip so
    // CircuitPython sizes CIRCUITPY as on the real board (unknown boards: 2 MiB Winbond).
    const flashBytes = (board ? board.flashMiB : 2) * 1024 * 1024;
    const timing = o.flashTiming === false ? null : { ...TYPICAL_TIMING, now: () => clock.nanos };
    this.flashChip = installFlash(mcu, { sizeBytes: flashBytes, jedec: board ? board.jedec : [0xef, 0x40, 0x15], timing,
      wear: o.wear || null, uniqueId: o.uniqueId || null });
    if (globalThis.process?.env?.JARMO_FLASH_TRACE) {
      // every flash command (after CS rises), for debugging the flash model
      this.flashChip.trace = (text) => process.stderr.write(`[flash] ${(clock.nanos / 1e6).toFixed(3)} ms ${text}\n`);
    }

    // BOOTSEL: the button pulls QSPI_SS low when pressed; CircuitPython floats SS and reads it
    // through SIO GPIO_HI_IN at start-up. rp2040js reads 0 there (pressed: CircuitPython waits for
    // its release forever). The board's pull-up makes it read 1.
    Object.defineProperty(mcu.qspi[1], 'inputValue', { get: () => true });

    this.pads = new Pads(mcu, clock);
    o.external.forEach((level, pin) => level !== null && this.pads.drive(pin, level));
    this.pio = new PioClock(mcu, clock, this.pads, this.cycleNs);
    this.neopixels = o.neopixelPins.map(
      (pin) => new NeoPixelDecoder(this.pads, clock, pin, (ns, bytes, info) => o.hooks.onFrame(pin, ns, bytes, info)),
    );
    this.i2c = null;
    if (o.i2cAck.length) {
      this.i2c = new I2cTarget({
        mcu,
        clock,
        pads: this.pads,
        cycleNs: this.cycleNs,
        addresses: o.i2cAck,
        busPins: o.i2cPins || (board ? board.i2c : []),
        onBurst: o.hooks.onI2cBurst,
        onTransaction: o.hooks.onI2cTransaction,
      });
    }
    this.console = o.usbHost === false ? null : new UsbConsole(mcu, clock, { attach: o.attach, hooks: o.hooks });
    // UART0 too, in case a build puts its console there
    mcu.uart[0].onByte = (b) => o.hooks.onEarly(String.fromCharCode(b));

    // microcontroller.reset() and watchdog time-outs: the Session power-cycles the board.
    this.rebootReason = null;
    mcu.peripherals[0x40058].onWatchdogTrigger = () => {
      this.rebootReason = 'watchdog';
      this.stopped = true;
    };

    // Start at boot2 (flash offset 0), as the bootrom does once it has checked BOOTSEL and
    // loaded boot2 (the rp2040js demo does the same: rp2040js cannot run the bootrom's own
    // start-up). The SSI starts as the bootrom leaves it (see Ssi).
    this.core.PC = 0x10000000;
    this.stopped = false;
    this.idleNs = 0; // emulated time the core spent waiting for an interrupt (WFI), skipped
  }

  /** clk_sys changed (the firmware set its PLL): the CPU's, the PIO's and the I2C's cycles follow. */
  setClock(hz) {
    this.cyclesBefore = this.cycles();
    this.clockSince = this.clock.nanos;
    this.clockHz = hz;
    this.cycleNs = 1e9 / hz;
    this.pio.cycleNs = this.cycleNs;
    if (this.i2c) this.i2c.cycleNs = this.cycleNs;
  }

  /** clk_sys cycles since power-on (at whatever clock each part ran). */
  cycles() {
    return this.cyclesBefore + (this.clock.nanos - this.clockSince) / this.cycleNs;
  }

  /**
   * At busy_wait_us()'s loop: the clock goes to a microsecond before its end, or to the next
   * alarm if one comes first (an interrupt is then taken when it would be), as if the loop had
   * spun meanwhile; the loop itself reads the last microsecond. The pico-sdk's 200 ms double-tap
   * wait at every start of stock CircuitPython costs 25 million emulated instructions otherwise.
   */
  skipSpin(limitNs) {
    const regs = this.core.registers;
    const clock = this.clock;
    if (regs[2] !== TIMER_BASE) return;
    const endNs = (regs[3] * 2 ** 32 + regs[4]) * 1000; // TIMERAWH now : the target's low word
    let dt = Math.min(endNs - 1000 - clock.nanos, limitNs - clock.nanos);
    if (clock.nextAlarm) dt = Math.min(dt, clock.nanosToNextAlarm);
    if (dt > 0) clock.tick(dt); // (not idleNs: the CPU spins, busy, on a board)
  }

  /** Stops run() at the end of the current instruction (from an event hook). */
  stop() {
    this.stopped = true;
  }

  /**
   * Executes until the emulated clock reaches `limitNs` or stop() is called (returns true), or
   * until about `wallMs` of real time has passed (returns false: call again to continue).
   * Idle time (WFI with no PIO running) is skipped to the next timer alarm; idleNs adds it up.
   */
  run(limitNs, wallMs = 50) {
    const { core, clock, pio, spinPc } = this;
    const regs = core.registers;
    const wallEnd = performance.now() + wallMs;
    this.stopped = false;
    for (;;) {
      for (let i = 0; i < 50000; i++) {
        if (this.stopped || clock.nanos >= limitNs) return true;
        if (core.waiting && core.pendingInterrupts & core.enabledInterrupts && core.checkForInterrupts()) {
          // A WFI with an interrupt already pending does not sleep on a Cortex-M0+ (one raised
          // while PRIMASK held it off, just before the WFI: CircuitPython's time.sleep idles
          // so). rp2040js waits for the next interrupt instead, which may never come.
          core.waiting = false;
        }
        if (core.waiting) {
          let dt;
          if (pio.running) dt = Math.min(clock.nextAlarm ? Math.max(clock.nanosToNextAlarm, 0) : 1000, 1000);
          else dt = clock.nextAlarm ? Math.max(clock.nanosToNextAlarm, 0) : limitNs - clock.nanos;
          dt = Math.min(dt, limitNs - clock.nanos);
          this.idleNs += dt;
          clock.tick(dt);
        } else {
          if (regs[15] === spinPc && !pio.running) this.skipSpin(limitNs);
          if (this.fastCore && !pio.running) {
            // fastcore's loop: instructions until one leaves this loop something to do
            i += core.executeUntil(clock, limitNs, this, 50000 - i) - 1;
          } else {
            clock.tick(core.executeInstruction() * this.cycleNs); // (an instruction may change it)
          }
        }
        if (pio.running) pio.advance(clock.nanos);
      }
      if (performance.now() >= wallEnd) return false;
    }
  }
}

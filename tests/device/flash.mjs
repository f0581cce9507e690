// The QSPI flash chip behind the RP2040's SSI, so that flash program/erase really change flash.
//
// rp2040js maps the XIP window straight onto `mcu.flash` (reads of 0x10000000.. never reach the
// SSI), which is fine for execution. But its SSI model ignores everything sent through the SSI
// FIFO, and IO_QSPI (0x40018000) is unimplemented (reads 0xffffffff). The bootrom's flash
// routines read IO_QSPI SD1_CTRL to learn whether the operation was "aborted": with 0xffffffff
// every erase/program loop stops at once, so everything CircuitPython saved was silently lost.
//
// Here:
//  - IoQspi replaces IO_QSPI with real registers; GPIO_QSPI_SS_CTRL's OUTOVER field is the chip
//    select that the bootrom and pico-sdk force while they talk to the flash.
//  - Ssi replaces the SSI with FIFOs: each frame written to DR0 is clocked through the flash chip
//    at once (TX FIFO always empty, never busy), the chip's answer goes to the RX FIFO (16 deep).
//    With CS not forced (boot2 uses the SSI's own chip select), a frame sequence ends when
//    software polls SR, or reconfigures the SSI.
//  - SpiFlash is a NOR flash chip on `mcu.flash`: Write Enable, status registers, JEDEC id,
//    unique id, SFDP (absent), Read 0x03 / Fast Read 0x0B, Page Program 0x02 (ANDs into the
//    array, wraps in the 256-byte page), Sector Erase 0x20 (4 KiB), Block Erase 0x52 (32 KiB) and
//    0xD8 (64 KiB), Chip Erase 0x60/0xC7. Program/erase need Write Enable first and take effect
//    when CS rises, like the real part; then the chip is busy (status bit 0, other commands
//    ignored) for the datasheet's typical time, in emulated time: software that polls the status
//    register waits as long as on the board. Everything else is accepted and ignored.

import { rp2040js } from './rp2040js.mjs';

const { BasePeripheral } = rp2040js;

/** The flash's 64-bit unique id (command 0x4b); CircuitPython shows it as microcontroller.cpu.uid / "UID:". */
export const FLASH_UNIQUE_ID = [0xe6, 0x60, 0x38, 0xb7, 0x13, 0x4f, 0x2a, 0x2d];

/** Typical program/erase times (ns) of the Winbond W25Q16JV/W25Q64JV datasheets. */
export const TYPICAL_TIMING = { program: 0.4e6, erase4k: 45e6, erase32k: 120e6, erase64k: 150e6, chip: 5e9 };

export class SpiFlash {
  /**
   * @param {Uint8Array} array the flash contents (rp2040js's mcu.flash, read by the XIP window)
   * @param {number} size chip size in bytes (addresses wrap at it)
   * @param {number[]} jedec 3-byte JEDEC id (manufacturer, type, log2 capacity)
   * @param {object} [timing] busy times in ns ({program, erase4k, erase32k, erase64k, chip}) and
   *   now() giving the emulated ns; without it program/erase are instant
   */
  constructor(array, size, jedec, timing = null) {
    this.array = array;
    this.size = size;
    this.jedec = jedec;
    this.timing = timing;
    this.busyUntil = 0;
    this.uniqueId = FLASH_UNIQUE_ID;
    this.selected = false;
    this.wel = false; // write enable latch
    this.sr2 = 0x02; // status register 2: QE (quad enable) set, as boot2 leaves it
    this.stats = { programs: 0, programmedBytes: 0, erases: 0, erasedBytes: 0, busyMs: 0 };
    this.wear = null; // optional {sector number: erases}, kept by the session across power cycles
    this.inFlight = null; // the last program or erase, to tear it if the power goes while busy
    this.onOperation = null; // optional function(kind, address) at every program or erase
    this.trace = null; // optional function(text) for debugging
  }

  select() {
    if (this.selected) return;
    this.selected = true;
    this.ignored = false;
    this.cmd = -1;
    this.pos = 0; // bytes after the command byte
    this.addr = 0;
    this.bytesIn = [];
  }

  get busy() {
    return this.timing !== null && this.timing.now() < this.busyUntil;
  }

  /** The chip is busy for `ns` from now (an erase or program in progress). */
  startBusy(ns) {
    if (!this.timing) return;
    this.busyUntil = this.timing.now() + ns;
    this.stats.busyMs += ns / 1e6;
  }

  deselect() {
    if (!this.selected) return;
    this.selected = false;
    const { cmd } = this;
    if (this.trace && cmd >= 0) this.trace(`cmd ${hex(cmd)} addr ${hex(this.addr, 6)} bytes ${this.pos}`);
    if (this.ignored) return;
    const erase = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 }[cmd];
    if (erase && this.pos >= 3) {
      if (this.wel) this.erase((this.addr & ~(erase - 1)) % this.size, erase);
      this.wel = false;
    } else if ((cmd === 0x60 || cmd === 0xc7) && this.wel) {
      this.erase(0, this.size);
      this.wel = false;
    } else if (cmd === 0x02) {
      if (this.wel && this.pos > 3) this.program(this.addr, this.bytesIn);
      this.wel = false;
    } else if (cmd === 0x01 || cmd === 0x31) {
      if (cmd === 0x31 && this.bytesIn.length >= 1) this.sr2 = this.bytesIn[0];
      if (cmd === 0x01 && this.bytesIn.length >= 2) this.sr2 = this.bytesIn[1];
      this.wel = false;
    }
  }

  /** One byte out of the controller (MOSI) -> the byte the chip returns (MISO). */
  transfer(out) {
    if (!this.selected) return 0xff;
    if (this.cmd < 0) {
      this.cmd = out;
      // while busy, a real chip only answers the status register reads
      this.ignored = this.busy && out !== 0x05 && out !== 0x35 && out !== 0x15;
      if (this.ignored) return 0xff;
      if (out === 0x06) this.wel = true;
      else if (out === 0x04) this.wel = false;
      return 0xff;
    }
    const n = this.pos++;
    if (this.ignored) return 0xff;
    switch (this.cmd) {
      case 0x05: // read status register 1: BUSY in bit 0, WEL in bit 1
        return (this.wel ? 0x02 : 0x00) | (this.busy ? 0x01 : 0x00);
      case 0x35: // read status register 2
        return this.sr2;
      case 0x15: // read status register 3
        return 0x00;
      case 0x9f: // JEDEC id
        return n < 3 ? this.jedec[n] : 0x00;
      case 0x4b: // unique id: 4 dummy bytes, then 8 id bytes
        return n >= 4 && n < 12 ? this.uniqueId[n - 4] : 0x00;
      case 0x5a: // SFDP: not present (the bootrom then falls back to the JEDEC id)
        return 0xff;
      case 0x03: // read data: 3 address bytes, then data
      case 0x0b: // fast read: 3 address bytes, 1 dummy byte, then data
        if (n < 3) {
          this.addr = ((this.addr << 8) | out) & 0xffffff;
          return 0xff;
        }
        if (this.cmd === 0x0b && n === 3) return 0xff;
        return this.array[(this.addr + n - (this.cmd === 0x0b ? 4 : 3)) % this.size];
      case 0x02: // page program: 3 address bytes, then data (applied when CS rises)
      case 0x20:
      case 0x52:
      case 0xd8:
        if (n < 3) this.addr = ((this.addr << 8) | out) & 0xffffff;
        else if (this.bytesIn.length < 256 || this.cmd !== 0x02) this.bytesIn.push(out);
        else {
          this.bytesIn.shift(); // a real chip keeps the last 256 bytes
          this.bytesIn.push(out);
        }
        return 0xff;
      default: // write status (0x01/0x31), reset, power down, continuous-read exit ...
        this.bytesIn.push(out);
        return 0x00;
    }
  }

  program(addr, data) {
    const page = addr & ~0xff;
    const before = [];
    for (let i = 0; i < data.length; i++) {
      const a = (page + ((addr + i) & 0xff)) % this.size;
      before.push([a, this.array[a]]);
      this.array[a] &= data[i]; // NOR flash: programming only clears bits
    }
    this.stats.programs++;
    this.stats.programmedBytes += data.length;
    if (this.timing) this.startBusy(this.timing.program);
    this.inFlight = { kind: 'program', before };
    if (this.onOperation) this.onOperation('program', addr);
  }

  erase(start, length) {
    const before = this.timing ? this.array.slice(start, start + length) : null;
    this.array.fill(0xff, start, start + length);
    this.stats.erases++;
    this.stats.erasedBytes += length;
    if (this.wear) {
      for (let s = start >> 12; s < (start + length) >> 12; s++) this.wear[s] = (this.wear[s] || 0) + 1;
    }
    if (this.timing) {
      const t = this.timing;
      this.stats.lastEraseNs = t.now();
      this.startBusy(length <= 4096 ? t.erase4k : length <= 32768 ? t.erase32k : length <= 65536 ? t.erase64k : t.chip);
      this.inFlight = { kind: 'erase', start, before };
    }
    if (this.onOperation) this.onOperation('erase', start);
  }

  /**
   * The power goes now: a program or erase still in progress (the chip busy) is left half done,
   * as on a real NOR chip. A torn program has cleared only some of the bits it should (each byte
   * keeps a random part of the bits it was to clear); a torn erase has set only some (each byte
   * gains a random part of its zero bits). random() gives 0..255. Returns what was torn, or null.
   */
  /**
   * Bytes [offset, offset + length) as a power cut now would leave them (tearIfBusy's tear, on a
   * copy: the chip goes on with its operation). Returns {bytes, torn: 'program'|'erase'|null}.
   */
  cutCopy(random, offset, length) {
    const bytes = this.array.slice(offset, offset + length);
    const op = this.busy ? this.inFlight : null;
    if (!op) return { bytes, torn: null };
    const inside = (a) => a >= offset && a < offset + length;
    if (op.kind === 'program') {
      for (const [a, old] of op.before) {
        const torn = old & (this.array[a] | random());
        if (inside(a)) bytes[a - offset] = torn;
      }
    } else {
      for (let i = 0; i < op.before.length; i++) {
        const torn = op.before[i] | random();
        if (inside(op.start + i)) bytes[op.start + i - offset] = torn;
      }
    }
    return { bytes, torn: op.kind };
  }

  tearIfBusy(random) {
    if (!this.busy || !this.inFlight) return null;
    const op = this.inFlight;
    if (op.kind === 'program') {
      for (const [a, old] of op.before) this.array[a] = old & (this.array[a] | random());
    } else {
      for (let i = 0; i < op.before.length; i++) op.before[i] |= random();
      this.array.set(op.before, op.start);
    }
    this.inFlight = null;
    return op.kind;
  }
}

// ---------------------------------------------------------------- SSI (0x18000000)
const CTRLR0 = 0x00;
const CTRLR1 = 0x04;
const SSIENR = 0x08;
const SER = 0x10;
const TXFLR = 0x20;
const RXFLR = 0x24;
const SR = 0x28;
const IDR = 0x58;
const VERSION_ID = 0x5c;
const DR0 = 0x60;
const DR_LAST = 0xec; // DR0..DR35 all address the FIFO
const SPI_CTRLR0 = 0xf4;
const SR_TFNF = 0x02;
const SR_TFE = 0x04;
const SR_RFNE = 0x08;
const SR_RFF = 0x10;
const RX_DEPTH = 16;

export class Ssi extends BasePeripheral {
  constructor(mcu, chip) {
    super(mcu, 'SSI');
    this.chip = chip;
    this.regs = new Map(); // plain read/write registers (BAUDR, SPI_CTRLR0, ...)
    this.ctrlr0 = 0x70000; // the bootrom leaves the SSI in standard SPI, 8-bit frames, slave 0 selected
    this.ctrlr1 = 0;
    this.enabled = 1;
    this.ser = 1;
    this.frameIndex = 0; // frames sent in the current transaction
    this.rx = [];
    this.csOverride = 0; // IO_QSPI SS OUTOVER: 0 normal (SSI drives CS), 1 inverted, 2 low, 3 high
    this.autoFrame = false; // a frame sequence with the SSI's own chip select is in progress
  }

  /** Bits in the next frame: DFS_32, except the instruction and address phases of dual/quad
   * transfers, whose lengths SPI_CTRLR0 sets (INST_L, ADDR_L). */
  get frameBits() {
    const dfs = ((this.ctrlr0 >> 16) & 0x1f) + 1;
    if (((this.ctrlr0 >> 21) & 3) === 0) return dfs; // standard SPI
    const spi = this.regs.get(SPI_CTRLR0) ?? 0;
    const instBits = [0, 4, 8, 16][(spi >> 8) & 3];
    const addrBits = ((spi >> 2) & 0xf) * 4;
    const phases = instBits ? [instBits, addrBits] : [addrBits];
    return this.frameIndex < phases.length && phases[this.frameIndex] ? phases[this.frameIndex] : dfs;
  }

  get tmod() {
    return (this.ctrlr0 >> 8) & 3; // 0 TX+RX, 1 TX only, 2 RX only, 3 EEPROM read
  }

  /** Called by IoQspi when the SS override changes. */
  setCsOverride(over) {
    this.endAutoFrame();
    this.csOverride = over;
    this.frameIndex = 0;
    if (over === 2) this.chip.select();
    else this.chip.deselect();
  }

  endAutoFrame() {
    if (!this.autoFrame) return;
    this.autoFrame = false;
    if (this.tmod === 3) {
      // EEPROM read: after the command/address frames the SSI clocks in CTRLR1.NDF + 1 frames
      for (let i = 0; i <= (this.ctrlr1 & 0xffff) && this.rx.length < RX_DEPTH; i++) this.rx.push(this.clockFrame(0));
    }
    this.frameIndex = 0;
    this.chip.deselect();
  }

  clockFrame(value) {
    const bits = this.frameBits;
    this.frameIndex++;
    let result = 0;
    for (let shift = Math.ceil(bits / 8) * 8 - 8; shift >= 0; shift -= 8) {
      result = (result << 8) | this.chip.transfer((value >>> shift) & 0xff);
    }
    return bits >= 32 ? result >>> 0 : result & ((1 << bits) - 1);
  }

  writeFrame(value) {
    if (!this.enabled) return;
    if (this.csOverride === 0) {
      if (!this.ser) return; // no slave selected: nothing on the bus
      if (!this.autoFrame) {
        this.autoFrame = true;
        this.chip.select();
      }
    }
    const answer = this.clockFrame(value);
    if ((this.tmod === 0 || this.tmod === 2) && this.rx.length < RX_DEPTH) this.rx.push(answer);
  }

  readUint32(offset) {
    if (offset >= DR0 && offset <= DR_LAST) return this.rx.length ? this.rx.shift() : 0;
    switch (offset) {
      case CTRLR0:
        return this.ctrlr0;
      case CTRLR1:
        return this.ctrlr1;
      case SSIENR:
        return this.enabled;
      case SER:
        return this.ser;
      case TXFLR:
        return 0;
      case RXFLR:
        return this.rx.length;
      case SR:
        // software waits for the transfer to finish: with the SSI's own CS, the frame ends here
        if (this.csOverride === 0) this.endAutoFrame();
        return SR_TFNF | SR_TFE | (this.rx.length ? SR_RFNE : 0) | (this.rx.length >= RX_DEPTH ? SR_RFF : 0);
      case IDR:
        return 0x51535049;
      case VERSION_ID:
        return 0x3430312a;
      default:
        return this.regs.get(offset) ?? 0;
    }
  }

  writeUint32(offset, value) {
    if (offset >= DR0 && offset <= DR_LAST) {
      this.writeFrame(value >>> 0);
      return;
    }
    switch (offset) {
      case CTRLR0:
        this.endAutoFrame();
        this.ctrlr0 = value;
        break;
      case CTRLR1:
        this.ctrlr1 = value;
        break;
      case SSIENR:
        this.endAutoFrame();
        this.enabled = value & 1;
        if (!this.enabled) this.rx.length = 0; // disabling the SSI clears its FIFOs
        break;
      case SER:
        this.endAutoFrame();
        this.ser = value & 1;
        break;
      default:
        this.regs.set(offset, value >>> 0);
    }
  }
}

// ---------------------------------------------------------------- IO_QSPI (0x40018000)
// Six pins (SCLK, SS, SD0..SD3), each with STATUS at 8*i and CTRL at 8*i + 4; interrupt registers
// from 0x30 are stored and ignored. CTRL values also go to rp2040js's qspi pin objects, so the
// SIO GPIO_HI_IN overrides work.
export class IoQspi extends BasePeripheral {
  constructor(mcu, ssi) {
    super(mcu, 'IO_QSPI');
    this.ssi = ssi;
    this.ctrl = new Uint32Array(6);
    this.other = new Map();
  }

  readUint32(offset) {
    if (offset < 0x30) {
      const pin = offset >> 3;
      return offset & 4 ? this.ctrl[pin] : this.rp2040.qspi[pin].status;
    }
    return this.other.get(offset) ?? 0;
  }

  writeUint32(offset, value) {
    if (offset < 0x30) {
      if (!(offset & 4)) return; // STATUS is read-only
      const pin = offset >> 3;
      const before = this.ctrl[pin];
      this.ctrl[pin] = value;
      this.rp2040.qspi[pin].ctrl = value;
      this.rp2040.qspi[pin].checkForUpdates();
      if (pin === 1 && ((before ^ value) & 0x300)) this.ssi.setCsOverride((value >> 8) & 3);
      return;
    }
    this.other.set(offset, value >>> 0);
  }
}

/** Puts the flash chip, SSI and IO_QSPI models into an rp2040js RP2040. Returns the chip.
 * timing: see SpiFlash (null: program/erase take no time). */
export function installFlash(mcu, { sizeBytes, jedec, timing = null, wear = null, uniqueId = null }) {
  const chip = new SpiFlash(mcu.flash, sizeBytes, jedec, timing);
  chip.wear = wear;
  if (uniqueId) chip.uniqueId = uniqueId; // another board's chip (a linked pair: two uids)
  const ssi = new Ssi(mcu, chip);
  mcu.peripherals[0x18000] = ssi;
  mcu.peripherals[0x40018] = new IoQspi(mcu, ssi);
  return chip;
}

function hex(v, digits = 2) {
  return '0x' + v.toString(16).padStart(digits, '0');
}

// The USB host side: the CDC console, as a real host (and a person at a terminal) would use it.
//
// - rp2040js's USBCDC answers every OUT-endpoint read the device arms with an immediate, usually
//   empty, packet. A real host sends OUT packets only when it has data; the endless zero-length
//   packets kept TinyUSB busy (~40 % of the emulated CPU) and Python ran 3x slower. Here an OUT
//   read is held until there is something to send.
// - CircuitPython starts USB just before it runs code.py, so the CDC link comes up while code.py
//   is already running and its first output is lost, as on hardware. To see a whole run, once the
//   link is up we send Ctrl-C; when the supervisor shows "Press any key to enter the REPL" (or the
//   REPL prompt) we send Ctrl-D, a soft reload: code.py runs again in a fresh VM with the console
//   attached ("attach"). Output before that goes to onEarly; afterwards whole lines go to onLine,
//   with terminal escape sequences (the status bar's title updates) removed.

import { rp2040js } from './rp2040js.mjs';
import { latin1, latin1Bytes, utf8 } from './portable.mjs';

const { USBCDC } = rp2040js;
const CTRL_C = 3;
const CTRL_D = 4;

export class UsbConsole {
  /**
   * @param {object} hooks onReady(ns) when code.py starts with the console attached,
   *   onLine(text, ns), onEarly(text) for output before that, onConnected(ns)
   */
  constructor(mcu, clock, { attach = true, hooks }) {
    this.mcu = mcu;
    this.clock = clock;
    this.attach = attach;
    this.hooks = hooks;
    this.cdc = new USBCDC(mcu.usbCtrl);
    this.phase = 'boot'; // boot -> interrupting -> reloading -> running
    this.connectedAt = null;
    this.reloadAt = null;
    this.recent = '';
    this.line = '';
    this.esc = 0;
    this.pendingRead = null;
    mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.cdc.outEndpoint) return;
      if (this.cdc.txFIFO.itemCount > 0) this.deliver(endpoint, size);
      else this.pendingRead = { endpoint, size };
    };
    // Ctrl-C again every 250 ms until the supervisor answers (code.py may swallow one)
    this.retry = clock.createAlarm(() => {
      if (this.phase !== 'interrupting') return;
      this.send([CTRL_C]);
      this.retry.schedule(250e6);
    });
    this.cdc.onDeviceConnected = () => {
      this.connectedAt = clock.nanos;
      if (hooks.onConnected) hooks.onConnected(clock.nanos);
      if (this.attach) {
        this.phase = 'interrupting';
        this.send([CTRL_C]);
        this.retry.schedule(250e6);
      } else {
        this.startRunning();
      }
    };
    this.cdc.onSerialData = (data) => this.received(data);
  }

  deliver(endpoint, size) {
    const fifo = this.cdc.txFIFO;
    const buffer = new Uint8Array(Math.min(size, fifo.itemCount));
    for (let i = 0; i < buffer.length; i++) buffer[i] = fifo.pull();
    this.mcu.usbCtrl.endpointReadDone(endpoint, buffer);
  }

  /** Sends bytes to the device's console (queued; the FIFO holds 512 bytes). */
  send(bytes) {
    for (const b of bytes) this.cdc.sendSerialByte(b);
    if (this.pendingRead) {
      const { endpoint, size } = this.pendingRead;
      this.pendingRead = null;
      this.deliver(endpoint, size);
    }
  }

  startRunning() {
    this.phase = 'running';
    this.line = '';
    this.hooks.onReady(this.clock.nanos);
  }

  received(data) {
    if (this.phase !== 'running') {
      const text = latin1(data);
      if (this.hooks.onEarly) this.hooks.onEarly(text);
      this.recent = (this.recent + text).slice(-200);
      if (this.phase === 'interrupting' && (this.recent.includes('Press any key to enter the REPL') || this.recent.endsWith('>>> '))) {
        this.phase = 'reloading';
        this.retry.cancel();
        this.reloadAt = this.clock.nanos;
        this.send([CTRL_D]);
      } else if (this.phase === 'reloading' && this.recent.includes('soft reboot')) {
        this.startRunning();
      }
      return;
    }
    for (const b of data) {
      if (!this.keep(b)) continue;
      if (b === 10) {
        const text = this.line;
        this.line = '';
        this.hooks.onLine(utf8(latin1Bytes(text)), this.clock.nanos);
      } else if (b !== 13) {
        this.line += String.fromCharCode(b);
      }
    }
  }

  /** The unfinished last line (e.g. a REPL prompt or an input() prompt). */
  get partialLine() {
    return utf8(latin1Bytes(this.line));
  }

  // Drops terminal control sequences: OSC "ESC ] ... BEL|ESC \" (window title) and CSI "ESC [ ... letter".
  keep(b) {
    switch (this.esc) {
      case 0:
        if (b === 0x1b) {
          this.esc = 1;
          return false;
        }
        return true;
      case 1:
        this.esc = b === 0x5b ? 2 : b === 0x5d ? 3 : 0;
        return false;
      case 2:
        if (b >= 0x40 && b <= 0x7e) this.esc = 0;
        return false;
      case 3:
        if (b === 0x07) this.esc = 0;
        else if (b === 0x1b) this.esc = 4;
        return false;
      default:
        this.esc = b === 0x5c ? 0 : 3;
        return false;
    }
  }
}

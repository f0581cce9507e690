// Pad model: the level each GPIO pin reads, from what drives it.
//
// rp2040js reads an input as 0 unless someone calls setInputValue(), whatever its pulls, so
// keypad.Keys(pull=True) would see every button pressed. Here each pin resolves like a pad with
// (strongest first):
//   1. a drive to 0: an external drive (a button to GND, --gpio-script / "pin" command), the
//      emulated I2C target pulling SDA low for an ACK, or the MCU's own output low;
//   2. a drive to 1: external drive high or MCU output high;
//   3. a pull-up (the pad's own, or an external one on I2C bus pins);
//   4. the pad's pull-down;
//   5. nothing (floating or bus keeper): the pin keeps its last level.
// Level hooks (NeoPixel decoder, I2C bit watcher) see every change with its emulated time.

export class Pads {
  constructor(mcu, clock) {
    this.mcu = mcu;
    this.clock = clock;
    this.external = new Array(30).fill(null); // null (released) | 0 | 1
    this.externalPullUp = new Array(30).fill(false);
    this.targetLow = new Array(30).fill(false);
    this.hooks = new Array(30).fill(null).map(() => []);
    this.timeOverride = -1; // set by the PIO stepper: the emulated time of the PIO cycle running now
    for (let i = 0; i < 30; i++) {
      mcu.gpio[i].addListener(() => this.resolve(i));
      this.resolve(i);
    }
  }

  /** Emulated ns "now", as precise as known (PIO cycles run a little behind the CPU clock). */
  get now() {
    return this.timeOverride >= 0 ? this.timeOverride : this.clock.nanos;
  }

  /** Drives a pin from outside: 0, 1, or null (released: its pulls decide). */
  drive(pin, level) {
    this.external[pin] = level;
    this.resolve(pin);
  }

  addHook(pin, fn) {
    this.hooks[pin].push(fn);
  }

  resolve(i) {
    const p = this.mcu.gpio[i];
    const oe = p.outputEnable;
    const out = oe && p.outputValue;
    let level;
    if ((oe && !out) || this.external[i] === 0 || this.targetLow[i]) level = false;
    else if (out || this.external[i] === 1) level = true;
    else if (this.externalPullUp[i] || (p.pullupEnabled && !p.pulldownEnabled)) level = true;
    else if (p.pulldownEnabled && !p.pullupEnabled) level = false;
    else level = p.rawInputValue;
    if (level !== p.rawInputValue) {
      p.setInputValue(level);
      const hooks = this.hooks[i];
      if (hooks.length) {
        const t = this.now;
        for (const fn of hooks) fn(level, t);
      }
    }
  }
}

// PIO state machines stepped in emulated time.
//
// rp2040js runs PIO from a wall-clock setTimeout, 1000 instructions per turn, ignoring clock
// dividers and [delay] cycles: a 25-pixel NeoPixel show() took ~231 emulated ms and the pin
// edges had no usable time stamps. Here the run loop calls advance(now) after every CPU step:
// each enabled state machine executes at sysclk / CLKDIV, one instruction per PIO clock plus its
// delay cycles, and one PIO clock per stalled cycle. show() of 25 pixels then takes 0.9 ms, and
// the pin edges carry the emulated time of the PIO cycle that made them.

export class PioClock {
  constructor(mcu, clock, pads, cycleNs) {
    this.mcu = mcu;
    this.clock = clock;
    this.pads = pads;
    this.cycleNs = cycleNs;
    this.running = false; // any PIO block has an enabled state machine
    for (const pio of mcu.pio) {
      let stopped = pio.stopped;
      Object.defineProperty(pio, 'stopped', {
        get: () => stopped,
        set: (v) => {
          stopped = v;
          this.running = mcu.pio.some((q) => !q.stopped);
        },
      });
      pio.run = () => {}; // no wall-clock loop: advance() does the stepping
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        const before = pio.machines.map((m) => m.enabled);
        write(offset, value);
        if (offset === 0) {
          // CTRL: a machine that was just enabled starts now
          pio.machines.forEach((m, k) => {
            if (m.enabled && !before[k]) m.nextNs = clock.nanos;
          });
        }
      };
    }
  }

  advance(now) {
    const { pads } = this;
    for (const pio of this.mcu.pio) {
      if (pio.stopped) continue;
      for (const m of pio.machines) {
        if (!m.enabled) continue;
        if (m.nextNs === undefined) m.nextNs = now;
        if (m.nextNs > now) continue;
        const stepNs = ((m.clockDivInt || 65536) + m.clockDivFrac / 256) * this.cycleNs;
        while (m.nextNs <= now && m.enabled) {
          pads.timeOverride = m.nextNs;
          const stalled = m.waiting;
          const before = m.cycles;
          m.step();
          pio.checkChangedPins();
          const spent = m.cycles - before + (stalled ? 1 : 0);
          m.nextNs += (spent > 0 ? spent : 1) * stepNs;
        }
      }
    }
    pads.timeOverride = -1;
  }
}

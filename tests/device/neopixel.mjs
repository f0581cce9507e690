// WS2812 (NeoPixel) frames decoded from a pin's edges.
//
// A high pulse longer than 600 ns is a 1 bit, a shorter one a 0 (WS2812B: T0H 400 +-150 ns,
// T1H 800 +-150 ns); bits are MSB first, 3 bytes (G, R, B) per pixel as sent. The line held low
// for 50 us latches the frame. CircuitPython's PIO program gives T0H 313 ns and T1H 703 ns.

export class NeoPixelDecoder {
  /**
   * @param {number} pin GPIO number
   * @param {function(number, Uint8Array, object)} onFrame (emulated ns of the first edge, bytes, timing info)
   */
  constructor(pads, clock, pin, onFrame) {
    this.pin = pin;
    this.onFrame = onFrame;
    this.frames = 0;
    this.reset();
    this.latch = clock.createAlarm(() => this.flush());
    pads.addHook(pin, (level, t) => this.edge(level, t));
  }

  reset() {
    this.bits = [];
    this.rise = null;
    this.start = null;
    this.highNs = [Infinity, 0, Infinity, 0]; // min/max T0H, min/max T1H
  }

  edge(level, t) {
    if (level) {
      this.rise = t;
      if (this.start === null) this.start = t;
      this.latch.cancel();
      return;
    }
    if (this.rise === null) return;
    const high = t - this.rise;
    this.rise = null;
    const bit = high > 600 ? 1 : 0;
    this.bits.push(bit);
    const k = bit * 2;
    this.highNs[k] = Math.min(this.highNs[k], high);
    this.highNs[k + 1] = Math.max(this.highNs[k + 1], high);
    this.latch.schedule(50_000);
  }

  flush() {
    const { bits } = this;
    if (bits.length >= 8) {
      const bytes = new Uint8Array(bits.length >> 3);
      for (let i = 0; i < bytes.length; i++) {
        let b = 0;
        for (let j = 0; j < 8; j++) b = (b << 1) | bits[i * 8 + j];
        bytes[i] = b;
      }
      this.frames++;
      const [t0min, t0max, t1min, t1max] = this.highNs;
      this.onFrame(this.start, bytes, { bits: bits.length, t0h: [t0min, t0max], t1h: [t1min, t1max] });
    }
    this.reset();
  }
}

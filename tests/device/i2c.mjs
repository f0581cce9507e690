// An I2C target that ACKs chosen addresses (e.g. 0x3C, the OLED FeatherWing's SH1107).
//
// - The board's I2C bus pins get external pull-ups (busio.I2C refuses to start without them:
//   "No pull up found on SDA or SCL").
// - Hardware I2C (rp2040js's byte-level hooks on I2C0/I2C1): listed addresses are ACKed, others
//   NACKed; written bytes are recorded, reads return 0xff. Every step takes bus time at the
//   programmed SCL rate (START/STOP one SCL period, address or data byte nine).
// - busio's 0-byte probes (i2c.scan(), I2CDisplayBus) are bit-banged on SIO GPIOs, so a
//   GPIO-level open-drain target watches SDA/SCL too and pulls SDA low for the ACK bit.
// - Transactions are grouped into bursts (a display refresh): a burst ends after 5 ms of bus
//   silence and is reported with onBurst({t, ms, transactions, bytes, addresses}).

const BURST_GAP_NS = 5_000_000;

export class I2cTarget {
  constructor({ mcu, clock, pads, cycleNs, addresses, busPins, onBurst, onTransaction }) {
    this.clock = clock;
    this.cycleNs = cycleNs; // of clk_sys, which times the I2C block (the Machine updates it)
    this.acked = new Set(addresses);
    this.onBurst = onBurst;
    this.onTransaction = onTransaction; // optional: every transaction with its bytes (for --i2c-log)
    this.totals = new Map(); // address -> {transactions, bytes, nacked}
    this.burst = null;
    this.burstAlarm = clock.createAlarm(() => this.endBurst());
    mcu.i2c.forEach((block, index) => this.attachBlock(block, `I2C${index}`));
    for (const [sda, scl] of busPins) {
      pads.externalPullUp[sda] = pads.externalPullUp[scl] = true;
      this.watchPins(pads, sda, scl);
    }
  }

  record(bus, address, mode, bytes, ack, startNs) {
    const total = this.totals.get(address) || { transactions: 0, bytes: 0, nacked: 0 };
    total.transactions++;
    total.bytes += bytes.length;
    if (!ack) total.nacked++;
    this.totals.set(address, total);
    if (this.onTransaction) this.onTransaction({ t: startNs, bus, address, mode, ack, bytes });
    if (!this.burst) this.burst = { t: startNs, transactions: 0, bytes: 0, addresses: new Set() };
    this.burst.transactions++;
    this.burst.bytes += bytes.length;
    this.burst.addresses.add(address);
    this.burst.end = this.clock.nanos;
    this.burstAlarm.schedule(BURST_GAP_NS);
  }

  /** A transfer starts: the bus is not silent, so the burst goes on. */
  busy() {
    this.burstAlarm.cancel();
  }

  endBurst() {
    const b = this.burst;
    this.burst = null;
    if (b && this.onBurst) {
      this.onBurst({ t: b.t, ms: (b.end - b.t) / 1e6, transactions: b.transactions, bytes: b.bytes, addresses: [...b.addresses] });
    }
  }

  attachBlock(block, bus) {
    let current = null;
    let next = null;
    const alarm = this.clock.createAlarm(() => {
      const f = next;
      next = null;
      if (f) f();
    });
    const after = (periods, f) => {
      next = f;
      alarm.schedule(periods * (block.sclLowPeriod + block.sclHighPeriod) * this.cycleNs);
    };
    let startNs = 0;
    const finish = () => {
      if (current) this.record(bus, current.address, current.mode, current.bytes, current.ack, current.t);
      current = null;
    };
    block.onStart = () => {
      startNs = this.clock.nanos;
      this.busy();
      after(1, () => block.completeStart());
    };
    block.onConnect = (address, mode) => {
      finish(); // a repeated START ends the previous transfer
      const ack = this.acked.has(address);
      current = { address, mode: mode ? 'R' : 'W', bytes: [], ack, t: startNs };
      after(9, () => block.completeConnect(ack));
    };
    block.onWriteByte = (value) => {
      if (current) current.bytes.push(value);
      after(9, () => block.completeWrite(true));
    };
    block.onReadByte = () => {
      if (current) current.bytes.push(0xff);
      after(9, () => block.completeRead(0xff));
    };
    block.onStop = () => {
      finish();
      after(1, () => block.completeStop());
    };
  }

  /** Bit-level open-drain target on two GPIOs (for bit-banged transfers). */
  watchPins(pads, sda, scl) {
    const gpio = pads.mcu.gpio;
    let lastSda = true;
    let lastScl = true;
    let state = 'idle'; // idle | addr | write | read | nack
    let nbits = 0;
    let shift = 0;
    let acking = false;
    let address = 0;
    let bytes = [];
    let ack = false;
    let startNs = 0;
    const bus = `GPIO${sda}/${scl}`;
    const endTransfer = () => {
      if (state === 'write' || state === 'read' || state === 'nack') {
        this.record(bus, address, state === 'read' ? 'R' : 'W', bytes, ack, startNs);
      }
    };
    const setAck = (on) => {
      acking = on;
      pads.targetLow[sda] = on;
      pads.resolve(sda);
    };
    const onEdge = () => {
      const s = gpio[sda].rawInputValue;
      const c = gpio[scl].rawInputValue;
      const prevS = lastSda;
      const prevC = lastScl;
      lastSda = s;
      lastScl = c;
      if (c && prevC && s !== prevS) {
        // SDA changing while SCL is high: START (falling) or STOP (rising)
        endTransfer();
        state = s ? 'idle' : 'addr';
        startNs = this.clock.nanos;
        if (!s) this.busy();
        nbits = 0;
        shift = 0;
        bytes = [];
      } else if (c && !prevC) {
        // SCL rising: sample a bit
        if ((state === 'addr' || state === 'write') && !acking) {
          shift = ((shift << 1) | (s ? 1 : 0)) & 0xff;
          nbits++;
        }
      } else if (!c && prevC) {
        // SCL falling: end of the ACK bit, or drive the ACK after the 8th bit
        if (acking) {
          setAck(false);
          nbits = 0;
          shift = 0;
        } else if ((state === 'addr' || state === 'write') && nbits === 8) {
          if (state === 'addr') {
            address = shift >> 1;
            ack = this.acked.has(address);
            state = !ack ? 'nack' : shift & 1 ? 'read' : 'write';
          } else {
            bytes.push(shift);
          }
          if (state !== 'nack') setAck(true);
          nbits = 0;
        }
      }
    };
    pads.addHook(sda, onEdge);
    pads.addHook(scl, onEdge);
    pads.resolve(sda);
    pads.resolve(scl);
  }
}

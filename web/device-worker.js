// Device mode's board: real CircuitPython firmware in rp2040js, in a Web Worker, through the same
// emulator modules as the Node harness (tests/device/, copied to emulator/ on the site).
//
// Messages in:  {cmd: 'start', firmware (URL), drive ({path: base64}), nvm (hex or ''),
//                neopixelPin, i2c (true: the OLED FeatherWing at 0x3C)}
//               {cmd: 'pin', pin, level (0 | null)}   a button down / let go (held at least
//               MIN_PRESS_MS emulated, so that keypad's scan sees it)
//               {cmd: 'tap', pin, ms}                 down for ms emulated ms
//               {cmd: 'stop'}
// Messages out: {ev: 'ready', ...}, {ev: 'frame', grb}, {ev: 'picture', bits} (128x64 OLED),
//               {ev: 'nvm', hex}, {ev: 'console', line}, {ev: 'speed', speed, emulated_s},
//               {ev: 'reboot', reason}, {ev: 'error', message}
//
// Time: the board runs at real time when it can (its emulated clock never gets ahead of the wall
// clock); when the emulator is slower (the CPU busy: an AI thinking) it runs as fast as it can and
// does not catch up afterwards.

self.JARMO_RP2040JS = new URL('rp2040js/index.js', self.location.href).href;

const MIN_PRESS_MS = 80; // keypad scans every 20 ms: a shorter press could be missed
const SLICE_NS = 40e6; // emulated time run between looks at the messages
const BEHIND_NS = 250e6; // further behind the wall clock than this: forget the difference
const MS = 1e6;

let session = null;
let running = false;
const releases = new Map(); // pin -> session ns when its release is due

const post = (message) => self.postMessage(message);

self.onmessage = (e) => {
  const m = e.data;
  if (m.cmd === 'start') start(m).catch((err) => post({ ev: 'error', message: String(err && err.stack ? err.stack : err) }));
  else if (m.cmd === 'stop') running = false;
  else if (session && m.cmd === 'pin') press(m.pin, m.level, MIN_PRESS_MS);
  else if (session && m.cmd === 'tap') press(m.pin, null, m.ms, true);
};

const downAt = new Map();

function press(pin, level, holdMs, tap = false) {
  if (level === 0 || tap) {
    session.setPin(pin, 0);
    downAt.set(pin, session.now);
    releases.delete(pin);
    if (!tap) return;
  }
  const due = (downAt.get(pin) ?? session.now) + holdMs * MS;
  if (due <= session.now) session.setPin(pin, null);
  else releases.set(pin, due);
}

async function start(m) {
  const [{ Session }, firmware, { Sh1107 }, portable] = await Promise.all([
    import('./emulator/session.mjs'),
    import('./emulator/firmware.mjs'),
    import('./emulator/sh1107.mjs'),
    import('./emulator/portable.mjs'),
  ]);
  const [uf2, bootrom] = await Promise.all([
    fetch(m.firmware).then((r) => {
      if (!r.ok) throw new Error(`${m.firmware}: ${r.status} ${r.statusText}`);
      return r.arrayBuffer();
    }),
    fetch('emulator/bootrom-b1.b64').then((r) => r.text()),
  ]);
  const drive = {};
  for (const [path, data] of Object.entries(m.drive)) drive[path] = portable.fromBase64(data);
  const oled = m.i2c ? new Sh1107() : null;
  let frame = null;
  const emit = (ev) => {
    if (ev.ev === 'frame') frame = ev.grb;
    else if (ev.ev === 'console') post({ ev: 'console', line: ev.line });
    else if (ev.ev === 'reboot' || ev.ev === 'ready') post(ev);
  };
  session = new Session(
    {
      firmware: new Uint8Array(uf2),
      firmwareName: m.firmware,
      drive,
      bootrom: firmware.decodeBootrom(bootrom),
      neopixelPins: [m.neopixelPin],
      i2cAck: m.i2c ? [0x3c] : [],
      attach: false,
      nvm: m.nvm ? portable.fromHex(m.nvm) : null,
      onI2cTransaction: oled ? (tx) => oled.transaction(tx) : null,
    },
    emit,
  );
  const wall0 = performance.now();
  post(await session.boot());
  post({ ev: 'booted', wall_ms: performance.now() - wall0 });
  running = true;
  let nvm = portable.hex(session.readFlash(firmware.NVM_OFFSET, firmware.NVM_SIZE));
  let shown = -1;
  let base = { wall: performance.now(), ns: session.now };
  let mark = { wall: base.wall, ns: session.now };
  while (running) {
    const wall = performance.now();
    let target = base.ns + (wall - base.wall) * MS;
    if (target - session.now > BEHIND_NS) {
      base = { wall, ns: session.now }; // too slow to keep up: real time from here on
      target = session.now + SLICE_NS;
    }
    if (target > session.now) {
      let until = Math.min(target, session.now + SLICE_NS);
      for (const due of releases.values()) until = Math.min(until, Math.max(due, session.now + 1));
      await session.execute(until, () => false);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 8));
    }
    for (const [pin, due] of releases) {
      if (session.now >= due) {
        session.setPin(pin, null);
        releases.delete(pin);
      }
    }
    if (frame !== null) {
      post({ ev: 'frame', grb: frame });
      frame = null;
    }
    if (oled && oled.version !== shown) {
      shown = oled.version;
      post({ ev: 'picture', bits: oled.picture() });
    }
    const now = portable.hex(session.readFlash(firmware.NVM_OFFSET, firmware.NVM_SIZE));
    if (now !== nvm) {
      nvm = now;
      post({ ev: 'nvm', hex: now });
    }
    if (wall - mark.wall >= 1000) {
      post({ ev: 'speed', speed: (session.now - mark.ns) / MS / (wall - mark.wall), emulated_s: session.now / 1e9 });
      mark = { wall, ns: session.now };
    }
  }
}

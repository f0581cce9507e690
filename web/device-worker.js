// Device mode's board: real CircuitPython firmware in rp2040js, in a Web Worker, through the same
// emulator modules as the Node harness (tests/device/, copied to emulator/ on the site).
//
// Messages in:  {cmd: 'start', firmware (URL), drive ({path: base64}), nvm (hex or ''),
//                neopixelPin, i2c (true: the OLED FeatherWing at 0x3C)}
//               {cmd: 'pin', pin, level (0 | null)}   a button down / let go (held at least
//               MIN_PRESS_MS emulated, so that keypad's scan sees it)
//               {cmd: 'tap', pin, ms}                 down for ms emulated ms
//               A press waits until the firmware listens on its pin (keypad has turned the pad's
//               pull-up on): while code.py starts, a press made on the page is kept, not lost.
//               {cmd: 'stop'}
// Messages out: {ev: 'ready', ...}, {ev: 'frame', grb}, {ev: 'picture', bits} (128x64 OLED),
//               {ev: 'nvm', hex}, {ev: 'console', line},
//               {ev: 'speed', speed, emulated_s, busy (share of the wall time this worker worked),
//                idle (share of the emulated time the core slept)},
//               {ev: 'held', pins} (presses kept until the board listens; [] when none is),
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
  else if (m.cmd === 'pin' && m.level === null) {
    // let go: a press still kept is made and let go; one made already is let go once it has
    // been down MIN_PRESS_MS (as a let-go that came after the press was made once held the
    // button down for good: a key's release that reached the worker after its press, as a
    // person's does, left SELECT held, and the board saw a long press)
    const kept = held.find((h) => h.pin === m.pin && !h.tap);
    if (kept) kept.letGo = true;
    else if (session) press(m.pin, null, MIN_PRESS_MS);
  } else if (m.cmd === 'pin' || m.cmd === 'tap') {
    held.push({ pin: m.pin, tap: m.cmd === 'tap' ? m.ms : 0, letGo: false });
    sendHeld();
  }
};

const downAt = new Map();
let held = []; // presses not yet made: {pin, tap (ms, 0: a press), letGo (released already)}

/** True when the firmware reads the pin as a button: its pad pulled up (keypad.Keys(pull=True)
 * on an active-low button); before that (code.py still starting) a press would be lost. */
function listening(pin) {
  const m = session && session.machine;
  if (!m) return false;
  const p = m.mcu.gpio[session.pin(pin)];
  return p.pullupEnabled && !p.pulldownEnabled;
}

/** Makes the kept presses whose pins the firmware now listens on, in the order they came. */
function pressHeld() {
  if (!held.length) return;
  const left = [];
  for (const h of held) {
    if (!listening(h.pin) || left.some((l) => l.pin === h.pin)) left.push(h);
    else if (h.tap) press(h.pin, null, h.tap, true);
    else {
      press(h.pin, 0, MIN_PRESS_MS);
      if (h.letGo) press(h.pin, null, MIN_PRESS_MS);
    }
  }
  if (left.length !== held.length) {
    held = left;
    sendHeld();
  }
}

function sendHeld() {
  post({ ev: 'held', pins: held.map((h) => h.pin) });
}

function idleNs() {
  return session.pastIdleNs + (session.machine ? session.machine.idleNs : 0);
}

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
  let flashWork = -1; // the flash chip's programs + erases when the nvm was last looked at
  let shown = -1;
  let base = { wall: performance.now(), ns: session.now };
  let mark = { wall: base.wall, ns: session.now, idle: idleNs(), busy: 0 };
  let busy = 0; // wall ms this loop spent working (not waiting for the wall clock)
  while (running) {
    const wall = performance.now();
    pressHeld();
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
      busy += performance.now() - wall;
      await new Promise((resolve) => setTimeout(resolve, 8));
      continue;
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
    const chip = session.machine ? session.machine.flashChip.stats : null;
    const work = chip ? chip.programs + chip.erases : -1;
    if (work !== flashWork) {
      flashWork = work;
      const now = portable.hex(session.readFlash(firmware.NVM_OFFSET, firmware.NVM_SIZE));
      if (now !== nvm) {
        nvm = now;
        post({ ev: 'nvm', hex: now });
      }
    }
    const end = performance.now();
    busy += end - wall;
    if (end - mark.wall >= 1000) {
      const idle = idleNs();
      post({
        ev: 'speed',
        speed: (session.now - mark.ns) / MS / (end - mark.wall),
        emulated_s: session.now / 1e9,
        busy: (busy - mark.busy) / (end - mark.wall),
        idle: session.now > mark.ns ? (idle - mark.idle) / (session.now - mark.ns) : 1,
      });
      mark = { wall: end, ns: session.now, idle, busy };
    }
  }
}

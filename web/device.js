// Device mode, the page's side: the board's drive (drives.json: what `run.py deploy` writes for
// the profile), its firmware and the flash kept in localStorage go to the Web Worker
// (device-worker.js); its pixel pin's frames come back as LEDs (the profile's pixel map and the
// board's brightness, seen as the eye sees them: jarmo_page.py in MicroPython), the OLED's
// picture from its I2C bus, the console, the speed.

import { loadPython } from './fast.js';

let drives = null;

function loadDrives() {
  if (!drives) drives = fetch('drives.json').then((r) => r.json());
  return drives;
}

/** settings.toml (base64) with the idle times [dim, off, sleep] (seconds) in its last lines. */
function withIdleTimes(settings, idle) {
  const names = ['JARMO_DIM_S', 'JARMO_OFF_S', 'JARMO_SLEEP_S'];
  const keep = atob(settings || '').split('\n').filter((line) => !names.some((n) => line.startsWith(n)));
  const lines = names.map((n, i) => (Number.isInteger(idle[i]) && idle[i] >= 0 ? `${n} = ${idle[i]}` : null));
  return btoa(keep.join('\n').replace(/\n*$/, '\n') + lines.filter(Boolean).join('\n') + '\n');
}

export class DeviceMode {
  /**
   * @param {object} ui onLeds(colours), onPicture(bits), onConsole(line), onStatus(text), onSpeed(x)
   * @param {object} o profile, config (the page's), storageKey
   */
  constructor(ui, o) {
    this.ui = ui;
    this.o = o;
    this.prof = o.config.profiles[o.profile];
    this.worker = null;
    this.page = null;
    this.level = null;
    this.nvm = localStorage.getItem(o.storageKey) || '';
    this.frames = []; // [page ms, grb hex] as they came (for tests), the last 400
    this.pictures = 0;
    this.picture = null;
    this.console = [];
    this.ready = null;
    this.speed = null;
    this.emulatedS = 0; // emulated seconds run, as of the last 'speed' message
    this.load = null; // the worker's share of the wall time, the core's sleeping share (last second)
    this.loads = []; // [page ms, busy, idle] each second, the last 120 (for tests and benchmarks)
    this.held = [];
    this.started = performance.now();
    this.levelTimer = null;
    this.lastGrb = null;
  }

  async start() {
    const board = this.prof.board_id;
    if (!this.o.config.firmware.includes(board)) {
      this.ui.onStatus(`No CircuitPython firmware for ${board} on this site: build it with ` +
        '`python3 run.py web` where the UF2 is found (--firmware PATH; circuitpython.org/downloads).');
      return;
    }
    this.ui.onStatus(`Device mode: booting CircuitPython on the emulated ${board}…`);
    // the board boots while MicroPython (only the LEDs' colours need it) loads beside it
    const python = loadPython();
    const all = await loadDrives();
    const drive = {};
    for (const [path, sha] of Object.entries(all.profiles[this.o.profile])) drive[path] = all.blobs[sha];
    if (this.o.idle) drive['settings.toml'] = withIdleTimes(drive['settings.toml'], this.o.idle);
    this.worker = new Worker('device-worker.js', { type: 'module' });
    this.worker.onmessage = (e) => this.message(e.data);
    this.worker.onerror = (e) => this.ui.onStatus(`Device mode failed: ${e.message}`);
    this.worker.postMessage({
      cmd: 'start',
      firmware: `firmware/${board}.uf2`,
      drive,
      nvm: this.nvm,
      neopixelPin: this.prof.pixel_pin,
      i2c: this.prof.display === 'sh1107_128x64',
    });
    this.page = await python;
    this.updateLevel();
  }

  stop() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    clearTimeout(this.levelTimer);
  }

  /** A button by its pin: down (level 0) or let go (null). */
  pin(pin, level) {
    if (this.worker) this.worker.postMessage({ cmd: 'pin', pin, level });
  }

  /** A button held for ms emulated milliseconds (a long press: MENU, PREV). */
  tap(pin, ms) {
    if (this.worker) this.worker.postMessage({ cmd: 'tap', pin, ms });
  }

  /** The drawing level from the board's own settings (the brightness in its nvm). */
  updateLevel() {
    this.level = this.page.device_level(this.o.profile, this.nvm);
    if (this.lastGrb) this.showFrame(this.lastGrb);
  }

  showFrame(grb) {
    this.lastGrb = grb;
    if (!this.page) return;
    this.ui.onLeds(JSON.parse(this.page.device_colours(this.o.profile, grb, this.level)), this.level);
  }

  message(m) {
    switch (m.ev) {
      case 'ready':
        this.ready = { ...m, page_ms: performance.now() - this.started };
        this.ui.onStatus(`Device mode: CircuitPython runs on the emulated ${m.board} ` +
          `(booted in ${m.boot_ms.toFixed(0)} emulated ms).`);
        break;
      case 'frame':
        this.frames.push([performance.now(), m.grb]);
        if (this.frames.length > 400) this.frames.shift();
        this.showFrame(m.grb);
        break;
      case 'picture':
        this.picture = m.bits;
        this.pictures++;
        this.ui.onPicture(m.bits);
        break;
      case 'nvm':
        this.nvm = m.hex;
        localStorage.setItem(this.o.storageKey, m.hex);
        clearTimeout(this.levelTimer);
        this.levelTimer = setTimeout(() => this.updateLevel(), 1000); // a brightness change
        break;
      case 'console':
        this.console.push(m.line);
        this.ui.onConsole(m.line);
        break;
      case 'speed':
        this.speed = m.speed;
        this.emulatedS = m.emulated_s;
        this.load = { busy: m.busy, idle: m.idle };
        this.loads.push([performance.now(), m.busy, m.idle]);
        if (this.loads.length > 120) this.loads.shift();
        this.ui.onSpeed(m.speed, m.busy);
        break;
      case 'held':
        this.held = m.pins;
        this.ui.onSays(m.pins.length ? ['The board is starting: your press waits until it reads its buttons.'] : []);
        break;
      case 'reboot':
        this.ui.onConsole(`[the board restarted: ${m.reason}]`);
        break;
      case 'error':
        this.ui.onStatus(`Device mode failed: ${m.message.split('\n')[0]}`);
        this.ui.onConsole(m.message);
        break;
      default:
        break;
    }
  }
}

// Device mode, the page's side: the board's drive (drives.json: what `run.py deploy` writes for
// the profile), its firmware and the flash kept in localStorage go to the Web Worker
// (device-worker.js); its pixel pin's frames come back as LEDs (the profile's pixel map and the
// board's brightness, seen as the eye sees them: jarmo_page.py in MicroPython), the OLED's
// picture from its I2C bus, the console, the speed. The firmware says nothing of what its LEDs
// mean, so the page reads that back from each frame, as fast mode words it (jarmo_page.py
// DeviceView: the pieces' letters, the LED-only menu's item, the AI's spinner...), and the rules
// in play (the overlay's marks) from the board's flash.

import { loadPython } from './fast.js';
import * as saves from './saves.js';

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
    this.storage = saves.browserStorage();
    const got = saves.read(this.storage, o.storageKey);
    this.nvm = got.value || '';
    this.storageError = got.error;
    this.persist = !got.error; // the board's flash goes to localStorage (see start)
    this.checked = Promise.resolve(); // the kept flash looked at: until then nothing is written over it
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
    this.view = null; // jarmo_page.DeviceView: the board's frames and flash read back
    this.ledSays = []; // what the LEDs mean, read from the last frame
    this.saidText = null;
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
    if (this.storageError) {
      this.ui.onSaves(`Saves cannot be kept in this browser (${this.storageError}): they last until the page closes.`);
    }
    // The kept flash is looked at (jarmo_page.check_stored) before anything is written over it: one
    // that is not a whole sector waits for the Python, and the board starts from what could be read
    // of it; a whole one boots at once, and its first save waits for the look (this.checked).
    const kept = this.nvm;
    const look = (page) => {
      const found = JSON.parse(page.check_stored(kept));
      if (!found.why) return kept;
      const did = saves.setAsideSaves(this.storage, this.o.storageKey, kept, found.why);
      this.persist = this.persist && did.persist;
      this.ui.onSaves(did.note);
      return found.image;
    };
    if (kept && !saves.isSector(kept)) this.nvm = look(await python);
    else if (kept) this.checked = python.then(look, () => {});
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

  /** The drawing level and the rules in play from the board's own flash (the brightness and the
   * game or the settings in its nvm), read by the App's code (jarmo_page.py DeviceView). */
  updateLevel() {
    if (!this.view) this.view = this.page.DeviceView(this.o.profile);
    const info = JSON.parse(this.view.read_flash(this.nvm));
    this.level = info.level;
    this.ui.onOverlay(info.overlay);
    if (this.lastGrb) this.showFrame(this.lastGrb);
  }

  showFrame(grb) {
    this.lastGrb = grb;
    if (!this.view) return;
    let f;
    try {
      f = JSON.parse(this.view.frame(grb));
    } catch (err) {
      // (the reading back failed, the game's code changed under it: the colours still show)
      console.warn('device mode: the frame not read back:', String(err).split('\n').slice(-2).join(' '));
      f = { leds: JSON.parse(this.page.device_colours(this.o.profile, grb, this.level)), labels: new Array(25).fill(''), says: [] };
    }
    this.ui.onLeds(f.leds, this.level);
    this.ui.onLabels(f.labels);
    this.ledSays = f.says;
    this.says();
  }

  /** What the LEDs mean (read from the frame), unless a press waits for the board to start. */
  says() {
    const lines = this.held.length ? ['The board is starting: your press waits until it reads its buttons.'] : this.ledSays;
    const text = JSON.stringify(lines);
    if (text === this.saidText) return;
    this.saidText = text;
    this.ui.onSays(lines);
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
      case 'nvm': {
        this.nvm = m.hex;
        const hex = m.hex;
        this.checked.then(() => {
          if (!this.persist) return;
          const error = saves.keep(this.storage, this.o.storageKey, hex);
          if (error) {
            this.persist = false; // said once; the kept value stays as it last was
            this.ui.onSaves(`The board's flash could not be kept in this browser (${error}): it lasts until the page closes.`);
          }
        });
        clearTimeout(this.levelTimer);
        this.levelTimer = setTimeout(() => this.updateLevel(), 1000); // a brightness change
        break;
      }
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
        this.says();
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

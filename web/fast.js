// Fast mode: the project's jarmo/ App in MicroPython WebAssembly, driven by a small loop of
// press, tick, frame and text (web/jarmo_page.py does the Python side). Also loads that Python
// for device mode, which shows the pixel pin's bytes through the same colour code.

import * as saves from './saves.js';

let python = null;

/** MicroPython with the project's files in its file system (py/files.json: jarmo/ walked whole,
 * the LED drawing, the colours, jarmo_page.py); resolves to the jarmo_page module. */
export function loadPython() {
  if (python) return python;
  python = (async () => {
    const [{ loadMicroPython }, files] = await Promise.all([
      import('./micropython/micropython.mjs'),
      fetch('py/files.json').then((r) => r.json()),
    ]);
    const mp = await loadMicroPython({
      linebuffer: true,
      stdout: (line) => console.log('[python]', line),
      stderr: (line) => console.warn('[python]', line),
    });
    const made = new Set();
    for (const [path, text] of Object.entries(files)) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const dir = '/' + parts.slice(0, i).join('/');
        if (!made.has(dir)) {
          try {
            mp.FS.mkdir(dir);
          } catch (e) {
            // already there
          }
          made.add(dir);
        }
      }
      mp.FS.writeFile('/' + path, text);
    }
    mp.runPython("import sys\nif '/' not in sys.path:\n    sys.path.insert(0, '/')");
    return mp.pyimport('jarmo_page');
  })();
  return python;
}

const TICK_MS = 16; // the page's pass, idle
const BUSY_MS = 12; // of each pass, at most this long ticking while an AI thinks

/** One handheld in the page: the App, its LEDs and text, its store in localStorage. */
export class FastMode {
  /**
   * @param {object} ui onLeds(colours), onText(lines), onStatus(text), onState(update)
   * @param {object} o profile, seed, storageKey
   */
  constructor(ui, o) {
    this.ui = ui;
    this.o = o;
    this.hh = null;
    this.timer = null;
    this.stopped = false;
    this.thinkingSince = null;
    this.busy = true; // the last pass said an AI thinks (or the App is not made yet)
    this.persist = true; // the board's saves go to localStorage (not when its old value could not be set aside)
    this.storage = null;
    this.aiTurns = []; // ms each AI turn thought, as the page measured it
    this.last = { leds: null, frame: null, text: [], state: null, level: null };
  }

  async start() {
    const page = await loadPython();
    if (this.stopped) return;
    // the kept sector is looked at before anything is written over it (saves.js)
    const storage = saves.browserStorage();
    const got = saves.read(storage, this.o.storageKey);
    const nvm = got.value || '';
    const found = JSON.parse(page.check_stored(nvm));
    let aside = '';
    this.persist = !got.error;
    if (got.error) this.ui.onSaves(`Saves cannot be kept in this browser (${got.error}): they last until the page closes.`);
    if (found.why) {
      const did = saves.setAsideSaves(storage, this.o.storageKey, nvm, found.why);
      aside = did.aside;
      this.persist = this.persist && did.persist;
      this.ui.onSaves(did.note);
    }
    this.storage = storage;
    this.hh = page.Handheld(this.o.profile, nvm, this.o.seed, aside);
    this.ui.onStatus(`Fast mode: ${this.o.profile === 'host' ? 'the handheld' : this.o.profile}, ` +
      'the project\'s code in MicroPython WebAssembly; saves stay in this browser.');
    this.pass();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  now() {
    return Math.floor(performance.now()) & 0x1fffffff;
  }

  press(button, player = 0) {
    if (!this.hh) return;
    this.ui.onNote('');
    this.hh.press(button, player);
    clearTimeout(this.timer);
    this.pass();
  }

  /** The profile's own key k (a three-button board's) down or let go, read as the board's code
   * reads its keys (a hold gives its long name: jarmo_page.py Handheld.key). */
  keyDown(k) {
    this.key(k, true);
  }

  keyUp(k) {
    this.key(k, false);
  }

  key(k, down) {
    if (!this.hh) return;
    if (down) this.ui.onNote('');
    this.hh.key(k, down);
    clearTimeout(this.timer);
    this.pass();
  }

  /** A point of the board tapped (0..24, a1 first): picked as the buttons would (jarmo_page.py);
   * the refusal's words ('' when it picked). */
  tap(point) {
    if (!this.hh) return '';
    const refused = this.hh.tap(point);
    clearTimeout(this.timer);
    this.pass();
    return refused;
  }

  howToPlay() {
    if (this.hh) this.hh.how_to_play();
  }

  pass() {
    if (this.stopped) return;
    const start = performance.now();
    let busy;
    try {
      busy = this.hh.tick(this.now());
      while (busy && performance.now() - start < BUSY_MS) busy = this.hh.tick(this.now());
      this.busy = busy;
      const text = this.hh.update();
      if (text) this.apply(JSON.parse(text));
    } catch (err) {
      this.ui.onStatus(`The game stopped: ${String(err).split('\n').slice(-2).join(' ')} (Restart starts it again).`);
      console.error(err);
      return;
    }
    this.timer = setTimeout(() => this.pass(), busy ? 0 : TICK_MS);
  }

  apply(u) {
    if (u.leds) {
      this.last.leds = u.leds;
      this.last.frame = u.frame;
      this.last.level = u.level;
      this.ui.onLeds(u.leds, u.level);
    }
    if (u.text) {
      this.last.text = u.text;
      this.ui.onText(u.text);
    }
    if (u.state) this.last.state = u.state;
    if (u.says) this.ui.onSays(u.says);
    if (u.labels) this.ui.onLabels(u.labels);
    if (u.overlay) this.ui.onOverlay(u.overlay);
    if ('thinking' in u) {
      if (u.thinking) this.thinkingSince = performance.now();
      else if (this.thinkingSince !== null) {
        this.aiTurns.push(performance.now() - this.thinkingSince);
        this.thinkingSince = null;
      }
    }
    if (u.nvm && this.persist) {
      const error = saves.keep(this.storage, this.o.storageKey, u.nvm);
      if (error) {
        this.persist = false; // said once; the kept value stays as it last was
        this.ui.onSaves(`The saves could not be kept in this browser (${error}): they last until the page closes.`);
      }
    }
    this.ui.onState(u);
  }

  /** The running game's actions (for tests). */
  history() {
    return this.hh ? JSON.parse(this.hh.game()) : null;
  }
}

// The page: the board (the printed overlay, its 25 LEDs lit), the display, the buttons by click,
// touch and keyboard, and the mode: fast (fast.js) or device (device.js).

import { FastMode } from './fast.js';
import { DeviceMode } from './device.js';
import * as saves from './saves.js';

const config = JSON.parse(document.getElementById('config').textContent);
const BUTTONS = config.buttons; // jarmo/app_buttons.py NAMES: the code of a button is its index
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// The keyboard, as the terminal simulator reads it (docs/PLAYING.md, "In the terminal").
const KEYS = {
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  Tab: 'next', Enter: 'select', ' ': 'select', Escape: 'back', Backspace: 'back',
  m: 'menu', M: 'menu', n: 'next', p: 'prev',
};
const KEY_LABEL = { up: '↑', down: '↓', left: '←', right: '→', next: 'Tab', prev: 'Shift-Tab', select: 'Enter', back: 'Esc', menu: 'M' };
// the nine buttons of the PC handheld, as a pad
const PAD = ['prev', 'up', 'next', 'left', 'select', 'right', 'back', 'down', 'menu'];

const ledOf = [];
for (let p = 0; p < 25; p++) {
  const name = 'abcde'[p % 5] + (Math.floor(p / 5) + 1);
  ledOf.push(document.querySelector(`#board circle.led[data-point="${name}"]`));
}

// On each point: the piece's letter (the terminal simulator's: A archer, G guard, M marked,
// S Golden Soldier, T its archer face; South upper case), since on the LEDs South's archer and
// guard differ only in shade; and its touch target, a square as wide as the points are apart:
// on a phone the LED's circle is about 32 CSS px, under the 44 px a finger needs, where the
// square is over 50. The square carries the point's name for a screen reader.
const SVG = 'http://www.w3.org/2000/svg';
const letterOf = [];
{
  const pitch = ledOf[1].cx.baseVal.value - ledOf[0].cx.baseVal.value;
  const letters = document.createElementNS(SVG, 'g');
  letters.setAttribute('class', 'letters');
  letters.setAttribute('aria-hidden', 'true'); // (each point's name says its piece: see onLabels)
  const hits = document.createElementNS(SVG, 'g');
  hits.setAttribute('class', 'hits');
  for (const el of ledOf) {
    const x = el.cx.baseVal.value;
    const y = el.cy.baseVal.value;
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('x', x);
    t.setAttribute('y', y);
    t.setAttribute('font-size', (el.r.baseVal.value * 1.3).toFixed(3));
    letters.appendChild(t);
    letterOf.push(t);
    const hit = document.createElementNS(SVG, 'rect');
    hit.setAttribute('class', 'hit');
    hit.setAttribute('x', x - pitch / 2);
    hit.setAttribute('y', y - pitch / 2);
    hit.setAttribute('width', pitch);
    hit.setAttribute('height', pitch);
    hit.dataset.point = el.dataset.point;
    hit.setAttribute('role', 'button');
    hit.setAttribute('aria-label', el.getAttribute('aria-label') || el.dataset.point);
    el.removeAttribute('role');
    el.removeAttribute('aria-label');
    hits.appendChild(hit);
  }
  $('board').append(letters, hits);
}

// A point's letters in words, for a screen reader: "aT" is North's archer holding South's Golden
// Soldier (archer face) hostage (host/legend.py's letters, top piece first).
const LETTER_WORDS = { A: 'archer', G: 'guard', M: 'marked archer', S: 'Golden Soldier', T: 'Golden Soldier (archer face)' };
function pieceWords(label) {
  const words = [...label].map((c) => `${c === c.toUpperCase() ? 'South' : 'North'} ${LETTER_WORDS[c.toUpperCase()] || c}`);
  return words.length > 1 ? `${words[0]}, holding ${words.slice(1).join(', ')}` : words[0];
}

// The legend's piece colours with their letters too, as the board shows them (config.legend_letters:
// tools/web.py, one per row of the legend, "" for a row that is no piece)
document.querySelectorAll('.legend .swatch').forEach((sw, i) => {
  const letter = (config.legend_letters || [])[i];
  if (letter) {
    sw.textContent = letter;
    sw.classList.add('lettered');
    // dark on a bright swatch, light on a dark one (as on the board's LEDs)
    const [r, g, b] = getComputedStyle(sw).backgroundColor.match(/\d+/g).map(Number);
    sw.classList.toggle('on-dark', 0.2126 * r + 0.7152 * g + 0.0722 * b <= 110);
  }
});

const jarmo = (window.jarmo = { config, timing: { board: null }, leds: null, text: [], picture: null, mode: null, saves: [] });
let mode = null;
let modeName = null;
let profileName = null;

const ui = {
  onLeds(colours, level) {
    jarmo.leds = colours;
    if (level !== undefined && level !== null) {
      $('board').style.setProperty('--glow-size', `${(0.15 + (0.85 * level) / 255).toFixed(2)}px`);
    }
    if (jarmo.timing.board === null) jarmo.timing.board = performance.now();
    colours.forEach((c, p) => {
      const el = ledOf[p];
      const hex = c.toString(16).padStart(6, '0');
      el.dataset.rgb = hex;
      // the letter dark on a bright LED, light on a dim one (or on none)
      const luma = 0.2126 * (c >> 16) + 0.7152 * ((c >> 8) & 255) + 0.0722 * (c & 255);
      letterOf[p].classList.toggle('on-bright', luma > 110);
      if (c) {
        el.style.fill = '#' + hex;
        el.style.setProperty('--glow', '#' + hex);
        el.classList.add('lit');
      } else {
        el.style.fill = '';
        el.classList.remove('lit');
      }
    });
  },
  onText(lines) {
    jarmo.text = lines;
    $('oled-text').textContent = lines.join('\n');
  },
  onPicture(bits) {
    jarmo.picture = bits;
    const canvas = $('oled-canvas');
    const ctx = canvas.getContext('2d');
    const image = ctx.createImageData(128, 64);
    for (let i = 0; i < bits.length; i++) {
      const on = bits[i];
      image.data.set(on ? [0x9f, 0xd7, 0xff, 255] : [0, 0, 0, 255], i * 4);
    }
    ctx.putImageData(image, 0, 0);
  },
  onConsole(line) {
    const box = $('console');
    $('console-box').hidden = false;
    box.textContent += line + '\n';
    if (box.textContent.length > 20000) box.textContent = box.textContent.slice(-15000);
    box.scrollTop = box.scrollHeight;
  },
  onStatus(text) {
    jarmo.status = text;
    $('status').textContent = text + (jarmo.speed ? speedText() : '') + savesText();
  },
  onSpeed(speed, busy) {
    jarmo.speed = speed;
    jarmo.busy = busy;
    $('status').textContent = (jarmo.status || '') + speedText() + savesText();
  },
  // what happened to a value kept in this browser (saves.js): stays under the status until a restart
  onSaves(note) {
    jarmo.saves.push(note);
    console.warn(note);
    $('status').textContent = (jarmo.status || '') + (jarmo.speed ? speedText() : '') + savesText();
  },
  onState() {},
  onSays(lines) {
    jarmo.says = lines;
    jarmo.note = '';
    $('leds-say').textContent = lines.join(' ');
  },
  // a word of the page's own (a refused tap), shown where the LEDs' meaning is until the next one
  onNote(text) {
    jarmo.note = text;
    $('leds-say').textContent = text || (jarmo.says || []).join(' ');
  },
  // the pieces' letters (fast mode: the App's position; device mode: read from the colours)
  onLabels(labels) {
    if (jarmo.labels && labels.join() === jarmo.labels.join()) return; // (device mode: every frame)
    jarmo.labels = labels;
    labels.forEach((l, p) => {
      letterOf[p].textContent = l;
      const name = ledOf[p].dataset.point;
      document.querySelector(`#board .hit[data-point="${name}"]`).setAttribute('aria-label', l ? `${name}: ${pieceWords(l)}` : name);
    });
  },
  // only the marks of the overlay that the rules in play use, and in words
  // (null: not known yet, none drawn)
  onOverlay(o) {
    jarmo.overlay = o;
    $('board').classList.toggle('no-dotted', !o || !o.dotted);
    $('board').classList.toggle('no-rings', !o || !o.rings);
    if (!o) {
      $('overlay-say').textContent = '';
      return;
    }
    const rules = o.rules + (o.expansions.length ? ` with ${o.expansions.join(' and ')}` : '');
    const marks = [];
    if (o.dotted) marks.push('the dotted line c3-b5 is a line of jasyr');
    if (o.rings) marks.push('the rings on b3 and d3 are the remote camps of challenges');
    $('overlay-say').textContent = `Board drawn for ${rules}: ${marks.length ? `the 38 lines; ${marks.join('; ')}` : 'its 38 lines (no dotted line, no rings)'}.`;
  },
};

function savesText() {
  return jarmo.saves.length ? ` ${jarmo.saves.join(' ')}` : '';
}

function speedText() {
  const busy = jarmo.busy === undefined ? '' : `; the emulator works ${Math.round(jarmo.busy * 100)} % of the time`;
  return ` Emulated speed: ${jarmo.speed.toFixed(2)}× real time${busy}.`;
}

// ---------------------------------------------------------------- the buttons

function button(label, key, down, up) {
  const b = document.createElement('button');
  b.type = 'button';
  b.innerHTML = label;
  if (key) {
    const k = document.createElement('kbd');
    k.textContent = key;
    b.appendChild(k);
  }
  b.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    b.classList.add('down');
    b.setPointerCapture(e.pointerId);
    down();
  });
  const release = () => {
    if (!b.classList.contains('down')) return;
    b.classList.remove('down');
    if (up) up();
  };
  b.addEventListener('pointerup', release);
  b.addEventListener('pointercancel', release);
  b.addEventListener('contextmenu', (e) => e.preventDefault());
  return b;
}

function seat(text) {
  const s = document.createElement('div');
  s.className = 'seat';
  s.textContent = text;
  return s;
}

function fastButtons() {
  const box = $('buttons');
  box.replaceChildren();
  if (config.profiles[profileName].keys.length) {
    // a board with buttons of its own (three, or a tabletop's two sets): those, as on the board
    ownButtons();
    $('keys-help').textContent = 'Tap a point to pick it. Keys: each button\'s letter (upper case: held), or ' +
      'Tab NEXT, Shift-Tab PREV, Enter SELECT, Esc BACK, M MENU as the board\'s buttons give them; ? how to play, R the rules.';
    return;
  }
  const tabletop = config.profiles[profileName].tabletop;
  if (tabletop) box.appendChild(seat('Player 1 (South side of the table)'));
  for (const name of PAD) box.appendChild(button(name.toUpperCase(), KEY_LABEL[name], () => mode.press(BUTTONS.indexOf(name), 0)));
  if (tabletop) {
    box.appendChild(seat('Player 2 (North side)'));
    for (const name of PAD) box.appendChild(button(name.toUpperCase(), '', () => mode.press(BUTTONS.indexOf(name), 1)));
  }
  $('keys-help').textContent = 'Tap a point to pick it. Keys: arrows, Tab NEXT, Shift-Tab PREV, Enter SELECT, ' +
    'Esc BACK, M MENU; ? how to play, R the rules.';
}

// The profile's own buttons (hardware/profiles.py keys: label, pin, seat, short, long), in either
// mode: in device mode a button is its pin, in fast mode the key the board's code reads (jarmo_page.py).
function ownButtons() {
  const box = $('buttons');
  const prof = config.profiles[profileName];
  let lastSeat = -1;
  prof.keys.forEach(([label, pin, seatNo, short, long], i) => {
    if (prof.tabletop && seatNo !== lastSeat) box.appendChild(seat(`Player ${seatNo + 1}`));
    lastSeat = seatNo;
    const text = `${short.toUpperCase()}${long ? `<small> · hold: ${long.toUpperCase()}</small>` : ''}`;
    box.appendChild(button(text, `${label} (${pin})`, () => keyDown(i), () => keyUp(i)));
  });
}

function deviceButtons() {
  $('buttons').replaceChildren();
  ownButtons();
  $('keys-help').textContent = 'Keys: each button\'s letter (held: held), or arrows, Tab NEXT, Shift-Tab PREV, ' +
    'Enter SELECT, Esc BACK, M MENU as the board\'s buttons give them.';
}

function keyDown(i) {
  if (modeName === 'fast') mode.keyDown(i);
  else mode.pin(config.profiles[profileName].keys[i][1], 0);
}

function keyUp(i) {
  if (modeName === 'fast') mode.keyUp(i);
  else mode.pin(config.profiles[profileName].keys[i][1], null);
}

// key i held long enough for its long name
function holdKey(i) {
  const prof = config.profiles[profileName];
  const k = prof.keys[i];
  if (modeName === 'fast') mode.press(BUTTONS.indexOf(k[4]), k[2]);
  else mode.tap(k[1], prof.long_ms + 150);
}

// a button name to the profile's key (its index) that gives it: short press, else held
function boardKey(name) {
  const keys = config.profiles[profileName].keys;
  for (let i = 0; i < keys.length; i++) if (keys[i][3] === name && keys[i][2] === 0) return { i, hold: false };
  for (let i = 0; i < keys.length; i++) if (keys[i][4] === name && keys[i][2] === 0) return { i, hold: true };
  return null;
}

const held = new Map(); // keyboard key -> the profile's key (index) held down

document.addEventListener('keydown', (e) => {
  if (e.target.closest('select, input, textarea') || e.ctrlKey || e.altKey || e.metaKey) return;
  if (e.key === 'r' || e.key === 'R') {
    $('rules').open = true;
    $('rules').scrollIntoView();
    return;
  }
  if (!mode) return;
  let name = e.key === 'Tab' && e.shiftKey ? 'prev' : KEYS[e.key];
  const prof = config.profiles[profileName];
  if (modeName === 'fast' && (e.key === '?' || !prof.keys.length)) {
    // the PC handheld's nine buttons (and how to play, in either)
    if (e.key === '?') mode.howToPlay();
    else if (name) mode.press(BUTTONS.indexOf(name), 0);
    else return;
    e.preventDefault();
    return;
  }
  // a board's own buttons: a key by its label is that button; the others as the board's buttons give them
  const own = prof.keys.findIndex((k) => k[0] === e.key.toLowerCase());
  if (own >= 0 && !/^[mnp]$/.test(e.key.toLowerCase())) name = null;
  const key = name && boardKey(name);
  if (own < 0 && !key) return;
  e.preventDefault();
  if (e.repeat) return;
  if (own >= 0 && !name) {
    if (e.key !== e.key.toLowerCase()) holdKey(own); // upper case: held
    else {
      keyDown(own);
      held.set(e.key.toLowerCase(), own);
    }
    return;
  }
  if (key.hold) holdKey(key.i);
  else {
    keyDown(key.i);
    held.set(e.key, key.i);
  }
});

document.addEventListener('keyup', (e) => {
  for (const k of [e.key, e.key.toLowerCase()]) {
    if (held.has(k) && mode) {
      keyUp(held.get(k));
      held.delete(k);
    }
  }
});

// ---------------------------------------------------------------- the board, tapped

// A tap picks the LED nearest to it (within half the distance between two), so a
// finger need not hit the small circle itself.
function pointAt(x, y) {
  let best = -1;
  let bestD = Infinity;
  ledOf.forEach((el, p) => {
    const r = el.getBoundingClientRect();
    const d = Math.hypot(r.x + r.width / 2 - x, r.y + r.height / 2 - y);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  });
  const a = ledOf[0].getBoundingClientRect();
  const b = ledOf[1].getBoundingClientRect();
  return bestD <= (b.x - a.x) / 2 ? best : -1;
}

$('board').addEventListener('click', (e) => {
  // a point's square (its touch target) is that point, to its corners; elsewhere the nearest LED
  const hit = e.target.closest && e.target.closest('.hit');
  const p = hit ? ledOf.findIndex((el) => el.dataset.point === hit.dataset.point) : pointAt(e.clientX, e.clientY);
  if (p < 0 || !mode) return;
  if (modeName === 'fast') ui.onNote(mode.tap(p));
  else ui.onNote('The emulated board has only its buttons: tap its points in fast mode.');
});

// ---------------------------------------------------------------- modes and boards

function profileOptions() {
  const select = $('profile');
  select.replaceChildren();
  for (const [name, p] of Object.entries(config.profiles)) {
    if (modeName === 'device' && !p.board_id) continue;
    const o = document.createElement('option');
    o.value = name;
    // short (the list is as wide as its longest entry, and the column beside the board is
    // narrow): the profile and its microcontroller board; the whole description is under the list
    o.textContent = name === 'host' ? 'PC handheld: nine buttons' : `${name}: ${p.board.split(' + ')[0]}`;
    if (modeName === 'device' && !config.firmware.includes(p.board_id)) {
      o.disabled = true;
      o.textContent = `${name}: no firmware here`;
    }
    select.appendChild(o);
  }
}

function choose(newMode, newProfile) {
  if (mode) mode.stop();
  modeName = newMode === 'device' ? 'device' : 'fast';
  $('mode').value = modeName;
  profileOptions();
  const fallback = modeName === 'fast' ? 'host' : [...$('profile').options].find((o) => !o.disabled)?.value;
  profileName = newProfile && config.profiles[newProfile] && (modeName === 'fast' || config.profiles[newProfile].board_id)
    ? newProfile : fallback;
  $('profile').value = profileName;
  const storage = saves.browserStorage();
  saves.keep(storage, 'jarmo.mode', modeName); // (a page that may keep nothing still plays)
  saves.keep(storage, `jarmo.profile.${modeName}`, profileName);
  const url = new URL(location.href);
  url.searchParams.set('mode', modeName);
  url.searchParams.set('profile', profileName);
  history.replaceState(null, '', url);
  const prof = config.profiles[profileName];
  $('board-about').textContent = profileName === 'host'
    ? 'The PC handheld: the display, the 5x5 LEDs and all nine buttons.'
    : `${prof.board}${modeName === 'device' && !config.firmware.includes(prof.board_id) ? '; no firmware for it on this site' : ''}.`;
  const display = modeName === 'fast' ? profileName === 'host' || prof.display : prof.display;
  $('oled').hidden = !display;
  $('oled-text').hidden = modeName !== 'fast';
  $('oled-canvas').hidden = modeName === 'fast';
  $('oled-text').textContent = '';
  ui.onLeds(new Array(25).fill(0));
  ui.onSays([]);
  ui.onLabels(new Array(25).fill(''));
  ui.onOverlay(null);
  jarmo.timing.board = null;
  jarmo.speed = null;
  jarmo.saves = [];
  const storageKey = `jarmo.${modeName}.${profileName}.nvm`;
  if (modeName === 'fast') {
    const seed = params.has('seed') ? Number(params.get('seed')) : crypto.getRandomValues(new Uint32Array(1))[0] & 0x3fffffff;
    mode = new FastMode(ui, { profile: profileName, seed, storageKey });
    fastButtons();
  } else {
    // ?idle=DIM,OFF,SLEEP: the board's idle times in seconds (settings.toml's
    // JARMO_DIM_S, JARMO_OFF_S, JARMO_SLEEP_S), to see it dim, go dark and sleep sooner
    const idle = params.has('idle') ? params.get('idle').split(',').map(Number) : null;
    mode = new DeviceMode(ui, { profile: profileName, config, storageKey, idle });
    deviceButtons();
  }
  jarmo.mode = mode;
  jarmo.modeName = modeName;
  mode.start().catch((err) => ui.onStatus(`Failed to start: ${err}`));
}

// The kept choices: a value that is none the page knows is set aside (saves.js), not written over unsaid.
const keptChoice = (key, allowed) => saves.choice(saves.browserStorage(), key, allowed);
const profileNames = Object.keys(config.profiles);
// After a choice the keys go to the handheld: a list that kept the focus would take the next
// arrow key as another choice (another board, started afresh) and Enter would never reach the game.
function chosen(newMode, newProfile) {
  choose(newMode, newProfile);
  $('handheld').focus({ preventScroll: true });
}
$('mode').addEventListener('change', () => chosen($('mode').value, keptChoice(`jarmo.profile.${$('mode').value}`, profileNames).value));
$('profile').addEventListener('change', () => chosen(modeName, $('profile').value));
$('restart').addEventListener('click', () => chosen(modeName, profileName));

const keptMode = keptChoice('jarmo.mode', ['fast', 'device']);
const startMode = params.get('mode') || keptMode.value || 'fast';
const keptProfile = keptChoice(`jarmo.profile.${startMode === 'device' ? 'device' : 'fast'}`, profileNames);
choose(startMode, params.get('profile') || keptProfile.value);
for (const note of [keptMode.note, keptProfile.note]) if (note) ui.onSaves(note);

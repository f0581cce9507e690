// The page: the board (the printed overlay, its 25 LEDs lit), the display, the buttons by click,
// touch and keyboard, and the mode: fast (fast.js) or device (device.js).

import { FastMode } from './fast.js';
import { DeviceMode } from './device.js';

const config = JSON.parse(document.getElementById('config').textContent);
const BUTTONS = config.buttons; // jarmo/app_buttons.py NAMES: the code of a button is its index
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// The keyboard, as the terminal simulator reads it (README.md, "Playing in the terminal").
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

const jarmo = (window.jarmo = { config, timing: { board: null }, leds: null, text: [], picture: null, mode: null });
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
    $('status').textContent = text + (jarmo.speed ? speedText() : '');
  },
  onSpeed(speed, busy) {
    jarmo.speed = speed;
    jarmo.busy = busy;
    $('status').textContent = (jarmo.status || '') + speedText();
  },
  onState() {},
  onSays(lines) {
    $('leds-say').textContent = lines.join(' ');
  },
};

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

function deviceButtons() {
  const box = $('buttons');
  box.replaceChildren();
  const prof = config.profiles[profileName];
  let lastSeat = -1;
  for (const [label, pin, seatNo, short, long] of prof.keys) {
    if (prof.tabletop && seatNo !== lastSeat) box.appendChild(seat(`Player ${seatNo + 1}`));
    lastSeat = seatNo;
    const text = `${short.toUpperCase()}${long ? `<small> · hold: ${long.toUpperCase()}</small>` : ''}`;
    box.appendChild(button(text, `${label} (${pin})`, () => mode.pin(pin, 0), () => mode.pin(pin, null)));
  }
  $('keys-help').textContent = 'Keys: each button\'s letter (held: held), or arrows, Tab NEXT, Shift-Tab PREV, ' +
    'Enter SELECT, Esc BACK, M MENU as the board\'s buttons give them.';
}

// device mode: a button name to the profile's key that gives it (short press, else held)
function deviceKey(name) {
  const prof = config.profiles[profileName];
  for (const k of prof.keys) if (k[3] === name && k[2] === 0) return { pin: k[1], hold: 0 };
  for (const k of prof.keys) if (k[4] === name && k[2] === 0) return { pin: k[1], hold: prof.long_ms + 150 };
  return null;
}

const held = new Map(); // keyboard key -> pin held down (device mode)

document.addEventListener('keydown', (e) => {
  if (e.target.closest('select, input, textarea') || e.ctrlKey || e.altKey || e.metaKey) return;
  if (e.key === 'r' || e.key === 'R') {
    $('rules').open = true;
    $('rules').scrollIntoView();
    return;
  }
  if (!mode) return;
  let name = e.key === 'Tab' && e.shiftKey ? 'prev' : KEYS[e.key];
  if (modeName === 'fast') {
    if (e.key === '?') mode.howToPlay();
    else if (name) mode.press(BUTTONS.indexOf(name), 0);
    else return;
    e.preventDefault();
    return;
  }
  // device mode: a key by its label holds that button; the others as the board's buttons give them
  const prof = config.profiles[profileName];
  const own = prof.keys.find((k) => k[0] === e.key.toLowerCase());
  if (own && !/^[mnp]$/.test(e.key.toLowerCase())) name = null;
  const key = name && deviceKey(name);
  if (!own && !key) return;
  e.preventDefault();
  if (e.repeat) return;
  if (own && !name) {
    if (e.key !== e.key.toLowerCase()) mode.tap(own[1], prof.long_ms + 150); // upper case: held
    else {
      mode.pin(own[1], 0);
      held.set(e.key.toLowerCase(), own[1]);
    }
    return;
  }
  if (key.hold) mode.tap(key.pin, key.hold);
  else {
    mode.pin(key.pin, 0);
    held.set(e.key, key.pin);
  }
});

document.addEventListener('keyup', (e) => {
  for (const k of [e.key, e.key.toLowerCase()]) {
    if (held.has(k) && mode && modeName === 'device') {
      mode.pin(held.get(k), null);
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
  const p = pointAt(e.clientX, e.clientY);
  if (p < 0 || !mode) return;
  if (modeName === 'fast') mode.tap(p);
  else ui.onSays(['The emulated board has only its buttons: tap its points in fast mode.']);
});

// ---------------------------------------------------------------- modes and boards

function profileOptions() {
  const select = $('profile');
  select.replaceChildren();
  for (const [name, p] of Object.entries(config.profiles)) {
    if (modeName === 'device' && !p.board_id) continue;
    const o = document.createElement('option');
    o.value = name;
    o.textContent = name === 'host' ? 'the handheld, all nine buttons' : `${name}: ${p.board}`;
    if (modeName === 'device' && !config.firmware.includes(p.board_id)) {
      o.disabled = true;
      o.textContent += ' (no firmware on this site)';
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
  localStorage.setItem('jarmo.mode', modeName);
  localStorage.setItem(`jarmo.profile.${modeName}`, profileName);
  const url = new URL(location.href);
  url.searchParams.set('mode', modeName);
  url.searchParams.set('profile', profileName);
  history.replaceState(null, '', url);
  const prof = config.profiles[profileName];
  const display = modeName === 'fast' ? profileName === 'host' || prof.display : prof.display;
  $('oled').hidden = !display;
  $('oled-text').hidden = modeName !== 'fast';
  $('oled-canvas').hidden = modeName === 'fast';
  $('oled-text').textContent = '';
  ui.onLeds(new Array(25).fill(0));
  ui.onSays([]);
  jarmo.timing.board = null;
  jarmo.speed = null;
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

$('mode').addEventListener('change', () => choose($('mode').value, localStorage.getItem(`jarmo.profile.${$('mode').value}`)));
$('profile').addEventListener('change', () => choose(modeName, $('profile').value));
$('restart').addEventListener('click', () => choose(modeName, profileName));

const startMode = params.get('mode') || localStorage.getItem('jarmo.mode') || 'fast';
choose(startMode, params.get('profile') || localStorage.getItem(`jarmo.profile.${startMode}`));

// What the page keeps in the browser (localStorage): each board's flash (hex, jarmo.MODE.PROFILE.nvm),
// the mode and the board last chosen. A browser's storage can be cleared in part, edited by hand,
// written by another version of the page, full, or refused (a private window): as the simulator does
// with jarmo.nvm (host/saves.py), a kept value that cannot be read whole is kept under another key
// (KEY.bad-YYYYmmdd-HHMMSS, -2, -3 ... never over an earlier copy) before anything is written over it,
// and named on the page; what could be read of it is used. Pure functions over a Storage, so that
// tests/hardware/test_pc_saves.py runs them in Node.

export const SECTOR_HEX = 8192; // a 4 KB sector as the page keeps it: 2 hex digits a byte

/** The browser's localStorage, or null where the page may not use it (its access throws). */
export function browserStorage() {
  try {
    return globalThis.localStorage || null;
  } catch (e) {
    return null;
  }
}

/** Why a Storage call failed, in a player's words. */
export function why(err) {
  const name = err && err.name;
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') return "the browser's storage is full";
  if (name === 'SecurityError') return 'this browser does not let the page keep anything';
  return String((err && err.message) || err);
}

/** {value (string or null), error ('' or why)} of a key. */
export function read(storage, key) {
  if (!storage) return { value: null, error: 'this browser does not let the page keep anything' };
  try {
    return { value: storage.getItem(key), error: '' };
  } catch (e) {
    return { value: null, error: why(e) };
  }
}

/** Keep value under key: '' or why it could not be kept. */
export function keep(storage, key, value) {
  if (!storage) return 'this browser does not let the page keep anything';
  try {
    storage.setItem(key, value);
    return '';
  } catch (e) {
    return why(e);
  }
}

/** YYYYmmdd-HHMMSS of a Date, local time (as the simulator names its copies). */
export function stamp(when) {
  const p = (n) => String(n).padStart(2, '0');
  return `${when.getFullYear()}${p(when.getMonth() + 1)}${p(when.getDate())}-` +
    `${p(when.getHours())}${p(when.getMinutes())}${p(when.getSeconds())}`;
}

/** True for hex text of a whole sector (what the page writes). */
export function isSector(value) {
  return typeof value === 'string' && value.length === SECTOR_HEX && /^[0-9a-fA-F]*$/.test(value);
}

/**
 * Keep value (key's, not readable whole) under KEY.bad-YYYYmmdd-HHMMSS, a free name, byte for byte.
 * Returns {copy (the key, or '' if it could not be kept), error ('' or why)}. Key itself is left as it
 * is: the page writes what could be read of it there next, once the copy is kept.
 */
export function setAside(storage, key, value, when = new Date()) {
  const base = `${key}.bad-${stamp(when)}`;
  let name = base;
  for (let n = 2; ; n++) {
    const there = read(storage, name);
    if (there.error) return { copy: '', error: there.error };
    if (there.value === null) break;
    name = `${base}-${n}`;
  }
  const error = keep(storage, name, value);
  if (error) return { copy: '', error };
  if (read(storage, name).value !== value) return { copy: '', error: 'the copy did not read back the same' };
  return { copy: name, error: '' };
}

/**
 * A kept choice (the mode, a board's name): {value: the kept value if it is one of `allowed`, else
 * null; note: '' or the words that say it was set aside}. A value that is none of them is kept under
 * another key first, as the page writes its choice over it.
 */
export function choice(storage, key, allowed, when = new Date()) {
  const got = read(storage, key);
  if (got.value === null || allowed.includes(got.value)) return { value: got.value, note: '' };
  const aside = setAside(storage, key, got.value, when);
  const shown = JSON.stringify(got.value.length > 40 ? `${got.value.slice(0, 40)}…` : got.value);
  return {
    value: null,
    note: aside.copy
      ? `The kept ${key} ${shown} is none the page knows: set aside as ${aside.copy}.`
      : `The kept ${key} ${shown} is none the page knows, and could not be set aside (${aside.error}).`,
  };
}

/**
 * What the page does with a board's kept flash that check() (jarmo_page.check_stored in Python)
 * names: {aside: 'kept' | 'lost', persist (keep the board's saves this time), note (the page's
 * words)}. `what` is the check's why.
 */
export function setAsideSaves(storage, key, value, what, when = new Date()) {
  const aside = setAside(storage, key, value, when);
  if (aside.copy) {
    return {
      aside: 'kept',
      persist: true,
      note: `The saves kept in this browser (${key}) were ${what}: set aside as ${aside.copy}; ` +
        'what could be read of them is used.',
    };
  }
  return {
    aside: 'lost',
    persist: false,
    note: `The saves kept in this browser (${key}) were ${what}, and could not be set aside ` +
      `(${aside.error}): they are left as they are, and this page's saves last until it closes.`,
  };
}

// In-place snapshots of an emulated board: its state now, put back later into the same objects.
//
// take(root, skip) walks every object reachable from `root` (the Machine: the rp2040js chip,
// its core, peripherals, clock and alarms, the harness's models) and records each one's own
// properties, each array's items, each Map's and Set's entries and each ArrayBuffer's bytes.
// restore(snapshot) writes them all back into the very same objects, and drops properties
// added since, so every reference between them (an alarm's callback, a listener bound to a
// peripheral) is right again. Functions are kept as they are, not walked: state held in a
// closure's variables is not recorded, and the harness keeps none that changes (see
// README.md, "Warm boots"). `skip` holds objects left out: the session's own (its hooks, the
// wear counts kept across power cycles) and the flash's buffer, which the session sets itself.
// Objects this cannot record (a WeakMap, a Promise) make take() throw.

const TYPED = Object.getPrototypeOf(Uint8Array);

/** What `value` refers to that the walk must visit, for each of its kinds. */
function visit(value, seen, skip, order) {
  if (value === null || typeof value !== 'object' || seen.has(value) || skip.has(value)) return; // (not functions)
  seen.add(value);
  order.push(value);
}

function record(obj, seen, skip, order) {
  if (obj instanceof ArrayBuffer) return { kind: 'buffer', obj, bytes: new Uint8Array(obj).slice() };
  if (obj instanceof TYPED || obj instanceof DataView) {
    visit(obj.buffer, seen, skip, order);
    return null; // a view holds no state of its own: its buffer does
  }
  if (obj instanceof Map) {
    const entries = [...obj.entries()];
    for (const [k, v] of entries) {
      visit(k, seen, skip, order);
      visit(v, seen, skip, order);
    }
    return { kind: 'map', obj, entries };
  }
  if (obj instanceof Set) {
    const items = [...obj];
    for (const v of items) visit(v, seen, skip, order);
    return { kind: 'set', obj, items };
  }
  if (obj instanceof WeakMap || obj instanceof WeakSet || obj instanceof Promise || obj instanceof WeakRef) {
    throw new Error(`snapshot: cannot record a ${obj.constructor.name}`);
  }
  const keys = Reflect.ownKeys(obj);
  const values = new Array(keys.length);
  const setters = [];
  for (let i = 0; i < keys.length; i++) {
    const d = Object.getOwnPropertyDescriptor(obj, keys[i]);
    if ('value' in d) {
      values[i] = d.value;
    } else {
      // an accessor of the harness's (a PIO block's `stopped`): its value now, set back last
      values[i] = d.get ? d.get.call(obj) : undefined;
      if (d.set) setters.push(i);
    }
    visit(values[i], seen, skip, order);
  }
  return { kind: 'object', obj, keys, values, setters, isArray: Array.isArray(obj) };
}

/** The state of everything reachable from `root` but `skip` (a Set of objects). */
export function take(root, skip = new Set()) {
  const seen = new Set();
  const order = [];
  visit(root, seen, skip, order);
  const records = [];
  for (let i = 0; i < order.length; i++) {
    const r = record(order[i], seen, skip, order);
    if (r) records.push(r);
  }
  return { records };
}

function restoreObject(r) {
  const { obj, keys, values, setters } = r;
  if (r.isArray) obj.length = 0;
  const own = Reflect.ownKeys(obj);
  if (own.length) {
    const kept = new Set(keys);
    for (const k of own) if (!kept.has(k)) delete obj[k];
  }
  let s = 0;
  for (let i = 0; i < keys.length; i++) {
    if (s < setters.length && setters[s] === i) {
      s++;
      continue;
    }
    const k = keys[i];
    if (obj[k] !== values[i]) {
      const d = Object.getOwnPropertyDescriptor(obj, k);
      if (!d || d.writable) obj[k] = values[i];
      else if (d.configurable) Object.defineProperty(obj, k, { ...d, value: values[i] });
    }
  }
}

/** Puts back the state `take` recorded, into the same objects. */
export function restore(snapshot) {
  const { records } = snapshot;
  for (const r of records) {
    if (r.kind === 'buffer') new Uint8Array(r.obj).set(r.bytes);
    else if (r.kind === 'map') {
      r.obj.clear();
      for (const [k, v] of r.entries) r.obj.set(k, v);
    } else if (r.kind === 'set') {
      r.obj.clear();
      for (const v of r.items) r.obj.add(v);
    } else restoreObject(r);
  }
  // accessors last: their setters may read other restored state (PioClock's `running`)
  for (const r of records) {
    if (r.kind !== 'object') continue;
    for (const i of r.setters) r.obj[r.keys[i]] = r.values[i];
  }
}

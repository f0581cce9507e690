// What the emulator's models need from their host, the same in Node.js, a web page and a Web
// Worker: bytes as hex, Latin-1 and UTF-8 text (no Node Buffer), base64, a yield to the event
// loop (no setImmediate in a browser), CPU time where the host can tell it. The Node harness
// (emulator.mjs) and the web page (web/device-worker.js) import the same models through this.

/** Bytes as lower-case hex. */
export function hex(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return out;
}

/** Hex text as bytes. */
export function fromHex(text) {
  const out = new Uint8Array(text.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(i * 2, 2), 16);
  return out;
}

/** Bytes as a string of the same char codes (Latin-1). */
export function latin1(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
  return out;
}

/** A Latin-1 string as bytes (char codes & 0xff). */
export function latin1Bytes(text) {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

export const utf8Bytes = (text) => new TextEncoder().encode(text);
export const utf8 = (bytes) => new TextDecoder().decode(bytes);

/** Base64 text (whitespace ignored) as bytes. */
export function fromBase64(text) {
  return latin1Bytes(atob(text.replace(/\s+/g, '')));
}

/** Where `needle` (bytes) first occurs in `haystack` (bytes), or -1. */
export function indexOf(haystack, needle) {
  const first = needle[0];
  const last = haystack.length - needle.length;
  outer: for (let i = haystack.indexOf(first); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Lets other events through (stdin, messages, timers), then resolves: setImmediate in Node,
 * a MessageChannel round trip in a browser (setTimeout(0) would be clamped to 4 ms there). */
export const yieldNow = (() => {
  if (typeof setImmediate === 'function') return () => new Promise((resolve) => setImmediate(resolve));
  const waiting = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => waiting.shift()();
  return () =>
    new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
})();

/** CPU seconds this process has used, or null where the host cannot tell (a browser). */
export function cpuSeconds() {
  if (typeof process === 'undefined' || !process.cpuUsage) return null;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

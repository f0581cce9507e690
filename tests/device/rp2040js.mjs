// Loads the rp2040js package: in a web page or Web Worker from the URL in
// globalThis.JARMO_RP2040JS (the site's copy of its dist/esm/index.js, web/device-worker.js sets
// it); in Node the project's own (npm ci installs the pinned 1.4.1 into node_modules/), else the
// package folder named by $RP2040JS.

async function load() {
  if (globalThis.JARMO_RP2040JS) return import(globalThis.JARMO_RP2040JS);
  if (process.env.RP2040JS) {
    const path = await import('path');
    const { pathToFileURL } = await import('url');
    return import(pathToFileURL(path.join(process.env.RP2040JS, 'dist/esm/index.js')).href);
  }
  return import('rp2040js');
}

let loaded;
try {
  loaded = await load();
} catch (e) {
  if (typeof process === 'undefined') throw e;
  process.stderr.write(
    `cannot load rp2040js (${e.message}): run \`npm ci\` in the repository root, ` +
      'or set RP2040JS=/path/to/node_modules/rp2040js\n',
  );
  process.exit(65);
}

export const rp2040js = loaded;

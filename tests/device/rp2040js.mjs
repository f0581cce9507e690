// Loads the rp2040js package: in a web page or Web Worker from the URL in
// globalThis.JARMO_RP2040JS (the site's copy of its dist/esm/index.js, web/device-worker.js sets
// it); in Node the package folder named by $RP2040JS, else the project's own (npm ci installs the
// pinned 1.4.1 into node_modules/).

/** The folder of the rp2040js ES modules to use, as a URL string ending in '/'. */
async function esmFolder() {
  if (globalThis.JARMO_RP2040JS) return new URL('./', globalThis.JARMO_RP2040JS).href;
  if (process.env.RP2040JS) {
    const path = await import('path');
    const { pathToFileURL } = await import('url');
    return pathToFileURL(path.join(process.env.RP2040JS, 'dist/esm/')).href;
  }
  return new URL('./', import.meta.resolve('rp2040js')).href;
}

let folder;
let loaded;
try {
  folder = await esmFolder();
  loaded = await import(new URL('index.js', folder).href);
} catch (e) {
  if (typeof process === 'undefined') throw e;
  process.stderr.write(
    `cannot load rp2040js (${e.message}): run \`npm ci\` in the repository root, ` +
      'or set RP2040JS=/path/to/node_modules/rp2040js\n',
  );
  process.exit(65);
}

export const rp2040js = loaded;

/**
 * What fastcore.mjs needs to rebuild the CPU's decoder: the source of cortex-m0-core.js and
 * the values of its imports; null where it cannot be read (rp2040js's own decoder then runs).
 */
async function loadCoreParts() {
  try {
    const url = new URL('cortex-m0-core.js', folder);
    const source =
      url.protocol === 'file:'
        ? (await import('fs')).readFileSync(url, 'utf8')
        : await (await fetch(url)).text();
    const irq = await import(new URL('irq.js', folder).href);
    const chip = await import(new URL('rp2040.js', folder).href);
    const imports = {
      MAX_HARDWARE_IRQ: irq.MAX_HARDWARE_IRQ,
      APB_START_ADDRESS: chip.APB_START_ADDRESS,
      SIO_START_ADDRESS: chip.SIO_START_ADDRESS,
    };
    return { source, imports };
  } catch (e) {
    return null;
  }
}

export const coreParts = await loadCoreParts();

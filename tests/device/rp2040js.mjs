// Loads the rp2040js package: the project's own (npm ci installs the pinned 1.4.1 into
// node_modules/), else the package folder named by $RP2040JS.

import path from 'path';
import { pathToFileURL } from 'url';

async function load() {
  if (process.env.RP2040JS) {
    return import(pathToFileURL(path.join(process.env.RP2040JS, 'dist/esm/index.js')).href);
  }
  return import('rp2040js');
}

let loaded;
try {
  loaded = await load();
} catch (e) {
  process.stderr.write(
    `cannot load rp2040js (${e.message}): run \`npm ci\` in the repository root, ` +
      'or set RP2040JS=/path/to/node_modules/rp2040js\n',
  );
  process.exit(65);
}

export const rp2040js = loaded;

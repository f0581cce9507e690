// The Node harness's files: a folder read into the map of files that fat.mjs and session.mjs take,
// and the bootrom. Node only (the web page fetches the same things from its site).

import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import { decodeBootrom } from './firmware.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** A folder's files as {"sub/name": bytes, "empty/": null}, without dot files and __pycache__
 * (symbolic links followed). */
export function readFolder(folder) {
  const files = {};
  const walk = (dir, prefix) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      if (d.name.startsWith('.') || d.name === '__pycache__') continue;
      const p = path.join(dir, d.name);
      const st = fs.statSync(p);
      if (st.isDirectory()) {
        files[prefix + d.name + '/'] = null;
        walk(p, prefix + d.name + '/');
      } else if (st.isFile()) {
        files[prefix + d.name] = new Uint8Array(fs.readFileSync(p));
      }
    }
  };
  walk(folder, '');
  return files;
}

/** The RP2040 B1 bootrom as words, from bootrom-b1.b64 beside this file (see README.md). */
export function readBootrom() {
  return decodeBootrom(fs.readFileSync(path.join(HERE, 'bootrom-b1.b64'), 'ascii'));
}

/** A file's bytes as a Uint8Array. */
export function readBytes(file) {
  return new Uint8Array(fs.readFileSync(file));
}

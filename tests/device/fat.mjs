// A FAT12 image of a drive's files, laid out like a small FatFs volume, for the CIRCUITPY drive.
//
// Geometry: 512-byte sectors, 1 sector per cluster, 1 reserved sector, 1 FAT, 512 root entries,
// no partition table (FatFs "SFD"), volume label CIRCUITPY. 1 MiB gives 2009 clusters.
// Names: an upper-case 8.3 name is stored as is; a lower-case (or mixed base/extension) 8.3 name
// uses the NT case bits like Windows and FatFs do; anything else gets long-file-name entries and
// a unique BASE~N.EXT short name. Subfolders are stored recursively. Every time stamp is the same
// fixed date, so the same files always give the same image (and the same emulation).
// The files come in as a map (files.mjs reads a folder into one in Node; the web page builds one
// from the site's drives.json): no file access here.

import { latin1Bytes, utf8Bytes } from './portable.mjs';

const SECTOR = 512;
const ROOT_ENTRIES = 512;
const ATTR_DIR = 0x10;
const ATTR_ARCHIVE = 0x20;
const ATTR_LABEL = 0x08;
const ATTR_LFN = 0x0f;
const FIXED_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1; // 2024-01-01
const FIXED_TIME = 12 << 11; // 12:00:00
/** Every file's time, as CircuitPython's os.stat gives it (seconds since 1970). */
export const FAT_STAMP_S = Date.UTC(2024, 0, 1, 12, 0, 0) / 1000;
const SHORT_CHARS = /^[A-Z0-9!#$%&'()\-@^_`{}~]+$/;

const bytesOf = (content) => (typeof content === 'string' ? utf8Bytes(content) : content);

/**
 * The tree {name, dir, data, children} of a drive's files: `files` maps paths ("lib/x.py", "/"
 * between folders) to bytes (Uint8Array, or a string written as UTF-8), a path ending in "/" to
 * null (a folder, also an empty one); `extra` adds/replaces root files.
 */
function readTree(files, extra = {}) {
  const root = { name: '', dir: true, children: [] };
  const folder = (parts) => {
    let node = root;
    for (const part of parts) {
      let child = node.children.find((c) => c.name === part);
      if (!child) node.children.push((child = { name: part, dir: true, children: [] }));
      node = child;
    }
    return node;
  };
  for (const [path, content] of Object.entries(files || {})) {
    const parts = path.split('/').filter(Boolean);
    if (path.endsWith('/')) {
      folder(parts);
      continue;
    }
    const name = parts.pop();
    folder(parts).children.push({ name, dir: false, data: bytesOf(content) });
  }
  for (const [name, content] of Object.entries(extra)) {
    root.children = root.children.filter((c) => c.name !== name);
    root.children.push({ name, dir: false, data: bytesOf(content) });
  }
  const sortTree = (node) => {
    if (!node.dir) return;
    node.children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    node.children.forEach(sortTree);
  };
  sortTree(root);
  return root;
}

/** Chooses each child's short name and case bits, and the number of 32-byte entries it needs. */
function nameChildren(node) {
  const used = new Set();
  for (const child of node.children) {
    const m = /^([^.]{1,8})(?:\.([^.]{1,3}))?$/.exec(child.name);
    const base = m ? m[1] : '';
    const ext = m ? m[2] || '' : '';
    const upperOk = m && SHORT_CHARS.test(base.toUpperCase()) && (!ext || SHORT_CHARS.test(ext.toUpperCase()));
    const uniform = (s) => s === s.toUpperCase() || s === s.toLowerCase();
    child.lfn = null;
    child.ntCase = 0;
    if (upperOk && uniform(base) && uniform(ext) && !used.has(base.toUpperCase().padEnd(8) + ext.toUpperCase().padEnd(3))) {
      child.short = base.toUpperCase().padEnd(8) + ext.toUpperCase().padEnd(3);
      if (base !== base.toUpperCase()) child.ntCase |= 0x08;
      if (ext !== ext.toUpperCase()) child.ntCase |= 0x10;
    } else {
      const units = [...child.name].map((ch) => {
        const cp = ch.codePointAt(0);
        if (cp > 0xffff) throw new Error(`file name not supported on FAT here: ${child.name}`);
        return cp;
      });
      if (units.length > 255) throw new Error(`file name too long: ${child.name}`);
      child.lfn = units;
      const dot = child.name.lastIndexOf('.');
      const clean = (s) => s.toUpperCase().replace(/[ .]/g, '').replace(/[^A-Z0-9!#$%&'()\-@^_`{}~]/g, '_');
      const sBase = clean(dot > 0 ? child.name.slice(0, dot) : child.name) || '_';
      const sExt = clean(dot > 0 ? child.name.slice(dot + 1) : '').slice(0, 3);
      for (let n = 1; ; n++) {
        const tail = `~${n}`;
        const candidate = (sBase.slice(0, 8 - tail.length) + tail).padEnd(8) + sExt.padEnd(3);
        if (!used.has(candidate)) {
          child.short = candidate;
          break;
        }
      }
    }
    used.add(child.short);
    child.entryCount = 1 + (child.lfn ? Math.ceil((child.lfn.length + 1) / 13) : 0);
  }
}

/** The 32-byte directory entries (LFN parts first) of one child. */
function entry() {
  const e = new Uint8Array(32);
  e.view = new DataView(e.buffer);
  return e;
}

function childEntries(child) {
  const out = [];
  const shortBytes = latin1Bytes(child.short);
  if (child.lfn) {
    let sum = 0;
    for (const b of shortBytes) sum = (((sum & 1) << 7) + (sum >> 1) + b) & 0xff;
    const parts = Math.ceil((child.lfn.length + 1) / 13);
    const units = child.lfn.concat([0]);
    while (units.length < parts * 13) units.push(0xffff);
    const offsets = [1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30];
    for (let p = parts; p >= 1; p--) {
      const e = entry();
      e[0] = p | (p === parts ? 0x40 : 0);
      e[11] = ATTR_LFN;
      e[13] = sum;
      offsets.forEach((o, k) => e.view.setUint16(o, units[(p - 1) * 13 + k], true));
      out.push(e);
    }
  }
  const e = entry();
  e.set(shortBytes, 0);
  e[11] = child.dir ? ATTR_DIR : ATTR_ARCHIVE;
  e[12] = child.ntCase;
  e.view.setUint16(14, FIXED_TIME, true);
  e.view.setUint16(16, FIXED_DATE, true);
  e.view.setUint16(18, FIXED_DATE, true);
  e.view.setUint16(22, FIXED_TIME, true);
  e.view.setUint16(24, FIXED_DATE, true);
  e.view.setUint16(26, child.cluster, true);
  e.view.setUint32(28, child.dir ? 0 : child.data.length, true);
  out.push(e);
  return out;
}

function specialEntry(name11, cluster) {
  const e = entry();
  e.set(latin1Bytes(name11), 0);
  e[11] = ATTR_DIR;
  e.view.setUint16(14, FIXED_TIME, true);
  e.view.setUint16(16, FIXED_DATE, true);
  e.view.setUint16(22, FIXED_TIME, true);
  e.view.setUint16(24, FIXED_DATE, true);
  e.view.setUint16(26, cluster, true);
  return e;
}

/**
 * Builds the CIRCUITPY image of `drive`'s files (a map, see readTree): returns {image (Uint8Array of
 * `size` bytes), files, bytes, clustersUsed, clusters}. `extra` maps root file names to contents
 * that replace (or add to) those files.
 */
export function buildFat12(drive, { extra = {}, size = 1024 * 1024, label = 'CIRCUITPY' } = {}) {
  const totalSectors = size / SECTOR;
  const rootSectors = (ROOT_ENTRIES * 32) / SECTOR;
  let fatSectors = 1;
  for (;;) {
    const clusters = totalSectors - 1 - fatSectors - rootSectors;
    const need = Math.ceil(((clusters + 2) * 3) / 2 / SECTOR);
    if (need <= fatSectors) break;
    fatSectors = need;
  }
  const rootStart = 1 + fatSectors;
  const dataStart = rootStart + rootSectors;
  const clusterCount = totalSectors - dataStart;
  if (clusterCount >= 4085) throw new Error('image too large for FAT12 with 1 sector per cluster');

  const image = new Uint8Array(size);
  const view = new DataView(image.buffer);
  const fat = new Uint16Array(clusterCount + 2);
  fat[0] = 0xff8;
  fat[1] = 0xfff;
  let nextCluster = 2;
  const allocate = (bytes) => {
    const n = Math.ceil(bytes / SECTOR);
    if (n === 0) return 0;
    if (nextCluster + n > clusterCount + 2) throw new Error(`the folder does not fit in a ${size >> 10} KiB CIRCUITPY image`);
    const first = nextCluster;
    for (let i = 0; i < n; i++) fat[first + i] = i === n - 1 ? 0xfff : first + i + 1;
    nextCluster += n;
    return first;
  };
  const clusterOffset = (c) => (dataStart + c - 2) * SECTOR;
  // contiguous chains, so a chain is written with one copy
  const writeChain = (cluster, data) => data.length && image.set(data, clusterOffset(cluster));

  const root = readTree(drive, extra);
  let files = 0;
  let bytes = 0;
  // pass 1: names and clusters (a directory's size is known once its children are named)
  const place = (node, isRoot) => {
    nameChildren(node);
    if (!isRoot) {
      const entries = 2 + node.children.reduce((n, c) => n + c.entryCount, 0);
      node.cluster = allocate(Math.max(1, entries) * 32);
    }
    for (const child of node.children) {
      if (child.dir) place(child, false);
      else {
        child.cluster = allocate(child.data.length);
        writeChain(child.cluster, child.data);
        files++;
        bytes += child.data.length;
      }
    }
  };
  place(root, true);
  // pass 2: directory entries
  const fill = (node, parentCluster, isRoot) => {
    const entries = [];
    if (isRoot) {
      const lbl = entry();
      lbl.set(latin1Bytes(label.toUpperCase().padEnd(11).slice(0, 11)), 0);
      lbl[11] = ATTR_LABEL;
      lbl.view.setUint16(22, FIXED_TIME, true);
      lbl.view.setUint16(24, FIXED_DATE, true);
      entries.push(lbl);
    } else {
      entries.push(specialEntry('.          ', node.cluster), specialEntry('..         ', parentCluster));
    }
    for (const child of node.children) entries.push(...childEntries(child));
    if (isRoot && entries.length > ROOT_ENTRIES) throw new Error('too many entries in the root folder');
    const block = new Uint8Array(entries.length * 32);
    entries.forEach((e, i) => block.set(e, i * 32));
    if (isRoot) image.set(block, rootStart * SECTOR);
    else writeChain(node.cluster, block);
    for (const child of node.children) if (child.dir) fill(child, isRoot ? 0 : node.cluster, false);
  };
  fill(root, 0, true);

  // boot sector (BPB)
  image.set([0xeb, 0x3c, 0x90], 0);
  image.set(latin1Bytes('MSDOS5.0'), 3);
  view.setUint16(11, SECTOR, true);
  image[13] = 1; // sectors per cluster
  view.setUint16(14, 1, true); // reserved sectors
  image[16] = 1; // FATs
  view.setUint16(17, ROOT_ENTRIES, true);
  view.setUint16(19, totalSectors, true);
  image[21] = 0xf8; // media: fixed disk
  view.setUint16(22, fatSectors, true);
  view.setUint16(24, 63, true); // sectors per track
  view.setUint16(26, 255, true); // heads
  image[36] = 0x80; // drive number
  image[38] = 0x29; // extended boot signature
  view.setUint32(39, 0x1234abcd, true); // volume serial
  image.set(latin1Bytes(label.toUpperCase().padEnd(11).slice(0, 11)), 43);
  image.set(latin1Bytes('FAT12   '), 54);
  image[510] = 0x55;
  image[511] = 0xaa;
  // FAT12: two 12-bit entries per 3 bytes
  const fatBase = SECTOR;
  for (let n = 0; n < fat.length; n++) {
    const off = fatBase + Math.floor((n * 3) / 2);
    const v = fat[n] & 0xfff;
    if (n & 1) {
      image[off] = (image[off] & 0x0f) | ((v << 4) & 0xf0);
      image[off + 1] = v >> 4;
    } else {
      image[off] = v & 0xff;
      image[off + 1] = (image[off + 1] & 0xf0) | (v >> 8);
    }
  }
  return { image, files, bytes, clustersUsed: nextCluster - 2, clusters: clusterCount };
}

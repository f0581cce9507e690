// A FAT12 image of a host folder, laid out like a small FatFs volume, for the CIRCUITPY drive.
//
// Geometry: 512-byte sectors, 1 sector per cluster, 1 reserved sector, 1 FAT, 512 root entries,
// no partition table (FatFs "SFD"), volume label CIRCUITPY. 1 MiB gives 2009 clusters.
// Names: an upper-case 8.3 name is stored as is; a lower-case (or mixed base/extension) 8.3 name
// uses the NT case bits like Windows and FatFs do; anything else gets long-file-name entries and
// a unique BASE~N.EXT short name. Subfolders are stored recursively. Every time stamp is the same
// fixed date, so the same folder always gives the same image (and the same emulation).

import fs from 'fs';
import path from 'path';

const SECTOR = 512;
const ROOT_ENTRIES = 512;
const ATTR_DIR = 0x10;
const ATTR_ARCHIVE = 0x20;
const ATTR_LABEL = 0x08;
const ATTR_LFN = 0x0f;
const FIXED_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1; // 2024-01-01
const FIXED_TIME = 12 << 11; // 12:00:00
const SHORT_CHARS = /^[A-Z0-9!#$%&'()\-@^_`{}~]+$/;

/** Reads a host folder into a tree of {name, dir, data, children}; `extra` adds/replaces root files. */
function readTree(folder, extra = {}) {
  const walk = (dir) =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => !d.name.startsWith('.') && d.name !== '__pycache__')
      .map((d) => {
        const p = path.join(dir, d.name);
        const st = fs.statSync(p); // follows symlinks
        if (st.isDirectory()) return { name: d.name, dir: true, children: walk(p) };
        if (st.isFile()) return { name: d.name, dir: false, data: fs.readFileSync(p) };
        return null;
      })
      .filter(Boolean);
  const root = { name: '', dir: true, children: folder ? walk(folder) : [] };
  for (const [name, content] of Object.entries(extra)) {
    root.children = root.children.filter((c) => c.name !== name);
    root.children.push({ name, dir: false, data: Buffer.from(content) });
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
function childEntries(child) {
  const out = [];
  const shortBytes = Buffer.from(child.short, 'latin1');
  if (child.lfn) {
    let sum = 0;
    for (const b of shortBytes) sum = (((sum & 1) << 7) + (sum >> 1) + b) & 0xff;
    const parts = Math.ceil((child.lfn.length + 1) / 13);
    const units = child.lfn.concat([0]);
    while (units.length < parts * 13) units.push(0xffff);
    const offsets = [1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30];
    for (let p = parts; p >= 1; p--) {
      const e = Buffer.alloc(32);
      e[0] = p | (p === parts ? 0x40 : 0);
      e[11] = ATTR_LFN;
      e[13] = sum;
      offsets.forEach((o, k) => e.writeUInt16LE(units[(p - 1) * 13 + k], o));
      out.push(e);
    }
  }
  const e = Buffer.alloc(32);
  shortBytes.copy(e, 0);
  e[11] = child.dir ? ATTR_DIR : ATTR_ARCHIVE;
  e[12] = child.ntCase;
  e.writeUInt16LE(FIXED_TIME, 14);
  e.writeUInt16LE(FIXED_DATE, 16);
  e.writeUInt16LE(FIXED_DATE, 18);
  e.writeUInt16LE(FIXED_TIME, 22);
  e.writeUInt16LE(FIXED_DATE, 24);
  e.writeUInt16LE(child.cluster, 26);
  e.writeUInt32LE(child.dir ? 0 : child.data.length, 28);
  out.push(e);
  return out;
}

function specialEntry(name11, cluster) {
  const e = Buffer.alloc(32);
  e.write(name11, 0, 'latin1');
  e[11] = ATTR_DIR;
  e.writeUInt16LE(FIXED_TIME, 14);
  e.writeUInt16LE(FIXED_DATE, 16);
  e.writeUInt16LE(FIXED_TIME, 22);
  e.writeUInt16LE(FIXED_DATE, 24);
  e.writeUInt16LE(cluster, 26);
  return e;
}

/**
 * Builds the CIRCUITPY image: returns {image (Buffer of `size` bytes), files, bytes, clustersUsed, clusters}.
 * `extra` maps root file names to contents that replace (or add to) the folder's files.
 */
export function buildFat12(folder, { extra = {}, size = 1024 * 1024, label = 'CIRCUITPY' } = {}) {
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

  const image = Buffer.alloc(size);
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
  const writeChain = (cluster, data) => data.length && data.copy(image, clusterOffset(cluster));

  const root = readTree(folder, extra);
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
      const lbl = Buffer.alloc(32);
      lbl.write(label.toUpperCase().padEnd(11).slice(0, 11), 0, 'latin1');
      lbl[11] = ATTR_LABEL;
      lbl.writeUInt16LE(FIXED_TIME, 22);
      lbl.writeUInt16LE(FIXED_DATE, 24);
      entries.push(lbl);
    } else {
      entries.push(specialEntry('.          ', node.cluster), specialEntry('..         ', parentCluster));
    }
    for (const child of node.children) entries.push(...childEntries(child));
    if (isRoot && entries.length > ROOT_ENTRIES) throw new Error('too many entries in the root folder');
    const block = Buffer.concat(entries);
    if (isRoot) block.copy(image, rootStart * SECTOR);
    else writeChain(node.cluster, block);
    for (const child of node.children) if (child.dir) fill(child, isRoot ? 0 : node.cluster, false);
  };
  fill(root, 0, true);

  // boot sector (BPB)
  image.set([0xeb, 0x3c, 0x90], 0);
  image.write('MSDOS5.0', 3, 'ascii');
  image.writeUInt16LE(SECTOR, 11);
  image[13] = 1; // sectors per cluster
  image.writeUInt16LE(1, 14); // reserved sectors
  image[16] = 1; // FATs
  image.writeUInt16LE(ROOT_ENTRIES, 17);
  image.writeUInt16LE(totalSectors, 19);
  image[21] = 0xf8; // media: fixed disk
  image.writeUInt16LE(fatSectors, 22);
  image.writeUInt16LE(63, 24); // sectors per track
  image.writeUInt16LE(255, 26); // heads
  image[36] = 0x80; // drive number
  image[38] = 0x29; // extended boot signature
  image.writeUInt32LE(0x1234abcd, 39); // volume serial
  image.write(label.toUpperCase().padEnd(11).slice(0, 11), 43, 'latin1');
  image.write('FAT12   ', 54, 'ascii');
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

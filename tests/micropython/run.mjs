// Run Python files and snippets under real MicroPython 1.27 (WebAssembly port).
//
//   node tests/micropython/run.mjs [--heap BYTES] ITEM [ITEM ...]
//
// ITEM is one of
//   FILE.py          run the file's source as one top-level runPython call
//   -c CODE          run CODE as one top-level runPython call
//   --mptest MODULE  run MODULE's test_ functions with mptest, each test in its
//                    own runPython call with a gc.collect() call before it
//
// Before the first item the project's jarmo/ package and every .py file under
// tests/ are copied into the MicroPython file system (/jarmo, /tests), the
// working directory is "/" and sys.path starts with "" (so `import jarmo` and
// `import tests.core.x` work) and "/tests/micropython" (so `import mptest`).
//
// Every item is its own runPython call on one interpreter, sharing __main__'s
// globals. That matters for memory: this port reclaims garbage only in a
// gc.collect() made by a *later* call, so measure like this:
//   -c "import gc; gc.collect()" -c "import jarmo.app_buttons" -c "gc.collect(); print(gc.mem_alloc())"
//
// --heap sets the initial heap (suffix k or m allowed); the heap still grows
// on demand, so a budget is measured with gc.mem_alloc(), not enforced.
//
// Exit status: 0 when every item ran; on an uncaught exception the traceback
// goes to stderr and the status is 1 (later items are not run); SystemExit(n)
// ends the run with status n; 2 for a usage error; 3 if the interpreter died.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");
const USAGE = "usage: node tests/micropython/run.mjs [--heap BYTES] (FILE.py | -c CODE | --mptest MODULE)...";

function usage(message) {
  process.stderr.write(`run.mjs: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseSize(text) {
  const m = /^(\d+)([kKmM]?)$/.exec(text || "");
  if (!m) usage(`bad --heap value ${JSON.stringify(text)}`);
  const scale = { "": 1, k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()];
  return parseInt(m[1], 10) * scale;
}

// ---- arguments ----
let heap = null;
const items = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--heap") heap = parseSize(argv[++i]);
  else if (a.startsWith("--heap=")) heap = parseSize(a.slice(7));
  else if (a === "-c") {
    if (i + 1 >= argv.length) usage("-c needs CODE");
    items.push({ kind: "code", label: "-c", source: argv[++i] });
  } else if (a === "--mptest") {
    if (i + 1 >= argv.length) usage("--mptest needs MODULE");
    items.push({ kind: "mptest", label: "--mptest", module: argv[++i] });
  } else if (a === "-h" || a === "--help") {
    process.stdout.write(USAGE + "\n");
    process.exit(0);
  } else if (a.startsWith("-")) usage(`unknown option ${a}`);
  else {
    let source;
    try {
      source = fs.readFileSync(a, "utf8");
    } catch (e) {
      usage(`cannot read ${a}: ${e.message}`);
    }
    items.push({ kind: "file", label: a, source });
  }
}
if (items.length === 0) usage("nothing to run");

// ---- output: our own line buffering, flushed after every call ----
function makeSink(stream) {
  let pending = [];
  const sink = (bytes) => {
    for (const b of bytes) {
      pending.push(b);
      if (b === 10) sink.flush();
    }
  };
  sink.flush = () => {
    if (pending.length) {
      stream.write(Buffer.from(pending));
      pending = [];
    }
  };
  return sink;
}
const out = makeSink(process.stdout);
const err = makeSink(process.stderr);
function flushAll() {
  out.flush();
  err.flush();
}

let loadMicroPython;
try {
  ({ loadMicroPython } = await import("@micropython/micropython-webassembly-pyscript"));
} catch (e) {
  process.stderr.write(
    "run.mjs: cannot load @micropython/micropython-webassembly-pyscript " +
      `(${e.message}).\nInstall it with \`npm ci\` in ${ROOT} (python3 run.py test does that).\n`
  );
  process.exit(3);
}

const options = { stdout: out, stderr: err, linebuffer: false };
if (heap !== null) options.heapsize = heap;
const mp = await loadMicroPython(options);

// ---- project files into the MicroPython file system ----
function copyTree(hostDir, mpDir) {
  if (!fs.existsSync(hostDir)) return;
  try {
    mp.FS.mkdir(mpDir);
  } catch (e) {
    // already there
  }
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "__pycache__" || entry.name === "node_modules") continue;
    const host = path.join(hostDir, entry.name);
    const target = mpDir + "/" + entry.name;
    if (entry.isDirectory()) copyTree(host, target);
    else if (entry.isFile() && entry.name.endsWith(".py")) mp.FS.writeFile(target, fs.readFileSync(host));
  }
}
copyTree(path.join(ROOT, "jarmo"), "/jarmo");
copyTree(path.join(ROOT, "tests"), "/tests");

// ---- running ----
class Stop extends Error {
  constructor(code) {
    super(`exit ${code}`);
    this.code = code;
  }
}

function systemExitCode(message) {
  const last = message.trimEnd().split("\n").pop();
  const m = /^SystemExit(?::\s*(.*))?$/.exec(last);
  if (!m || m[1] === undefined || m[1] === "" || m[1] === "None") return 0;
  if (/^-?\d+$/.test(m[1])) return parseInt(m[1], 10) & 255;
  process.stderr.write(m[1] + "\n");
  return 1;
}

function run(source, label) {
  try {
    mp.runPython(source);
  } catch (e) {
    flushAll();
    if (e && e.name === "PythonError") {
      if (e.type === "SystemExit") throw new Stop(systemExitCode(e.message));
      let text = e.message;
      if (label !== "-c") text = text.split('File "<stdin>"').join(`File "${label}"`);
      process.stderr.write(text.endsWith("\n") ? text : text + "\n");
      throw new Stop(1);
    }
    process.stderr.write(`run.mjs: the interpreter failed in ${label}: ${e && e.stack ? e.stack : e}\n`);
    throw new Stop(3);
  } finally {
    flushAll();
  }
}

let status = 0;
try {
  run("import sys, os\nos.chdir('/')\nsys.path[:] = ['', '/tests/micropython'] + [p for p in sys.path if p not in ('', '/tests/micropython')]\ndel sys, os", "setup");
  for (const item of items) {
    if (item.kind !== "mptest") {
      run(item.source, item.label);
      continue;
    }
    const name = JSON.stringify(item.module);
    run(`import mptest\n_mptest_session = mptest.Session(${name})\n_mptest_count = len(_mptest_session.tests)`, item.label);
    const count = mp.globals.get("_mptest_count");
    for (let i = 0; i < count; i++) {
      run("import gc\ngc.collect()", item.label);
      run(`_mptest_session.run(${i})`, item.label);
    }
    run("import gc\ngc.collect()", item.label);
    run("_mptest_session.finish(True)", item.label);
  }
} catch (e) {
  if (!(e instanceof Stop)) throw e;
  status = e.code;
}
flushAll();
process.exit(status);

// V8's inlining budget for the emulator's one big function (Node only: the web page's worker
// keeps the browser's defaults). fastcore's executeUntil is a switch over every instruction,
// so V8's default budget of inlined bytecode a function (920) is spent on its first few cases:
// the flag helpers (substractUpdateFlags, addUpdateFlags, cyclesIO, checkCondition) and the
// memory reads stayed calls, 19 % of the emulator's time. 5000 inlines them; 20000 was no
// faster, and per-callee sizes over V8's 460 were slower (tools/bench_emulator.py). It only
// changes how fast the emulator runs: the cycles are the same. Imported first by the Node entry
// points (emulator.mjs, pair.mjs), before any code is optimised.
import v8 from 'v8';

v8.setFlagsFromString('--max-inlined-bytecode-size-cumulative=5000');

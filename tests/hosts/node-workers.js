// node-workers - a node host for pct: two worker_threads compute while
// the main thread waits for their answers, then prints them.  The same
// output with and without pct.
'use strict';
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

function work(seed, n) {
  let x = seed >>> 0, sum = 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    sum = (sum + (x >>> 16)) % 1000000007;
  }
  return sum;
}

if (isMainThread) {
  const n = Number(process.argv[2] || 30000000);
  let left = 2;
  const out = [];
  for (let k = 0; k < 2; k++) {
    const w = new Worker(__filename, { workerData: { seed: k + 1, n } });
    w.on('message', (v) => {
      out[k] = v;
      if (--left === 0)
        out.forEach((v, i) => console.log(`worker ${i}: ${v}`));
    });
    w.on('error', (e) => { console.error(e); process.exit(1); });
  }
} else {
  parentPort.postMessage(work(workerData.seed, workerData.n));
}

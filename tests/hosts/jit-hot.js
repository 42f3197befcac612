// jit-hot.js - test 102: one hot JS function, hotLoopJs, for 1.5 s of wall time,
// run under node --perf-basic-prof so that V8 names its JIT code in /tmp/perf-PID.map.
function hotLoopJs(n) { let x = 1; for (let i = 0; i < n; i++) x = (x * 1103515245 + i) % 2147483647; return x; }
let t = Date.now(), s = 0;
while (Date.now() - t < 1500) s += hotLoopJs(1000000);
console.log(s > 0 ? 1 : 0);

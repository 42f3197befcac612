# pct export --format=speedscope and --format=perf-script of a real
# two-thread program, recorded without and with -g, read by speedscope
# itself (npm speedscope, pinned): the JSON is valid against the schema the
# package ships (checked with ajv), and speedscope's offline viewer, driven
# in headless Chromium by playwright-core, imports both files (its console
# names the importer) and exports what it imported (its Export button).
# That holds one profile per thread of `pct report --by=thread`; for the
# speedscope file each thread's weight is its samples times the period;
# for perf-script, whose importer weighs a sample by the time to the next,
# each thread's span is its first to last sample in the text, and the
# text's periods give each thread's samples.  With -g, spin is under
# main_work in the main thread and under side_work in the other; without,
# every sample is its one function.  A version 2 file is refused, naming it.
. "$(dirname "$0")/lib.sh"
for t in node npm chromium cc; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh installs it)"; done
SPEEDSCOPE_VERSION=1.25.0 AJV_VERSION=8.20.0 PLAYWRIGHT_VERSION=1.65.1
npmdir=$(npm_dir export-time "speedscope@$SPEEDSCOPE_VERSION" "ajv@$AJV_VERSION" "playwright-core@$PLAYWRIGHT_VERSION") || exit 1
schema=$npmdir/node_modules/speedscope/dist/release/file-format-schema.json
[ -f "$schema" ] || fail "speedscope $SPEEDSCOPE_VERSION ships no schema at $schema"

cat >two.c <<'EOF'
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static double seconds = 0.5;

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long spin(unsigned long x)
{
	for (int i = 0; i < 100000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

__attribute__((noinline)) static unsigned long side_work(void)
{
	unsigned long x = 2;
	for (double end = cpu_s() + seconds; cpu_s() < end;)
		x = spin(x);
	return x;
}

__attribute__((noinline)) static unsigned long main_work(void)
{
	unsigned long x = 1;
	for (double end = cpu_s() + seconds; cpu_s() < end;)
		x = spin(x);
	return x;
}

static void *side(void *arg)
{
	pthread_setname_np(pthread_self(), "side");
	return (void *)side_work();
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *r;
	if (argc > 1)
		seconds = atof(argv[1]);
	pthread_create(&t, NULL, side, NULL);
	unsigned long x = main_work();
	pthread_join(t, &r);
	return (x ^ (unsigned long)r) == 42;
}
EOF
cc -O1 -g -pthread -o two two.c || fail "cc two.c"

# speedscope's viewer imports a file and saves what it imported
cat >load.cjs <<'EOF'
// load.cjs NPMDIR PROFILE OUT.json [PROFILE OUT.json]...: in one browser,
// each PROFILE imported, what speedscope made of it saved to OUT.json and
// its import and error messages to OUT.json.log
const fs = require('fs'), path = require('path');
const [npmdir, ...jobs] = process.argv.slice(2);
const { chromium } = require(path.join(npmdir, 'node_modules/playwright-core'));
const release = path.join(npmdir, 'node_modules/speedscope/dist/release');
async function load(browser, profile, out) {
	const page = await browser.newPage({ acceptDownloads: true });
	const logs = [];
	page.on('console', m => logs.push(m.text()));
	page.on('pageerror', e => logs.push('page error: ' + e.message));
	const name = path.basename(profile);
	// the release directory and the profile, served without a server
	await page.route('http://pct.invalid/**', route => {
		const f = decodeURIComponent(new URL(route.request().url()).pathname.slice(1));
		const file = f === name ? profile : path.join(release, path.basename(f));
		if (!fs.existsSync(file))
			return route.fulfill({ status: 404, body: '' });
		const type = { html: 'text/html', js: 'text/javascript', css: 'text/css' }[f.split('.').pop()];
		return route.fulfill({ status: 200, body: fs.readFileSync(file), contentType: type || 'application/octet-stream' });
	});
	await page.goto('http://pct.invalid/index.html#profileURL=' + encodeURIComponent('http://pct.invalid/' + name));
	try {
		await page.getByText('Export').waitFor({ timeout: 120000 });
	} catch (e) {
		throw new Error(`${name}: speedscope showed no profile: ` + logs.join(' | '));
	}
	const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }), page.getByText('Export').click()]);
	fs.copyFileSync(await dl.path(), out);
	fs.writeFileSync(out + '.log', logs.filter(l => /^Importing (as|from) |error/i.test(l)).map(l => l + '\n').join(''));
	await page.close();
}
(async () => {
	const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu'] });
	try {
		for (let i = 0; i + 1 < jobs.length; i += 2)
			await load(browser, jobs[i], jobs[i + 1]);
	} finally {
		await browser.close();
	}
})().catch(e => { console.error(String(e)); process.exit(1); });
EOF

# check.cjs MODE(plain|g) NPMDIR REPORT.tsv PERIOD_S OURS.json SS-OF-OURS.json OURS.perf SS-OF-PERF.json
cat >check.cjs <<'EOF'
const fs = require('fs'), path = require('path');
const [mode, npmdir, reportf, period_s, ours, ssOurs, perf, ssPerf] = process.argv.slice(2);
let bad = 0;
const check = (ok, what) => { console.log((ok ? 'ok    ' : 'WRONG ') + what); if (!ok) bad = 1; };
// pct report --by=thread --format=tsv: tid -> samples
const rows = fs.readFileSync(reportf, 'utf8').trim().split('\n').map(l => l.split('\t'));
const col = Object.fromEntries(rows[0].map((k, i) => [k, i]));
const want = new Map(rows.slice(1).map(r => [r[col.tid], Number(r[col.samples])]));
const total = [...want.values()].reduce((a, b) => a + b, 0);
console.log(`pct report: ${want.size} threads, samples ${JSON.stringify(Object.fromEntries(want))}`);

// (a) the schema speedscope ships
const Ajv = require(path.join(npmdir, 'node_modules/ajv'));
const validate = new Ajv({ strict: false, allErrors: true }).compile(
	JSON.parse(fs.readFileSync(path.join(npmdir, 'node_modules/speedscope/dist/release/file-format-schema.json'))));
const file = JSON.parse(fs.readFileSync(ours, 'utf8'));
check(validate(file), `the speedscope file is valid against speedscope's schema ${JSON.stringify(validate.errors || []).slice(0, 300)}`);
check(file.profiles.every(p => p.type === 'sampled' && p.unit === 'nanoseconds' && p.samples.length === p.weights.length),
	'every profile is sampled, in nanoseconds, one weight per sample');
check(file.profiles.every(p => p.startValue <= p.endValue), 'startValue <= endValue');

// the weight of each profile of speedscope's own export (evented, at = weight so far)
const weights = f => f.profiles.map(p => ({ name: p.name, unit: p.unit, w: Math.max(0, ...p.events.map(e => e.at)) }));
const tidOf = (name, re) => { const m = re.exec(name); return m ? m[1] : null; };
const shares = (list, what) => {
	// each thread's samples: total x its weight / all weight (exact after rounding)
	const all = list.reduce((a, p) => a + p.w, 0);
	check(list.length === want.size, `${what}: ${list.length} threads, pct report ${want.size}`);
	for (const p of list) {
		const n = Math.round(total * p.w / all);
		check(want.get(p.tid) === n, `${what}: tid ${p.tid} (${p.name}): ${n} samples, pct report ${want.get(p.tid)}`);
	}
	return all;
};

// (b) speedscope's import of the speedscope file
const a = JSON.parse(fs.readFileSync(ssOurs, 'utf8'));
const la = weights(a).map(p => ({ ...p, tid: tidOf(p.name, /tid (\d+)\)$/) }));
const wa = shares(la, 'speedscope file in speedscope');
const period_ns = Number(period_s) * 1e9;
check(Math.abs(wa / period_ns - total) <= 0.005 * total + 1,
	`speedscope file in speedscope: ${(wa / 1e9).toFixed(4)} s = ${(wa / period_ns).toFixed(1)} samples of ${period_ns} ns, pct ${total}`);

// the perf-script text: blocks per tid, their periods and times
const blocks = fs.readFileSync(perf, 'utf8').split('\n\n').filter(b => b.trim());
const per = new Map();
let depth1 = true;
for (const b of blocks) {
	const lines = b.split('\n');
	const m = /^(\S.+?)\s+(\d+)\/(\d+)\s+(\d+\.\d{6}): (\d+) (\S+):$/.exec(lines[0]);
	if (!m) { check(false, `perf-script header: ${lines[0]}`); break; }
	const t = per.get(m[3]) || { period: 0, first: Number(m[4]), last: 0, n: 0 };
	t.period += Number(m[5]);
	t.last = Number(m[4]);
	t.n++;
	per.set(m[3], t);
	if (lines.length !== 2) depth1 = false;
	for (const l of lines.slice(1))
		if (!/^\t +[0-9a-f]+ \S.* \(\S+\)$/.test(l)) { check(false, `perf-script stack line: ${JSON.stringify(l)}`); break; }
}
console.log(`perf-script: ${blocks.length} samples, threads ${JSON.stringify(Object.fromEntries(per))}`);
shares([...per].map(([tid, t]) => ({ name: 'perf-script text', tid, w: t.period })), 'perf-script text');

// speedscope's import of the perf-script text: a profile per thread, each
// weighing its first to last sample
const b = JSON.parse(fs.readFileSync(ssPerf, 'utf8'));
const lb = weights(b).map(p => ({ ...p, tid: tidOf(p.name, /tid: (\d+)$/) }));
check(lb.length === want.size, `perf-script in speedscope: ${lb.length} threads, pct report ${want.size}`);
for (const p of lb) {
	const t = per.get(p.tid);
	check(t && want.has(p.tid) && Math.abs(p.w - (t.last - t.first)) < 1e-6,
		`perf-script in speedscope: tid ${p.tid} (${p.name}) spans ${p.w.toFixed(6)} s, the text ${t ? (t.last - t.first).toFixed(6) : '?'} s`);
}

// the stacks: spin under each thread's own work with -g; one frame without
for (const [f, what] of [[a, 'speedscope file'], [b, 'perf-script']]) {
	const names = f.shared.frames.map(x => x.name);
	for (const p of f.profiles) {
		const open = [], spinUnder = new Map();
		let maxDepth = 0, spinW = 0, from = 0;
		for (const e of p.events) {
			if (e.type === 'O') {
				open.push(names[e.frame]);
				maxDepth = Math.max(maxDepth, open.length);
				if (names[e.frame] === 'spin') {
					from = e.at;
					const who = open.includes('main_work') ? 'main_work' : open.includes('side_work') ? 'side_work' : 'none';
					spinUnder.set(who, true);
				}
			} else {
				if (open.pop() === 'spin') spinW += e.at - from;
			}
		}
		const all = Math.max(0, ...p.events.map(e => e.at));
		const who = [...spinUnder.keys()].join(',');
		const side = /side/.test(p.name);
		if (mode === 'g')
			check(who === (side ? 'side_work' : 'main_work') && spinW > 0.5 * all,
				`${what}, ${p.name}: spin (${(100 * spinW / all).toFixed(0)}%) is under ${who}`);
		else
			check(maxDepth === 1 && spinW > 0.5 * all,
				`${what}, ${p.name}: one frame per sample (depth ${maxDepth}), spin ${(100 * spinW / all).toFixed(0)}%`);
	}
}
if (mode !== 'g')
	check(depth1 && file.profiles.every(p => p.samples.every(s => s.length === 1)), 'without -g every sample has one frame');
process.exit(bad);
EOF

for mode in plain g; do
	opt=; [ $mode = g ] && opt=-g
	"$PCTBIN" record $opt -o $mode.pct ./two 0.5 >/dev/null 2>rec-$mode.err || fail "record $opt: $(cat rec-$mode.err)"
	"$PCTBIN" report --by=thread --format=tsv $mode.pct >$mode-threads.tsv || fail "report --by=thread"
	"$PCTBIN" export --format=speedscope -o $mode.speedscope.json $mode.pct 2>exp-$mode.err ||
		fail "export speedscope: $(cat exp-$mode.err)"
	"$PCTBIN" export --format=perf-script $mode.pct >$mode.perf-script.txt 2>>exp-$mode.err ||
		fail "export perf-script: $(cat exp-$mode.err)"
	# a run this short keeps every sample's time: nothing is left out
	[ ! -s exp-$mode.err ] || fail "export said: $(cat exp-$mode.err)"
	if ! consumers_here; then
		# the sanitized run of make check: the exports made, valid
		# against speedscope's schema; speedscope's own import of them
		# is the plain run's (and make check-full's here)
		node -e 'const fs = require("fs"), path = require("path"), [npmdir, f] = process.argv.slice(1);
			const Ajv = require(path.join(npmdir, "node_modules/ajv"));
			const v = new Ajv({ strict: false }).compile(JSON.parse(fs.readFileSync(path.join(npmdir,
				"node_modules/speedscope/dist/release/file-format-schema.json"))));
			process.exit(v(JSON.parse(fs.readFileSync(f, "utf8"))) ? 0 : 1)' "$npmdir" $mode.speedscope.json ||
			fail "$mode.speedscope.json is not valid against speedscope's schema"
		continue
	fi
	timeout 300 node load.cjs "$npmdir" "$PWD/$mode.speedscope.json" "$PWD/ss-$mode.speedscope.json.json" \
		"$PWD/$mode.perf-script.txt" "$PWD/ss-$mode.perf-script.txt.json" 2>load.err ||
		fail "speedscope did not load $mode.speedscope.json and $mode.perf-script.txt: $(cat load.err)"
	for f in $mode.speedscope.json $mode.perf-script.txt; do echo "$f: $(cat ss-$f.json.log)"; done
	grep -q "^Importing as speedscope json file" ss-$mode.speedscope.json.json.log ||
		fail "speedscope did not import $mode.speedscope.json as its own format: $(cat ss-$mode.speedscope.json.json.log)"
	grep -q "^Importing \(as\|from\) .*linux perf script" ss-$mode.perf-script.txt.json.log ||
		fail "speedscope did not import $mode.perf-script.txt as perf script: $(cat ss-$mode.perf-script.txt.json.log)"
	period=$(period_of $mode.pct)
	node check.cjs $mode "$npmdir" $mode-threads.tsv "$period" $mode.speedscope.json ss-$mode.speedscope.json.json \
		$mode.perf-script.txt ss-$mode.perf-script.txt.json || fail "$mode: speedscope disagrees with pct report"
done

# a version 2 file has no sample times: both formats refuse it, naming
# it.  mkprofile writes no time log, so its file with the version set to
# 2 is a valid version 2 file.
printf 'module\tbuild_id\toffset\tsamples\n/x/prog\t\t0x10\t50\n/x/lib\t\t0x20\t30\n' | "$PROGS/mkprofile" v3.pct ||
	fail "mkprofile"
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[8:12] = (2).to_bytes(4, "little")
open(sys.argv[2], "wb").write(d)' v3.pct v2.pct || fail "python3"
"$PCTBIN" report v2.pct >/dev/null 2>err.txt || fail "the version 2 file does not read: $(cat err.txt)"
for fmt in speedscope perf-script; do
	"$PCTBIN" export --format=$fmt v2.pct >out.txt 2>err.txt
	rc=$?
	echo "version 2, $fmt: exit $rc: $(cat err.txt)"
	[ $rc = 1 ] && grep -q "v2.pct: no sample times (format version 2; record it again)" err.txt && [ ! -s out.txt ] ||
		fail "a version 2 file, --format=$fmt: exit $rc, $(cat err.txt)"
done

# pct merge --sum keeps no sample times, nor does a run with
# PCT_TIME_AREA=0: refused, saying why; a merge without --sum keeps them
"$PCTBIN" record -o plain2.pct ./two 0.5 >/dev/null 2>rec.err || fail "record plain2: $(cat rec.err)"
"$PCTBIN" merge --sum -o merged.pct plain.pct plain2.pct 2>err.txt || fail "merge --sum: $(cat err.txt)"
"$PCTBIN" merge -o kept.pct plain.pct plain2.pct 2>err.txt || fail "merge: $(cat err.txt)"
"$PCTBIN" export --format=perf-script plain.pct plain2.pct | grep -c . >one.n
"$PCTBIN" export --format=perf-script kept.pct | grep -c . >two.n || fail "perf-script of a merged file"
[ "$(cat two.n)" -eq "$(cat one.n)" ] || fail "a merged file of 2 runs: $(cat two.n) perf-script lines, the two runs $(cat one.n)"
PCT_TIME_AREA=0 "$PCTBIN" record -o nolog.pct ./two 0.1 >/dev/null 2>rec.err || fail "record nolog: $(cat rec.err)"
for f in merged.pct:"pct merge --sum keeps none" nolog.pct:"recorded with PCT_TIME_AREA=0"; do
	"$PCTBIN" export --format=perf-script "${f%%:*}" >out.txt 2>err.txt
	rc=$?
	echo "${f%%:*}: exit $rc: $(cat err.txt)"
	[ $rc = 1 ] && grep -qF "${f%%:*}: no sample times (${f#*:}" err.txt && [ ! -s out.txt ] ||
		fail "${f%%:*}: exit $rc, $(cat err.txt)"
done

# a tick log of 1 KiB (PCT_TIME_AREA=1) fills: the samples after it have no
# exact time; both formats leave them out, with one note giving their
# number, and hold the others
PCT_TIME_AREA=1 "$PCTBIN" record -o full.pct ./two 1.2 >/dev/null 2>rec.err || fail "record full: $(cat rec.err)"
"$PCTBIN" report --by=thread --format=tsv full.pct >full-threads.tsv || fail "report full"
total=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } { t += $k["samples"] } END { print t }' full-threads.tsv)
for fmt in speedscope perf-script; do
	"$PCTBIN" export --format=$fmt full.pct >full.$fmt 2>err.txt || fail "export $fmt of full.pct: $(cat err.txt)"
	echo "full tick log, $fmt: $(cat err.txt)"
	[ "$(grep -c . err.txt)" = 1 ] ||
		fail "--format=$fmt of a full tick log ($total samples; $(grep -c ': [0-9]* cpu:$' full.perf-script 2>/dev/null) ticks in perf-script) said: $(cat err.txt)"
	left=$(sed -n "s/^pct: export: \([0-9]*\) of $total samples have no exact time .*left out$/\1/p" err.txt)
	# 64 ticks of 16 bytes: fewer than the 600 samples unless a tick stands for over 9 on average
	[ -n "$left" ] && [ "$left" -ge 1 ] || fail "--format=$fmt: no note of samples of $total left out: $(cat err.txt)"
done
# the samples kept: speedscope's weights / the period; perf-script's periods / the period
period=$(period_of full.pct)
node -e '
const fs = require("fs"), [total, left, period_s] = process.argv.slice(1).map(Number);
const f = JSON.parse(fs.readFileSync("full.speedscope", "utf8"));
const w = f.profiles.reduce((a, p) => a + p.weights.reduce((x, y) => x + y, 0), 0);
const t = fs.readFileSync("full.perf-script", "utf8").split("\n").map(l => /^\S.* \d+\/\d+ \d+\.\d{6}: (\d+) /.exec(l)).filter(m => m)
	.reduce((a, m) => a + Number(m[1]), 0);
const ns = period_s * 1e9, kept = total - left;
console.log(`kept: pct ${kept}; speedscope ${(w / ns).toFixed(1)}; perf-script ${(t / ns).toFixed(1)} samples`);
process.exit(Math.abs(w / ns - kept) <= 0.005 * kept + 1 && Math.abs(t / ns - kept) <= 0.005 * kept + 1 ? 0 : 1);
' "$total" "$left" "$period" || fail "the exports do not hold the samples with a time"

# a process tree: one profile per process and thread, each with the
# samples of its row of pct report --by=thread; perf-script in time order
# over both processes
"$PCTBIN" record -o tree.pct sh -c './two 0.3; ./two 0.3' >/dev/null 2>rec.err || fail "record tree: $(cat rec.err)"
"$PCTBIN" report --by=thread --format=tsv tree.pct >tree-threads.tsv || fail "report tree"
"$PCTBIN" export --format=speedscope -o tree.json tree.pct || fail "export speedscope of a tree"
"$PCTBIN" export --format=perf-script -o tree.txt tree.pct || fail "export perf-script of a tree"
node -e '
const fs = require("fs"), path = require("path"), [npmdir] = process.argv.slice(1);
const rows = fs.readFileSync("tree-threads.tsv", "utf8").trim().split("\n").map(l => l.split("\t"));
const col = Object.fromEntries(rows[0].map((k, i) => [k, i]));
const want = new Map(rows.slice(1).map(r => [r[col.pid] + "/" + r[col.tid], Number(r[col.samples])]));
const total = [...want.values()].reduce((a, b) => a + b, 0);
const Ajv = require(path.join(npmdir, "node_modules/ajv"));
const ok = new Ajv({ strict: false }).compile(JSON.parse(fs.readFileSync(path.join(npmdir,
	"node_modules/speedscope/dist/release/file-format-schema.json"))))(JSON.parse(fs.readFileSync("tree.json", "utf8")));
const f = JSON.parse(fs.readFileSync("tree.json", "utf8"));
const w = f.profiles.map(p => [/pid (\d+), tid (\d+)\)$/.exec(p.name).slice(1).join("/"), p.weights.reduce((a, b) => a + b, 0)]);
const all = w.reduce((a, [, x]) => a + x, 0);
const got = w.map(([k, x]) => k + " " + Math.round(total * x / all)).sort().join(", ");
const exp = [...want].map(([k, n]) => k + " " + n).sort().join(", ");
const times = fs.readFileSync("tree.txt", "utf8").split("\n").map(l => /^\S.* (\d+)\/\d+ (\d+\.\d{6}): /.exec(l)).filter(m => m);
const pids = new Set(times.map(m => m[1]));
const ordered = times.every((m, i) => i === 0 || Number(times[i - 1][2]) <= Number(m[2]));
console.log(`tree: valid ${ok}; speedscope ${got}; pct report ${exp}; perf-script ${times.length} samples of processes ${[...pids]}, in time order: ${ordered}`);
const rpids = new Set(rows.slice(1).map(r => r[col.pid]));  /* the two runs of two, and sh if sampled */
process.exit(ok && got === exp && want.size >= 4 && [...rpids].sort().join() === [...pids].sort().join() && ordered ? 0 : 1);
' "$npmdir" || fail "the exports of the process tree disagree with pct report"

# names with terminal escapes and invalid UTF-8 (tests/progs/escnames.c):
# both exports show them as \xNN (escape.h), never raw; the JSON parses
# and holds the escaped name, as pct report shows it
[ -x "$PROGS/escnames" ] || fail "$PROGS/escnames is not built (make progs)"
prog=$'esc\e]0;x\a\x9bprog'
cp "$PROGS/escnames" "$prog" || fail "cp"
sampled e.pct e-rec.err "$PCTBIN" record -g -o e.pct "./$prog" 0.3 $'arg\e[2J\a\x9b\xff\\' >/dev/null || fail "record escnames"
[ -f e.pct ] || fail "record escnames left no e.pct: $(cat -v e-rec.err)"
fn='hot\x1b[2J\x1b]0;title\x07\x9b\xfffn'
for fmt in speedscope perf-script; do
	"$PCTBIN" export --format=$fmt e.pct >e.$fmt 2>e.err || fail "export $fmt of escaped names: $(cat -v e.err)"
	[ "$(LC_ALL=C grep -c $'[\e\a\x9b\xff]' e.$fmt e.err | awk -F: '{ n += $2 } END { print n }')" = 0 ] ||
		fail "$fmt: raw escapes: $(LC_ALL=C grep -a $'[\e\a\x9b]' e.$fmt e.err | head -2 | cat -v)"
	[ $fmt = speedscope ] || grep -qF " $fn+0x" e.$fmt || fail "$fmt: the function is not shown escaped: $(head -c 600 e.$fmt | cat -v)"
done
node -e 'const f = JSON.parse(require("fs").readFileSync("e.speedscope", "utf8"));
process.exit(f.shared.frames.some(x => x.name === process.argv[1]) ? 0 : 1)' "$fn" ||
	fail "speedscope: no frame named $fn"
pass "speedscope $SPEEDSCOPE_VERSION imports both exports: the threads and samples of pct report"

/*
 * report.js - the browser side of `pct html`.
 *
 * Reads the profile's data from <script id="pct-data" type="application/json">
 * (its layout: src/report/html.h) and draws, in plain DOM and one canvas:
 *   the header       what was profiled, the sample counts, the statistics
 *                    used, and what generation pruned or bounded;
 *   the timeline     threads over time (when samples carry their time); a
 *                    brushed range re-sums every other view from the ticks;
 *   four views       flat profile, flame graph / icicle, callers and
 *                    callees of a function, its source and disassembly.
 * Only the active view is drawn; the others are drawn when shown.
 *
 * Hooks for tests and scripts:
 *   every table row and flame frame carries data-function, data-samples and,
 *   in a diff, data-verdict; frames have class "frame";
 *   document.body.dataset.ready = "1" once the first view is drawn, and
 *   window.pctReadyMs is performance.now() at that moment;
 *   window.pctStats.wilson(k, n[, z]) is the Wilson score interval of k/n as
 *   [lo, hi] in percent (stats_wilson in src/core/stats.c);
 *   window.pct: show(view), selectFunction(name), selectTime(t0, t1),
 *   clearTime(), search(text), state.
 *
 * Nothing is fetched: no fonts, no images, no eval.
 */
'use strict';
(function () {

/* ---------- statistics and formatting ---------- */

/* Wilson score interval of the share k/n at normal quantile z (95%: 1.96),
 * in percent; [0, 100] when n is 0.  As stats_wilson() in src/core/stats.c. */
function wilson(k, n, z) {
	if (z === undefined)
		z = 1.96;
	if (!(n > 0))
		return [0, 100];
	var p = k / n, z2 = z * z;
	var center = (p + z2 / (2 * n)) / (1 + z2 / n);
	var half = z / (1 + z2 / n) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	var lo = k === 0 ? 0 : Math.max(0, center - half);
	var hi = k === n ? 1 : Math.min(1, center + half);
	return [100 * lo, 100 * hi];
}

/* Two shares that differ by more than this many points differ at 95%
 * (stats_resolution_percent). */
function resolution(n) {
	return n > 0 ? 196 / Math.sqrt(n) : 100;
}

window.pctStats = { wilson: wilson, resolution: resolution };

var FEW = 10;             /* rows under this many samples are marked, as pct report marks them */
var FEW_MARK = '?';       /* pct report's mark: a relative error above 30% */
var HOT_PCT = 5;          /* '*': an instruction or line with this share of its function (ANN_HOT_PERCENT) */
var MIN_PX = 0.5;         /* flame frames narrower than this are not drawn */
var ROWS_SHOWN = 300;     /* table rows drawn before "show all" */
var TL_THREADS = 24;      /* timeline rows; other threads are summed in one */

function esc(s) {
	return String(s).replace(/[&<>"']/g, function (c) {
		return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
	});
}

function pct(x, d) {
	return (isFinite(x) ? x : 0).toFixed(d === undefined ? 2 : d) + '%';
}

function signed(x, d) {
	x = +x || 0;
	return (x >= 0 ? '+' : '') + x.toFixed(d === undefined ? 2 : d);
}

function fmtQ(q) {
	if (q === null || q === undefined)
		return '';
	return q >= 0.001 || q === 0 ? String(+q.toPrecision(2)) : q.toExponential(1);
}

function fmtMs(ms) {
	return ms >= 1000 ? (ms / 1000).toFixed(3) + ' s' : ms.toFixed(1) + ' ms';
}

/* An element from a tag, attributes and an HTML string of trusted markup. */
function el(tag, attrs, html) {
	var e = document.createElement(tag);
	for (var k in attrs || {})
		e.setAttribute(k, attrs[k]);
	if (html)
		e.innerHTML = html;
	return e;
}

function $(id) {
	return document.getElementById(id);
}

/* ---------- the data ---------- */

var D, DIFF, SUM, FL;
try {
	D = JSON.parse($('pct-data').textContent);
} catch (err) {
	document.body.appendChild(el('p', { class: 'error' }, 'pct html: the page holds no readable profile data: ' + esc(err.message)));
	return;
}
DIFF = D.mode === 'diff';
SUM = D.summary || {};
FL = D.flame && D.flame.parent && D.flame.parent.length ? D.flame : null;
var TK = D.ticks && D.ticks.t && D.ticks.t.length ? D.ticks : null;
var TABLES = D.tables || {};
var DIMS = ['function', 'line', 'file', 'module', 'thread', 'process'].filter(function (d) {
	return TABLES[d] && TABLES[d].keys;
});
var N_BASE = SUM.samples || 0, N_NEW = SUM.new_samples || 0;

/* The flame tree, indexed: children in name order (CSR: kids[kidStart[i] ..
 * kidStart[i+1])), depth, and a preorder from the root. */
var NN = 0, kidStart, kids, depth, preorder, nodeName;
function indexFlame() {
	var par = FL.parent, n = par.length, i;
	NN = n;
	var count = new Int32Array(n + 1);
	for (i = 1; i < n; i++)
		if (par[i] >= 0)
			count[par[i] + 1]++;
	kidStart = new Int32Array(n + 1);
	for (i = 0; i < n; i++)
		kidStart[i + 1] = kidStart[i] + count[i + 1];
	kids = new Int32Array(kidStart[n]);
	var fill = kidStart.slice(0, n);
	for (i = 0; i < n; i++)
		if (par[i] >= 0)
			kids[fill[par[i]]++] = i;
	nodeName = new Array(n);
	for (i = 0; i < n; i++) {
		var f = FL.func[i];
		nodeName[i] = i === 0 ? 'all' : f >= 0 && FL.funcs[f] ? FL.funcs[f].name : '[pruned]';
	}
	for (i = 0; i < n; i++) {
		var s = kidStart[i], e = kidStart[i + 1];
		if (e - s > 1) {
			var part = Array.prototype.slice.call(kids, s, e);
			part.sort(function (a, b) { return nodeName[a] < nodeName[b] ? -1 : nodeName[a] > nodeName[b] ? 1 : a - b; });
			kids.set(part, s);
		}
	}
	depth = new Int32Array(n);
	preorder = new Int32Array(n);
	var stack = [0], k = 0;
	while (stack.length) {
		var v = stack.pop();
		preorder[k++] = v;
		for (var j = kidStart[v + 1] - 1; j >= kidStart[v]; j--) {
			depth[kids[j]] = depth[v] + 1;
			stack.push(kids[j]);
		}
	}
	if (k < n)
		preorder = preorder.subarray(0, k);
}

/* Sum self samples up the tree: each node's total (samples whose stack holds it). */
function subtreeTotals(self) {
	var tot = new Float64Array(NN);
	for (var i = preorder.length - 1; i >= 0; i--) {
		var v = preorder[i];
		tot[v] += self[v] || 0;
		if (v !== 0 && FL.parent[v] >= 0)
			tot[FL.parent[v]] += tot[v];
	}
	return tot;
}

/* The key column index named name in a table, or -1. */
function colIndex(t, name) {
	return t && t.cols ? t.cols.indexOf(name) : -1;
}

/* Function table rows by name, to link other tables' function column. */
var FT = TABLES.function, FCOL = colIndex(FT, 'function'), rowByName = {};
if (FT && FCOL >= 0)
	for (var r = FT.keys.length - 1; r >= 0; r--)
		rowByName[FT.keys[r][FCOL]] = r;

/* ---------- the selection: whole run, or a brushed time range ---------- */

var S = {
	view: 'table', dim: DIMS[0] || 'function', sort: -1, sortDir: -1, filter: '', showAll: false,
	range: null,            /* [t0, t1] ms, or null: the whole run */
	n: N_BASE,              /* samples in the selection (a diff: of the base) */
	rows: null,             /* per dimension: samples of each row in the range (null: the data's) */
	totals: null,           /* function rows' total samples in the range */
	self: null, tot: null, newTot: null, weight: null, X: null,
	fn: null,               /* the selected function: {name, row} */
	zoom: 0, icicle: false, search: ''
};
var dirty = {};

/* Samples of row r of dimension dim in the selection. */
function rowSamples(dim, r) {
	return S.rows ? S.rows[dim][r] : TABLES[dim].samples[r];
}

/* The share's 95% interval of row r, percent: the data's for the whole run. */
function rowInterval(dim, r) {
	var t = TABLES[dim];
	if (!S.rows && t.lo && t.hi)
		return [t.lo[r], t.hi[r]];
	return wilson(rowSamples(dim, r), S.n);
}

/* The flame's self samples, totals and frame weights for the selection.  A
 * diff's frames are as wide as the mean of their base and new shares, so a
 * frame gone from either side still shows. */
function computeFlame() {
	if (!FL)
		return;
	S.self = S.rangeSelf || FL.self;
	S.tot = subtreeTotals(S.self);
	if (DIFF) {
		S.newTot = subtreeTotals(FL.new_self || []);
		var w = new Float64Array(NN), nb = S.tot[0] || 1, nn = S.newTot[0] || 1;
		for (var i = 0; i < NN; i++)
			w[i] = S.tot[i] / nb + S.newTot[i] / nn;
		S.weight = w;
	} else
		S.weight = S.tot;
	/* each node's left edge, in weight units from the root's */
	var X = new Float64Array(NN);
	for (var k = 0; k < preorder.length; k++) {
		var v = preorder[k], x = X[v];
		for (var j = kidStart[v]; j < kidStart[v + 1]; j++) {
			X[kids[j]] = x;
			x += S.weight[kids[j]];
		}
	}
	S.X = X;
}

/* Each function row's total samples in the range, from the flame tree: a
 * node counts when no ancestor is the same function (each stack once). */
function rangeTotals() {
	if (!FL || !FT || !FT.total)
		return null;
	var tot = new Float64Array(FT.keys.length), active = new Int32Array(FT.keys.length);
	var open = [];                     /* the nodes entered and not yet left */
	var end = new Int32Array(NN);      /* preorder position past each node's subtree */
	var k;
	for (k = preorder.length - 1; k >= 0; k--) {
		var v = preorder[k], e = k + 1;
		for (var j = kidStart[v]; j < kidStart[v + 1]; j++)
			e = Math.max(e, end[kids[j]]);
		end[v] = e;
	}
	for (k = 0; k < preorder.length; k++) {
		var u = preorder[k];
		while (open.length && end[open[open.length - 1]] <= k) {
			var o = open.pop(), orow = funcRow(FL.func[o]);
			if (orow >= 0)
				active[orow]--;
		}
		var row = funcRow(FL.func[u]);
		if (row >= 0) {
			if (!active[row])
				tot[row] += S.tot[u];
			active[row]++;
		}
		open.push(u);
	}
	return tot;
}

function funcRow(f) {
	return f >= 0 && FL.funcs[f] ? FL.funcs[f].row : -1;
}

/* Select the time range [t0, t1] ms (null: the whole run): re-sum the
 * cells and the flame's selfs from the ticks in it, and redraw. */
function selectTime(t0, t1) {
	if (t0 === null || !TK) {
		S.range = null;
		S.rows = null;
		S.rangeSelf = null;
		S.totals = null;
		S.n = N_BASE;
	} else {
		if (t1 < t0) { var t = t0; t0 = t1; t1 = t; }
		S.range = [t0, t1];
		var rows = {}, C = D.cells, self = FL ? new Float64Array(NN) : null, n = 0, i;
		DIMS.forEach(function (d) { rows[d] = new Float64Array(TABLES[d].keys.length); });
		for (i = 0; i < TK.t.length; i++) {
			if (TK.t[i] < t0 || TK.t[i] > t1)
				continue;
			var c = TK.cell[i], w = TK.w ? TK.w[i] : 1;
			n += w;
			for (var j = 0; j < DIMS.length; j++) {
				var dc = C[DIMS[j]];
				if (dc && dc[c] >= 0)
					rows[DIMS[j]][dc[c]] += w;
			}
			if (self && TK.node[i] >= 0)
				self[TK.node[i]] += w;
		}
		S.rows = rows;
		S.rangeSelf = self;
		S.n = n;
	}
	computeFlame();
	if (S.range)
		S.totals = rangeTotals();
	drawSelectionNote();
	drawBrush();
	for (var v in VIEWS)
		dirty[v] = true;
	show(S.view);
}

/* ---------- the header ---------- */

function drawHeader() {
	var h = $('pct-header'), s = SUM, out = [];
	out.push('<h1>' + esc(D.title || 'pct report') + '</h1>');
	if (D.files && D.files.length) {
		/* a process tree holds a profile per process: the first few
		 * shown, the others folded (largest first once opened) */
		var fileItem = function (f) {
			return '<li>' + (DIFF && f.side ? '<b>' + esc(f.side) + ':</b> ' : '') + esc(f.path) +
				(f.pid !== undefined ? ': pid ' + esc(f.pid) : '') + (f.cmdline ? ': ' + esc(f.cmdline) : '') +
				(f.samples !== undefined ? ' (' + esc(f.samples) + ' samples)' : '') + '</li>';
		};
		var FILES_SHOWN = 6, files = D.files.slice();
		if (files.length > FILES_SHOWN)
			files.sort(function (a, b) { return (b.samples || 0) - (a.samples || 0); });
		out.push('<ul class="files">' + files.slice(0, FILES_SHOWN).map(fileItem).join('') + '</ul>');
		if (files.length > FILES_SHOWN)
			out.push('<details class="files"><summary>' + (files.length - FILES_SHOWN) + ' more profiles (processes) with fewer samples</summary><ul>' +
				files.slice(FILES_SHOWN).map(fileItem).join('') + '</ul></details>');
	}
	var unit = s.unit || (s.dimension === 'wall' ? 'wall-clock seconds' : 'CPU seconds');
	var line = (DIFF ? 'base: ' : '') + N_BASE + ' samples over ' + (+s.seconds || 0).toFixed(3) + ' ' + esc(unit);
	if (DIFF)
		line += '; new: ' + N_NEW + ' samples over ' + (+s.new_seconds || 0).toFixed(3) + ' ' + esc(unit);
	if (s.rate_hz)
		line += '; effective rate ' + (+s.rate_hz).toFixed(1) + ' Hz';
	if (s.period_ms)
		line += ' (period ' + (+s.period_ms).toFixed(3) + ' ms)';
	out.push('<p class="summary">' + line + '</p>');
	if (s.resolution !== undefined && !DIFF)
		out.push('<p>resolution: any two shares that differ by more than ' + (+s.resolution).toFixed(2) +
			' points differ at 95% (1.96/sqrt(samples)); 95% intervals: Wilson score interval of the share.</p>');
	if (DIFF && D.diff) {
		var d = D.diff;
		out.push('<p class="diffsetup">compared: each row\'s ' + esc(d.compare || 'time') + '; test: ' + esc(d.test) +
			'; adjustment: ' + esc(d.adjustment) + '; alpha ' + esc(d.alpha) + '; minimum effect ' + esc(d.min_effect) +
			' points; resolution ' + (+d.resolution).toFixed(2) + ' points; delta: points of the base\'s total' + (d.compare === 'share' ? ' (shares)' : ' time') + '. Verdicts: <span class="v-slower">slower</span>, ' +
			'<span class="v-faster">faster</span> (q &lt; alpha and |delta| at least the minimum effect), unchanged ' +
			'(the 95% interval lies within the minimum effect), unresolved (can\'t tell: too few samples, or unnamed code).</p>');
	}
	var notes = [];
	if (s.stacks)
		notes.push(s.stacks + ' samples have call stacks' + (s.unrooted ? ', ' + s.unrooted + ' of them not unwound to their root' : ''));
	else
		notes.push('no call stacks (record with -g for the flame graph, callers and callees, and total time)');
	if (FL && FL.pruned)
		notes.push('flame: nodes under ' + FL.pruned.below_pct + '% of all samples were pruned at generation (' +
			FL.pruned.nodes + ' nodes, ' + FL.pruned.samples + ' samples), their samples kept in a "[pruned]" frame');
	if (D.annotate && D.annotate.limit) {
		var l = D.annotate.limit;
		notes.push('source and disassembly embedded for the ' + l.functions + ' hottest functions at most, ' + l.lines +
			' source lines per function, ' + Math.round(l.bytes / 1024) + ' KiB of text in all');
	}
	if (TK && s.timed < s.samples)
		notes.push((s.samples - s.timed) + ' samples are not in the tick log: they count in the whole-run view only, not in a brushed time range');
	if (!TK && s.untimed_why)
		notes.push('no timeline: ' + s.untimed_why);
	out.push('<ul class="notes">' + notes.map(function (x) { return '<li>' + esc(x) + '</li>'; }).join('') + '</ul>');
	out.push('<p id="pct-selnote" class="selnote"></p>');
	h.innerHTML = out.join('');
}

/* The line saying which samples the views show. */
function drawSelectionNote() {
	var p = $('pct-selnote');
	if (!p)
		return;
	p.innerHTML = S.range ? 'Showing ' + fmtMs(S.range[0]) + ' to ' + fmtMs(S.range[1]) + ': ' + S.n +
		' samples (resolution ' + resolution(S.n).toFixed(2) + ' points). <button id="pct-clear2" class="clear">clear</button>'
		: (DIFF ? '' : 'Showing the whole run.');
	var b = $('pct-clear2');
	if (b)
		b.onclick = function () { selectTime(null); };
}

/* ---------- the timeline: threads over time, brushable ---------- */

var TL = null;   /* {rowOf: thread row -> timeline row, names, canvas, brush, drag} */

function buildTimeline() {
	var box = $('pct-timeline');
	if (!TK || !D.cells || !D.cells.thread || !TABLES.thread) {
		box.style.display = 'none';
		return;
	}
	var tt = TABLES.thread, nt = tt.keys.length, shown = Math.min(nt, TL_THREADS);
	var rowOf = new Int32Array(nt), names = [], i;
	for (i = 0; i < nt; i++)
		rowOf[i] = i < shown ? i : shown;
	var nc = colIndex(tt, 'thread'), tc = colIndex(tt, 'tid');
	for (i = 0; i < shown; i++)
		names.push(nc >= 0 && tc >= 0 ? tt.keys[i][nc] + ' [' + tt.keys[i][tc] + ']' : tt.keys[i].join(' '));
	if (nt > shown)
		names.push((nt - shown) + ' other threads');
	box.innerHTML = '<div class="tl-head"><b>Timeline</b>: threads over ' + fmtMs(TK.span_ms || 0) +
		'; drag to select a time range, which filters every view. <button id="pct-clear" class="clear">clear</button> ' +
		'<span id="pct-tlsel"></span></div><div class="tl-body"><div class="tl-names">' +
		names.map(function (n) { return '<div title="' + esc(n) + '">' + esc(n) + '</div>'; }).join('') +
		'</div><div class="tl-plot" id="pct-tlplot"><canvas id="pct-tlcanvas"></canvas><div class="tl-brush" id="pct-brush"></div></div></div>';
	TL = { rowOf: rowOf, rows: names.length, canvas: $('pct-tlcanvas'), brush: $('pct-brush'), plot: $('pct-tlplot') };
	$('pct-clear').onclick = function () { selectTime(null); };
	var plot = TL.plot, x0 = null;
	function ms(ev) {
		var r = plot.getBoundingClientRect();
		return Math.max(0, Math.min(1, (ev.clientX - r.left) / r.width)) * (TK.span_ms || 0);
	}
	plot.addEventListener('pointerdown', function (ev) {
		x0 = ms(ev);
		TL.drag = [x0, x0];
		plot.setPointerCapture(ev.pointerId);
		drawBrush();
	});
	plot.addEventListener('pointermove', function (ev) {
		if (x0 === null)
			return;
		TL.drag = [x0, ms(ev)];
		drawBrush();
	});
	plot.addEventListener('pointerup', function (ev) {
		if (x0 === null)
			return;
		var x1 = ms(ev), a = Math.min(x0, x1), b = Math.max(x0, x1);
		x0 = null;
		TL.drag = null;
		var r = plot.getBoundingClientRect();
		if ((b - a) / (TK.span_ms || 1) * r.width < 3)
			drawBrush();             /* a click, not a drag */
		else
			selectTime(a, b);
	});
	drawTimeline();
}

/* The heat strip: one row per thread, time in bins of at least one pixel
 * (wider when ticks are few, so a bin holds several), darker for more
 * samples in the bin. */
function drawTimeline() {
	if (!TL)
		return;
	var cv = TL.canvas, w = Math.max(50, Math.floor(TL.plot.clientWidth)), rowH = 14, h = TL.rows * rowH;
	cv.width = w;
	cv.height = h;
	cv.style.height = h + 'px';
	var nb = Math.max(20, Math.min(w, Math.floor(TK.t.length / (4 * TL.rows))));
	var bins = new Float64Array(TL.rows * nb), span = TK.span_ms || 1, thr = D.cells.thread, max = 0, i;
	for (i = 0; i < TK.t.length; i++) {
		var tr = thr[TK.cell[i]];
		if (tr === undefined || tr < 0)
			continue;
		var b = Math.max(0, Math.min(nb - 1, Math.floor(TK.t[i] / span * nb))), k = TL.rowOf[tr] * nb + b;
		bins[k] += TK.w ? TK.w[i] : 1;
		if (bins[k] > max)
			max = bins[k];
	}
	var ctx = cv.getContext('2d'), img = ctx.createImageData(w, h), px = img.data;
	for (var row = 0; row < TL.rows; row++)
		for (var x = 0; x < w; x++) {
			var v = bins[row * nb + Math.min(nb - 1, Math.floor(x * nb / w))], a = v > 0 ? 0.15 + 0.85 * Math.sqrt(v / max) : 0;
			for (var y = row * rowH + 1; y < (row + 1) * rowH - 1; y++) {
				var o = (y * w + x) * 4;
				px[o] = 200 - 150 * a; px[o + 1] = 90 - 60 * a; px[o + 2] = 30;
				px[o + 3] = v > 0 ? 255 * a : 18;
			}
		}
	ctx.putImageData(img, 0, 0);
	drawBrush();
}

/* The brushed (or being-dragged) range over the strip. */
function drawBrush() {
	if (!TL)
		return;
	var r = TL.drag || S.range, b = TL.brush, span = TK.span_ms || 1;
	if (!r) {
		b.style.display = 'none';
		$('pct-tlsel').textContent = 'whole run';
		return;
	}
	var a = Math.min(r[0], r[1]), c = Math.max(r[0], r[1]);
	b.style.display = 'block';
	b.style.left = (100 * a / span) + '%';
	b.style.width = (100 * (c - a) / span) + '%';
	$('pct-tlsel').textContent = fmtMs(a) + ' to ' + fmtMs(c) + (S.range && !TL.drag ? ': ' + S.n + ' samples' : '');
}

/* ---------- views and the selected function ---------- */

var VIEWS = {
	table: { label: 'Flat profile', draw: drawTable },
	flame: { label: 'Flame graph', draw: drawFlame, need: function () { return FL; } },
	calls: { label: 'Callers / callees', draw: drawCalls, need: function () { return FL; } },
	source: { label: 'Source / disassembly', draw: drawSource, need: function () { return D.annotate; } }
};

function buildTabs() {
	var nav = $('pct-tabs'), html = [];
	for (var v in VIEWS) {
		var ok = !VIEWS[v].need || VIEWS[v].need();
		html.push('<button class="tab" data-view="' + v + '"' + (ok ? '' : ' disabled title="not in this profile"') + '>' +
			VIEWS[v].label + '</button>');
	}
	html.push('<span id="pct-fnbar" class="fnbar"></span>');
	nav.innerHTML = html.join('');
	nav.addEventListener('click', function (ev) {
		var b = ev.target.closest('button[data-view]');
		if (b && !b.disabled)
			show(b.getAttribute('data-view'));
	});
}

/* Show view v, drawing it if the selection changed since it was drawn. */
function show(v) {
	S.view = v;
	for (var k in VIEWS) {
		$('pct-view-' + k).style.display = k === v ? '' : 'none';
		var b = document.querySelector('#pct-tabs button[data-view="' + k + '"]');
		if (b)
			b.classList.toggle('active', k === v);
	}
	if (dirty[v]) {
		dirty[v] = false;
		VIEWS[v].draw();
	}
}

/* Select the function named name (row: its function table row, if known). */
function selectFunction(name, row) {
	if (row === undefined || row < 0)
		row = rowByName[name] !== undefined ? rowByName[name] : -1;
	S.fn = { name: name, row: row };
	dirty.calls = dirty.source = true;
	var bar = $('pct-fnbar');
	bar.innerHTML = 'Selected: <b>' + esc(name) + '</b> ' +
		(FL ? '<button data-go="calls">callers / callees</button> ' : '') +
		(D.annotate ? '<button data-go="source">source</button> ' : '') +
		(FL ? '<button data-go="flame">find in flame</button>' : '');
	bar.onclick = function (ev) {
		var go = ev.target.getAttribute('data-go');
		if (go === 'flame') {
			if ($('pct-search'))
				$('pct-search').value = name;
			S.search = name;
			dirty.flame = true;
		}
		if (go)
			show(go);
	};
	var rows = document.querySelectorAll('#pct-view-table tr.sel');
	for (var i = 0; i < rows.length; i++)
		rows[i].classList.remove('sel');
}

/* The selected function, else the hottest. */
function currentFunction() {
	if (S.fn)
		return S.fn;
	if (FT && FT.keys.length && FCOL >= 0)
		return { name: FT.keys[0][FCOL], row: 0 };
	return null;
}

/* ---------- flat profile ---------- */

/* The table's columns for dimension dim: {h: header, v(r): sort value,
 * f(r): cell HTML, cls}. */
function tableColumns(dim) {
	var t = TABLES[dim], cols = [], maxHi = 0.01;
	function few(r) {
		return DIFF ? t.samples[r] < FEW && (t.new ? t.new[r] : 0) < FEW : rowSamples(dim, r) < FEW;
	}
	cols.push({ h: '', v: function (r) { return few(r) ? 1 : 0; }, f: function (r) { return few(r) ? FEW_MARK : ''; }, cls: 'mark' });
	if (!DIFF) {
		for (var r = 0; r < t.keys.length; r++)
			maxHi = Math.max(maxHi, rowInterval(dim, r)[1]);
		cols.push({ h: 'share', v: function (r) { return rowSamples(dim, r); }, cls: 'num', f: function (r) {
			var iv = rowInterval(dim, r), p = 100 * rowSamples(dim, r) / (S.n || 1);
			return shareBar(p, iv[0], iv[1], maxHi) + '<span>' + pct(p) + '</span>';
		} });
		cols.push({ h: '95% CI', v: function (r) { return rowInterval(dim, r)[0]; }, cls: 'num ci', f: function (r) {
			var iv = rowInterval(dim, r);
			return '[' + iv[0].toFixed(1) + ', ' + iv[1].toFixed(1) + ']';
		} });
		cols.push({ h: 'samples', v: function (r) { return rowSamples(dim, r); }, cls: 'num', f: function (r) { return rowSamples(dim, r); } });
		if (dim === 'function' && t.total) {
			var tot = function (r) { return S.totals ? S.totals[r] : S.range ? 0 : t.total[r]; };
			cols.push({ h: 'total', v: tot, cls: 'num', f: function (r) { return tot(r); } });
			cols.push({ h: 'total%', v: tot, cls: 'num', f: function (r) { return pct(100 * tot(r) / (S.n || 1)); } });
		}
	} else {
		var maxD = 0.01;
		for (var q = 0; q < t.keys.length; q++)
			maxD = Math.max(maxD, Math.abs(t.dlo[q]), Math.abs(t.dhi[q]));
		cols.push({ h: 'base%', v: function (r) { return t.samples[r]; }, cls: 'num', f: function (r) { return pct(100 * t.samples[r] / (N_BASE || 1)); } });
		cols.push({ h: 'new%', v: function (r) { return t.new[r]; }, cls: 'num', f: function (r) { return pct(100 * t.new[r] / (N_NEW || 1)); } });
		cols.push({ h: 'delta', v: function (r) { return t.delta[r]; }, cls: 'num', f: function (r) {
			return deltaBar(t.delta[r], t.dlo[r], t.dhi[r], maxD, t.verdict[r]) + '<span>' + signed(t.delta[r]) + '</span>';
		} });
		cols.push({ h: '95% CI', v: function (r) { return t.dlo[r]; }, cls: 'num ci', f: function (r) {
			return '[' + signed(t.dlo[r]) + ', ' + signed(t.dhi[r]) + ']';
		} });
		cols.push({ h: 'q', v: function (r) { return t.q[r] === null ? 2 : t.q[r]; }, cls: 'num', f: function (r) { return fmtQ(t.q[r]); } });
		cols.push({ h: 'verdict', v: function (r) { return t.verdict[r]; }, f: function (r) {
			return '<span class="v-' + esc(t.verdict[r]) + '">' + esc(t.verdict[r] === 'unresolved' ? "can't tell" : t.verdict[r]) + '</span>';
		} });
		cols.push({ h: 'base', v: function (r) { return t.samples[r]; }, cls: 'num', f: function (r) { return t.samples[r]; } });
		cols.push({ h: 'new', v: function (r) { return t.new[r]; }, cls: 'num', f: function (r) { return t.new[r]; } });
	}
	t.cols.forEach(function (name, i) {
		cols.push({ h: name, v: function (r) { return t.keys[r][i]; }, cls: 'key', f: function (r) { return esc(t.keys[r][i]); } });
	});
	return cols;
}

/* A share as a bar, its 95% interval as a line over it; scaled to max. */
function shareBar(p, lo, hi, max) {
	return '<span class="bar"><span class="fill" style="width:' + (100 * p / max).toFixed(2) + '%"></span>' +
		'<span class="ci" style="left:' + (100 * lo / max).toFixed(2) + '%;width:' + (100 * Math.max(0, hi - lo) / max).toFixed(2) + '%"></span></span>';
}

/* A change as a bar from the middle, its 95% interval as a line. */
function deltaBar(d, lo, hi, max, verdict) {
	function x(v) { return (50 + 50 * v / max).toFixed(2); }
	var a = Math.min(0, d), b = Math.max(0, d);
	return '<span class="bar dbar"><span class="fill v-' + esc(verdict) + '" style="left:' + x(a) + '%;width:' + (x(b) - x(a)).toFixed(2) + '%"></span>' +
		'<span class="ci" style="left:' + x(lo) + '%;width:' + Math.max(0, x(hi) - x(lo)).toFixed(2) + '%"></span><span class="zero"></span></span>';
}

function drawTable() {
	var box = $('pct-view-table');
	if (!DIMS.length) {
		box.innerHTML = '<p>No flat profile in the data.</p>';
		return;
	}
	if (!box.firstChild) {
		box.innerHTML = '<div class="controls"><span id="pct-dims"></span> <input id="pct-filter" type="search" placeholder="filter rows (text)"> ' +
			'<span id="pct-tcount"></span></div><div id="pct-tablebox"></div>';
		$('pct-dims').innerHTML = DIMS.map(function (d) {
			return '<button class="dim" data-dim="' + d + '">' + d + '</button>';
		}).join('');
		$('pct-dims').onclick = function (ev) {
			var d = ev.target.getAttribute('data-dim');
			if (d) {
				S.dim = d;
				S.sort = -1;
				S.showAll = false;
				drawTable();
			}
		};
		var timer = 0;
		$('pct-filter').oninput = function () {
			clearTimeout(timer);
			timer = setTimeout(function () { S.filter = $('pct-filter').value; drawTable(); }, 120);
		};
		$('pct-tablebox').onclick = tableClick;
	}
	var dim = S.dim, t = TABLES[dim], cols = tableColumns(dim), fcol = colIndex(t, 'function');
	var btns = $('pct-dims').children;
	for (var i = 0; i < btns.length; i++)
		btns[i].classList.toggle('active', btns[i].getAttribute('data-dim') === dim);
	/* rows: filtered, in the range, sorted */
	var idx = [], f = S.filter.toLowerCase();
	for (var r = 0; r < t.keys.length; r++) {
		if (S.range && !rowSamples(dim, r) && !(dim === 'function' && S.totals && S.totals[r]))
			continue;                  /* nothing in the range */
		if (f && t.keys[r].join(' ').toLowerCase().indexOf(f) < 0)
			continue;
		idx.push(r);
	}
	if (S.sort >= 0) {
		var c = cols[S.sort], dir = S.sortDir;
		var key = idx.map(function (r) { return c.v(r); });
		var order = idx.map(function (r, k) { return k; });
		order.sort(function (a, b) {
			var x = key[a], y = key[b];
			return (x < y ? -1 : x > y ? 1 : idx[a] - idx[b]) * (x === y ? 1 : dir);
		});
		idx = order.map(function (k) { return idx[k]; });
	} else if (S.range)
		idx.sort(function (a, b) { return rowSamples(dim, b) - rowSamples(dim, a) || a - b; });
	var n = S.showAll ? idx.length : Math.min(idx.length, ROWS_SHOWN), out = [];
	out.push('<table class="flat"><thead><tr>');
	cols.forEach(function (c, k) {
		out.push('<th data-col="' + k + '" class="' + (c.cls || '') + '">' + esc(c.h) +
			(S.sort === k ? (S.sortDir < 0 ? ' \u25be' : ' \u25b4') : '') + '</th>');
	});
	out.push('</tr></thead><tbody>');
	var sel = S.fn ? S.fn.name : null;
	for (var k = 0; k < n; k++) {
		var row = idx[k], fn = fcol >= 0 ? t.keys[row][fcol] : null;
		var attrs = ' data-row="' + row + '" data-samples="' + rowSamples(dim, row) + '"';
		if (fn !== null)
			attrs += ' data-function="' + esc(fn) + '"';
		if (DIFF)
			attrs += ' data-new-samples="' + t.new[row] + '" data-verdict="' + esc(t.verdict[row]) + '"';
		var few = cols[0].v(row), cls = (few ? 'few' : '') + (fn !== null && fn === sel ? ' sel' : '');
		out.push('<tr class="' + cls + '"' + attrs + '>');
		for (var j = 0; j < cols.length; j++)
			out.push('<td class="' + (cols[j].cls || '') + '">' + cols[j].f(row) + '</td>');
		out.push('</tr>');
	}
	out.push('</tbody></table>');
	if (n < idx.length)
		out.push('<p><button id="pct-showall">show all ' + idx.length + ' rows</button> (' + (idx.length - n) + ' more)</p>');
	if (!DIFF)
		out.push('<p class="legend">' + FEW_MARK + ': fewer than ' + FEW + ' samples, a relative error above 30%. ' +
			'Bar: the share, scaled to the largest interval; line: its 95% interval.' +
			(S.range && FT && FT.total ? ' In a time range, total is summed from the flame tree (pruned frames not counted).' : '') + '</p>');
	$('pct-tablebox').innerHTML = out.join('');
	$('pct-tcount').textContent = idx.length + ' of ' + t.keys.length + ' rows';
}

/* Table clicks: a header sorts, a row selects its function. */
function tableClick(ev) {
	var th = ev.target.closest('th');
	if (th) {
		var k = +th.getAttribute('data-col');
		if (S.sort === k)
			S.sortDir = -S.sortDir;
		else {
			S.sort = k;
			S.sortDir = TABLES[S.dim].cols.indexOf(th.textContent.replace(/ .$/, '')) >= 0 ? 1 : -1;
		}
		drawTable();
		return;
	}
	if (ev.target.id === 'pct-showall') {
		S.showAll = true;
		drawTable();
		return;
	}
	var tr = ev.target.closest('tr[data-function]');
	if (tr) {
		var fn = tr.getAttribute('data-function');
		selectFunction(fn, S.dim === 'function' ? +tr.getAttribute('data-row') : undefined);
		tr.classList.add('sel');
	}
}

/* ---------- flame graph and icicle ---------- */

var FH = 16;          /* frame height, px */
var measureCtx = null, measureCache = new Map();

/* The width of text s in the frames' font, measured in the page. */
function textWidth(s) {
	var w = measureCache.get(s);
	if (w === undefined) {
		w = measureCtx.measureText(s).width;
		if (measureCache.size < 50000)
			measureCache.set(s, w);
	}
	return w;
}

/* The longest label of name that fits in avail px: the name, or a prefix
 * and an ellipsis, or nothing. */
function fitLabel(name, avail) {
	if (avail <= 0)
		return '';
	if (textWidth(name) <= avail)
		return name;
	var lo = 0, hi = name.length - 1;
	while (lo < hi) {
		var mid = (lo + hi + 1) >> 1;
		if (measureCtx.measureText(name.slice(0, mid) + '\u2026').width <= avail)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo >= 2 ? name.slice(0, lo) + '\u2026' : '';
}

function setupMeasure(box) {
	var probe = el('div', { class: 'frame' });
	probe.style.visibility = 'hidden';
	box.appendChild(probe);
	var cs = getComputedStyle(probe);
	measureCtx = document.createElement('canvas').getContext('2d');
	measureCtx.font = cs.fontStyle + ' ' + cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
	box.removeChild(probe);
}

function isInline(name) {
	return /\((inline|inlined)\)$|\[inline\]$/.test(name);
}

/* A frame's fill: in a profile a warm colour by name; in a diff only a
 * slower (red) or faster (blue) verdict is coloured, darker for a larger
 * change; everything else is grey. */
function frameColor(v, maxAbs) {
	if (DIFF) {
		var vd = FL.verdict ? FL.verdict[v] : null;
		if (vd !== 'slower' && vd !== 'faster')
			return '#d4d4d4';
		var a = Math.min(1, Math.abs(FL.delta[v] || 0) / maxAbs), l = (86 - 30 * a).toFixed(0);
		return vd === 'slower' ? 'hsl(0,85%,' + l + '%)' : 'hsl(215,85%,' + l + '%)';
	}
	if (v === 0 || FL.func[v] < 0)
		return '#c8c8c8';
	var s = nodeName[v], h = 0;
	for (var i = 0; i < s.length; i++)
		h = (h * 31 + s.charCodeAt(i)) | 0;
	h = Math.abs(h);
	return 'hsl(' + (h % 50) + ',' + (70 + (h >> 6) % 20) + '%,' + (58 + (h >> 11) % 10) + '%)';
}

/* The search as a test of a name: a substring, or a regular expression
 * (case-insensitive) when the text is one. */
function searchTest(q) {
	if (!q)
		return null;
	var re = null;
	try { re = new RegExp(q, 'i'); } catch (e) { re = null; }
	var lq = q.toLowerCase();
	return function (name) { return name.toLowerCase().indexOf(lq) >= 0 || (re !== null && re.test(name)); };
}

function buildFlame() {
	var box = $('pct-view-flame');
	box.innerHTML = '<div class="controls"><span class="seg"><button id="pct-mode-flame">Flame graph</button><button id="pct-mode">Icicle</button></span> ' +
		'<button id="pct-reset">Reset zoom</button> ' +
		'<input id="pct-search" type="search" placeholder="search (text or regex)"> <span id="pct-matched"></span></div>' +
		'<p class="legend" id="pct-flegend"></p><div id="pct-flame" class="flame"></div>';
	setupMeasure($('pct-flame'));
	$('pct-mode').onclick = function () {
		S.icicle = true;
		drawFlame();
	};
	$('pct-mode-flame').onclick = function () {
		S.icicle = false;
		drawFlame();
	};
	$('pct-reset').onclick = function () {
		S.zoom = 0;
		drawFlame();
	};
	var timer = 0;
	$('pct-search').value = S.search;
	$('pct-search').oninput = function () {
		clearTimeout(timer);
		timer = setTimeout(function () { S.search = $('pct-search').value; markSearch(); }, 100);
	};
	var fl = $('pct-flame'), tip = $('pct-tip');
	fl.onclick = function (ev) {
		var f = ev.target.closest('.frame');
		if (!f)
			return;
		var v = +f.getAttribute('data-node');
		S.zoom = v;
		if (v !== 0 && FL.func[v] >= 0)
			selectFunction(nodeName[v], funcRow(FL.func[v]));
		drawFlame();
	};
	fl.onmousemove = function (ev) {
		var f = ev.target.closest('.frame');
		if (!f) {
			tip.style.display = 'none';
			return;
		}
		tip.innerHTML = frameTip(+f.getAttribute('data-node'));
		tip.style.display = 'block';
		var x = ev.clientX + 14, y = ev.clientY + 14;
		if (x + tip.offsetWidth > window.innerWidth - 4)
			x = Math.max(4, ev.clientX - tip.offsetWidth - 14);
		if (y + tip.offsetHeight > window.innerHeight - 4)
			y = Math.max(4, ev.clientY - tip.offsetHeight - 14);
		tip.style.left = x + 'px';
		tip.style.top = y + 'px';
	};
	fl.onmouseleave = function () { tip.style.display = 'none'; };
}

/* The hover text of node v. */
function frameTip(v) {
	var name = nodeName[v], f = FL.func[v], fn = f >= 0 ? FL.funcs[f] : null, out = [];
	out.push('<b>' + esc(name) + '</b>' + (isInline(name) ? ' <i>(inlined)</i>' : ''));
	if (DIFF) {
		var nb = S.tot[0] || 1, nn = S.newTot[0] || 1, vd = FL.verdict ? FL.verdict[v] : '';
		out.push('base: ' + S.tot[v] + ' samples, ' + pct(100 * S.tot[v] / nb) + '; new: ' + S.newTot[v] + ' samples, ' + pct(100 * S.newTot[v] / nn));
		out.push('self: base ' + (FL.self[v] || 0) + ', new ' + (FL.new_self[v] || 0) + '; delta ' + signed(FL.delta[v] || 0) +
			' points; verdict: <span class="v-' + esc(vd) + '">' + esc(vd === 'unresolved' ? "can't tell" : vd) + '</span>');
	} else {
		var iv = wilson(S.tot[v], S.n);
		out.push(S.tot[v] + ' samples, ' + pct(100 * S.tot[v] / (S.n || 1)) + ' [' + iv[0].toFixed(1) + ', ' + iv[1].toFixed(1) + '] (95%)' +
			(S.self[v] ? '; self ' + S.self[v] : ''));
	}
	if (fn && fn.module)
		out.push('module: ' + esc(fn.module));
	var loc = fn && fn.file ? fn.file + ':' + fn.line : fn ? sourceOf(fn.row) : '';
	if (loc)
		out.push('source: ' + esc(loc));
	if (v === 0)
		out.push('all samples with call stacks');
	else if (f < 0)
		out.push('callees pruned at generation (each under ' + (FL.pruned ? FL.pruned.below_pct : '?') + '% of all samples)');
	return out.join('<br>');
}

/* file:line of function table row r, from its key columns or its
 * annotation (the first line with samples), else ''. */
function sourceOf(r) {
	if (!FT || r === undefined || r < 0)
		return '';
	var fc = colIndex(FT, 'file'), lc = colIndex(FT, 'line');
	if (fc >= 0 && FT.keys[r][fc])
		return FT.keys[r][fc] + (lc >= 0 && FT.keys[r][lc] ? ':' + FT.keys[r][lc] : '');
	var a = D.annotate && D.annotate[String(r)];
	if (a && a.file) {
		var first = (a.lines || []).filter(function (l) { return l[1] > 0; })[0];
		return a.file + (first ? ':' + first[0] : '');
	}
	return '';
}

/* Draw the frames of the zoomed subtree (and its ancestors, full width)
 * that are at least MIN_PX wide, as one string of absolutely placed
 * elements. */
function drawFlame() {
	if (!FL)
		return;
	if (!$('pct-flame'))
		buildFlame();
	var box = $('pct-flame'), width = Math.max(100, box.clientWidth), W = S.weight, X = S.X;
	var z = S.zoom, wz = W[z];
	if (!(wz > 0)) {
		z = S.zoom = 0;
		wz = W[0];
	}
	var scale = wz > 0 ? width / wz : 0, x0 = X[z], list = [], v;
	for (v = FL.parent[z]; v >= 0 && z !== 0; v = FL.parent[v])
		list.push(v);                      /* ancestors: full width */
	var stack = [z], hidden = 0;
	while (stack.length) {
		v = stack.pop();
		list.push(v);
		for (var j = kidStart[v]; j < kidStart[v + 1]; j++) {
			var c = kids[j];
			if (W[c] * scale >= MIN_PX)
				stack.push(c);
			else if (W[c] > 0)
				hidden++;
		}
	}
	var maxDepth = 0, i;
	for (i = 0; i < list.length; i++)
		maxDepth = Math.max(maxDepth, depth[list[i]]);
	var maxAbs = 1e-9;
	if (DIFF)
		for (i = 0; i < list.length; i++)
			if (FL.verdict[list[i]] === 'slower' || FL.verdict[list[i]] === 'faster')
				maxAbs = Math.max(maxAbs, Math.abs(FL.delta[list[i]] || 0));
	var out = [], match = searchTest(S.search);
	for (i = 0; i < list.length; i++) {
		v = list[i];
		var anc = depth[v] < depth[z], left = anc ? 0 : (X[v] - x0) * scale, w = anc ? width : W[v] * scale;
		var top = S.icicle ? depth[v] * FH : (maxDepth - depth[v]) * FH, name = nodeName[v];
		var cls = 'frame' + (anc ? ' anc' : '') + (isInline(name) ? ' inline' : '') + (v === z && z ? ' zoomed' : '') +
			(match && v && FL.func[v] >= 0 && match(name) ? ' match' : '');
		out.push('<div class="' + cls + '" data-node="' + v + '" data-function="' + esc(name) + '" data-samples="' + S.tot[v] + '"' +
			(DIFF ? ' data-new-samples="' + S.newTot[v] + '" data-verdict="' + esc(FL.verdict[v]) + '"' : '') +
			' style="left:' + left.toFixed(2) + 'px;top:' + top + 'px;width:' + Math.max(0.5, w - 1).toFixed(2) + 'px;background:' +
			frameColor(v, maxAbs) + '">' + esc(fitLabel(name, w - 7)) + '</div>');
	}
	box.style.height = ((maxDepth + 1) * FH) + 'px';
	box.innerHTML = out.join('');
	$('pct-mode').classList.toggle('active', S.icicle);
	$('pct-mode-flame').classList.toggle('active', !S.icicle);
	$('pct-flegend').textContent = (S.icicle ? 'Icicle: the root at the top. ' : 'Flame graph: the root at the bottom. ') +
		(DIFF ? 'Width: the mean of the base and new shares. Coloured only where the verdict is slower (red) or faster (blue), darker for a larger change; grey: unchanged or can\'t tell, however large the raw change. '
			: 'Width: share of samples. ') +
		'Italic, underlined: an inlined function. Click a frame to zoom in, Reset zoom to go back. ' + list.length + ' frames drawn; ' + hidden + ' frames narrower than ' + MIN_PX + ' px are not drawn' +
		(S.range ? '; samples of the selected time range only' : '') + '.';
	markSearch();
}

/* Highlight the frames whose name matches the search; show the matched
 * share: samples of the stacks holding a match, each stack counted once
 * (the outermost match), as flamegraph.pl does. */
function markSearch() {
	var match = searchTest(S.search), frames = $('pct-flame').children, i;
	for (i = 0; i < frames.length; i++) {
		var v = +frames[i].getAttribute('data-node');
		frames[i].classList.toggle('match', !!(match && v && FL.func[v] >= 0 && match(nodeName[v])));
	}
	var out = $('pct-matched');
	if (!match) {
		out.textContent = '';
		return;
	}
	var isMatch = new Uint8Array(FL.funcs.length);
	FL.funcs.forEach(function (f, k) { isMatch[k] = match(f.name) ? 1 : 0; });
	var sum = 0, sumNew = 0, stack = [0];
	while (stack.length) {
		var v2 = stack.pop(), f = FL.func[v2];
		if (v2 && f >= 0 && isMatch[f]) {
			sum += S.tot[v2];
			if (DIFF)
				sumNew += S.newTot[v2];
			continue;
		}
		for (var j = kidStart[v2]; j < kidStart[v2 + 1]; j++)
			stack.push(kids[j]);
	}
	out.textContent = DIFF ? 'matched: base ' + pct(100 * sum / (S.tot[0] || 1)) + ', new ' + pct(100 * sumNew / (S.newTot[0] || 1))
		: 'matched: ' + sum + ' samples, ' + pct(100 * sum / (S.n || 1));
}

/* ---------- callers and callees ---------- */

/* The callers and callees of function fn from the flame tree: over the
 * function's outermost nodes (a recursive call counts once), callers are
 * their parents' functions, callees their children's, with samples
 * (base and new in a diff). */
function callsOf(fn) {
	var isF = function (v) {
		var f = FL.func[v];
		if (!v || f < 0)
			return false;
		return fn.row >= 0 ? FL.funcs[f].row === fn.row : FL.funcs[f].name === fn.name;
	};
	var res = { total: 0, totalNew: 0, self: 0, selfNew: 0, callers: new Map(), callees: new Map() };
	function add(map, name, b, n) {
		var e = map.get(name) || map.set(name, { name: name, b: 0, n: 0 }).get(name);
		e.b += b;
		e.n += n;
	}
	var newSelf = DIFF ? FL.new_self : null;
	for (var v = 1; v < NN; v++) {
		if (!isF(v))
			continue;
		res.self += S.self[v] || 0;
		if (newSelf)
			res.selfNew += newSelf[v] || 0;
		var outer = true;
		for (var a = FL.parent[v]; a > 0; a = FL.parent[a])
			if (isF(a)) {
				outer = false;
				break;
			}
		if (!outer)
			continue;
		var nb = S.tot[v], nn = DIFF ? S.newTot[v] : 0;
		if (!nb && !nn)
			continue;
		res.total += nb;
		res.totalNew += nn;
		var p = FL.parent[v];
		add(res.callers, p > 0 ? nodeName[p] : '[root: no caller]', nb, nn);
		for (var j = kidStart[v]; j < kidStart[v + 1]; j++) {
			var c = kids[j];
			if (S.tot[c] || (DIFF && S.newTot[c]))
				add(res.callees, nodeName[c], S.tot[c], DIFF ? S.newTot[c] : 0);
		}
		add(res.callees, '(self)', S.self[v] || 0, newSelf ? newSelf[v] || 0 : 0);
	}
	return res;
}

function drawCalls() {
	var box = $('pct-view-calls'), fn = currentFunction();
	if (!FL || !fn) {
		box.innerHTML = '<p>No call stacks in this profile (record with -g).</p>';
		return;
	}
	var r = callsOf(fn), nb = DIFF ? S.tot[0] || 1 : S.n || 1, nn = DIFF ? S.newTot[0] || 1 : 1;
	function table(title, map, total, totalNew) {
		var rows = Array.from(map.values()).sort(function (a, b) { return (b.b + b.n) - (a.b + a.n) || (a.name < b.name ? -1 : 1); });
		var h = '<h3>' + title + '</h3><table class="flat calls"><thead><tr>' +
			(DIFF ? '<th class="num">base</th><th class="num">base%</th><th class="num">new</th><th class="num">new%</th>'
				: '<th class="num">samples</th><th class="num">of all</th><th class="num">of the function</th>') +
			'<th class="key">function</th></tr></thead><tbody>';
		rows.forEach(function (e) {
			var named = e.name.charAt(0) !== '(' && e.name.charAt(0) !== '[';
			h += '<tr' + (named ? ' data-function="' + esc(e.name) + '"' : '') + ' data-samples="' + e.b + '"' + (e.b + e.n < FEW ? ' class="few"' : '') + '>' +
				(DIFF ? '<td class="num">' + e.b + '</td><td class="num">' + pct(100 * e.b / nb) + '</td><td class="num">' + e.n + '</td><td class="num">' + pct(100 * e.n / nn) + '</td>'
					: '<td class="num">' + e.b + '</td><td class="num">' + pct(100 * e.b / nb) + '</td><td class="num">' + pct(100 * e.b / (total || 1)) + '</td>') +
				'<td class="key">' + (named ? '<a href="#" data-pick="1">' + esc(e.name) + '</a>' : esc(e.name)) + '</td></tr>';
		});
		return h + '</tbody></table>' + (rows.length ? '' : '<p>none</p>');
	}
	var head = '<h2>' + esc(fn.name) + '</h2><p>total: ' + r.total + ' samples (' + pct(100 * r.total / nb) + ')' +
		(DIFF ? ', new ' + r.totalNew + ' (' + pct(100 * r.totalNew / nn) + ')' : '') + '; self: ' + r.self + (DIFF ? ', new ' + r.selfNew : '') +
		(S.range ? '; in the selected time range' : '') + '. From the flame tree: a recursive call counts once; pruned frames are in "[pruned]". Click a name to move to it.</p>';
	box.innerHTML = head + '<div class="sandwich"><div>' + table('Callers', r.callers, r.total, r.totalNew) + '</div><div>' +
		table('Callees', r.callees, r.total, r.totalNew) + '</div></div>';
	box.onclick = function (ev) {
		var a = ev.target.closest('a[data-pick]');
		if (a) {
			ev.preventDefault();
			selectFunction(a.closest('tr').getAttribute('data-function'));
			dirty.calls = false;
			drawCalls();
		}
	};
}

/* ---------- source and disassembly ---------- */

function annotated() {
	var A = D.annotate || {};
	return Object.keys(A).filter(function (k) { return k !== 'limit' && A[k]; })
		.sort(function (a, b) { return (A[b].samples || 0) - (A[a].samples || 0) || a - b; });
}

/* The marks of a line or instruction with k of the function's n samples:
 * "=>" the hottest, "*" HOT_PCT% or more. */
function hotMark(k, n, hottest) {
	if (k > 0 && k === hottest)
		return '=>';
	return n > 0 && 100 * k / n >= HOT_PCT ? '*' : '';
}

function drawSource() {
	var box = $('pct-view-source'), A = D.annotate || {}, list = annotated(), fn = currentFunction();
	var row = fn && fn.row >= 0 ? String(fn.row) : null;
	if (row === null || !A[row])
		row = null;
	var opts = list.map(function (k) {
		var name = FT && FCOL >= 0 && FT.keys[+k] ? FT.keys[+k][FCOL] : 'row ' + k;
		return '<option value="' + esc(k) + '"' + (k === row ? ' selected' : '') + '>' + esc(name) + ' (' + A[k].samples + ')</option>';
	}).join('');
	var out = ['<div class="controls">Annotated functions: <select id="pct-annsel">' +
		(row === null ? '<option value="" selected>choose</option>' : '') + opts + '</select></div>'];
	if (fn && row === null)
		out.push('<p>' + esc(fn.name) + ' is not annotated: only the ' + (A.limit ? A.limit.functions : '') + ' hottest functions are, and only those with a symbol.</p>');
	if (row !== null) {
		var a = A[row], n = a.samples || 0, hottest = a.hottest || 0, lines = a.lines || [], insns = a.insns || [];
		var hotLine = 0, hotSeen = false, i;
		for (i = 0; i < lines.length; i++)
			hotLine = Math.max(hotLine, lines[i][1]);
		out.push('<h2>' + esc(fn.name) + '</h2><p>' + n + ' samples' + (a.file ? '; source: ' + esc(a.file) : '; no source file known') +
			'. =&gt; the hottest, * ' + HOT_PCT + '% of the function or more. Source lines are bounded to ' + (A.limit ? A.limit.lines : '?') + ' per function.</p>');
		/* class "hot": the first of the hottest (a tie is marked "=>" too) */
		var rowClass = function (m) {
			if (m === '=>' && !hotSeen) {
				hotSeen = true;
				return 'hot';
			}
			return m ? 'warm' : '';
		};
		out.push('<div class="annot"><div><h3>Source</h3><div class="scroll" id="pct-src"><table class="code"><tbody>');
		if (!lines.length)
			out.push('<tr><td>no source lines' + (a.file ? '' : ' (no line table)') + '</td></tr>');
		for (i = 0; i < lines.length; i++) {
			var L = lines[i], m = hotMark(L[1], n, hotLine);
			out.push('<tr class="' + rowClass(m) + '" data-line="' + L[0] + '" data-samples="' + L[1] + '"><td class="num lno">' + L[0] +
				'</td><td class="mark">' + esc(m) + '</td><td class="num">' + (L[1] || '') + '</td><td class="num">' +
				(L[1] ? pct(100 * L[1] / (n || 1), 1) : '') + '</td><td class="text">' + (L[2] === null ? '<i>(not embedded)</i>' : esc(L[2])) + '</td></tr>');
		}
		hotSeen = false;
		out.push('</tbody></table><div class="pad"></div></div></div><div><h3>Disassembly</h3><div class="scroll" id="pct-asm"><table class="code"><tbody>');
		if (!insns.length)
			out.push('<tr><td>' + esc(a.why || 'no instructions') + '</td></tr>');
		for (i = 0; i < insns.length; i++) {
			var I = insns[i], im = hotMark(I[1], n, hottest);
			out.push('<tr class="' + rowClass(im) + '" data-samples="' + I[1] + '"><td class="addr">' + esc(I[0]) +
				'</td><td class="mark">' + esc(im) + '</td><td class="num">' + (I[1] || '') + '</td><td class="num">' +
				(I[1] ? pct(100 * I[1] / (n || 1), 1) : '') + '</td><td class="text">' + esc(I[2]) + '</td><td class="num lno">' + (I[3] ? ':' + I[3] : '') + '</td></tr>');
		}
		out.push('</tbody></table><div class="pad"></div></div></div></div>');
	}
	box.innerHTML = out.join('');
	$('pct-annsel').onchange = function () {
		var k = this.value;
		if (k !== '')
			selectFunction(FT && FCOL >= 0 ? FT.keys[+k][FCOL] : 'row ' + k, +k);
		dirty.source = false;
		drawSource();
	};
	scrollToHot('pct-src', 0);
	scrollToHot('pct-asm', 3);
}

/* Scroll a code pane so its hottest row is shown first, after at most
 * context rows before it. */
function scrollToHot(id, context) {
	var pane = $(id), hot = pane && pane.querySelector('tr.hot'), top = hot;
	for (var i = 0; hot && i < context && top.previousElementSibling; i++)
		top = top.previousElementSibling;
	if (hot)
		pane.scrollTop += top.getBoundingClientRect().top - pane.getBoundingClientRect().top - pane.clientTop;
}

/* ---------- start ---------- */

function start() {
	var body = document.body;
	body.insertAdjacentHTML('beforeend', '<header id="pct-header"></header><section id="pct-timeline" class="timeline"></section>' +
		'<nav id="pct-tabs" class="tabs"></nav>' + Object.keys(VIEWS).map(function (v) {
			return '<section id="pct-view-' + v + '" class="view" style="display:none"></section>';
		}).join('') + '<div id="pct-tip" class="tip"></div>');
	if (FL)
		indexFlame();
	computeFlame();
	drawHeader();
	drawSelectionNote();
	buildTimeline();
	buildTabs();
	for (var v in VIEWS)
		dirty[v] = true;
	var want = (location.hash.match(/view=(\w+)/) || [])[1];
	show(VIEWS[want] ? want : 'table');
	var resizeTimer = 0;
	window.addEventListener('resize', function () {
		clearTimeout(resizeTimer);
		resizeTimer = setTimeout(function () {
			drawTimeline();
			if (S.view === 'flame')
				drawFlame();
			else
				dirty.flame = true;
		}, 150);
	});
	window.pct = {
		state: S, show: show, selectTime: selectTime,
		clearTime: function () { selectTime(null); },
		selectFunction: function (name) { selectFunction(name); dirty[S.view] = true; show(S.view); },
		search: function (q) { S.search = q; if ($('pct-search')) $('pct-search').value = q; if (S.view === 'flame') markSearch(); else dirty.flame = true; }
	};
	window.pctReadyMs = performance.now();
	body.dataset.ready = '1';
}

start();
})();

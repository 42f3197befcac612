/*
 * flame-svg.js - the script inside `pct flame`'s SVG (src/cmd/cmd_flame.c
 * writes it in a CDATA section, from the copy assets.S embeds in pct).
 *
 * What it reads from the SVG:
 *   <svg data-total="N" data-plot-width="PX" data-pad="PX">  samples of the
 *       root, the width the root's box spans, and its left margin;
 *   a group g of class f with data-function="NAME", data-x="X",
 *       data-w="W" and data-l="L": one frame: its name (escaped as pct prints names), its first
 *       sample X and samples W along the root's width, its level L (1: a
 *       root's callee); a <rect> and a <text> inside;
 *   #pct-reset, #pct-search, #pct-matched: the controls' texts.
 * What it does:
 *   - click a frame: it and its callees fill the width, its callers stay,
 *     dimmed; click the background or "Reset zoom": back to everything;
 *   - "Search" (or Ctrl-F) asks for a regular expression, paints the frames
 *     whose name matches it, and shows "Matched: P%": the share of the
 *     root's samples whose stack holds a match, each stack counted once
 *     (the union of the matching frames' spans: the outermost matches);
 *     clicked again ("Reset search") it clears them;
 *   - fits each label to its box by measuring the text in the page
 *     (getComputedTextLength, getSubStringLength): the whole name, or the
 *     longest start of it that fits with "..", or nothing;
 *   - for tests: data-rendered on the root (boxes laid out by the browser)
 *     and data-matched (the last search's share, percent).
 * It needs nothing outside the SVG.
 */
(function () {
	'use strict';
	var svg = document.documentElement;
	var total = +svg.getAttribute('data-total');
	var plotW = +svg.getAttribute('data-plot-width');
	var pad = +(svg.getAttribute('data-pad') || 10);
	var HIGHLIGHT = 'rgb(230,0,230)';
	var DOTS = '..';
	var resetCtl = document.getElementById('pct-reset');
	var searchCtl = document.getElementById('pct-search');
	var matchedEl = document.getElementById('pct-matched');

	var nodes = document.querySelectorAll('g.f'), frames = [];
	for (var i = 0; i < nodes.length; i++) {
		var g = nodes[i], r = g.querySelector('rect');
		frames.push({
			g: g, r: r, t: g.querySelector('text'),
			x: +g.getAttribute('data-x'), w: +g.getAttribute('data-w'), l: +g.getAttribute('data-l'),
			name: g.getAttribute('data-function') || '', fill: r.getAttribute('fill'),
			px: +r.getAttribute('x'), pw: +r.getAttribute('width'), shown: true
		});
	}

	/* The width of "..", measured once in the labels' font. */
	var dotsW = -1;
	function dotsWidth(t) {
		if (dotsW < 0) {
			t.textContent = DOTS;
			dotsW = t.getComputedTextLength();
		}
		return dotsW;
	}

	/* Fit the labels of frames fs.  Writes first (every whole name), then
	 * reads (one layout for all the measures), then writes the cuts, so
	 * that the browser does not lay the page out again for each frame. */
	function fitLabels(fs) {
		var i, f, todo = [];
		for (i = 0; i < fs.length; i++) {
			f = fs[i];
			f.t.setAttribute('x', (f.px + 3).toFixed(1));
			if (!f.shown || f.pw < 8) {
				f.t.textContent = '';
				continue;
			}
			f.t.textContent = f.name;
			todo.push(f);
		}
		if (todo.length === 0)
			return;
		var cut = [];
		for (i = 0; i < todo.length; i++) {
			f = todo[i];
			var room = f.pw - 6, t = f.t, n = f.name.length;
			if (t.getComputedTextLength() <= room) {
				cut.push(null);
				continue;
			}
			/* the longest start that fits beside "..": binary search on
			 * the widths of the whole name's starts */
			var lo = 0, hi = n - 1, d = dotsW >= 0 ? dotsW : -1;
			if (d < 0) {
				/* measured on a copy, so as not to disturb t */
				var probe = t.cloneNode(false);
				t.parentNode.appendChild(probe);
				d = dotsWidth(probe);
				t.parentNode.removeChild(probe);
			}
			while (lo < hi) {
				var mid = (lo + hi + 1) >> 1;
				if (t.getSubStringLength(0, mid) + d <= room)
					lo = mid;
				else
					hi = mid - 1;
			}
			/* never half of a UTF-16 surrogate pair */
			if (lo > 0) {
				var c = f.name.charCodeAt(lo - 1);
				if (c >= 0xd800 && c <= 0xdbff)
					lo--;
			}
			cut.push(lo > 0 ? f.name.slice(0, lo) + DOTS : '');
		}
		for (i = 0; i < todo.length; i++)
			if (cut[i] !== null)
				todo[i].t.textContent = cut[i];
	}

	/* Show the frames at or above level l0 inside samples [x0, x0 + w0)
	 * across the whole width, and the frames below them that hold that span
	 * (their callers), dimmed. */
	var zoomed = false;
	function zoom(x0, w0, l0) {
		zoomed = !(x0 === 0 && w0 === total && l0 === 0);
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i];
			var inside = f.x >= x0 && f.x + f.w <= x0 + w0 && f.l >= l0;
			var below = f.l < l0 && f.x <= x0 && f.x + f.w >= x0 + w0;
			f.shown = inside || below;
			f.g.style.display = f.shown ? '' : 'none';
			f.g.style.opacity = below ? 0.5 : 1;
			f.px = inside ? pad + (f.x - x0) * plotW / w0 : pad;
			f.pw = inside ? f.w * plotW / w0 : plotW;
			f.r.setAttribute('x', f.px.toFixed(1));
			f.r.setAttribute('width', f.pw.toFixed(1));
		}
		fitLabels(frames);
		if (resetCtl)
			resetCtl.style.opacity = zoomed ? 1 : 0.4;
	}
	function reset() {
		zoom(0, total, 0);
	}

	/* Paint the frames whose name matches re, or none (re null); return the
	 * share of the root's samples under them, each stack once: the spans
	 * [x, x + w) of the matches, merged. */
	var searching = false;
	function search(re) {
		var spans = [];
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i], hit = re !== null && re.test(f.name);
			f.r.setAttribute('fill', hit ? HIGHLIGHT : f.fill);
			f.g.setAttribute('data-match', hit ? '1' : '0');
			if (hit)
				spans.push([f.x, f.x + f.w]);
		}
		spans.sort(function (a, b) { return a[0] - b[0]; });
		var covered = 0, end = -1;
		for (var k = 0; k < spans.length; k++) {
			var s = Math.max(spans[k][0], end);
			if (spans[k][1] > s)
				covered += spans[k][1] - s;
			end = Math.max(end, spans[k][1]);
		}
		searching = re !== null;
		var pct = total > 0 ? 100 * covered / total : 0;
		if (matchedEl)
			matchedEl.textContent = searching ? 'Matched: ' + pct.toFixed(1) + '%' : '';
		if (searchCtl)
			searchCtl.textContent = searching ? 'Reset search' : 'Search';
		if (searching)
			svg.setAttribute('data-matched', pct.toFixed(2));
		else
			svg.removeAttribute('data-matched');
		return pct;
	}
	function searchPrompt() {
		if (searching) {
			search(null);
			return;
		}
		var term = window.prompt('Search for functions (a regular expression, e.g. ^ext4_)', '');
		if (!term)
			return;
		var re;
		try {
			re = new RegExp(term);
		} catch (e) {
			if (matchedEl)
				matchedEl.textContent = 'Not a regular expression: ' + term;
			return;
		}
		search(re);
	}

	for (var j = 0; j < frames.length; j++)
		frames[j].g.addEventListener('click', function (e) {
			e.stopPropagation();
			var f = frames[this.pctIndex];
			zoom(f.x, f.w, f.l);
		});
	for (var k = 0; k < frames.length; k++)
		frames[k].g.pctIndex = k;
	svg.addEventListener('click', reset);
	if (resetCtl)
		resetCtl.addEventListener('click', function (e) {
			e.stopPropagation();
			reset();
		});
	if (searchCtl)
		searchCtl.addEventListener('click', function (e) {
			e.stopPropagation();
			searchPrompt();
		});
	window.addEventListener('keydown', function (e) {
		if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F')) {
			e.preventDefault();
			searchPrompt();
		}
	});

	reset();
	var shown = 0;
	for (var m = 0; m < frames.length; m++)
		if (frames[m].r.getBBox().width > 0)
			shown++;
	svg.setAttribute('data-rendered', shown);
})();

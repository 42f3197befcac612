// tests/e2e/html-probe.cjs - open a page of `pct html` from file:// in
// headless Chromium (Debian's /usr/bin/chromium, driven by npm's
// playwright-core) and report what a user would see, as JSON on stdout.
//
// usage: node html-probe.cjs NPMDIR OUT.json PAGE.html MODE ARG [OUT.json PAGE.html MODE ARG]...
//   each job (four arguments; ARG "-" where the mode takes none) opens
//   PAGE.html in one browser, launched once for them all, and writes its
//   JSON to OUT.json; modes:
//   ready N        load the page N times: {readyMs} the least time to
//                  data-ready (performance.now() as the page set it)
//   profile FUNC   the flat table's row of FUNC, its flame frame before
//                  and after a click and after Reset zoom, the search for
//                  FUNC, and its source view
//   diff           every table row's and flame frame's verdict, and which
//                  frames are coloured (a fill that is not grey)
// Every mode also gives {errors} (console errors, page errors) and
// {requests} (every URL the page asked for but its own).
'use strict';
const path = require('path');
const [npmdir, ...jobs] = process.argv.slice(2);
if (!npmdir || jobs.length === 0 || jobs.length % 4) {
	console.error('usage: node html-probe.cjs NPMDIR OUT.json PAGE.html MODE ARG...');
	process.exit(2);
}
const fs = require('fs');
const { chromium } = require(path.join(npmdir, 'node_modules/playwright-core'));

async function open(browser, page, out) {
	const p = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
	const url = 'file://' + path.resolve(page);
	p.on('console', (m) => { if (m.type() === 'error') out.errors.push(m.text()); });
	p.on('pageerror', (e) => out.errors.push(String(e)));
	p.on('request', (r) => { if (r.url() !== url) out.requests.push(r.url()); });
	await p.goto(url);
	await p.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
	return p;
}

// the frame element of a function: the widest one
async function frameBox(p, fn) {
	return p.evaluate((f) => {
		let best = null;
		for (const e of document.querySelectorAll('.frame')) {
			if (e.dataset.function !== f) continue;
			const r = e.getBoundingClientRect();
			if (!best || r.width > best.width) best = { width: r.width, x: r.x, y: r.y, h: r.height };
		}
		const box = document.getElementById('pct-flame').getBoundingClientRect();
		return { frame: best, plotWidth: box.width };
	}, fn);
}

// one job: what MODE reports of PAGE (ARG: its argument, or "-")
async function probe(browser, page, mode, arg) {
	const out = { errors: [], requests: [] };
	if (mode === 'ready') {
		let best = Infinity;
		for (let i = 0; i < +(arg || 1); i++) {
			const p = await open(browser, page, out);
			best = Math.min(best, await p.evaluate(() => window.pctReadyMs));
			await p.close();
		}
		out.readyMs = best;
	} else if (mode === 'profile') {
		const p = await open(browser, page, out);
		out.row = await p.evaluate((f) => {
			const tr = document.querySelector(`#pct-view-table tr[data-function="${CSS.escape(f)}"]`);
			return tr && { samples: +tr.dataset.samples, text: tr.textContent };
		}, arg);
		out.rows = await p.evaluate(() => document.querySelectorAll('#pct-view-table tr[data-function]').length);
		await p.evaluate(() => window.pct.show('flame'));
		out.before = await frameBox(p, arg);
		// click the middle of its widest frame
		const b = out.before.frame;
		if (b) await p.mouse.click(b.x + b.width / 2, b.y + b.h / 2);
		out.zoomed = await frameBox(p, arg);
		out.resetVisible = await p.isVisible('#pct-reset');
		if (out.resetVisible) await p.click('#pct-reset');
		out.reset = await frameBox(p, arg);
		await p.fill('#pct-search', arg);
		await p.waitForTimeout(300);
		out.search = await p.evaluate(() => {
			const m = [...document.querySelectorAll('.frame.match')].map((e) => e.dataset.function);
			return { matched: [...new Set(m)], text: document.getElementById('pct-matched').textContent };
		});
		// the labels fit their frames
		out.overflow = await p.evaluate(() => {
			let bad = 0, n = 0;
			for (const e of document.querySelectorAll('.frame')) {
				const t = e.querySelector('.label, span, text') || e;
				if (!t.textContent) continue;
				n++;
				if (t.scrollWidth > e.clientWidth + 1) bad++;
			}
			return { labelled: n, overflowing: bad };
		});
		await p.evaluate((f) => { window.pct.selectFunction(f); window.pct.show('source'); }, arg);
		await p.waitForTimeout(300);
		out.source = await p.evaluate(() => {
			const pane = document.getElementById('pct-src');
			if (!pane) return null;
			const hot = pane.querySelector('tr.hot');
			const rows = [...pane.querySelectorAll('tr')];
			// the first row shown at the pane's top
			const top = pane.getBoundingClientRect().top;
			const first = rows.find((r) => r.getBoundingClientRect().bottom > top + 1);
			const cells = (r) => r && [...r.cells].map((c) => c.textContent.trim());
			return { hot: cells(hot), first: cells(first),
				firstIsHot: !!hot && first === hot, rows: rows.length };
		});
		await p.close();
	} else if (mode === 'diff') {
		const p = await open(browser, page, out);
		out.rows = await p.evaluate(() => [...document.querySelectorAll('#pct-view-table tr[data-function]')]
			.map((tr) => ({ f: tr.dataset.function, v: tr.dataset.verdict })));
		await p.evaluate(() => window.pct.show('flame'));
		out.frames = await p.evaluate(() => [...document.querySelectorAll('.frame')].map((e) => {
			const c = getComputedStyle(e).backgroundColor.match(/\d+(\.\d+)?/g).map(Number);
			const grey = Math.max(c[0], c[1], c[2]) - Math.min(c[0], c[1], c[2]) < 16;
			return { f: e.dataset.function, v: e.dataset.verdict, coloured: !grey, samples: +e.dataset.samples };
		}));
		await p.close();
	} else {
		throw new Error(`unknown mode ${mode}`);
	}
	return out;
}

(async () => {
	const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--no-sandbox'] });
	try {
		for (let i = 0; i < jobs.length; i += 4) {
			const out = await probe(browser, jobs[i + 1], jobs[i + 2], jobs[i + 3]);
			fs.writeFileSync(jobs[i], JSON.stringify(out) + '\n', { flag: 'wx' });
		}
	} finally {
		await browser.close();
	}
})().catch((e) => { console.error(String(e && e.stack || e)); process.exit(1); });

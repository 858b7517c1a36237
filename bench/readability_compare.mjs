// Compares topicrawl's main text (parse/main_content.h) with Mozilla
// Readability's on the same UTF-8 HTML: mean token F1 against Readability's
// textContent, per web, and the pages where they differ most.
//
//   build/bench/main_text_bench --crawl DEV --crawl ZH --sample 100 --dump OUT
//   node bench/readability_compare.mjs OUT
//
// Tokens are the same as TokenF1() in parse/main_content.h: runs of letters
// and digits (ASCII lower-cased) and every CJK character by itself. A page
// for which neither finds content counts F1 = 1, one side only 0.
// Needs @mozilla/readability and jsdom (scripts/setup installs them into
// tests/browser/node_modules).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'tests', 'browser', 'package.json'));
const { JSDOM, VirtualConsole } = require('jsdom');
const { Readability } = require('@mozilla/readability');

const dir = process.argv[2];
if (!dir) { console.error('usage: node readability_compare.mjs DUMP_DIR'); process.exit(2); }

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
function tokens(s) {
  const out = new Map();
  let total = 0;
  let word = '';
  const end = () => { if (word) { out.set(word, (out.get(word) || 0) + 1); total++; word = ''; } };
  for (const ch of s || '') {
    const cp = ch.codePointAt(0);
    if (CJK.test(ch)) { end(); out.set(ch, (out.get(ch) || 0) + 1); total++; }
    else if ((cp >= 48 && cp <= 57) || (cp >= 97 && cp <= 122) || cp >= 0xc0) word += ch;
    else if (cp >= 65 && cp <= 90) word += ch.toLowerCase();
    else end();
  }
  end();
  return { map: out, total };
}
function f1(cand, ref) {
  const c = tokens(cand), r = tokens(ref);
  if (c.total === 0 && r.total === 0) return { f1: 1, p: 1, r: 1, c, ref: r };
  if (c.total === 0 || r.total === 0) return { f1: 0, p: 0, r: 0, c, ref: r };
  let common = 0;
  for (const [t, n] of c.map) common += Math.min(n, r.map.get(t) || 0);
  const p = common / c.total, rc = common / r.total;
  return { f1: common ? (2 * p * rc) / (p + rc) : 0, p, r: rc, c, ref: r };
}
function diff(a, b, k) {  // tokens of a missing from b, most frequent first
  const out = [];
  for (const [t, n] of a.map) { const m = n - (b.map.get(t) || 0); if (m > 0) out.push([t, m]); }
  return out.sort((x, y) => y[1] - x[1]).slice(0, k).map(([t, n]) => `${t}x${n}`).join(' ');
}

const ours = new Map(fs.readFileSync(path.join(dir, 'ours.jsonl'), 'utf8').trim().split('\n')
  .map((l) => JSON.parse(l)).map((j) => [j.i, j]));
// Readability's text of each page is kept in DIR/readability.jsonl ({i,
// bytes, text}) and reused while the page's HTML has the same size, so a
// rerun after changing ours costs seconds instead of ~1 s a page.
const cachePath = path.join(dir, 'readability.jsonl');
const cache = new Map();
if (fs.existsSync(cachePath)) {
  for (const l of fs.readFileSync(cachePath, 'utf8').split('\n')) {
    if (l) { const j = JSON.parse(l); cache.set(`${j.i}:${j.bytes}`, j.text); }
  }
}
const fresh = [];
const rows = [];
const t0 = Date.now();
for (const line of fs.readFileSync(path.join(dir, 'list.tsv'), 'utf8').trim().split('\n')) {
  const [i, url, web] = line.split('\t');
  const html = fs.readFileSync(path.join(dir, `${i}.html`), 'utf8');
  const key = `${i}:${html.length}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = '';
    try {
      const dom = new JSDOM(html, { url, virtualConsole: new VirtualConsole() });
      const art = new Readability(dom.window.document).parse();
      text = art ? art.textContent : '';
      dom.window.close();
    } catch (e) { text = ''; }
    fresh.push(JSON.stringify({ i: Number(i), bytes: html.length, text }));
  }
  const o = ours.get(Number(i));
  const m = f1(o.text, text);
  rows.push({ i, url, web, f1: m.f1, p: m.p, r: m.r, ours: m.c.total, theirs: m.ref.total,
    missing: diff(m.ref, m.c, 6), extra: diff(m.c, m.ref, 6) });
}
const webs = [...new Set(rows.map((r) => r.web))];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const sd = (xs) => { const m = mean(xs); return Math.sqrt(mean(xs.map((x) => (x - m) ** 2))); };
console.log('| web | pages | mean token F1 ± sd | mean precision | mean recall | F1 >= 0.9 | F1 < 0.5 |');
console.log('|---|---|---|---|---|---|---|');
for (const w of [...webs, 'all']) {
  const rs = w === 'all' ? rows : rows.filter((r) => r.web === w);
  const f1s = rs.map((r) => r.f1);
  console.log(`| ${w} | ${rs.length} | ${mean(f1s).toFixed(3)} ± ${sd(f1s).toFixed(3)} | ` +
    `${mean(rs.map((r) => r.p)).toFixed(3)} | ${mean(rs.map((r) => r.r)).toFixed(3)} | ` +
    `${rs.filter((r) => r.f1 >= 0.9).length} | ${rs.filter((r) => r.f1 < 0.5).length} |`);
}
console.log(`\nworst pages (tokens: ours / Readability; missing = in Readability's text only):`);
for (const r of [...rows].sort((a, b) => a.f1 - b.f1).slice(0, 12)) {
  console.log(`${r.f1.toFixed(2)} ${r.url} (${r.ours}/${r.theirs}) missing: ${r.missing} | extra: ${r.extra}`);
}
fs.writeFileSync(path.join(dir, 'compare.tsv'), 'i\turl\tweb\tf1\tprecision\trecall\tours\treadability\n' +
  rows.map((r) => [r.i, r.url, r.web, r.f1.toFixed(4), r.p.toFixed(4), r.r.toFixed(4), r.ours, r.theirs].join('\t')).join('\n') + '\n');
if (fresh.length) fs.appendFileSync(cachePath, fresh.join('\n') + '\n');
console.error(`Readability on ${fresh.length} pages (${rows.length - fresh.length} from ${cachePath})` +
  (fresh.length ? `: ${((Date.now() - t0) / fresh.length).toFixed(1)} ms a page` : ''));

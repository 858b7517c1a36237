// Browser test of the WACZ export (ctest: browser_wacz_replay_test): a real
// consumer replays what `topicrawl export --format wacz` wrote.
//
// A small generated site (24 pages on site.test, each with a phrase no
// other page has) is crawled by topicrawl and exported as WACZ. A local
// HTTP server on 127.0.0.1 serves ReplayWeb.page (npm `replaywebpage`: its
// ui.js, and its sw.js as the service worker under /replay/), the WACZ
// (with Range requests, as ReplayWeb.page reads the zip in pieces) and an
// embedding page with <replay-web-page source=... url=...>. Headless
// Chromium (Debian's /usr/bin/chromium through playwright-core) opens that
// page for 20 archived URLs; each must replay with its own phrase. Every
// request that is not to 127.0.0.1 is aborted, so a replay can only come
// from the archive.
//
// Usage: node wacz_replay_test.mjs --topicrawl build/topicrawl --out DIR
//        [--warc-compression zstd]   (the crawl writes .warc.zst; the WACZ
//        holds them recompressed to gzip, export/warc_gzip_copy.h)
// Fails (exit 1) when chromium, playwright-core or replaywebpage is
// missing: scripts/setup installs them.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const topicrawl = args.topicrawl;
const outDir = args.out || '/tmp/topicrawl-wacz-test';
const CHROMIUM = '/usr/bin/chromium';
const here = path.dirname(fileURLToPath(import.meta.url));
const rwp = path.join(here, 'node_modules', 'replaywebpage');
const PAGES = 24;
const CHECKED = 20;

function fail(msg) {
  console.error('FAIL: ' + msg);
  process.exitCode = 1;
  throw new Error(msg);
}
function log(msg) { console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`); }

if (!topicrawl || !fs.existsSync(topicrawl)) fail(`--topicrawl ${topicrawl}: no such binary`);
if (!fs.existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing: run scripts/setup (Debian package chromium)`);
for (const f of ['ui.js', 'sw.js']) {
  if (!fs.existsSync(path.join(rwp, f))) fail(`${rwp}/${f} is missing: run scripts/setup (npm replaywebpage)`);
}
const require = createRequire(import.meta.url);
let chromium;
try {
  ({ chromium } = require('playwright-core'));
} catch (e) {
  fail('playwright-core is not installed in tests/browser/node_modules: run scripts/setup (' + e.message + ')');
}
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

// --- 1. the site, crawled and exported --------------------------------------
const phrase = (k) => `archived phrase ${k} ${'xyzzy'.repeat(1 + (k % 3))} marker${k * 7919}`;
function sitePage(k) {
  const links = [1, 2, 3].map((d) => `<a href="/p${(k + d) % PAGES}">firewall guide ${(k + d) % PAGES}</a>`).join(' ');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Firewall page ${k}</title></head>
<body><h1>Firewall rules ${k}</h1><p id="phrase">${phrase(k)}</p>
<p>Packet filtering and firewall configuration for routers. ${links}</p></body></html>`;
}
const site = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/robots.txt') { res.writeHead(200, { 'Content-Type': 'text/plain' }); return res.end('User-agent: *\nAllow: /\n'); }
  const m = /^\/p(\d+)$/.exec(url.pathname);
  const k = m ? Number(m[1]) : url.pathname === '/' ? 0 : -1;
  if (k < 0 || k >= PAGES) { res.writeHead(404, { 'Content-Type': 'text/plain' }); return res.end('not found'); }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(sitePage(k));
});
await new Promise((r) => site.listen(0, '127.0.0.1', r));
const sitePort = site.address().port;
fs.writeFileSync(path.join(outDir, 'seeds.txt'), 'http://site.test/p0\n');
fs.writeFileSync(path.join(outDir, 'topic.txt'), 'firewall\t1.0\npacket\t0.8\nrouter\t0.6\n');
const crawlDir = path.join(outDir, 'crawl');
const run = (argv) => {
  log('topicrawl ' + argv.join(' '));
  const r = spawnSync(topicrawl, argv, { encoding: 'utf8', timeout: 120000 });
  if (r.status !== 0) fail(`topicrawl ${argv[0]} exited ${r.status}:\n${r.stderr}`);
  return r;
};
// The crawl runs in a child process while this process serves the site.
await new Promise((resolve, reject) => {
  const argv = ['crawl', '--seeds', path.join(outDir, 'seeds.txt'), '--topic', path.join(outDir, 'topic.txt'),
    '--strategy', 'best-first', '--max-pages', String(PAGES), '--delay', '0', '--allow-private',
    '--connect-to', `site.test:80:127.0.0.1:${sitePort}`, '--out', crawlDir,
    '--warc-compression', args['warc-compression'] || 'gzip'];
  log('topicrawl ' + argv.join(' '));
  const c = spawn(topicrawl, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  c.stderr.on('data', (d) => { err += d; });
  c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`crawl exited ${code}:\n${err}`))));
});
site.close();
const wacz = path.join(outDir, 'crawl.wacz');
const exp = run(['export', crawlDir, '--format', 'wacz', '--out', wacz]);
log(exp.stderr.trim());
if (!fs.existsSync(wacz)) fail('no WACZ written');

// --- 2. ReplayWeb.page, served locally -----------------------------------------
const embed = (url) => `<!doctype html><html><head><meta charset="utf-8">
<script src="/ui.js"></script></head><body style="margin:0;height:100vh">
<replay-web-page source="/crawl.wacz" url="${url}" replaybase="/replay/" embed="replayonly"></replay-web-page>
</body></html>`;
const replay = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/embed.html') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    return res.end(embed(url.searchParams.get('url')));
  }
  const files = { '/ui.js': path.join(rwp, 'ui.js'), '/replay/sw.js': path.join(rwp, 'sw.js'), '/crawl.wacz': wacz };
  const file = files[url.pathname];
  if (!file) { res.writeHead(404); return res.end(); }
  const size = fs.statSync(file).size;
  const type = file.endsWith('.js') ? 'application/javascript' : 'application/octet-stream';
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range || '');
  if (range) {
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    res.writeHead(206, { 'Content-Type': type, 'Content-Length': end - start + 1,
      'Content-Range': `bytes ${start}-${end}/${size}`, 'Accept-Ranges': 'bytes' });
    if (req.method === 'HEAD') return res.end();
    return fs.createReadStream(file, { start, end }).pipe(res);
  }
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Accept-Ranges': 'bytes' });
  if (req.method === 'HEAD') return res.end();
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => replay.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${replay.address().port}`;
log('ReplayWeb.page at ' + origin);

// --- 3. replay 20 archived pages ---------------------------------------------------
let browser;
const outside = [];
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === '127.0.0.1') return route.continue();
    outside.push(u.href);
    return route.abort();
  });
  const page = await context.newPage();
  const pages = [...Array(CHECKED).keys()];
  let replayed = 0;
  for (const k of pages) {
    const target = `http://site.test/p${k}`;
    await page.goto(`${origin}/embed.html?url=${encodeURIComponent(target)}`);
    let text = '';
    for (let i = 0; i < 60 && !text.includes(phrase(k)); i++) {
      await page.waitForTimeout(500);
      for (const f of page.frames()) {
        if (!f.url().includes(`/p${k}`) || !f.url().includes('mp_/')) continue;
        text = await f.evaluate(() => (document.body ? document.body.innerText : '')).catch(() => '');
      }
    }
    if (!text.includes(phrase(k))) {
      await page.screenshot({ path: path.join(outDir, `replay-p${k}.png`) });
      fail(`${target} did not replay its text (frames: ${page.frames().map((f) => f.url()).join(' | ')})`);
    }
    replayed++;
    log(`replayed ${target}: "${phrase(k)}"`);
  }
  if (replayed !== CHECKED) fail(`replayed ${replayed} of ${CHECKED} pages`);
  await page.screenshot({ path: path.join(outDir, 'replay.png') });
  log(`PASS: ${replayed} archived pages replayed in ReplayWeb.page with their text` +
      (outside.length ? ` (${outside.length} outside requests aborted: ${[...new Set(outside)].slice(0, 3).join(' ')})` : ''));
} finally {
  if (browser) await browser.close();
  replay.close();
}

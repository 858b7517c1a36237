// Browser test of the dashboard (ctest: browser_dashboard_test).
//
// A crawl of a small generated test site (English and Chinese networking
// pages, one hostile page) runs with --serve and --index; headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core; never a
// downloaded browser) opens the dashboard, waits for the counters to move,
// checks the host table, a relevant page's "why fetched" view, searches in
// English and Chinese, checks that hostile crawled strings stay text, saves
// a screenshot and stops the crawl from the page.
//
// Usage: node dashboard_test.mjs --topicrawl build/topicrawl --out DIR
// Fails (exit 1) when chromium or playwright-core is missing: CI installs
// both (scripts/setup).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const topicrawl = args.topicrawl;
const outDir = args.out || '/tmp/topicrawl-browser-test';
const CHROMIUM = '/usr/bin/chromium';

function fail(msg) {
  console.error('FAIL: ' + msg);
  process.exitCode = 1;
  throw new Error(msg);
}
function log(msg) { console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`); }

if (!topicrawl || !fs.existsSync(topicrawl)) fail(`--topicrawl ${topicrawl}: no such binary`);
if (!fs.existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing: run scripts/setup (Debian package chromium)`);
const require = createRequire(import.meta.url);
let chromium;
try {
  ({ chromium } = require('playwright-core'));
} catch (e) {
  fail('playwright-core is not installed in tests/browser/node_modules: run scripts/setup (' + e.message + ')');
}

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

// --- the test site: hosts en.test, zh.test, evil.test on one port ---------
const HOSTILE_TITLE = '<script>alert(1)</script>';
const HOSTILE_HREF = '/x"><img src=x onerror=alert(3)>';
const EN_WORDS = ['firewall', 'router', 'packet', 'tcp', 'network', 'routing', 'switch', 'subnet'];
function enPage(k) {
  const w = EN_WORDS[k % EN_WORDS.length];
  const links = [1, 2, 3].map((d) => `<a href="/p${(k * 3 + d) % 5000}">${EN_WORDS[(k + d) % EN_WORDS.length]} guide ${(k * 3 + d) % 5000}</a>`).join(' ');
  return `<!doctype html><html><head><title>Network ${w} guide ${k}</title></head><body>
<h1>${w} configuration ${k}</h1><p>This page explains ${w} setup, firewall rules, packet filtering,
tcp ports and routing tables for network administrators. Page ${k}.</p>
<p>${links} <a href="http://zh.test/p${k}">中文 ${k}</a></p></body></html>`;
}
function zhPage(k) {
  const links = [1, 2, 3].map((d) => `<a href="/p${(k * 3 + d) % 5000}">防火墙 第${(k * 3 + d) % 5000}篇</a>`).join(' ');
  return `<!doctype html><html><head><meta charset="utf-8"><title>防火墙配置指南 ${k}</title></head><body>
<h1>防火墙与路由器 ${k}</h1><p>本文介绍如何配置防火墙规则、数据包过滤和网络路由表。第${k}篇。</p>
<p>${links} <a href="http://en.test/p${k + 1}">English ${k}</a></p></body></html>`;
}
function evilPage() {
  return `<!doctype html><html><head><title>${HOSTILE_TITLE}</title></head><body>
<p>hostile firewall page with markup in its title and links.</p>
<a href='${HOSTILE_HREF}'>&lt;img src=x onerror=alert(4)&gt; firewall</a>
<a href="http://en.test/p1">firewall guide</a></body></html>`;
}
const site = http.createServer((req, res) => {
  const host = (req.headers.host || '').split(':')[0];
  const url = new URL(req.url, 'http://x');
  const send = (code, type, body) => {
    // A little latency keeps the crawl running long enough to watch.
    setTimeout(() => { res.writeHead(code, { 'Content-Type': type }); res.end(body); }, 20);
  };
  if (url.pathname === '/robots.txt') return send(200, 'text/plain', 'User-agent: *\nAllow: /\n');
  const m = /^\/p(\d+)$/.exec(url.pathname);
  const k = m ? Number(m[1]) : url.pathname === '/' ? 0 : -1;
  if (host === 'evil.test') return send(200, 'text/html; charset=utf-8', evilPage());
  if (k < 0) return send(404, 'text/plain', 'not found');
  if (host === 'zh.test') return send(200, 'text/html; charset=utf-8', zhPage(k));
  let body = enPage(k);
  if (k === 0) body = body.replace('</body>', '<a href="http://evil.test/">firewall evil</a></body>');
  return send(200, 'text/html; charset=utf-8', body);
});
await new Promise((r) => site.listen(0, '127.0.0.1', r));
const sitePort = site.address().port;
log(`test site on 127.0.0.1:${sitePort}`);

// The hostile URL is also a seed, so that it is fetched early.
fs.writeFileSync(path.join(outDir, 'seeds.txt'), `http://en.test/\nhttp://zh.test/\nhttp://evil.test${HOSTILE_HREF}\n`);
fs.writeFileSync(path.join(outDir, 'topic.txt'),
  'firewall\t1.0\nrouter\t0.8\npacket\t0.8\nrouting\t0.7\ntcp\t0.6\nnetwork\t0.5\n防火墙\t1.0\n路由\t0.7\n');
const crawlDir = path.join(outDir, 'crawl');
const crawlArgs = ['crawl', '--seeds', path.join(outDir, 'seeds.txt'), '--topic', path.join(outDir, 'topic.txt'),
  '--strategy', 'best-first', '--max-pages', '100000', '--delay', '0.05', '--allow-private',
  '--connect-to', `en.test:80:127.0.0.1:${sitePort}`, '--connect-to', `zh.test:80:127.0.0.1:${sitePort}`,
  '--connect-to', `evil.test:80:127.0.0.1:${sitePort}`,
  '--serve', '127.0.0.1:0', '--index', '--link-details', '--out', crawlDir];
log('topicrawl ' + crawlArgs.join(' '));
const crawl = spawn(topicrawl, crawlArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
let crawlOut = '', crawlErr = '';
crawl.stdout.on('data', (d) => { crawlOut += d; });
const exited = new Promise((resolve) => crawl.on('exit', (code) => resolve(code)));
const dashboardUrl = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no dashboard URL on stderr after 30 s:\n' + crawlErr)), 30000);
  crawl.stderr.on('data', (d) => {
    crawlErr += d;
    const m = /dashboard: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(crawlErr);
    if (m) { clearTimeout(timer); resolve(m[1]); }
  });
  crawl.on('exit', (code) => reject(new Error(`crawl exited (${code}) before serving:\n${crawlErr}`)));
});
log('dashboard at ' + dashboardUrl);

let browser;
const dialogs = [];
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(dashboardUrl);

  // 1. The counters move.
  const count = async () => Number((await page.textContent('#pages-ok')).replace(/[^0-9]/g, '') || 0);
  await page.waitForFunction(() => Number(document.querySelector('#pages-ok').textContent.replace(/[^0-9]/g, '')) > 0, null, { timeout: 30000 });
  const first = await count();
  await page.waitForFunction((n) => Number(document.querySelector('#pages-ok').textContent.replace(/[^0-9]/g, '')) > n, first, { timeout: 30000 });
  log(`counters move: pages ok ${first} -> ${await count()}`);
  if ((await page.textContent('#state')) !== 'running') fail('state badge is not "running"');
  // Pages ok by content type: the site serves text/html.
  await page.waitForFunction(() => /^text\/html \d/.test(document.querySelector('#content-types').textContent), null, { timeout: 20000 });
  // The ETA to --max-pages 100000 once the crawl has a rate.
  await page.waitForFunction(() => /\d+s$/.test(document.querySelector('#eta').textContent) &&
    /100,000/.test(document.querySelector('#eta-label').textContent), null, { timeout: 20000 });
  log(`content types: ${await page.textContent('#content-types')}; ${await page.textContent('#eta-label')}: ${await page.textContent('#eta')}`);

  // 2. The host table lists the crawl's hosts with their state.
  await page.waitForFunction(() => document.querySelectorAll('#host-table tbody tr').length >= 2, null, { timeout: 20000 });
  const hosts = await page.$$eval('#host-table tbody tr td:first-child', (tds) => tds.map((t) => t.textContent));
  for (const h of ['en.test', 'zh.test']) if (!hosts.includes(h)) fail(`host table lacks ${h}: ${hosts}`);
  const states = await page.$$eval('#host-table tbody tr td:nth-child(5)', (tds) => tds.map((t) => t.textContent));
  log(`host table: ${hosts.join(', ')} (${states.join(', ')})`);

  // 3. A relevant page's explanation and its path to the seed.
  await page.waitForFunction(() => {
    const links = [...document.querySelectorAll('#recent a')];
    return links.some((a) => /\/p\d+$/.test(a.title) && !/\/p0$/.test(a.title));
  }, null, { timeout: 30000 });
  // The recent list can name a page the store writer has not committed
  // yet: the panel must wait for it, not stay closed. The first two
  // lookups answer 404 as an uncommitted page does.
  let held = 0;
  await page.route(/\/api\/pages\/\d+\?links=0/, (route) => {
    if (held < 2) {
      held++;
      return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"no page"}' });
    }
    return route.continue();
  });
  // The list is re-rendered every second: find and click in one step.
  await page.evaluate(() => {
    const a = [...document.querySelectorAll('#recent a')].find((x) => /\/p\d+$/.test(x.title) && !/\/p0$/.test(x.title));
    a.click();
  });
  await page.waitForSelector('#why:not([hidden])');
  await page.waitForFunction(() => document.querySelectorAll('#why-path li').length >= 2);
  if (held !== 2) fail(`the page lookup was answered 404 ${held} times, not 2`);
  await page.unroute(/\/api\/pages\/\d+\?links=0/);
  const relevanceExpl = await page.textContent('#why-relevance');
  const linkExpl = await page.textContent('#why-link');
  const pathItems = await page.$$eval('#why-path li', (lis) => lis.map((l) => l.textContent));
  if (relevanceExpl.trim() === '' || relevanceExpl === '(none)') fail('no relevance explanation');
  if (linkExpl.trim() === '' || linkExpl === '(none)') fail('no link explanation');
  if (!/depth 0 /.test(pathItems[pathItems.length - 1])) fail('the path does not end at a seed: ' + pathItems);
  log(`why fetched: ${pathItems.length} pages back to the seed; relevance explanation ${relevanceExpl.length} chars`);

  // 4. Search, English and Chinese (the index is built while crawling).
  async function search(q, expect) {
    for (let attempt = 0; attempt < 30; attempt++) {
      await page.fill('#search-q', q);
      await page.click('#search-form button');
      await page.waitForFunction(() => document.querySelector('#search-info').textContent !== '', null, { timeout: 10000 });
      const urls = await page.$$eval('#search-results li a', (as) => as.map((a) => a.title));
      if (urls.some((u) => expect.test(u))) {
        const marks = await page.$$eval('#search-results mark', (ms) => ms.map((m) => m.textContent));
        return { urls, marks };
      }
      await page.waitForTimeout(1000);
    }
    fail(`search "${q}" found nothing matching ${expect}`);
  }
  const en = await search('firewall', /en\.test/);
  log(`search "firewall": ${en.urls.length} hits, highlighted ${[...new Set(en.marks)].join(',')}`);
  const zh = await search('防火墙', /zh\.test/);
  if (!zh.marks.some((m) => m.includes('防火'))) fail('Chinese hits do not highlight 防火墙: ' + zh.marks);
  log(`search "防火墙": ${zh.urls.length} hits`);

  // 5. Hostile strings stay text: the evil page's title and anchor.
  const evil = await search('hostile', /evil\.test/);
  const idx = evil.urls.findIndex((u) => /evil\.test/.test(u));
  await (await page.$$('#search-results li a'))[idx].click();
  await page.waitForFunction((t) => document.querySelector('#why-title').textContent === t, HOSTILE_TITLE, { timeout: 10000 });
  const injected = await page.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    scripts: [...document.querySelectorAll('script')].map((s) => s.src),
  }));
  if (injected.imgs !== 0) fail(`${injected.imgs} <img> elements were injected`);
  if (injected.scripts.length !== 1 || !injected.scripts[0].endsWith('/app.js')) fail('extra scripts: ' + injected.scripts);
  // The hostile link was crawled (percent-encoded by URL canonicalisation);
  // its anchor text reaches the page only as text.
  const api = await page.evaluate(async () => (await fetch('/api/pages?host=evil.test&limit=50')).json());
  const hostileLink = api.pages.find((p) => p.url.includes('onerror'));
  if (!hostileLink) fail('the hostile URL was not crawled: ' + JSON.stringify(api));
  log(`hostile URL stored as ${hostileLink.url}`);
  // Its "why fetched" view: the URL as text, not markup.
  await page.fill('#search-q', 'hostile');
  await page.click('#search-form button');
  await page.waitForFunction((u) => [...document.querySelectorAll('#search-results li a')].some((a) => a.title === u), hostileLink.url, { timeout: 20000 });
  await page.evaluate((u) => [...document.querySelectorAll('#search-results li a')].find((a) => a.title === u).click(), hostileLink.url);
  await page.waitForFunction((u) => document.querySelector('#why-url').textContent === u, hostileLink.url, { timeout: 10000 });
  const after = await page.evaluate(() => document.querySelectorAll('img').length);
  if (after !== 0) fail(`${after} <img> elements were injected by the hostile URL`);
  if (dialogs.length) fail('a dialog opened: ' + dialogs.join(' | '));
  log('hostile title rendered as text, no injected elements, no dialog');

  // 6. Screenshot (the test's output), then stop the crawl from the page.
  await page.click('#why-title');  // scroll position irrelevant; keep the top visible
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'dashboard.png'), fullPage: true });
  log('screenshot ' + path.join(outDir, 'dashboard.png'));
  await page.click('#stop');
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 30000))]);
  if (code !== 3) fail(`crawl exit code after stop: ${code} (expected 3, interrupted and resumable)\n${crawlErr.slice(-2000)}`);
  if (!/crawl interrupted/.test(crawlOut)) fail('summary does not say interrupted: ' + crawlOut);
  log('stopped from the dashboard: ' + crawlOut.trim().split('\n')[0]);
  if (consoleErrors.length) log('console errors (after stop, expected: server gone): ' + consoleErrors.length);
  if (dialogs.length) fail('a dialog opened: ' + dialogs.join(' | '));
  log('PASS');
} catch (e) {
  process.exitCode = 1;
  console.error(e.stack || String(e));
  console.error('--- crawl stderr (tail) ---\n' + crawlErr.slice(-3000));
} finally {
  if (browser) await browser.close().catch(() => {});
  if (crawl.exitCode === null) crawl.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
  if (crawl.exitCode === null) crawl.kill('SIGKILL');
  site.close();
  site.closeAllConnections?.();
}

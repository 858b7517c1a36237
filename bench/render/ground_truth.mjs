// Ground truth for the JavaScript test web: what Chromium itself shows
// after load, without topicrawl's interception. For each URL: load it in
// Debian's chromium (playwright-core from tests/browser/node_modules; every
// host name resolves to the local server), wait for the network to idle,
// scroll to the bottom until the page stops growing, then print
//   url <TAB> JSON array of document.links hrefs <TAB> innerText length
// Usage: node ground_truth.mjs PORT < urls.txt > truth.tsv
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(new URL('../../tests/browser/', import.meta.url));
const { chromium } = require('playwright-core');

const port = process.argv[2];
const urls = readFileSync(0, 'utf8').split('\n').filter(Boolean);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP * 127.0.0.1:${port}`],
});
const page = await browser.newPage();
for (const url of urls) {
  try {
    await page.goto(url, { waitUntil: 'networkidle', timeout: 20000 });
    let last = -1;
    for (let i = 0; i < 4; ++i) {
      const h = await page.evaluate(() => {
        const h = document.documentElement.scrollHeight; window.scrollTo(0, h); return h; });
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(150);
      if (h === last) break;
      last = h;
    }
    const r = await page.evaluate(() => ({
      links: Array.from(document.links, a => a.href),
      text: document.body ? document.body.innerText.length : 0 }));
    process.stdout.write(`${url}\t${JSON.stringify(r.links)}\t${r.text}\n`);
  } catch (e) {
    process.stdout.write(`${url}\t[]\t-1\n`);
    process.stderr.write(`${url}: ${e.message}\n`);
  }
}
await browser.close();

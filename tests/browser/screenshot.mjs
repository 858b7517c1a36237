// Screenshot of a running dashboard (for docs/dashboard.png):
//   node tests/browser/screenshot.mjs http://127.0.0.1:PORT/ out.png [WAIT_S] [CLICK_RECENT]
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const [url, out, wait = '8', click = '1'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(url);
await page.waitForTimeout(Number(wait) * 1000);
if (click === '1' && (await page.$('#recent a'))) {
  await page.click('#recent a');
  await page.waitForSelector('#why:not([hidden])');
}
await page.screenshot({ path: out, fullPage: false });
await browser.close();

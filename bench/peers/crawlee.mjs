// Crawlee CheerioCrawler over a served benchmark web, for bench/peers/run.sh.
// Usage: node crawlee.mjs PROXY_URL MAX_PAGES HOSTS_CSV SEED_URL...
// Follows <a href> links to the served hosts only, respects robots.txt,
// stops after MAX_PAGES successfully downloaded HTML pages, prints one JSON
// line {"pages":..,"failed":..,"seconds":..} on stdout.
import { CheerioCrawler, ProxyConfiguration, Configuration, log } from '@crawlee/cheerio';
import { RobotsTxtFile } from '@crawlee/utils';

const [proxyUrl, maxPagesText, hostsCsv, ...seeds] = process.argv.slice(2);
const maxPages = Number(maxPagesText);
const hosts = new Set(hostsCsv.split(','));
log.setLevel(log.LEVELS.WARNING);

let pages = 0;
let failed = 0;
const started = Date.now();
const crawler = new CheerioCrawler({
  proxyConfiguration: new ProxyConfiguration({ proxyUrls: [proxyUrl] }),
  respectRobotsTxtFile: true,
  maxRequestRetries: 0,
  minConcurrency: 8,  // fixed: the autoscaler backs off when other jobs load the machine
  maxConcurrency: 8,
  maxRequestsPerCrawl: maxPages * 20,
  async requestHandler({ enqueueLinks }) {
    pages += 1;
    if (pages >= maxPages) {
      await crawler.autoscaledPool?.abort();
      return;
    }
    await enqueueLinks({
      strategy: 'all',
      transformRequestFunction: (req) => {
        const u = new URL(req.url);
        return hosts.has(u.hostname) && u.protocol === 'http:' ? req : false;
      },
    });
  },
  failedRequestHandler() {
    failed += 1;
  },
}, new Configuration({ persistStorage: false, purgeOnStart: true }));

// Crawlee 3.18's crawler fetches robots.txt WITHOUT the proxy
// (basic-crawler.js: RobotsTxtFile.find(url)), which fails on this offline
// web and is retried for every request. Load each served host's robots.txt
// through the proxy into the crawler's cache first; robots stays respected.
for (const seed of seeds) {
  const origin = new URL(seed).origin;
  crawler.robotsTxtFileCache.add(origin, await RobotsTxtFile.find(seed, proxyUrl));
}
await crawler.run(seeds);
console.log(JSON.stringify({ pages, failed, seconds: (Date.now() - started) / 1000 }));

#!/usr/bin/env python3
"""Links found by a crawl vs Chromium's document.links (ground_truth.mjs).

For every page in truth.tsv that the crawl stored, both sides are reduced
to canonical http(s) URLs without fragments (`topicrawl url canon` rules:
the crawl's stored links are canonical already; the truth's hrefs are
canonicalised here with the same simple rules the synthetic web needs:
lower-case scheme and host, default port dropped, fragment dropped).
Prints per-style mean Jaccard and the overall mean.
Usage: jaccard.py CRAWL_DIR truth.tsv [styles.tsv]
"""
import json, sqlite3, sys
from urllib.parse import urlsplit, urlunsplit


def canon(u):
    p = urlsplit(u)
    if p.scheme not in ("http", "https"):
        return None
    host = (p.hostname or "").lower()
    port = p.port
    netloc = host if port in (None, 80 if p.scheme == "http" else 443) else f"{host}:{port}"
    return urlunsplit((p.scheme, netloc, p.path or "/", p.query, ""))


def main():
    crawl, truth_path = sys.argv[1], sys.argv[2]
    styles = {}
    if len(sys.argv) > 3:
        for line in open(sys.argv[3]):
            host, style = line.rstrip("\n").split("\t")
            styles[host] = style
    db = sqlite3.connect(f"file:{crawl}/crawl.db?mode=ro", uri=True)
    ids = {u: i for i, u in db.execute("SELECT id, url FROM pages WHERE status = 'ok'")}
    per_style, missing = {}, 0
    for line in open(truth_path):
        url, links, text = line.rstrip("\n").split("\t")
        if url not in ids:
            missing += 1
            continue
        want = {c for c in (canon(h) for h in json.loads(links)) if c}
        got = {r[0] for r in db.execute(
            "SELECT to_url FROM links WHERE from_id = ?", (ids[url],)) if r[0]}
        j = 1.0 if not want and not got else len(want & got) / len(want | got)
        style = styles.get(urlsplit(url).hostname, "all")
        per_style.setdefault(style, []).append(j)
    everything = [j for js in per_style.values() for j in js]
    for style, js in sorted(per_style.items()):
        print(f"{style:10s} pages {len(js):5d}  mean Jaccard {sum(js) / len(js):.4f}  "
              f"min {min(js):.3f}")
    if everything:
        print(f"{'all':10s} pages {len(everything):5d}  mean Jaccard "
              f"{sum(everything) / len(everything):.4f}  (truth pages not in the crawl: {missing})")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Recall of a crawl against synthetic-web labels, split by host kind.
Usage: recall.py CRAWL_DIR labels.tsv homes.tsv
A host is script-built when its homes.tsv role has "js:". Home pages count
under both spellings ("/" and "/index.html"), a page with a query (a session
host's ?sid=) as the page without it."""
import sqlite3, sys
from urllib.parse import urlsplit


def norm(u):
    u = u.split("?", 1)[0]  # session hosts add ?sid=...; labels name the page without it
    return u[:-len("index.html")] if u.endswith("/index.html") else u


crawl, labels, homes = sys.argv[1:4]
js = set()
for i, line in enumerate(open(homes)):
    f = line.rstrip("\n").split("\t")
    if i and "js:" in f[2]:
        js.add(f[0])
db = sqlite3.connect(f"file:{crawl}/crawl.db?mode=ro", uri=True)
got = {norm(u) for (u,) in db.execute("SELECT url FROM pages WHERE status = 'ok'")}
rel = {"js": [0, 0], "static": [0, 0]}
for i, line in enumerate(open(labels)):
    f = line.rstrip("\n").split("\t")
    if i == 0 or f[1] != "1":
        continue
    kind = "js" if urlsplit(f[0]).hostname in js else "static"
    rel[kind][1] += 1
    rel[kind][0] += norm(f[0]) in got
pages = len(got)
out = [f"pages {pages:5d}"]
for kind, (found, total) in rel.items():
    out.append(f"{kind} hosts: {found}/{total} relevant = {found / max(total, 1):.3f}")
print("  ".join(out))

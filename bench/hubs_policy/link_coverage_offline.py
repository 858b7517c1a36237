#!/usr/bin/env python3
"""Offline check for the `hubs` round policy (docs/notebook/hub-svm.md, "Incremental
tables, session 5"): how much of round 1's new-page links would the top
FRAC of a round-0 crawl's pages cover, ranked by several link-structure
scores. Reads the crawl's crawl.db (pages, links) and the evolved web's
truth/hubs-1.tsv (url, new_links).

Usage: bench/hubs_policy/link_coverage_offline.py CRAWL_DIR/crawl.db EVOLVED_WEB/truth/hubs-1.tsv [FRAC=0.22]
"""
import sqlite3, sys, collections, urllib.parse
db, truth, frac = sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 0.22
c = sqlite3.connect(db)
pages = {}
for pid, url, st, depth, parent in c.execute("select id,url,status,depth,parent_id from pages"):
    if st == 'ok':
        pages[pid] = (url, depth, parent)
url2id = {u: i for i, (u, d, p) in pages.items()}
host = lambda u: urllib.parse.urlsplit(u).netloc
kids = collections.defaultdict(set)
for fid, to in c.execute("select from_id,to_url from links"):
    if fid in pages and to in url2id and url2id[to] != fid and host(to) == host(pages[fid][0]):
        kids[fid].add(url2id[to])
indeg = collections.Counter()
linkers = collections.defaultdict(set)
for f, ks in kids.items():
    for k in ks:
        indeg[k] += 1
        linkers[k].add(f)
hubs = {}
for line in open(truth).read().splitlines()[1:]:
    u, n = line.split('\t')
    hubs[u] = int(n)
known = sum(n for u, n in hubs.items() if u in url2id)
print("pages", len(pages), "truth hubs", len(hubs), "known", sum(1 for u in hubs if u in url2id), "new links from known", known)
k = int(frac * len(pages))
bfs_children = collections.Counter(p for (u, d, p) in pages.values() if p)
def cover(score, name):
    order = sorted(pages, key=lambda i: -score(i))[:k]
    got = sum(hubs.get(pages[i][0], 0) for i in order)
    print(f"{name:40s} top {k}: {got}/{known} new-page links ({100*got/known:.0f} %)")
cover(lambda i: sum(1 / indeg[j] for j in kids[i]), "parenthood")
cover(lambda i: sum(1 for j in kids[i] if indeg[j] == 1), "sole-parent children")
cover(lambda i: sum(1 for j in kids[i] if indeg[j] <= 2), "children with <=2 linkers")
cover(lambda i: len(kids[i]), "same-site outdegree")
cover(lambda i: bfs_children[i], "bfs children")
leaf = lambda j: len(kids[j]) == 0 or kids[j] <= linkers[j]
cover(lambda i: sum(1 for j in kids[i] if leaf(j)), "leaf children")
cover(lambda i: sum(1 / indeg[j] for j in kids[i] if leaf(j)), "parenthood over leaf children")
cover(lambda i: sum(1 / indeg[j]**2 for j in kids[i] if leaf(j)), "sum 1/indeg^2 over leaf children")
cover(lambda i: sum(1 / indeg[j]**2 for j in kids[i]), "sum 1/indeg^2")
# truth hubs: their stats
hs = [url2id[u] for u in hubs if u in url2id]
import statistics
print("hub kids", statistics.median(len(kids[i]) for i in hs), "all", statistics.median(len(kids[i]) for i in pages))
print("hub parenthood", statistics.median(sum(1/indeg[j] for j in kids[i]) for i in hs), "all", statistics.median(sum(1/indeg[j] for j in kids[i]) for i in pages))
print("hub leaf kids", statistics.median(sum(1 for j in kids[i] if leaf(j)) for i in hs))
for i in hs[:8]:
    print(pages[i][0], len(kids[i]), round(sum(1/indeg[j] for j in kids[i]),2), sum(1 for j in kids[i] if leaf(j)), bfs_children[i])
bleaf = lambda j: bfs_children[j] == 0
groups = collections.defaultdict(list)
for j in pages:
    if bleaf(j) and linkers[j]:
        groups[frozenset(linkers[j])].append(j)
def section_score(cap, power, leafonly=True):
    s = collections.Counter()
    for L, G in groups.items():
        w = min(len(G), cap) / len(L) ** power
        for i in L:
            s[i] += w
    return s
for cap in (8, 1000):
    for power in (1, 2):
        sc = section_score(cap, power)
        cover(lambda i: sc[i], f"section cap {cap} power {power}")
sc = section_score(8, 2)
cover(lambda i: sc[i] + 1e-3 * sum(1 / indeg[j]**2 for j in kids[i]), "section 8/2 + eps*1/indeg^2")
cover(lambda i: sum(1 / indeg[j]**2 for j in kids[i] if bleaf(j)), "sum 1/indeg^2 over bfs-leaf kids")
cover(lambda i: sum(1 / indeg[j] for j in kids[i] if bleaf(j)), "sum 1/indeg over bfs-leaf kids")

#!/usr/bin/env python3
"""beta_rule.py CRAWL.db LABELS.tsv: R(P) quantiles of labelled-relevant and
irrelevant ok pages; beta_median_rel is the rule beta of docs/baselines.md."""
import sqlite3, sys, statistics
db, labels = sys.argv[1], sys.argv[2]
lab = {}
for line in open(labels, encoding='utf-8'):
    p = line.rstrip('\n').split('\t')
    if len(p) >= 2 and p[1] in ('0','1'): lab[p[0]] = int(p[1])
c = sqlite3.connect(db)
rel, irr, unk = [], [], 0
for url, fu, r in c.execute("select url, final_url, relevance from pages where status='ok' and relevance is not null"):
    k = fu if fu in lab else url
    if k in lab: (rel if lab[k] else irr).append(r)
    else: unk += 1
q = lambda xs, f: sorted(xs)[int(f*(len(xs)-1))] if xs else float('nan')
print(f"ok pages labelled: relevant {len(rel)}, irrelevant {len(irr)}, unlabelled {unk}")
print(f"R(P) relevant: median {statistics.median(rel):.4f} p25 {q(rel,.25):.4f} p75 {q(rel,.75):.4f} max {max(rel):.4f}")
print(f"R(P) irrelevant: median {statistics.median(irr):.4f} p90 {q(irr,.9):.4f} p99 {q(irr,.99):.4f} max {max(irr):.4f}")
b = statistics.median(rel)
print(f"beta_median_rel={b:.4f}  frac irrelevant >= it: {sum(x>=b for x in irr)/len(irr):.4f}")

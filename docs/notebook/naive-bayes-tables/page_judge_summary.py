#!/usr/bin/env python3
"""Mean ± sample sd per strategy of `topicrawl analyze page-judge` output.

usage: page_judge_summary.py PAGE-JUDGE.txt
(bench/seed_tables/harvest_tables.sh writes OUT/nb-*/page-judge.txt; runs are STRATEGY-SEED.)
"""
import collections, re, statistics, sys

rows = collections.defaultdict(lambda: collections.defaultdict(list))
header = None
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip('|').split('|')]
    if cells[0] == 'crawl':
        header = cells
        continue
    m = re.search(r'/([a-z-]+)-\d+$', cells[0])
    if not m or header is None: continue
    for name, value in zip(header[2:], cells[2:]):
        if name.startswith('@'):
            rows[m.group(1)][name].append(float(value))
for strategy, cps in rows.items():
    cells = []
    for cp, v in cps.items():
        sd = statistics.stdev(v) if len(v) > 1 else 0.0
        cells.append(f"{cp} {statistics.mean(v):.3f} ± {sd:.3f}")
    print(f"{strategy} ({len(next(iter(cps.values())))} runs): " + ", ".join(cells))

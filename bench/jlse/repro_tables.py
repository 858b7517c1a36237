#!/usr/bin/env python3
"""Markdown tables of average harvest rate@N and average target recall@N
(the seed's metrics, mean ± sd over runs) from a `topicrawl compare`
table.json, for docs/strategies/jlse.md.

  bench/jlse/repro_tables.py TABLE.json [ORDER...]
"""
import json, sys

t = json.load(open(sys.argv[1]))
order = sys.argv[2:]
rows = {s["strategy"]: s for s in t["strategies"]}
names = [n for n in order if n in rows] + [n for n in rows if n not in order]
cps = []
for s in rows.values():
    for c in s["checkpoints"]:
        if c["checkpoint"] not in cps and c["checkpoint"] != "final":
            cps.append(c["checkpoint"])
cps.sort(key=lambda c: int(c) if c.isdigit() else 1 << 30)
for metric, title in (("avg_harvest_rate", "average harvest rate@N"),
                      ("avg_target_recall", "average target recall@N"),
                      ("recall", "target recall@N")):
    print(f"**{title}** (mean ± sd over runs; runs in brackets)\n")
    print("| strategy | " + " | ".join(cps) + " |")
    print("|---|" + "---:|" * len(cps))
    for n in names:
        cells = []
        by = {c["checkpoint"]: c for c in rows[n]["checkpoints"]}
        for cp in cps:
            m = by.get(cp, {}).get("metrics", {}).get(metric)
            cells.append("" if not m or m.get("mean") is None else
                         f"{m['mean']:.3f} ± {m['sd']:.3f}" + (f" ({m['runs']})" if cp == cps[0] else ""))
        print(f"| {n} | " + " | ".join(cells) + " |")
    print()

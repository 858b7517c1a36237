#!/usr/bin/env python3
"""Summarises bench/hubs_policy/new_pages_per_fetch.sh: per web, mean +- sd over the
evolution seeds of round 1 (new pages found, fetches vs full) and of the
fetches per new page over rounds 1..3, for full, hubs and adaptive.

Usage: bench/hubs_policy/summary.py OUTROOT   (default /work/runs/hubs/incr)
"""
import glob
import json
import os
import statistics
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "/work/runs/hubs/incr"
POLICIES = ["full", "hubs", "adaptive"]


def pm(xs, fmt="{:.1f}"):
    if not xs:
        return "-"
    m = statistics.mean(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return (fmt + " ± " + fmt).format(m, sd)


for web in ["dev", "zh"]:
    runs = sorted(glob.glob(os.path.join(root, web + "-s*.json")))
    if not runs:
        continue
    seeds = []
    r1 = {p: {"new": [], "fetch_share": [], "fetches": []} for p in POLICIES}
    per_new = {p: [] for p in POLICIES}
    for d in runs:
        data = {}
        for p in POLICIES:
            with open(os.path.join(d, p + ".json")) as f:
                data[p] = {r["round"]: r for r in json.load(f)["rounds"]}
        seeds.append(os.path.basename(d)[len(web) + 2:-5])
        full1 = data["full"][1]["fetches"]
        for p in POLICIES:
            r = data[p][1]
            r1[p]["new"].append(100.0 * r["new_found"] / max(1, r["new_total"]))
            r1[p]["fetches"].append(r["fetches"])
            r1[p]["fetch_share"].append(100.0 * r["fetches"] / full1)
            fetches = sum(data[p][k]["fetches"] for k in (1, 2, 3))
            new = sum(data[p][k]["new_found"] for k in (1, 2, 3))
            per_new[p].append(fetches / max(1, new))
    print(f"## {web}: {len(runs)} evolution seeds ({', '.join(seeds)})\n")
    print("| policy | round 1 new pages found | round 1 fetches | vs full | "
          "fetches per new page, rounds 1-3 |")
    print("|---|---|---|---|---|")
    for p in POLICIES:
        print(f"| {p} | {pm(r1[p]['new'])} % | {pm(r1[p]['fetches'], '{:.0f}')} | "
              f"{pm(r1[p]['fetch_share'])} % | {pm(per_new[p])} |")
    print()
    print("per seed, round 1 new found % (hubs / adaptive): " +
          ", ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(r1['hubs']['new'], r1['adaptive']['new'])))
    print("per seed, fetches per new page r1-3 (hubs / adaptive / full): " +
          ", ".join(f"{a:.1f}/{b:.1f}/{c:.1f}" for a, b, c in
                    zip(per_new['hubs'], per_new['adaptive'], per_new['full'])))
    print()

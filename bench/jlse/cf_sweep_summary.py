#!/usr/bin/env python3
"""The cf sweep's table (bench/jlse/cf_sweep.sh): per cf, mean +- sd over the
RNG seeds of the recall and of the average harvest rate@N (seed 004's Fig. 5
metric) at every eval checkpoint, the true harvest at the last one (from
`topicrawl eval --labels --json`), the Gw rebuilds and result pages
(jlse_stats.json).

  bench/jlse/cf_sweep_summary.py OUT
"""
import glob, json, os, re, statistics as st, sys

out = sys.argv[1]
runs = {}
for d in sorted(glob.glob(os.path.join(out, "cf*-s*"))):
    m = re.fullmatch(r"cf(\d+)-s(\d+)", os.path.basename(d))
    if m and os.path.exists(os.path.join(d, "eval.json")):
        runs.setdefault(int(m.group(1)), []).append(d)


def ms(v):
    return f"{st.mean(v):.3f} ± {st.stdev(v):.3f}" if len(v) > 1 else f"{v[0]:.3f}"


def load(d, name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)


at_n = None
rows = []
for cf in sorted(runs):
    ev = [load(d, "eval.json") for d in runs[cf]]
    stats = [load(d, "jlse_stats.json") for d in runs[cf]]
    at_n = [c["n"] for c in ev[0]["checkpoints"]]
    at = lambda e, n: next(c for c in e["checkpoints"] if c["n"] == n)
    recall = [ms([at(e, n)["recall"] for e in ev]) for n in at_n]
    ahr = [ms([at(e, n)["avg_harvest_rate"] for e in ev]) for n in at_n]
    harvest = ms([at(e, at_n[-1])["true_harvest"] for e in ev])
    rebuilds = [s["rebuilds"] for s in stats]
    results = st.mean(s["result_pages"] for s in stats)
    rows.append(f"| {cf} | {len(ev)} | " + " | ".join(recall) + " | " + " | ".join(ahr) +
                f" | {harvest} | {st.mean(rebuilds):.1f} ({min(rebuilds)}-{max(rebuilds)}) | {results:.0f} |")
if at_n:
    print("| cf | runs | " + " | ".join(f"recall@{n}" for n in at_n) + " | " +
          " | ".join(f"avg HR@{n}" for n in at_n) + f" | harvest@{at_n[-1]} | Gw rebuilds | result pages |")
    print("|---:|---:|" + "---|" * (2 * len(at_n) + 2) + "---:|")
    print("\n".join(rows))

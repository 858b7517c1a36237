#!/usr/bin/env python3
"""The BM25 idf table (bench/jlse/bm25_idf.sh): per idf form, mean +- sd over
the RNG seeds of the recall at every eval checkpoint, the average harvest
rate and the true harvest at the last one (from `topicrawl eval --labels
--json`), the pages crawled, the Gw rebuilds and result pages
(jlse_stats.json).

  bench/jlse/bm25_idf_summary.py OUT
"""
import glob, json, os, re, statistics as st, sys

out = sys.argv[1]
runs = {}
for d in sorted(glob.glob(os.path.join(out, "*-s*"))):
    m = re.fullmatch(r"([a-z]+)-s(\d+)", os.path.basename(d))
    if m and os.path.exists(os.path.join(d, "eval.json")):
        runs.setdefault(m.group(1), []).append(d)


def ms(v):
    return f"{st.mean(v):.3f} ± {st.stdev(v):.3f}" if len(v) > 1 else f"{v[0]:.3f}"


def load(d, name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)


at_n = None
rows = []
for idf in sorted(runs):
    ev = [load(d, "eval.json") for d in runs[idf]]
    stats = [load(d, "jlse_stats.json") for d in runs[idf]]
    at_n = [c["n"] for c in ev[0]["checkpoints"]]
    at = lambda e, n: next((c for c in e["checkpoints"] if c["n"] == n), None)
    recall = [ms([at(e, n)["recall"] for e in ev if at(e, n)]) for n in at_n]
    last = at_n[-1]
    ahr = ms([at(e, last)["avg_harvest_rate"] for e in ev if at(e, last)])
    harvest = ms([at(e, last)["true_harvest"] for e in ev if at(e, last)])
    rebuilds = [s["rebuilds"] for s in stats]
    results = st.mean(s["result_pages"] for s in stats)
    rows.append(f"| {idf} | {len(ev)} | " + " | ".join(recall) +
                f" | {ahr} | {harvest} | {st.mean(rebuilds):.1f} ({min(rebuilds)}-{max(rebuilds)}) | {results:.0f} |")
if at_n:
    print("| bm25_idf | runs | " + " | ".join(f"recall@{n}" for n in at_n) +
          f" | avg HR@{at_n[-1]} | harvest@{at_n[-1]} | Gw rebuilds | result pages |")
    print("|---|---:|" + "---|" * (len(at_n) + 2) + "---|---:|")
    print("\n".join(rows))

#!/usr/bin/env python3
"""Table of a focus comparison (bench/focus_compare/run.sh).

Evaluates every run directory RUNS_DIR/<strategy>-<seed> with `topicrawl eval
--json --at 2R,3R` against the labels, computes the oracle crawl once (`eval
--oracle --graph-from GRAPH` on the run that downloaded the most pages: every
run starts from the same homes, so the oracle curve is the same for all) and
prints a markdown table of mean +- sd over the runs of each strategy:
recall@2R, recall@3R, harvest@3R, share_of_oracle@2R and @3R (recall / oracle
recall, per run), the judge's F1 and pages/s. A run that failed or downloaded
fewer than 2R / 3R pages has no value at that checkpoint; the `n` column says
how many runs reached 3R.
"""
import argparse
import json
import math
import os
import subprocess
import sys


def mean_sd(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    m = sum(values) / len(values)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
    return "%.3f ± %.3f" % (m, sd)


def eval_json(args, run_dir, oracle=False):
    cmd = [args.bin, "eval", run_dir, "--labels", args.labels, "--json",
           "--at", "%d,%d" % (2 * args.relevant, 3 * args.relevant)]
    if oracle:
        cmd += ["--oracle", "--graph-from", args.graph]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write("eval %s failed: %s\n" % (run_dir, out.stderr.strip()))
        return None
    return json.loads(out.stdout)


def at(j, n, key):
    for c in j["checkpoints"]:
        if c["n"] == n:
            return c.get(key)
    return None


def main():
    p = argparse.ArgumentParser()
    for flag in ("--bin", "--graph", "--labels", "--name", "--strategies", "--runs-dir", "--tsv"):
        p.add_argument(flag, required=True)
    p.add_argument("--relevant", type=int, required=True)
    args = p.parse_args()
    b2, b3 = 2 * args.relevant, 3 * args.relevant
    strategies = [s for s in args.strategies.split(",") if s]
    runs = {}
    for s in strategies:
        for d in sorted(os.listdir(args.runs_dir)):
            if d.rsplit("-", 1)[0] == s and d.rsplit("-", 1)[1].isdigit():
                j = eval_json(args, os.path.join(args.runs_dir, d))
                runs.setdefault(s, []).append((d, j))
    ok = [(d, j) for rs in runs.values() for d, j in rs if j]
    if not ok:
        sys.exit("no run could be evaluated")
    longest = max(ok, key=lambda r: r[1]["dp"])[0]
    oj = eval_json(args, os.path.join(args.runs_dir, longest), oracle=True)
    o2, o3 = at(oj, b2, "oracle_recall"), at(oj, b3, "oracle_recall")
    rows, tsv = [], ["run\tdp\trecall2\trecall3\tharvest3\tshare2\tshare3\tjudge_f1\tpages_per_s"]
    for s in strategies:
        cols = {k: [] for k in ("r2", "r3", "h3", "s2", "s3", "f1", "pps")}
        reached = 0
        for d, j in runs.get(s, []):
            if not j:
                tsv.append("%s\tfailed" % d)
                continue
            r2, r3 = at(j, b2, "recall"), at(j, b3, "recall")
            vals = {"r2": r2, "r3": r3, "h3": at(j, b3, "true_harvest"),
                    "s2": r2 / o2 if r2 is not None and o2 else None,
                    "s3": r3 / o3 if r3 is not None and o3 else None,
                    "f1": (j.get("judge") or {}).get("f1"), "pps": j.get("pages_per_s")}
            reached += r3 is not None
            for k, v in vals.items():
                cols[k].append(v)
            tsv.append("\t".join([d, str(j["dp"])] + ["" if vals[k] is None else "%.4f" % vals[k]
                                                     for k in cols]))
        rows.append("| %s | %d/%d | %s |" % (s, reached, len(runs.get(s, [])), " | ".join(
            mean_sd(cols[k]) for k in ("r2", "r3", "h3", "s2", "s3", "f1", "pps"))))
    with open(args.tsv, "w") as f:
        f.write("\n".join(tsv) + "\n")
    print("%s: |R| = %d, budget 3|R| = %d; oracle graph: %s" % (args.name, args.relevant, b3,
                                                              oj.get("oracle_graph")))
    print()
    print("| strategy | runs at 3R | recall@2R | recall@3R | harvest@3R | share_of_oracle@2R "
          "| share_of_oracle@3R | judge F1 | pages/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("| **oracle** (greedy) | - | %s | %s | %s | 1 | 1 | - | - |" % (
        "%.3f" % o2 if o2 is not None else "-", "%.3f" % o3 if o3 is not None else "-",
        "%.3f" % (o3 * args.relevant / b3) if o3 is not None else "-"))
    for r in rows:
        print(r)
    for note in oj.get("notes", []):
        if note.startswith("oracle"):
            print("\nnote: " + note)


if __name__ == "__main__":
    main()

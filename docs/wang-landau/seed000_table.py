#!/usr/bin/env python3
"""The seed-000 table (paper tables 1/5) from `topicrawl compare` output.

usage: seed000_table.py TABLE.json
Per checkpoint DP and strategy: runs, Accuracy, LP, ARDP, SDDP, ARLP, SDLP,
true harvest, recall (95 % interval of the mean), elapsed s; then the Friedman
ranks compare computed. Values are mean ± sample sd over runs.
"""
import json, sys

j = json.load(open(sys.argv[1]))

def cell(m, k, d=3):
    if k not in m or m[k]['runs'] == 0: return '–'
    return f"{m[k]['mean']:.{d}f} ± {m[k]['sd']:.{d}f}"

def ci(m, k, d=3):
    if k not in m or m[k]['runs'] < 2: return cell(m, k, d)
    return f"{cell(m, k, d)} [{m[k]['ci95_low']:.{d}f}, {m[k]['ci95_high']:.{d}f}]"

cps = []
for s in j['strategies']:
    for c in s['checkpoints']:
        if c['checkpoint'] not in cps: cps.append(c['checkpoint'])
print(f"relevant pages in the labels: {j.get('relevant_total')}\n")
print("| DP | strategy | runs | Accuracy | LP | ARDP | SDDP | ARLP | SDLP | true harvest | recall [95 % CI] | elapsed s |")
print("|---:|---|---:|---|---|---|---|---|---|---|---|---|")
for cp in cps:
    for s in j['strategies']:
        c = next((c for c in s['checkpoints'] if c['checkpoint'] == cp), None)
        if c is None: continue
        m = c['metrics']
        print(f"| {cp} | {s['strategy']} | {c['runs']} | {cell(m,'accuracy',4)} | {cell(m,'lp',0)} | "
              f"{cell(m,'ardp')} | {cell(m,'sddp')} | {cell(m,'arlp')} | {cell(m,'sdlp')} | "
              f"{cell(m,'true_harvest')} | {ci(m,'recall')} | {cell(m,'elapsed_s',0)} |")
f = j.get('friedman')
if f:
    print(f"\nFriedman ranks at DP = {f['checkpoint']} (1 = best):\n")
    print("| strategy | " + " | ".join(f['metrics']) + " | average |")
    print("|---|" + "---:|" * (len(f['metrics']) + 1))
    ranks = f['ranks'] if 'ranks' in f else f.get('result', {}).get('ranks')
    mean = f['mean_ranks'] if 'mean_ranks' in f else f.get('result', {}).get('mean_ranks')
    for t, name in enumerate(f['strategies']):
        print(f"| {name} | " + " | ".join(f"{ranks[b][t]:g}" for b in range(len(f['metrics']))) +
              f" | {mean[t]:.2f} |")
    for k in ('chi_square', 'p_value', 'df'):
        if k in f: print(f"{k} = {f[k]}")

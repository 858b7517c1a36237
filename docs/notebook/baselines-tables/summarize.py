#!/usr/bin/env python3
"""Compact tables from `topicrawl compare` output (table.json).

usage: summarize.py TABLE.json [TABLE_BETA2.json]
Prints, per checkpoint and strategy: runs, true harvest, recall, Accuracy at
the crawl's beta and (if a second table.json from `compare --beta B` on the
same runs is given) Accuracy at B.  Values are mean ± sample sd over runs.
"""
import json, sys

def load(p):
    j = json.load(open(p))
    return {s['strategy']: s for s in j['strategies']}, j

def cell(m, k, digits=3):
    if k not in m: return '–'
    v = m[k]
    return f"{v['mean']:.{digits}f} ± {v['sd']:.{digits}f}"

a, ja = load(sys.argv[1])
b = load(sys.argv[2])[0] if len(sys.argv) > 2 else None
print(f"relevant in labels: {ja['relevant_total']}, reachable by oracle: {ja['oracle_relevant']}\n")
cps = []
for s in a.values():
    for c in s['checkpoints']:
        if c['checkpoint'] not in cps: cps.append(c['checkpoint'])
hdr = "| DP | strategy | runs | true harvest | recall | Accuracy (β crawl) |" + (" Accuracy (β rule) |" if b else "")
print(hdr); print("|" + "---|" * (hdr.count('|') - 1))
for cp in cps:
    for name, s in a.items():
        c = next((c for c in s['checkpoints'] if c['checkpoint'] == cp), None)
        if c is None: continue
        m = c['metrics']
        dp = f"{m['dp']['mean']:.0f}" if cp == 'final' else cp
        row = f"| {dp}{' (final)' if cp=='final' else ''} | {name} | {m['dp']['runs']} | {cell(m,'true_harvest')} | {cell(m,'recall')} | {cell(m,'accuracy',4)} |"
        if b:
            cb = next((c for c in b[name]['checkpoints'] if c['checkpoint'] == cp), None)
            row += f" {cell(cb['metrics'],'accuracy',4) if cb else '–'} |"
        print(row)

#!/usr/bin/env python3
"""The seed-000 table (paper tables 1/5) from `topicrawl compare` output.

usage: seed000_table.py TABLE.json [--cpu CPU.tsv] [--compact]
Per checkpoint DP and strategy: runs, Accuracy, LP, ARDP, SDDP, ARLP, SDLP,
true harvest, recall (95 % interval of the mean), elapsed s; then the Friedman
ranks compare computed. Values are mean ± sample sd over runs.
--compact: the docs' table (no runs, interval or elapsed columns).
--cpu: CPU seconds per run and strategy from bench/seed_tables/harvest_tables.sh's cpu.tsv
(run<TAB>cpu_s, run = STRATEGY-SEED), with the wall time of the full crawl.
"""
import json, statistics, sys

args = sys.argv[1:]
compact = '--compact' in args
cpu_path = args[args.index('--cpu') + 1] if '--cpu' in args else None
path = next(a for i, a in enumerate(args)
            if not a.startswith('--') and (i == 0 or args[i - 1] != '--cpu'))
j = json.load(open(path))

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
if compact:
    print("| DP | strategy | Accuracy | LP | ARDP | SDDP | ARLP | SDLP | true harvest | recall |")
    print("|---:|---|---|---|---|---|---|---|---|---|")
else:
    print("| DP | strategy | runs | Accuracy | LP | ARDP | SDDP | ARLP | SDLP | true harvest | recall [95 % CI] | elapsed s |")
    print("|---:|---|---:|---|---|---|---|---|---|---|---|---|")
for cp in cps:
    for s in j['strategies']:
        c = next((c for c in s['checkpoints'] if c['checkpoint'] == cp), None)
        if c is None: continue
        m = c['metrics']
        common = (f"{cell(m,'accuracy',4)} | {cell(m,'lp',0)} | {cell(m,'ardp')} | "
                  f"{cell(m,'sddp')} | {cell(m,'arlp')} | {cell(m,'sdlp')} | {cell(m,'true_harvest')}")
        if compact:
            print(f"| {cp} | {s['strategy']} | {common} | {cell(m,'recall')} |")
        else:
            print(f"| {cp} | {s['strategy']} | {c['runs']} | {common} | {ci(m,'recall')} | "
                  f"{cell(m,'elapsed_s',0)} |")
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
if cpu_path:
    cpu = {}
    for line in open(cpu_path).read().splitlines()[1:]:
        run, sec = line.split('\t')
        cpu.setdefault(run.rsplit('-', 1)[0], []).append(float(sec))
    def ms(v, d=1):
        if not v: return '–'
        sd = statistics.stdev(v) if len(v) > 1 else 0.0
        return f"{statistics.mean(v):.{d}f} ± {sd:.{d}f}"
    print("\nCPU s per run (user + sys over the crawl's threads) and wall s of the whole crawl:\n")
    print("| strategy | runs | CPU s | wall s |")
    print("|---|---:|---|---|")
    for s in j['strategies']:
        wall = s.get('totals', {}).get('wall_s')
        wall_text = f"{wall['mean']:.0f} ± {wall['sd']:.0f}" if wall and wall.get('runs') else '–'
        v = cpu.get(s['strategy'], [])
        print(f"| {s['strategy']} | {len(v)} | {ms(v)} | {wall_text} |")

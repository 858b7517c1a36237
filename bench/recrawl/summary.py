#!/usr/bin/env python3
"""Mean ± sd over evolution seeds of bench/recrawl/policy_rounds.sh runs (issue 11).

Usage: bench/recrawl/summary.py [--full-from PATTERN] RUN_DIR...
  Each RUN_DIR is a recrawl_bench.sh OUT directory holding POLICY.json
  (eval --json). "fetches, % of full's" divides by full.json of the same run
  dir, or of the dir named by --full-from with {seed} replaced (runs that
  recrawled only some policies from a shared round 0, e.g. budget sweeps:
  --full-from '/work/runs/incr/dev-s{seed}'); the seed is the trailing
  -sN of RUN_DIR. With --oracle-share, also prints each policy's changed-page
  detection as a share of the oracle's in the same run dir (or --full-from dir).
Prints one markdown table: policy, round, fetches % of full, new found %,
changed detected %, freshness %.
"""
import json, os, re, statistics, sys

def load(path):
    with open(path) as f:
        return {r['round']: r for r in json.load(f)['rounds']}

def pct(a, b):
    return 100.0 * a / b if b else float('nan')

def fmt(values):
    if not values:
        return '-'
    m = statistics.mean(values)
    s = statistics.stdev(values) if len(values) > 1 else 0.0
    return '%.1f ± %.1f' % (m, s)

def main(argv):
    full_from = None
    oracle_share = False
    runs = []
    i = 0
    while i < len(argv):
        if argv[i] == '--full-from':
            full_from = argv[i + 1]; i += 2; continue
        if argv[i] == '--oracle-share':
            oracle_share = True; i += 1; continue
        runs.append(argv[i]); i += 1
    if not runs:
        print(__doc__, file=sys.stderr); return 2
    rows = {}  # (policy, round) -> lists
    order = []
    for run in runs:
        m = re.search(r'-s(\d+)/?$', run)
        ref = full_from.replace('{seed}', m.group(1)) if full_from and m else run
        full = load(os.path.join(ref, 'full.json'))
        oracle_path = os.path.join(run, 'oracle.json')
        if not os.path.exists(oracle_path):
            oracle_path = os.path.join(ref, 'oracle.json')
        oracle = load(oracle_path) if oracle_share and os.path.exists(oracle_path) else None
        for name in sorted(os.listdir(run)):
            if not name.endswith('.json'):
                continue
            policy = name[:-5]
            if policy not in order:
                order.append(policy)
            for k, r in load(os.path.join(run, name)).items():
                if k == 0:
                    continue
                d = rows.setdefault((policy, k), {'f': [], 'n': [], 'c': [], 'fr': [], 'o': []})
                d['f'].append(pct(r['fetches'], full[k]['fetches']))
                d['n'].append(pct(r['new_found'], r['new_total']))
                d['c'].append(pct(r['changed_found'], r['changed_total']))
                d['fr'].append(100.0 * r['freshness'])
                if oracle:
                    d['o'].append(pct(r['changed_found'], oracle[k]['changed_found']))
    rank = {'full': 0, 'nutch': 1, 'adaptive': 2, 'oracle': 9}
    order.sort(key=lambda p: rank.get(p, 5))
    head = '| policy | round | fetches, % of full\'s | new pages found | changed pages detected |'
    head += ' changed, % of oracle\'s |' if oracle_share else ''
    head += ' freshness |'
    print('(%d runs: %s; mean ± sd, %% per round)\n' % (len(runs), ', '.join(runs)))
    print(head)
    print('|---|---|---:|---:|---:|' + ('---:|' if oracle_share else '') + '---:|')
    for p in order:
        for k in sorted(kk for (pp, kk) in rows if pp == p):
            d = rows[(p, k)]
            line = '| %s | %d | %s | %s | %s |' % (p, k, fmt(d['f']), fmt(d['n']), fmt(d['c']))
            if oracle_share:
                line += ' %s |' % fmt(d['o'])
            line += ' %s |' % fmt(d['fr'])
            print(line)
    return 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

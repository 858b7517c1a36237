#!/usr/bin/env python3
"""Issue 34's acceptance table from bench/signals/signals_rounds.sh runs.

Usage: bench/signals/acceptance.py RUNS WEB SEED...
  Reads RUNS/WEB-sN/{full,adaptive,signals}.json and
  RUNS/WEB-{nosm,accurate}-sN/signals.json (eval --json). Prints one markdown
  table: per policy (signals with default realism, with no host announcing,
  with every host announcing true lastmods) and round 1..3, mean ± sd over
  the seeds of fetches as % of full's fetches in the same round (full of the
  same seed), new pages found and changed pages detected; then, per round,
  the number of seeds where signals (default realism) met the goal
  (>= 95 % new found, >= 90 % changed detected, <= 40 % of full's fetches).
"""
import json, os, statistics, sys

GOAL_NEW, GOAL_CHANGED, GOAL_FETCHES = 95.0, 90.0, 40.0


def load(path):
    with open(path) as f:
        return {r['round']: r for r in json.load(f)['rounds']}


def pct(a, b):
    return 100.0 * a / b if b else float('nan')


def fmt(values):
    if not values:
        return '-'
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return '%.1f ± %.1f' % (statistics.mean(values), sd)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    runs, web, seeds = argv[0], argv[1], argv[2:]
    variants = [('full', '', 'full'), ('adaptive', '', 'adaptive 30 %'),
                ('signals', '', 'signals 30 %'), ('signals', '-nosm', 'signals, no host announces'),
                ('signals', '-accurate', 'signals, every host accurate')]
    rows = {}
    met = {k: 0 for k in (1, 2, 3)}
    used = []
    for seed in seeds:
        base = os.path.join(runs, '%s-s%s' % (web, seed))
        if not os.path.exists(os.path.join(base, 'full.json')):
            continue
        used.append(seed)
        full = load(os.path.join(base, 'full.json'))
        for policy, variant, label in variants:
            path = os.path.join(runs, '%s%s-s%s' % (web, variant, seed), policy + '.json')
            if not os.path.exists(path):
                continue
            for k, r in load(path).items():
                if k == 0:
                    continue
                d = rows.setdefault((label, k), ([], [], []))
                f = pct(r['fetches'], full[k]['fetches'])
                n = pct(r['new_found'], r['new_total'])
                c = pct(r['changed_found'], r['changed_total'])
                for lst, v in zip(d, (f, n, c)):
                    lst.append(v)
                if label == 'signals 30 %' and k in met:
                    met[k] += n >= GOAL_NEW and c >= GOAL_CHANGED and f <= GOAL_FETCHES
    print('(%s web, evolution seeds %s; mean ± sd, %% per round 1 / 2 / 3)\n'
          % (web, ' '.join(used)))
    print("| policy | fetches, % of full's | new pages found | changed pages detected |")
    print('|---|---|---|---|')
    for _, _, label in variants:
        ks = sorted(k for (l, k) in rows if l == label)
        if not ks:
            continue
        cols = [' / '.join(fmt(rows[(label, k)][i]) for k in ks) for i in range(3)]
        print('| %s | %s | %s | %s |' % (label, cols[0], cols[1], cols[2]))
    print('\nseeds where signals 30 %% met the goal (>= %.0f %% new, >= %.0f %% changed, '
          '<= %.0f %% of full\'s fetches), rounds 1 / 2 / 3: %s of %d'
          % (GOAL_NEW, GOAL_CHANGED, GOAL_FETCHES, ' / '.join(str(met[k]) for k in (1, 2, 3)),
             len(used)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

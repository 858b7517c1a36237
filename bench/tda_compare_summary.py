#!/usr/bin/env python3
# Summary of bench/tda_compare.sh (issue 14, docs/tda.md "TDA vs static
# ontology vs Shark-search"): per crawler, mean ± sd over the seeds of
#   * new relevant pages found per round (eval --truth-dir --scope-hosts),
#   * after the last round: pages stored (dp), relevant pages among them
#     by the labels, precision = relevant / dp, recall = relevant / the
#     relevant pages of the 10 hosts that exist by the last round (round 0's
#     plus every round's new ones), and fetches over rounds 1-6.
#
# Usage: bench/tda_compare_summary.py s1 s2 ...
# Env:   OUT (default /work/runs/tda/compare)
import json, os, statistics as st, sys

OUT = os.environ.get('OUT', '/work/runs/tda/compare')
ARMS = ['tda', 'onto', 'shark']
NAMES = {'tda': 'TDA (tda + topichub)', 'onto': 'static ontology (StaticSim + static seeds)',
         'shark': 'Shark-search (+ static seeds)'}


def ms(v, f='.1f'):
    if not v:
        return '-'
    return f"{st.mean(v):{f}} ± {st.stdev(v):{f}}" if len(v) > 1 else f"{v[0]:{f}}"


def main(seeds):
    ev, hv = {}, {}
    for s in seeds:
        for a in ARMS:
            try:
                ev[(s, a)] = json.load(open(f'{OUT}/{s}/{a}.eval.json'))['rounds']
                hv[(s, a)] = json.load(open(f'{OUT}/{s}/{a}.harvest.json'))
            except (OSError, ValueError, KeyError) as e:
                print(f"skipping {s} {a}: {e}", file=sys.stderr)
    done = [s for s in seeds if all((s, a) in ev and len(ev[(s, a)]) == 7 for a in ARMS)]
    print(f"seeds with all 7 rounds in every arm: {' '.join(done)}")
    print("\nnew relevant pages found per round (mean ± sd)\n")
    print('| round | ' + ' | '.join(ARMS) + ' | in scope |')
    print('|---|' + '---:|' * (len(ARMS) + 1))
    for k in range(7):
        row = [ms([ev[(s, a)][k]['new_relevant_found'] for s in done]) for a in ARMS]
        tot = ms([ev[(s, ARMS[0])][k]['new_relevant_total'] for s in done])
        print(f"| {k} | " + ' | '.join(row) + f" | {tot} |")
    row = [ms([sum(r['new_relevant_found'] for r in ev[(s, a)][1:]) for s in done]) for a in ARMS]
    print('| 1-6 sum | ' + ' | '.join(row) + ' | |')
    print("\nafter round 6 (mean ± sd)\n")
    print('| crawler | pages stored | relevant (labels) | precision | recall | fetches rounds 1-6 |')
    print('|---|---:|---:|---:|---:|---:|')
    for a in ARMS:
        dp, rel, prec, rec, fet = [], [], [], [], []
        for s in done:
            h = hv[(s, a)]
            total = sum(r['new_relevant_total'] for r in ev[(s, a)])
            dp.append(h['dp'])
            rel.append(h['checkpoints'][-1]['relevant_found'] if h.get('checkpoints') else 0)
            prec.append(rel[-1] / dp[-1] if dp[-1] else 0)
            rec.append(rel[-1] / total if total else 0)
            fet.append(sum(r['fetches'] for r in ev[(s, a)][1:]))
        print(f"| {NAMES[a]} | {ms(dp, '.0f')} | {ms(rel, '.1f')} | {ms(prec, '.3f')} | "
              f"{ms(rec, '.3f')} | {ms(fet, '.0f')} |")


if __name__ == '__main__':
    main(sys.argv[1:])

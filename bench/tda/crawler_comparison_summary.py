#!/usr/bin/env python3
# Summary of bench/tda/crawler_comparison.sh (issue 14, docs/notebook/tda.md "TDA vs static
# ontology vs Shark-search"): per crawler, mean ± sd over the seeds of
#   * new relevant pages found per round (eval --truth-dir --scope-hosts),
#   * after the last round: pages stored (dp), relevant pages among them
#     by the labels, precision = relevant / dp, recall = relevant / the
#     relevant pages of the 10 hosts that exist by the last round (round 0's
#     plus every round's new ones), and fetches over rounds 1-6.
#
# Usage: bench/tda/crawler_comparison_summary.py s1 s2 ...   (seeds whose three arms have
#        eval files; the tables use the rounds all of them have)
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
    # Rounds every arm of every seed has (a run stopped early is evaluated
    # on the rounds it finished: `eval` reads the crawl directory).
    done = [s for s in seeds if all((s, a) in ev for a in ARMS)]
    n = min(len(ev[(s, a)]) for s in done for a in ARMS) if done else 0
    print(f"seeds: {' '.join(done)}; rounds 0-{n - 1} in every arm")
    print("\nnew relevant pages found per round (mean ± sd)\n")
    print('| round | ' + ' | '.join(ARMS) + ' | in scope |')
    print('|---|' + '---:|' * (len(ARMS) + 1))
    for k in range(n):
        row = [ms([ev[(s, a)][k]['new_relevant_found'] for s in done]) for a in ARMS]
        tot = ms([ev[(s, ARMS[0])][k]['new_relevant_total'] for s in done])
        print(f"| {k} | " + ' | '.join(row) + f" | {tot} |")
    row = [ms([sum(r['new_relevant_found'] for r in ev[(s, a)][1:n]) for s in done]) for a in ARMS]
    print(f'| 1-{n - 1} sum | ' + ' | '.join(row) + ' | |')
    print(f"\nafter round {n - 1} (mean ± sd)\n")
    print(f'| crawler | pages stored | relevant (labels) | precision | recall | fetches rounds 1-{n - 1} |')
    print('|---|---:|---:|---:|---:|---:|')
    for a in ARMS:
        dp, rel, prec, rec, fet = [], [], [], [], []
        for s in done:
            h = hv[(s, a)]
            total = sum(r['new_relevant_total'] for r in ev[(s, a)][:n])
            dp.append(h['dp'])
            rel.append(h['checkpoints'][-1]['relevant_found'] if h.get('checkpoints') else 0)
            prec.append(rel[-1] / dp[-1] if dp[-1] else 0)
            rec.append(rel[-1] / total if total else 0)
            fet.append(sum(r['fetches'] for r in ev[(s, a)][1:n]))
        print(f"| {NAMES[a]} | {ms(dp, '.0f')} | {ms(rel, '.1f')} | {ms(prec, '.3f')} | "
              f"{ms(rec, '.3f')} | {ms(fet, '.0f')} |")


if __name__ == '__main__':
    main(sys.argv[1:])

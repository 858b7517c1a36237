#!/usr/bin/env python3
"""F1 per method and seed from `topicrawl tda judge`'s OUT/scores-SEED.tsv (issue 14,
docs/notebook/tda.md "Session 2026-11-26 (fifth)").

  bench/tda/judge_f1_summary.py OUT SEEDS METHODS [--labels L.tsv]

Threshold: the judge's rule (best F1 on the training pages, cut at the lowest
accepted score) and, as a robustness check applied to every method alike, the
same rule on the F1 curve smoothed over +-10 neighbouring cuts. With --labels
(the zh labels), also F1 on the test pages without the zh-CN / zh-TW twin pairs
whose labels differ (a diagnostic: the labels are not changed).
Prints one Markdown row per method."""
import csv, statistics as st, sys


def load(path):
    return list(csv.DictReader(open(path), delimiter='\t'))


def cuts(scores, labels):
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    pos = sum(labels); tp = fp = 0; out = []
    for k, i in enumerate(order):
        tp += labels[i]; fp += not labels[i]
        if k + 1 < len(order) and scores[order[k + 1]] == scores[i]:
            continue
        p = tp / (tp + fp); r = tp / pos if pos else 0
        out.append((2 * p * r / (p + r) if p + r else 0, scores[i]))
    return out


def best_t(scores, labels, window=0):
    c = cuts(scores, labels); best = -1; bt = 1
    for j in range(len(c)):
        lo, hi = max(0, j - window), min(len(c), j + window + 1)
        f = sum(x[0] for x in c[lo:hi]) / (hi - lo)
        if f > best:
            best, bt = f, c[j][1]
    return bt


def measure(scores, labels, t):
    tp = sum(s >= t and l for s, l in zip(scores, labels))
    fp = sum(s >= t and not l for s, l in zip(scores, labels))
    fn = sum(s < t and l for s, l in zip(scores, labels))
    p = tp / (tp + fp) if tp + fp else 0; r = tp / (tp + fn) if tp + fn else 0
    return p, r, (2 * p * r / (p + r) if p + r else 0)


def twin(u):
    for a in ('/zh-CN/', '/zh-TW/'):
        if a in u:
            return u.replace(a, '/zh-XX/')
    return u


def main():
    out, seeds, methods = sys.argv[1], sys.argv[2].split(','), sys.argv[3].split(',')
    incons = set()
    if '--labels' in sys.argv:
        pairs = {}
        for r in load(sys.argv[sys.argv.index('--labels') + 1]):
            if twin(r['url']) != r['url']:
                pairs.setdefault(twin(r['url']), set()).add(r['relevant'])
        incons = {k for k, v in pairs.items() if len(v) == 2}
        print(f'twin pairs with different labels: {len(incons)}')
    sd = lambda v: st.stdev(v) if len(v) > 1 else 0
    print('| method | F1 per seed | F1 mean ± sd | P / R (mean) | smoothed threshold: F1 mean ± sd |'
          + (' without the differing twins: F1 mean ± sd |' if incons else ''))
    for m in methods:
        f, f2, fs, pr = [], [], [], []
        for s in seeds:
            rows = load(f'{out}/scores-{s}.tsv')
            lab = [x['label'] == '1' for x in rows]; sc = [float(x[m]) for x in rows]
            tr = [i for i, x in enumerate(rows) if x['train'] == '1']
            te = [i for i, x in enumerate(rows) if x['train'] == '0']
            te2 = [i for i in te if twin(rows[i]['url']) not in incons]
            t = best_t([sc[i] for i in tr], [lab[i] for i in tr])
            p, r, x = measure([sc[i] for i in te], [lab[i] for i in te], t)
            f.append(x); pr.append((p, r))
            f2.append(measure([sc[i] for i in te2], [lab[i] for i in te2], t)[2])
            ts = best_t([sc[i] for i in tr], [lab[i] for i in tr], window=10)
            fs.append(measure([sc[i] for i in te], [lab[i] for i in te], ts)[2])
        row = (f"| {m} | {' / '.join('%.3f' % x for x in f)} | {st.mean(f):.3f} ± {sd(f):.3f} | "
               f"{st.mean(p for p, r in pr):.3f} / {st.mean(r for p, r in pr):.3f} | "
               f"{st.mean(fs):.3f} ± {sd(fs):.3f} |")
        if incons:
            row += f" {st.mean(f2):.3f} ± {sd(f2):.3f} |"
        print(row)


if __name__ == '__main__':
    main()

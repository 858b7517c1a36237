#!/usr/bin/env python3
# Summary of bench/tda/round_new_relevant.sh (issue 14, docs/strategies/tda.md "Rounds"): per
# policy and round, mean ± sd over the seeds of new relevant pages found,
# new pages found and fetches (from each run's `eval --truth-dir --json`).
# --why: per host, the new relevant pages of rounds 2-6 against each
# policy's fetches there, and the share of the rounds' hubs (pages that
# gained links to new pages) each policy fetched in the round.
#
# Usage: [LAST=K] bench/tda/round_new_relevant_summary.py [--why] s1 s2 ...
# Env:   ARMS (default "topichub static", as bench/tda/round_new_relevant.sh),
#        OUT (default /work/runs/tda/rounds), EVO (default
#        /work/webs/tda-dev-evo), SHARED (default ../shared)
import collections, json, os, sqlite3, statistics as st, sys

OUT = os.environ.get('OUT', '/work/runs/tda/rounds')
EVO = os.environ.get('EVO', '/work/webs/tda-dev-evo')
SHARED = os.environ.get('SHARED', os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared'))
ARMS = ['bf-' + a for a in os.environ.get('ARMS', 'topichub static').split()]
HOSTS = set("www.erlang.org doc.qt.io httpd.apache.org docs.python.org docs.djangoproject.com "
            "git-scm.com www.postgresql.org nodejs.org www.sqlite.org cmake.org".split())


def ms(v):
    if not v:
        return '-'
    return f"{st.mean(v):.1f} ± {st.stdev(v):.1f}" if len(v) > 1 else f"{v[0]:.1f}"


def summary(seeds):
    data = {}
    for s in seeds:
        for a in ARMS:
            data[(s, a)] = json.load(open(f'{OUT}/{s}/{a}.eval.json'))['rounds']
    # LAST (env): the last round to count (default 6); with runs cut short,
    # the sums cover rounds 2..LAST and every seed must have reached it.
    last = int(os.environ.get('LAST', '6'))
    for (s, a), rounds in data.items():
        if len(rounds) <= last:
            sys.exit(f"{s} {a}: only rounds 0-{len(rounds) - 1} (LAST={last})")
    print(f"seeds: {' '.join(seeds)}")
    for key, title in [('new_relevant_found', 'new relevant pages found'),
                       ('new_found', 'new pages found'), ('fetches', 'fetches')]:
        print(f"\n{title} per round (mean ± sd over {len(seeds)} seeds)\n")
        print('| round | ' + ' | '.join(ARMS) + ' |' + (' in scope |' if key == 'new_relevant_found' else ''))
        print('|---|' + '---:|' * (len(ARMS) + (key == 'new_relevant_found')))
        for k in range(0, last + 1):
            row = [ms([data[(s, a)][k][key] for s in seeds if len(data[(s, a)]) > k]) for a in ARMS]
            tot = [data[(s, ARMS[0])][k]['new_relevant_total'] for s in seeds if len(data[(s, ARMS[0])]) > k]
            print(f"| {k} | " + ' | '.join(row) + ' |' + (f" {ms(tot)} |" if key == 'new_relevant_found' else ''))
        row = [ms([sum(r[key] for r in data[(s, a)][2:last + 1]) for s in seeds]) for a in ARMS]
        print(f'| 2-{last} sum | ' + ' | '.join(row) + ' |' + (' |' if key == 'new_relevant_found' else ''))


def why(seeds):
    labels = {}
    for line in open(f'{SHARED}/corpus/labels/dev-networking.tsv'):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 2 and f[1] in ('0', '1'):
            labels[f[0].split('://', 1)[-1]] = f[1] == '1'
    host = lambda u: u.split('://', 1)[-1].split('/', 1)[0]
    key = lambda u: u.split('://', 1)[-1].split('#')[0]
    relevant = collections.Counter()
    fetches = {a: collections.Counter() for a in ARMS}
    hubs_fetched = {a: [0, 0] for a in ARMS}
    per_round = collections.defaultdict(lambda: [0, 0, 0])  # (k, arm) -> hubs fetched, hubs, new relevant found
    last = int(os.environ.get('LAST', '6'))
    for s in seeds:
        for k in range(2, last + 1):
            for line in open(f'{EVO}/{s}/truth/round-{k}.tsv'):
                u, state = line.rstrip('\n').split('\t')[:2]
                if state == 'new' and host(u) in HOSTS and labels.get(key(u)):
                    relevant[host(u)] += 1
            hubs = {key(l.split('\t')[0]) for l in list(open(f'{EVO}/{s}/truth/hubs-{k}.tsv'))[1:]
                    if host(l.split('\t')[0]) in HOSTS}
            for a in ARMS:
                db = sqlite3.connect(f'{OUT}/{s}/{a}/crawl.db')
                got = set()
                for (u,) in db.execute('SELECT fr.url FROM fetches f JOIN frontier fr '
                                       'ON fr.url_id = f.url_id WHERE f.round = ?', (k,)):
                    fetches[a][host(u)] += 1
                    got.add(key(u))
                hubs_fetched[a][0] += len(hubs & got)
                hubs_fetched[a][1] += len(hubs)
                pr = per_round[(k, a)]
                pr[0] += len(hubs & got)
                pr[1] += len(hubs)
                pr[2] += json.load(open(f'{OUT}/{s}/{a}.eval.json'))['rounds'][k]['new_relevant_found']
    print(f'| host | new relevant pages, rounds 2-{last} | ' + ' | '.join(f'{a} fetches' for a in ARMS) + ' |')
    print('|---|---:|' + '---:|' * len(ARMS))
    for h in sorted(HOSTS, key=lambda h: -relevant[h]):
        print(f'| {h} | {relevant[h]} | ' + ' | '.join(str(fetches[a][h]) for a in ARMS) + ' |')
    print()
    for a in ARMS:
        f, n = hubs_fetched[a]
        print(f'{a}: fetched {f} of {n} hubs of rounds 2-{last} ({100 * f / max(1, n):.1f} %)  ')
    print(f'\nper round, the {len(seeds)} seeds added up: new relevant pages found / hubs of new pages fetched (share)\n')
    print('| round | ' + ' | '.join(ARMS) + ' |')
    print('|---|' + '---:|' * len(ARMS))
    for k in range(2, last + 1):
        cells = []
        for a in ARMS:
            f, n, nr = per_round[(k, a)]
            cells.append(f'{nr} / {f} of {n} ({100 * f / max(1, n):.1f} %)')
        print(f'| {k} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    args = [x for x in sys.argv[1:] if x != '--why']
    (why if '--why' in sys.argv else summary)(args)

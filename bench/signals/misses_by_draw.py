#!/usr/bin/env python3
"""Where the signals policy's misses are: per run of bench/signals/signals_rounds.sh
(default realism), the new and changed pages of each round split by the
announcement draw of their host (E/truth/announce-hosts.tsv: hosts that
announce accurate lastmods vs the others: no sitemap, build date, stale,
no lastmod), counted as fetched in that round by the signals run, and the
round's fetches of URLs first fetched then that are not new in the round
("backlog": pages that existed before, e.g. listed by a sitemap but never
reached in round 0, or a new page's broken links).

Usage: bench/signals/misses_by_draw.py RUNS WEB SEED...
Needs RUNS/WEB-sN/signals/crawl.db (sqlite3) and RUNS/WEB-evo-sN/truth/.
"""
import collections, sqlite3, sys


def key(url):
    return url.split('://', 1)[1]


def draws(evo):
    out = {}
    for line in open(evo + '/truth/announce-hosts.tsv').read().split('\n')[1:]:
        if line:
            host, sitemap, habit = line.split('\t')
            out[host] = 'no-sitemap' if sitemap == '0' else (
                'no-lastmod' if habit == 'none' else habit)
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    runs, web, seeds = argv[0], argv[1], argv[2:]
    for seed in seeds:
        evo = '%s/%s-evo-s%s' % (runs, web, seed)
        db = sqlite3.connect('%s/%s-s%s/signals/crawl.db' % (runs, web, seed))
        urls = {uid: key(u) for uid, u in db.execute('SELECT url_id, url FROM frontier')}
        fetched, first = collections.defaultdict(set), {}
        for uid, r in db.execute('SELECT url_id, round FROM fetches ORDER BY round'):
            if uid in urls:
                fetched[r].add(urls[uid])
                first.setdefault(urls[uid], r)
        habit = draws(evo)
        print('%s seed %s: %s' % (web, seed, ' '.join('%s=%s' % hv for hv in sorted(habit.items()))))
        for r in (1, 2, 3):
            c, new = collections.Counter(), set()
            for line in open('%s/truth/round-%d.tsv' % (evo, r)).read().split('\n')[1:]:
                if not line:
                    continue
                u, state = line.split('\t')
                k = key(u)
                if state == 'new':
                    new.add(k)
                if state not in ('new', 'changed'):
                    continue
                cls = 'acc' if habit.get(k.split('/')[0]) == 'accurate' else 'other'
                c[(cls, state, 'all')] += 1
                c[(cls, state, 'got')] += k in fetched[r]
            backlog = sum(1 for k in fetched[r] if first.get(k) == r and k not in new)
            cell = lambda cls, st: '%d/%d' % (c[(cls, st, 'got')], c[(cls, st, 'all')])
            print('  round %d: fetches %d (backlog %d); accurate hosts: new %s changed %s; '
                  'other hosts: new %s changed %s' % (r, len(fetched[r]), backlog,
                  cell('acc', 'new'), cell('acc', 'changed'), cell('other', 'new'),
                  cell('other', 'changed')))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

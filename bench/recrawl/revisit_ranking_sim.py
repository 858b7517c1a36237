#!/usr/bin/env python3
"""Offline round simulator for revisit rankings (issue 11; analysis, not the
measurement -- the figures of docs/guides/rounds.md are real recrawls).

Replays the truth of a simulated evolution (`web evolve`: E/truth/round-K.tsv,
hubs-K.tsv, rates.tsv) over the round-0 store of a real crawl of it, for a
revisit ranking: each round the ranking sees the history the crawl would
have (revisits, changes, new URLs found by a revisit, depth, outlinks, URLs
admitted by the first fetch, relevance), keeps the budget's best pages (the
home pages are revisited on top, as seeds), and the truth says which of them
changed. New pages join the history in the round they appear. The shipped
`adaptive` and the oracle are re-implemented here; against real recrawls of
the same stores they agree within ~2 points per round
(docs/guides/rounds.md), which makes this a quick way to compare rankings.

Usage:
  bench/recrawl/revisit_ranking_sim.py --runs 'R/dev-s{seed}/round0' --evo '/work/webs/incr2-dev-s{seed}' \
      --seeds 1,2,3,4,5 [--budget 0.3] [--hosts h1,h2,...] [--homes H.tsv] [--variants 'a;b;...']
  (--runs: recrawl_bench.sh OUT dirs' round0; --hosts: count the truth of
  these hosts only, as eval --scope-hosts; --homes SEEDS.tsv: also the
  BFS-parent feature; --classes 'C-{seed}.tsv': the evolution's true page
  classes from build/bench/recrawl_classes E, for the Bayes bound)
Prints changed pages detected per round 1..--rounds (mean ± sd over the seeds).
"""
import argparse, collections, copy, csv, math, re, sqlite3, statistics, sys
from urllib.parse import urlsplit


def canon(u):
    """The label form of the corpus (eval/labels.h), enough for these webs."""
    u = re.sub('^https://', 'http://', u)
    s = urlsplit(u)
    p = s.path or '/'
    if p.endswith('/'):
        p += 'index.html'
    return 'http://%s%s' % (s.hostname, p)


def read_tsv(path):
    with open(path) as f:
        return [r for r in csv.reader(f, delimiter='\t') if r and r[0] != 'url']


def bfs_parents(con, known, homes):
    """Pages with BFS children in a breadth-first walk of the stored link
    graph (links in document order) from the home pages: index/list pages,
    observable by any crawler from its own graph."""
    url_of = {pid: canon(u) for pid, u in con.execute("SELECT id, url FROM pages WHERE http_code = 200")}
    links = collections.defaultdict(list)
    for fid, to in con.execute("SELECT from_id, to_url FROM links ORDER BY from_id, ord"):
        if fid in url_of:
            links[url_of[fid]].append(canon(to))
    roots = [canon(c) for r in read_tsv(homes) for c in r if c.startswith('http')]
    order = [r for r in roots if r in known]
    seen, children, i = set(order), collections.Counter(), 0
    while i < len(order):
        u = order[i]; i += 1
        for t in links.get(u, []):
            if t in known and t not in seen:
                seen.add(t); order.append(t); children[u] += 1
    return children


def load(store, evo, rounds=4, homes=None, classes=None):
    con = sqlite3.connect(store + '/crawl.db')
    pages = {}
    for url, depth, nl, ol, rel in con.execute(
            "SELECT f.url, f.depth, x.new_links, x.out_links, p.relevance FROM frontier f "
            "JOIN fetches x ON x.url_id = f.url_id AND x.round = 0 JOIN pages p ON p.id = x.page_id "
            "WHERE x.page_id != 0"):
        c = canon(url)
        if c not in pages:
            pages[c] = new_page(c, depth, nl, ol, rel or 0.0, 0)
    if homes:
        children = bfs_parents(con, set(pages), homes)
        for u, p in pages.items():
            p['bfs'] = children[u] > 0
    truth = {k: dict(read_tsv('%s/truth/round-%d.tsv' % (evo, k))) for k in range(1, rounds + 1)}
    hubs = {k: {u: int(n) for u, n in read_tsv('%s/truth/hubs-%d.tsv' % (evo, k))}
            for k in range(1, rounds + 1)}
    rates = {r[0]: float(r[1]) for r in read_tsv(evo + '/truth/rates.tsv')}
    meta = {}
    with open(evo + '/evolve.tsv') as f:
        for row in csv.reader(f, delimiter='\t'):
            if len(row) == 2:
                meta[row[0]] = row[1]
    if classes:
        # The evolution's true class of each page (build/bench/recrawl_classes;
        # its rates are checked against E/truth/rates.tsv); pages it does not
        # list (not evolving) count as leaves.
        rows = read_tsv(classes)
        edit = {r[0]: float(r[2]) for r in read_tsv(evo + '/truth/rates.tsv')}
        bad = sum(1 for r in rows if r[0] in edit and abs(float(r[3]) - edit[r[0]]) > 1e-5 * max(1e-3, edit[r[0]]))
        missing = sum(1 for r in rows if r[0] not in edit)
        if bad or missing > len(rows) // 100:
            sys.exit('%s: %d edit rates differ from %s/truth/rates.tsv, %d of its %d URLs are not in it '
                     '(another evolution?)' % (classes, bad, evo, missing, len(rows)))
        cls = {r[0]: r[1] for r in rows}
        meta['_n_index'] = sum(1 for c in cls.values() if c == 'index')
        meta['_n_leaf'] = len(cls) - meta['_n_index']
        for u, p in pages.items():
            p['cls'] = cls.get(u, 'leaf')
    return pages, truth, hubs, rates, meta


def new_page(url, depth, nl, ol, rel, first):
    # A page found in round >= 1 was hidden at round 0: a BFS leaf of the
    # evolution (web/evolve_plan.h), so its true class is leaf.
    return dict(dir=url.rsplit('/', 1)[0], depth=depth, nl_first=nl, nl_last=nl, ol=ol, rel=rel,
                first=first, last=first, n=0, x=0, gone=False, hist=[], ever_hub=False, bfs=False,
                cls='leaf', full=[])


def simulate(data, rank, budget=0.3, rounds=4, scope=None):
    pages, truth, hubs, rates, _ = data
    pages = copy.deepcopy(pages)
    out = []
    new_last = 0
    for k in range(1, rounds + 1):
        live = [u for u, p in pages.items() if not p['gone']]
        ctx = dict(round=k, pages=pages, rates=rates, live=live, new_last=new_last)
        scores = rank(ctx)
        chosen = set(sorted(live, key=lambda u: -scores[u])[:int(budget * len(live) + 0.5)])
        chosen |= {u for u in live if pages[u]['depth'] == 0}  # seeds
        t = truth[k]
        in_scope = lambda u: scope is None or urlsplit(u).hostname in scope
        changed = [u for u, s in t.items() if s == 'changed' and in_scope(u)]
        out.append(sum(1 for u in changed if u in chosen) / max(1, len(changed)))
        for u in chosen:
            p = pages[u]
            s = t.get(u, 'unchanged')
            p['n'] += 1
            p['hist'].append((k - p['last'], s == 'changed'))
            p['last'] = k
            if s == 'gone':
                p['gone'] = True
                continue
            p['x'] += s == 'changed'
            p['nl_last'] = hubs[k].get(u, 0) if s == 'changed' else 0
            p['ever_hub'] = p['ever_hub'] or p['nl_last'] > 0
        # Every page's complete change record (as if fetched every round):
        # only the full-information bound reads it.
        for u in live:
            pages[u]['full'].append((1, t.get(u, 'unchanged') == 'changed'))
        new_last = 0
        for u, s in t.items():
            if s == 'new' and u not in pages and in_scope(u):
                pages[u] = new_page(u, 3, 0, 10, 0.0, k)
                new_last += 1
    return out


# ---- rankings ----
def cgm(n, x):
    """Cho & Garcia-Molina's estimator, as crawl/rounds/adaptive_policy.cc."""
    return -math.log((n - x + 0.5) / (n + 0.5))


def oracle(ctx):
    k = ctx['round']
    return {u: 1 - (1 - ctx['rates'].get(u, 0.0)) ** max(1, k - ctx['pages'][u]['last'])
            for u in ctx['live']}


def adaptive(ctx, group=lambda p: (min(p['depth'], 7), p['nl_last'] > 0), relw=1.0, r1=None):
    """The shipped adaptive (adaptive_policy.cc) with a pluggable prior group,
    relevance weight and round-1 prior."""
    k, pages = ctx['round'], ctx['pages']
    pools = collections.defaultdict(lambda: [0.0, 0.0, 0.0])
    allp = [0.0, 0.0, 0.0]
    for u in ctx['live']:
        p = pages[u]
        if p['n'] == 0:
            continue
        span = max(1, p['last'] - p['first'])
        for pool in (pools[group(p)], allp):
            pool[0] += p['n']; pool[1] += min(p['n'], p['x']); pool[2] += span
    rate = lambda pl: cgm(pl[0], pl[1]) / (pl[2] / pl[0]) if pl[0] > 0 and pl[2] > 0 else 0
    learned = allp[0] > 0
    pooled = rate(allp)
    prior = {g: (20 * pooled + pl[0] * rate(pl)) / (20 + pl[0]) for g, pl in pools.items()}
    rho = ctx['new_last'] / max(1, len(ctx['live'])) if k > 1 else 0.01
    scores = {}
    for u in ctx['live']:
        p = pages[u]
        if learned:
            lam = prior.get(group(p), pooled)
        else:
            lam = 0.3 + rho * p['ol'] if r1 is None else r1(p, rho)
        if p['n'] > 0:
            span = max(1, p['last'] - p['first'])
            lam = (lam + p['n'] * cgm(p['n'], min(p['n'], p['x'])) / (span / p['n'])) / (1 + p['n'])
        w = 1 + relw * p['rel']
        if p['nl_last'] > 0 and p['n'] > 0:
            w *= 2
        v = (1 - math.exp(-lam * max(1, k - p['last']))) * w
        if not learned and p['n'] == 0 and p['nl_last'] > 0:
            v *= 2
        scores[u] = v
    return scores


RNG = __import__('random').Random(1)

GRID = [0.0005, 0.002, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5,
        0.65, 0.8, 0.9, 0.97, 0.995]


def lik(hist, q):
    l = 1.0
    for e, ch in hist:
        stay = (1 - q) ** e
        l *= (1 - stay) if ch else stay
    return l


def em_prior(hists, init, iters=30):
    """NPMLE of the distribution of q on GRID from revisit histories (EM)."""
    w = list(init)
    L = [[lik(h, q) for q in GRID] for h in hists if h]
    for _ in range(iters if L else 0):
        acc = [0.0] * len(GRID)
        for row in L:
            z = sum(a * b for a, b in zip(w, row))
            for i in range(len(GRID)):
                acc[i] += w[i] * row[i] / z if z > 0 else 0
        tot = sum(acc)
        w = [(a + 1e-3) / (tot + 1e-3 * len(GRID)) for a in acc]
    return w


def bayes(ctx, prior=None, group=None, thompson=False):
    """Posterior P(changed since the last fetch) under a discrete prior over
    q: given (`prior`), or learned by EM from all histories, per group."""
    k, pages, live = ctx['round'], ctx['pages'], ctx['live']
    hists = [pages[u]['hist'] for u in live]
    if prior is None and not any(hists):
        return adaptive(ctx)  # round 1: no evidence
    base = prior or em_prior(hists, [1.0 / len(GRID)] * len(GRID))
    by_group = collections.defaultdict(list)
    for u in live:
        by_group[group(pages[u]) if group else 0].append(u)
    scores = {}
    for g, us in by_group.items():
        w = base
        if group and prior is None:
            hs = [pages[u]['hist'] for u in us]
            if sum(1 for h in hs if h) >= 30:
                w = em_prior(hs, base)
        for u in us:
            p = pages[u]
            e = max(1, k - p['last'])
            post = [wi * lik(p['hist'], q) for wi, q in zip(w, GRID)]
            z = sum(post)
            if thompson and z:
                # Thompson sampling: rank by one draw of q from the posterior
                # (explores pages whose few revisits left their rate open).
                r, acc, q = RNG.random() * z, 0.0, GRID[-1]
                for pi, qq in zip(post, GRID):
                    acc += pi
                    if acc >= r:
                        q = qq
                        break
                scores[u] = 1 - (1 - q) ** e
                continue
            scores[u] = sum(pi * (1 - (1 - q) ** e) for pi, q in zip(post, GRID)) / z if z else 0
    return scores


def true_prior(data):
    pages, _, _, rates, _ = data
    w = [0.0] * len(GRID)
    for u in pages:
        q = rates.get(u, 0.0)
        w[min(range(len(GRID)), key=lambda j: abs(GRID[j] - q))] += 1
    return [x / sum(w) for x in w]


BFS_GROUP = lambda p: (min(p['depth'], 7), p['nl_last'] > 0, p['bfs'])


def olb(p):
    return min(3, int(math.log2(1 + p['ol'])) // 2)


# ---- the Bayes bound (what any history-based ranking can do) ----
def q_bins(qs, nbins=80):
    """A discrete distribution over q from the pages' true q: log-spaced bins
    (1e-7..1), each bin's atom at the mean q of its pages; q = 1 kept apart."""
    edges = [10 ** (-7 + 7 * j / nbins) for j in range(nbins + 1)]
    acc = collections.defaultdict(lambda: [0, 0.0])
    for q in qs:
        j = nbins if q >= 1 else max(0, min(nbins - 1, int((math.log10(max(q, 1e-7)) + 7) * nbins / 7)))
        acc[j][0] += 1
        acc[j][1] += q
    tot = sum(c for c, _ in acc.values())
    return [(c / tot, sq / c) for _, (c, sq) in sorted(acc.items())]


def gamma_q_prior(theta, shape=0.2, n=4000):
    """The news model's generative edit-rate law of a class:
    q = 1 - exp(-lambda), lambda ~ Gamma(shape, theta) (web/evolve_plan.cc),
    as a discrete distribution (n quantiles of lambda)."""
    rng = __import__('random').Random(7)
    return q_bins([1 - math.exp(-theta * rng.gammavariate(shape, 1.0)) for _ in range(n)])


def bayes_bound(ctx, priors, cls, full=False, since_fetch=False):
    """Bayes-optimal myopic ranking for the metric (a page counts when it
    changed in this round and is revisited): P(changed in round k | its
    class's prior over q, its history) = E[q | history], each round
    independent given q. History: the page's own revisits (rounds elapsed,
    changed since the previous fetch?), or with `full` its complete record of
    every round so far, as if it had been fetched in every round -- more than
    any policy can know at a budget < 100 %, so no history-based policy
    detects more in expectation. `since_fetch`: rank by P(changed since the
    last fetch) = E[1 - (1 - q)^e | history] instead, as the oracle and
    `adaptive` do."""
    k, pages = ctx['round'], ctx['pages']
    scores = {}
    for u in ctx['live']:
        p = pages[u]
        e = max(1, k - p['last']) if since_fetch else 1
        h = p['full'] if full else p['hist']
        num = den = 0.0
        for w, q in priors[cls(p)]:
            l = w * lik(h, q)
            den += l
            num += l * (1 - (1 - q) ** e)
        scores[u] = num / den if den > 0 else 0.0
    return scores


def class_priors(data, cls):
    """The true q distribution of each class among the round-0 pages."""
    pages, _, _, rates, _ = data
    by = collections.defaultdict(list)
    for u, p in pages.items():
        by[cls(p)].append(rates.get(u, 0.0))
    pri = {c: q_bins(qs) for c, qs in by.items()}
    allq = [q for qs in by.values() for q in qs]
    return collections.defaultdict(lambda: q_bins(allq), pri)


def gamma_priors(evo_meta, data):
    """The generative law per true class, with theta solved as web evolve
    does: E[1 - exp(-lambda)] = 1 - (1 + theta)^(-shape); index pages carry
    index_change_share of change_rate x reachable edits (class means capped
    at 0.95). Edits only: the link gains of hub pages are not in it."""
    shape = float(evo_meta['rate_shape'])
    share = float(evo_meta['index_change_share'])
    rate = float(evo_meta['change_rate'])
    pages = data[0]
    n_index = evo_meta['_n_index']
    n_leaf = evo_meta['_n_leaf']
    total = rate * (n_index + n_leaf)
    im = min(0.95, total * share / n_index)
    lm = max(0.0, min(0.95, (total - im * n_index) / n_leaf))
    theta = lambda m: (1 - m) ** (-1 / shape) - 1
    return {'index': gamma_q_prior(theta(im), shape), 'leaf': gamma_q_prior(theta(lm), shape)}



VARIANTS = {
    'oracle': lambda d: oracle,
    'adaptive': lambda d: adaptive,
    'adaptive, no relevance weight': lambda d: lambda c: adaptive(c, relw=0.0),
    'groups depth x first-fetch new URLs': lambda d: lambda c: adaptive(c, group=lambda p: (min(p['depth'], 7), p['nl_first'] > 0)),
    'groups depth x new URLs x outlinks': lambda d: lambda c: adaptive(c, group=lambda p: (min(p['depth'], 7), p['nl_last'] > 0, olb(p))),
    'groups depth x new URLs x ever hub': lambda d: lambda c: adaptive(c, group=lambda p: (min(p['depth'], 7), p['nl_last'] > 0, p['ever_hub'])),
    'groups URL directory': lambda d: lambda c: adaptive(c, group=lambda p: p['dir']),
    'groups depth x new URLs x BFS parent (needs --homes)': lambda d: lambda c: adaptive(c, group=lambda p: (min(p['depth'], 7), p['nl_last'] > 0, p['bfs'])),
    'groups depth x new URLs x BFS parent, round 1: BFS parents first (needs --homes)':
        lambda d: lambda c: adaptive(c, group=BFS_GROUP, r1=lambda p, rho: (0.3 if p['bfs'] else 0.03) + rho * p['ol']),
    'groups depth x new URLs x BFS parent, round 1: BFS parents, then outlinks (needs --homes)':
        lambda d: lambda c: adaptive(c, group=BFS_GROUP, r1=lambda p, rho: (3.0 if p['bfs'] else 0.0) + rho * p['ol']),
    'groups depth x new URLs x BFS parent, round 1: non-parents x0.3 (needs --homes)':
        lambda d: lambda c: adaptive(c, group=BFS_GROUP, r1=lambda p, rho: (0.3 if p['bfs'] else 0.09) + rho * p['ol']),
    'Bayes, q law learned by EM per BFS-parent class, round 1: BFS parents first (needs --homes)':
        lambda d: lambda c: (adaptive(c, group=BFS_GROUP, r1=lambda p, rho: (3.0 if p['bfs'] else 0.0) + rho * p['ol'])
                             if c['round'] == 1 else bayes(c, group=lambda p: p['bfs'])),
    'round 1 prior by depth': lambda d: lambda c: adaptive(c, r1=lambda p, rho: 0.3 / (1 + p['depth']) ** 2),
    'staleness first (unchanged pages by rounds since fetch)': lambda d: lambda c: staleness(c),
    'Bayes, q prior learned by EM, depth x first-fetch groups': lambda d: lambda c: bayes(c, group=lambda p: (min(p['depth'], 3), p['nl_first'] > 0)),
    'Thompson sampling, q prior learned by EM, depth x first-fetch groups': lambda d: lambda c: bayes(c, group=lambda p: (min(p['depth'], 3), p['nl_first'] > 0), thompson=True),
    'Bayes, TRUE q distribution as prior (no features)': lambda d: (lambda tp: lambda c: bayes(c, prior=tp))(true_prior(d)),
    'BOUND: Bayes, BFS-parent class, true q law per class, own history (needs --homes)':
        lambda d: (lambda pr: lambda c: bayes_bound(c, pr, lambda p: p['bfs']))(class_priors(d, lambda p: p['bfs'])),
    'BOUND: Bayes, TRUE class, true q law per class, own history (needs --classes)':
        lambda d: (lambda pr: lambda c: bayes_bound(c, pr, lambda p: p['cls']))(class_priors(d, lambda p: p['cls'])),
    'BOUND: Bayes, TRUE class, true q law per class, own history, P(changed since fetch) (needs --classes)':
        lambda d: (lambda pr: lambda c: bayes_bound(c, pr, lambda p: p['cls'], since_fetch=True))(
            class_priors(d, lambda p: p['cls'])),
    'BOUND: Bayes, TRUE class, generative gamma law (edits only), own history (needs --classes)':
        lambda d: (lambda pr: lambda c: bayes_bound(c, pr, lambda p: p['cls']))(gamma_priors(d[4], d)),
    'BOUND: Bayes, BFS-parent class, true q law per class, FULL record of every round (needs --homes)':
        lambda d: (lambda pr: lambda c: bayes_bound(c, pr, lambda p: p['bfs'], full=True))(
            class_priors(d, lambda p: p['bfs'])),
    'BOUND: Bayes, TRUE class, true q law per class, FULL record of every round (needs --classes)':
        lambda d: (lambda pr: lambda c: bayes_bound(c, pr, lambda p: p['cls'], full=True))(
            class_priors(d, lambda p: p['cls'])),
}


def staleness(ctx):
    base = adaptive(ctx)
    k, pages = ctx['round'], ctx['pages']
    return {u: (10 + base[u]) if pages[u]['x'] > 0 or k == 1 else (k - pages[u]['last']) + 10 * base[u]
            for u in ctx['live']}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--runs', required=True)
    ap.add_argument('--evo', required=True)
    ap.add_argument('--seeds', default='1')
    ap.add_argument('--budget', type=float, default=0.3)
    ap.add_argument('--hosts', default='')
    ap.add_argument('--variants', default='')
    ap.add_argument('--rounds', type=int, default=4)
    ap.add_argument('--homes', default='', help='home pages (seeds file): enables the BFS-parent feature')
    ap.add_argument('--classes', default='',
                    help="true page classes, 'C-{seed}.tsv' (build/bench/recrawl_classes E): enables the TRUE-class bound")
    a = ap.parse_args()
    scope = set(a.hosts.split(',')) if a.hosts else None
    names = [n for n in VARIANTS if (not a.variants or n in a.variants.split(';')) and (a.homes or 'BFS' not in n)
             and (a.classes or 'TRUE class' not in n)]
    res = {n: [] for n in names}
    for s in a.seeds.split(','):
        data = load(a.runs.replace('{seed}', s), a.evo.replace('{seed}', s), homes=a.homes or None, rounds=a.rounds,
                    classes=a.classes.replace('{seed}', s) or None)
        for n in names:
            res[n].append(simulate(data, VARIANTS[n](data), budget=a.budget, rounds=a.rounds, scope=scope))
    print('| ranking (simulated, budget %g %%, %d seeds) | %s |' % (
        100 * a.budget, len(res[names[0]]), ' | '.join('round %d' % k for k in range(1, a.rounds + 1))))
    print('|---|' + '---:|' * a.rounds)
    for n in names:
        cols = []
        for k in range(a.rounds):
            v = [100 * r[k] for r in res[n]]
            cols.append('%.1f ± %.1f' % (statistics.mean(v), statistics.stdev(v) if len(v) > 1 else 0.0))
        print('| %s | %s |' % (n, ' | '.join(cols)))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Statistics of a real JLSE link graph, to check bench/jlse_bench's model.

Reads a crawl's jlse_state.bin (format topicrawl-jlse-state-3, written by
`jlse` at Finish) and prints, for the LinkTable's link fields (anchor, URL,
context: the documents BM25 indexes) and for the queued links (the queries):
terms per field, vocabulary growth (Heaps: V ~ N^beta), the Zipf slope of the
document frequencies (log df vs log rank, ranks 10..1000) and the share of a
query's terms that occur in the index.
Usage: jlse_gw_stats.py CRAWL_DIR/jlse_state.bin
"""
import math
import sys


class Reader:
    def __init__(self, b):
        self.b, self.p = b, 0

    def u(self):
        v, s = 0, 0
        while True:
            c = self.b[self.p]
            self.p += 1
            v |= (c & 0x7F) << s
            if not c & 0x80:
                return v
            s += 7

    def s(self):
        n = self.u()
        out = self.b[self.p:self.p + n]
        self.p += n
        return out.decode("utf-8", "replace")

    def d(self):
        self.p += 8


def fields(r):
    r.s()  # anchor_raw
    return [r.s().split() for _ in range(3)]


def main(path):
    r = Reader(open(path, "rb").read())
    assert r.s().startswith("topicrawl-jlse-state-"), "not a jlse state"
    r.u()
    docs = []
    for _ in range(r.u()):
        r.u(); r.u(); r.u(); r.u(); r.s()
        docs.append(fields(r))
    for _ in range(r.u()):
        r.u()
    r.u()
    queries = []
    for _ in range(r.u()):
        r.u(); r.u(); r.d(); r.u(); r.u(); r.d()
        queries.append(fields(r))
    names = ["anchor", "url", "context"]
    print(f"documents (LinkTable links) {len(docs)}, queries (queued links) {len(queries)}")
    for f in range(3):
        lens = [len(d[f]) for d in docs]
        qlens = [len(q[f]) for q in queries]
        df = {}
        heaps = []
        for i, d in enumerate(docs, 1):
            for t in set(d[f]):
                df[t] = df.get(t, 0) + 1
            if i in (500, 1000, 2000, 4000) or i == len(docs):
                heaps.append((i, len(df)))
        ranked = sorted(df.values(), reverse=True)
        pts = [(math.log(k), math.log(ranked[k - 1])) for k in range(10, min(1000, len(ranked)) + 1)]
        slope = float("nan")
        if len(pts) > 2:
            mx = sum(x for x, _ in pts) / len(pts)
            my = sum(y for _, y in pts) / len(pts)
            slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
        beta = float("nan")
        if len(heaps) >= 2 and heaps[0][1] > 0:
            (n0, v0), (n1, v1) = heaps[0], heaps[-1]
            beta = math.log(v1 / v0) / math.log(n1 / n0)
        qt = [t for q in queries for t in q[f]]
        known = sum(1 for t in qt if t in df) / max(1, len(qt))
        top = ", ".join(f"{n / len(docs):.2f}" for n in ranked[:3])
        print(f"{names[f]:8s} terms/doc {sum(lens) / max(1, len(lens)):5.1f}  terms/query "
              f"{sum(qlens) / max(1, len(qlens)):5.1f}  vocabulary {len(df):6d}  "
              f"Heaps beta {beta:.2f} {heaps}  Zipf slope (df, ranks 10-1000) {slope:.2f}  "
              f"top-3 df/N {top}  query terms in index {known:.2f}")


if __name__ == "__main__":
    main(sys.argv[1])

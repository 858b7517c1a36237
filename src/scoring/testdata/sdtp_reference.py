#!/usr/bin/env python3
"""SDTP page scores of a hand-sized page, computed from the equations of
seed 002 as src/scoring/sdtp_scorer.h states them (eq. 8, 12-15), in
float64, apart from the scorer's code. sdtp_score_path_test.cc holds this
script's output (run: python3 src/scoring/testdata/sdtp_reference.py).

Topic: keywords tcp (weight 2) and socket (1); contradiction word football.
Page: title "socket"; text blocks "tcp socket", then "router" (or "router
football"); heading "router". Options: the defaults (title 3, heading 2,
position boost 0.5, alpha 0.5, gate = w_max / |w|).
Model: 2-d vectors tcp (3, 4), socket (1, 0), router (0, 2) (made unit),
idf 2, 1, 0.5; DSV = 2 v(tcp) + 1 v(socket) + 0.3 v(router).
"""
import math

TAG_TITLE, TAG_HEADING, BOOST, ALPHA = 3.0, 2.0, 0.5, 0.5
TOPIC = {"tcp": 2.0, "socket": 1.0}
VEC = {"tcp": (3.0, 4.0), "socket": (1.0, 0.0), "router": (0.0, 2.0)}
IDF = {"tcp": 2.0, "socket": 1.0, "router": 0.5}
DSV_WEIGHTS = {"tcp": 2.0, "socket": 1.0, "router": 0.3}


def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v)


def occurrences(blocks):
    """(word, factor, in_reading_order) for every occurrence (eq. 8)."""
    occ = [("socket", TAG_TITLE, True)]
    n = len(blocks)
    for j, block in enumerate(blocks):
        pos = 1 + BOOST * (1 - j / n)
        occ += [(w, pos, True) for w in block.split()]
    # The heading's text is already in the body once: it adds tag - 1.
    occ.append(("router", TAG_HEADING - 1, False))
    return occ


def weights(blocks, with_idf):
    occ = occurrences(blocks)
    tokens = sum(1 for _, _, seq in occ if seq)
    w = {}
    for word, factor, _ in occ:
        w[word] = w.get(word, 0.0) + factor / tokens
    if with_idf:
        w = {k: v * IDF.get(k, 1.0) for k, v in w.items()}
    return w


def static_sim(w):
    dot = sum(TOPIC[t] * w.get(t, 0.0) for t in TOPIC)
    nt = math.sqrt(sum(x * x for x in TOPIC.values()))
    nd = math.sqrt(sum(w.get(t, 0.0) ** 2 for t in TOPIC))
    return dot / (nt * nd) if nd > 0 else 0.0


def scores(blocks, with_model, combine="gated", norm="cosine"):
    w = weights(blocks, with_model)
    s = static_sim(w)
    contradiction = any("football" in b.split() for b in blocks)
    if not with_model:
        return (0.0 if contradiction else s), s, 0.0
    dsv = [sum(DSV_WEIGHTS[t] * unit(VEC[t])[k] for t in DSV_WEIGHTS) for k in range(2)]
    doc = [sum(w[t] * unit(VEC[t])[k] for t in VEC if t in w) for k in range(2)]
    dot = sum(a * b for a, b in zip(doc, dsv))
    dsv_len = math.sqrt(sum(x * x for x in dsv))
    if norm == "cosine":  # eq. 14
        d = dot / (math.sqrt(sum(x * x for x in doc)) * dsv_len)
    else:  # the projection per unit of word weight
        d = dot / (dsv_len * sum(w[t] for t in VEC if t in w))
    d = min(max(d, 0.0), 1.0)
    gate = max(TOPIC.values()) / math.sqrt(sum(x * x for x in TOPIC.values()))
    support = min(1.0, s / gate) if combine == "gated" else 1.0
    sim = ALPHA * d * support + (1 - ALPHA) * s  # eq. 15
    return (0.0 if contradiction else sim), s, d


CASES = [
    ("no model", ["tcp socket", "router"], False, "gated", "cosine"),
    ("gated cosine", ["tcp socket", "router"], True, "gated", "cosine"),
    ("linear cosine", ["tcp socket", "router"], True, "linear", "cosine"),
    ("gated length", ["tcp socket", "router"], True, "gated", "length"),
    ("contradiction", ["tcp socket", "router football"], True, "gated", "cosine"),
]

for name, blocks, model, combine, norm in CASES:
    sim, s, d = scores(blocks, model, combine, norm)
    print('  {"%s", %.12f, %.12f, %.12f},' % (name, sim, s, d))

#!/usr/bin/env python3
"""Precision / recall of a jlse or ata crawl's page judge against the labels.

Reads the crawl's pages (relevance = P(c|d) of the page NB; explanation has
"relevant" and "result") and the label file, and prints, over the pages
the crawl stored that the labels know: NB relevant (tp, fp, fn, precision,
recall) and result pages (relevant by NB + DetailPage by the SVM or rule)
that are labelled relevant.

  bench/jlse/judge_precision_recall.py CRAWL_DIR LABELS.tsv
"""
import json, sqlite3, sys

crawl, labels_path = sys.argv[1], sys.argv[2]
labels = {}
for line in open(labels_path):
    parts = line.rstrip("\n").split("\t")
    if len(parts) >= 2 and parts[1] in ("0", "1"):
        labels[parts[0]] = parts[1] == "1"

def key(u):
    return u.replace("https://", "http://", 1)

labels = {key(u): v for u, v in labels.items()}
db = sqlite3.connect(f"file:{crawl}/crawl.db?mode=ro", uri=True)
tp = fp = fn = tn = rtp = rfp = 0
for url, final, expl in db.execute(
        "SELECT url, final_url, explanation FROM pages WHERE status = 'ok'"):
    truth = labels.get(key(url), labels.get(key(final or "")))
    if truth is None or not expl:
        continue
    try:
        e = json.loads(expl)
    except ValueError:
        continue
    rel, res = bool(e.get("relevant")), bool(e.get("result"))
    tp += rel and truth; fp += rel and not truth
    fn += (not rel) and truth; tn += (not rel) and not truth
    rtp += res and truth; rfp += res and not truth
p = tp / (tp + fp) if tp + fp else 0.0
r = tp / (tp + fn) if tp + fn else 0.0
print(f"judged {tp+fp+fn+tn} labelled pages: NB relevant tp {tp} fp {fp} fn {fn} tn {tn}, "
      f"precision {p:.3f}, recall {r:.3f}; result pages {rtp+rfp}, labelled relevant {rtp} "
      f"({rtp/(rtp+rfp) if rtp+rfp else 0:.3f})")

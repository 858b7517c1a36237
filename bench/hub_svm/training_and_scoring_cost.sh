#!/usr/bin/env bash
# Seed 003 hub SVM performance (a bench, not a test; CPU is shared, so read
# the CPU-time figures, not wall time):
#   1. scoring 10^6 URLs with a trained model on one core (target < 10 s);
#   2. grid search + 10-fold CV on 2,000 training URLs on 2 threads
#      (target < 60 s).
# Usage: bench/hub_svm/training_and_scoring_cost.sh DATA.tsv [BUILD_DIR]   (DATA from collect-hubs)
set -euo pipefail
data=${1:?usage: hub_bench.sh DATA.tsv [BUILD_DIR]}
build=${2:-build}
bin=$build/topicrawl
work=$(mktemp -d /tmp/hub-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The grid: libsvm's (C = 2^-5..2^15, gamma = 2^-15..2^3, step 2^2; 110
# points), 10-fold CV, the deduplicated engine (default; the second line of
# its output gives the distinct vectors, solves, SMO iterations and how many
# solves the 20,000-iteration cap stopped). GRID_FEATURES picks the feature
# sets (url = before download, full = with page size); NO_DEDUP=1 adds the
# run with one libsvm training per (point, fold) (~400 s CPU: slow).
# GRID_FLAGS adds training flags, e.g. GRID_FLAGS=--imbalanced (class weight,
# F1 selection, CV threshold: docs/strategies/hub-svm.md).
for f in ${GRID_FEATURES:-url full}; do
  echo "== grid search, 2,000 training URLs, $f features, 2 threads"
  /usr/bin/time -f "   time: %U s user, %S s sys, %e s wall" \
    "$bin" train hub-svm --data "$data" --train-size 2000 --features "$f" --threads 2 ${GRID_FLAGS:-} --out "$work/model-$f"
  if [ -n "${NO_DEDUP:-}" ]; then
    echo "== the same with --no-dedup (libsvm per point and fold)"
    /usr/bin/time -f "   time: %U s user, %S s sys, %e s wall" \
      "$bin" train hub-svm --data "$data" --train-size 2000 --features "$f" --threads 2 --no-dedup --out "$work/model-$f-libsvm"
  fi
done
cp "$work/model-$(echo ${GRID_FEATURES:-url full} | awk '{print $NF}')" "$work/model"

echo "== scoring 10^6 URLs (url, anchor, crawl depth, page size from the data, cycled), one core"
python3 - "$data" "$work/urls.tsv" <<'PY'
import sys
rows = []
with open(sys.argv[1], encoding="utf-8") as f:
    head = f.readline().rstrip("\n").split("\t")
    c = {n: i for i, n in enumerate(head)}
    for line in f:
        x = line.rstrip("\n").split("\t")
        rows.append("\t".join([x[c["url"]], x[c["anchor"]], x[c["crawl_depth"]], x[c["page_size"]]]))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for i in range(1000000):
        out.write(rows[i % len(rows)] + "\n")
PY
/usr/bin/time -f "   time: %U s user, %S s sys, %e s wall" \
  taskset -c 0 "$bin" hub --model "$work/model" --urls-from "$work/urls.tsv" --summary

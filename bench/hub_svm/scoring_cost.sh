#!/usr/bin/env bash
# Seed 003 hub scoring cost (issue 13: "scoring 10^6 URLs with the model
# takes < 10 s on one core"), per model file, raw or site-relative reading
# (the model's kind decides; docs/notebook/hub-svm.md "Scoring speed with the
# site-relative reading"). A bench, not a test: the CPU is shared, read the
# CPU figures (user + sys) and the peak memory, not wall time.
# Usage: bench/hub_svm/scoring_cost.sh DATA.tsv MODEL... 
#   DATA from collect-hubs; its rows (url, anchor, crawl depth, page size)
#   are repeated until >= 10^6 lines (the dev data: 5,910 x 170 = 1,004,700).
#   BUILD (default build), RUNS (default 2) per model.
# Run it as: flock /work/heavy.lock nice -n 10 bench/hub_svm/scoring_cost.sh ...
set -euo pipefail
data=${1:?usage: hub_score_bench.sh DATA.tsv MODEL...}
shift
[ $# -gt 0 ] || { echo "usage: hub_score_bench.sh DATA.tsv MODEL..." >&2; exit 2; }
bin=${BUILD:-build}/topicrawl
work=$(mktemp -d /tmp/hub-score-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 - "$data" "$work/urls.tsv" <<'PY'
import sys
rows = []
with open(sys.argv[1], encoding="utf-8") as f:
    head = f.readline().rstrip("\n").split("\t")
    c = {n: i for i, n in enumerate(head)}
    for line in f:
        x = line.rstrip("\n").split("\t")
        rows.append("\t".join([x[c["url"]], x[c["anchor"]], x[c["crawl_depth"]], x[c["page_size"]]]))
reps = -(-1000000 // len(rows))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for _ in range(reps):
        for r in rows:
            out.write(r + "\n")
print(f"{len(rows)} data rows x {reps} = {len(rows) * reps} URLs")
PY
for model in "$@"; do
  for run in $(seq 1 "${RUNS:-2}"); do
    echo "== $(basename "$model"), run $run, one core"
    /usr/bin/time -f "   time: %U s user, %S s sys, %e s wall, %M KB peak RSS" \
      taskset -c 0 "$bin" hub --model "$model" --urls-from "$work/urls.tsv" --summary 2>&1
  done
done

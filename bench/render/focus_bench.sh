#!/usr/bin/env bash
# A focused crawl of a web whose script-built hosts hold part of the topic:
# recall of the relevant pages on script-built hosts (and on static hosts)
# with --render never and --render auto, best-first, topic networking.
# Other hosts link a script-built host only at its home (web synth), so its
# other pages are reachable only through the navigation its scripts build:
# `never` should find ~none of them, `auto` nearly all.
#
#   bench/render/focus_bench.sh
#   RUNS=5 HOSTS=4 WEB_PAGES=1200 PAGES=600 SEED=8 bench/render/focus_bench.sh
# RUNS crawls per mode (alternating), then mean +- sd of the recall on
# script-built hosts per mode.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-build/topicrawl}
OUT=${OUT:-/work/runs/render/focus}
HOSTS=${HOSTS:-6}
WEB_PAGES=${WEB_PAGES:-1800}
PAGES=${PAGES:-1800}
SEED=${SEED:-7}
MODES=${MODES:-"never auto"}
TOPIC=${TOPIC:-../shared/corpus/topics/dev-networking.txt}
rm -rf "$OUT"; mkdir -p "$OUT"
# No session or calendar traps: the bench measures rendering, not trap handling.
SYNTH=(--hosts "$HOSTS" --pages "$WEB_PAGES" --seed "$SEED" --js-host-fraction 0.5 --zh-host-fraction 0
  --session-host-fraction 0 --calendar-host-fraction 0)
"$BIN" web synth "${SYNTH[@]}" --port 0 > "$OUT/synth.out" 2> "$OUT/synth.log" &
SPID=$!
trap 'kill $SPID 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q crawl-args "$OUT/synth.out" && break; sleep 0.1; done
read -r -a CRAWL_ARGS <<< "$(sed -n 's/^crawl-args: //p' "$OUT/synth.out")"
"$BIN" web synth-labels "${SYNTH[@]}" --topic networking --out "$OUT/labels.tsv" \
  --homes "$OUT/homes.tsv" 2> /dev/null
awk -F'\t' 'NR > 1 {print $2}' "$OUT/homes.tsv" > "$OUT/seeds.txt"
echo "hosts: $(awk -F'\t' 'NR > 1 {printf "%s(%s) ", $1, $3}' "$OUT/homes.tsv")"
for run in $(seq "${RUNS:-1}"); do
  for mode in $MODES; do
    dir="$OUT/$mode$run"
    start=$(date +%s.%N)
    "$BIN" crawl --seeds "$OUT/seeds.txt" --strategy best-first --topic "$TOPIC" \
      --max-pages "$PAGES" --delay 0 "${CRAWL_ARGS[@]}" --render "$mode" \
      --render-max-share "${SHARE:-0.7}" --out "$dir" > "$dir.out" 2> "$dir.log"
    end=$(date +%s.%N)
    line=$(python3 bench/render/recall.py "$dir" "$OUT/labels.tsv" "$OUT/homes.tsv")
    printf "run %d %-6s %6.1f s  %s  (load %s)\n" "$run" "$mode" "$(echo "$end - $start" | bc)" \
      "$line" "$(cut -d' ' -f1 /proc/loadavg)"
    echo "$mode $(echo "$line" | sed -n 's/.*js hosts: [0-9]*\/[0-9]* relevant = \([0-9.]*\).*/\1/p')" \
      >> "$OUT/recall.txt"
    sqlite3 "$dir/crawl.db" "SELECT '  ' || kind || ': ' || detail FROM events WHERE kind IN ('render', 'render_decision')"
  done
done
awk '{s[$1] += $2; q[$1] += $2 * $2; n[$1]++}
  END {for (m in n) {mu = s[m] / n[m]; v = q[m] / n[m] - mu * mu;
         sd = n[m] > 1 ? sqrt((v > 0 ? v : 0) * n[m] / (n[m] - 1)) : 0;
         printf "recall on script-built hosts, %-6s %.3f +- %.3f over %d runs\n", m, mu, sd, n[m]}}' \
  "$OUT/recall.txt"

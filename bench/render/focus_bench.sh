#!/usr/bin/env bash
# A focused crawl of a web whose script-built hosts hold part of the topic:
# recall of the relevant pages on script-built hosts (and on static hosts)
# with --render never and --render auto, best-first, topic networking.
#
#   bench/render/focus_bench.sh
#   HOSTS=6 WEB_PAGES=1800 PAGES=1800 SEED=7 bench/render/focus_bench.sh
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
SYNTH=(--hosts "$HOSTS" --pages "$WEB_PAGES" --seed "$SEED" --js-host-fraction 0.5 --zh-host-fraction 0)
"$BIN" web synth "${SYNTH[@]}" --port 0 > "$OUT/synth.out" 2> "$OUT/synth.log" &
SPID=$!
trap 'kill $SPID 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q crawl-args "$OUT/synth.out" && break; sleep 0.1; done
read -r -a CRAWL_ARGS <<< "$(sed -n 's/^crawl-args: //p' "$OUT/synth.out")"
"$BIN" web synth-labels "${SYNTH[@]}" --topic networking --out "$OUT/labels.tsv" \
  --homes "$OUT/homes.tsv" 2> /dev/null
awk -F'\t' 'NR > 1 {print $2}' "$OUT/homes.tsv" > "$OUT/seeds.txt"
echo "hosts: $(awk -F'\t' 'NR > 1 {printf "%s(%s) ", $1, $3}' "$OUT/homes.tsv")"
for mode in $MODES; do
  start=$(date +%s.%N)
  "$BIN" crawl --seeds "$OUT/seeds.txt" --strategy best-first --topic "$TOPIC" \
    --max-pages "$PAGES" --delay 0 "${CRAWL_ARGS[@]}" --render "$mode" \
    --render-max-share "${SHARE:-0.7}" --out "$OUT/$mode" > "$OUT/$mode.out" 2> "$OUT/$mode.log"
  end=$(date +%s.%N)
  printf "%-6s %6.1f s  " "$mode" "$(echo "$end - $start" | bc)"
  python3 bench/render/recall.py "$OUT/$mode" "$OUT/labels.tsv" "$OUT/homes.tsv"
  sqlite3 "$OUT/$mode/crawl.db" "SELECT '  ' || kind || ': ' || detail FROM events WHERE kind IN ('render', 'render_decision')"
done

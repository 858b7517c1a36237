#!/usr/bin/env bash
# Rendered-page throughput and memory of --render always, and link agreement
# with Chromium's own document.links, on the script-built synthetic web
# (web synth --js-host-fraction 1: four script styles, src/web/synthetic_js.h).
#
#   bench/render/render_bench.sh            # 600 pages, 2 render workers
#   PAGES=1000 WORKERS=2 TABS=6 OUT=/tmp/rb bench/render/render_bench.sh
#
# Prints: pages rendered, wall seconds, rendered pages/s, the crawler's peak
# RSS, the peak memory (sum of PSS) of all Chromium processes, and the mean
# Jaccard of the crawl's links against ground_truth.mjs for GT pages per host.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-build/topicrawl}
OUT=${OUT:-/work/runs/render/bench}
PAGES=${PAGES:-600}
WORKERS=${WORKERS:-2}
TABS=${TABS:-6}
GT=${GT:-40}
rm -rf "$OUT"; mkdir -p "$OUT"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
SYNTH=(--hosts 8 --pages 8000 --seed 5 --js-host-fraction 1)
PORT=$(free_port)
"$BIN" web synth "${SYNTH[@]}" --port "$PORT" > "$OUT/synth.out" 2> "$OUT/synth.log" &
SPID=$!
cleanup() { kill "$SPID" 2>/dev/null || true; kill "${MPID:-}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
"$BIN" web synth-labels "${SYNTH[@]}" --topic 0 --out "$OUT/labels.tsv" --homes "$OUT/homes.tsv" 2> /dev/null
awk -F'\t' 'NR > 1 {print $2}' "$OUT/homes.tsv" > "$OUT/seeds.txt"
sleep 0.3

# Peak memory of every chromium process together (PSS, KiB), sampled.
( peak=0; while true; do
    kb=$(for p in $(pgrep -f 'chromium' || true); do
           awk '/^Pss:/ {print $2}' /proc/$p/smaps_rollup 2>/dev/null; done | awk '{s+=$1} END {print s+0}')
    [ "$kb" -gt "$peak" ] && peak=$kb && echo "$peak" > "$OUT/chromium_peak_kb"
    sleep 0.2; done ) &
MPID=$!

start=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$OUT/crawl.maxrss" \
  "$BIN" crawl --seeds "$OUT/seeds.txt" --max-pages "$PAGES" --delay 0 --per-host 4 \
    --concurrency 16 --connect-to ":80:127.0.0.1:$PORT" --allow-private \
    --render always --render-workers "$WORKERS" --out "$OUT/crawl" \
    > "$OUT/crawl.out" 2> "$OUT/crawl.log"
end=$(date +%s.%N)
kill "$MPID" 2>/dev/null || true
render=$(sqlite3 "$OUT/crawl/crawl.db" "SELECT detail FROM events WHERE kind='render'")
rendered=$(echo "$render" | sed -n 's/.* rendered=\([0-9]*\) .*/\1/p')
echo "render event: $render"
awk -v r="$rendered" -v s="$start" -v e="$end" -v rss="$(cat "$OUT/crawl.maxrss")" \
    -v cr="$(cat "$OUT/chromium_peak_kb" 2>/dev/null || echo 0)" -v w="$WORKERS" 'BEGIN {
  printf "rendered %d pages in %.1f s: %.1f rendered pages/s (%d workers)\n", r, e - s, r / (e - s), w
  printf "peak RSS: crawler %.0f MB, all chromium processes (PSS) %.0f MB\n", rss / 1024, cr / 1024 }'

# Link agreement with Chromium's own document.links on a sample of pages.
sqlite3 "$OUT/crawl/crawl.db" "SELECT url FROM pages WHERE status='ok' ORDER BY id LIMIT $GT" > "$OUT/gt_urls.txt"
node bench/render/ground_truth.mjs "$PORT" < "$OUT/gt_urls.txt" > "$OUT/truth.tsv" 2> "$OUT/truth.log"
awk -F'\t' 'NR > 1 {split($3, r, "js:"); print $1 "\t" (r[2] == "" ? "static" : r[2])}' "$OUT/homes.tsv" > "$OUT/styles.tsv"
python3 bench/render/jaccard.py "$OUT/crawl" "$OUT/truth.tsv" "$OUT/styles.tsv"

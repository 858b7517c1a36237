#!/usr/bin/env bash
# Rendered-page throughput and memory of --render always, and link agreement
# with Chromium's own document.links, on the script-built synthetic web
# (web synth --js-host-fraction 1: four script styles, src/web/synthetic_js.h).
#
#   bench/render/render_bench.sh            # 600 pages, 2 render workers
#   PAGES=1000 WORKERS=2 OUT=/tmp/rb bench/render/render_bench.sh
#
# Prints: pages rendered, wall seconds, rendered pages/s, the crawler's peak
# RSS, the peak memory (sum of PSS) of the crawl's Chromium processes, the
# CPU time the crawl took (the crawler's own plus each Chromium process's,
# sampled from /proc every 0.2 s) per rendered page and the rate that would allow on 2 free
# cores (the wall rate on a shared machine says more about the others'
# load), and the mean Jaccard of the crawl's links against ground_truth.mjs
# for GT pages per host.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-build/topicrawl}
OUT=${OUT:-/work/runs/render/bench}
PAGES=${PAGES:-600}
WORKERS=${WORKERS:-2}
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

start=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$OUT/crawl.maxrss" \
  "$BIN" crawl --seeds "$OUT/seeds.txt" --max-pages "$PAGES" --delay 0 --per-host 4 \
    --concurrency 16 --connect-to ":80:127.0.0.1:$PORT" --allow-private \
    --render always --render-workers "$WORKERS" --out "$OUT/crawl" \
    > "$OUT/crawl.out" 2> "$OUT/crawl.log" &
TPID=$!
sleep 0.1
CRAWL_PID=$(pgrep -P "$TPID" | head -1)
# This crawl's Chromium processes: the process groups its browsers lead
# (each browser is started in a group of its own). Peak memory of them all
# together (PSS, KiB) and each one's CPU ticks as last seen, sampled.
( set +e; peak=0; while true; do
    leaders=$( (pgrep -P "$CRAWL_PID" 2>/dev/null || true) | tr "\n" " ")
    pids=$(ps -e -o pid= -o pgid= | awk -v l=" $leaders" 'index(l, " " $2 " ") {print $1}')
    kb=$(for p in $pids; do
           awk '/^Pss:/ {print $2}' /proc/$p/smaps_rollup 2>/dev/null; done | awk '{s+=$1} END {print s+0}')
    [ "$kb" -gt "$peak" ] && peak=$kb && echo "$peak" > "$OUT/chromium_peak_kb"
    for p in $pids; do
      # Process type: --type= of its command line (renderer, gpu-process,
      # utility, zygote); none is the browser process.
      t=$(tr '\0' '\n' < /proc/$p/cmdline 2>/dev/null | sed -n 's/^--type=//p' | head -1)
      awk -v p="$p" -v t="${t:-browser}" '{sub(/^.*\) /, ""); print p, $12 + $13, t}' /proc/$p/stat 2>/dev/null || true
    done >> "$OUT/chromium_ticks"
    awk '{sub(/^.*\) /, ""); print $12 + $13}' /proc/$CRAWL_PID/stat >> "$OUT/crawler_ticks" 2>/dev/null || true
    sleep 0.2; done ) &
MPID=$!
wait "$TPID"
end=$(date +%s.%N)
kill "$MPID" 2>/dev/null || true
render=$(sqlite3 "$OUT/crawl/crawl.db" "SELECT detail FROM events WHERE kind='render'")
rendered=$(echo "$render" | sed -n 's/.* rendered=\([0-9]*\) .*/\1/p')
echo "render event: $render"
chromium_cpu=$(awk -v hz="$(getconf CLK_TCK)" '{t[$1] = $2} END {for (p in t) s += t[p]; print s / hz}' \
  "$OUT/chromium_ticks" 2>/dev/null || echo 0)
read -r rss _ < "$OUT/crawl.maxrss"
crawler_cpu=$(awk -v hz="$(getconf CLK_TCK)" '$1 > 0 {t = $1} END {print t / hz}' "$OUT/crawler_ticks")
awk -v r="$rendered" -v s="$start" -v e="$end" -v rss="$rss" -v crawler="$crawler_cpu" \
    -v crc="$chromium_cpu" -v cr="$(cat "$OUT/chromium_peak_kb" 2>/dev/null || echo 0)" \
    -v w="$WORKERS" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
  printf "rendered %d pages in %.1f s: %.1f rendered pages/s (%d workers; load average at the end %s)\n", r, e - s, r / (e - s), w, load
  printf "peak RSS: crawler %.0f MB, all chromium processes (PSS) %.0f MB\n", rss / 1024, cr / 1024
  cpu = crawler + crc
  printf "CPU: crawler %.1f s + chromium %.1f s = %.3f s per rendered page: %.1f pages/s on 2 free cores\n", crawler, crc, cpu / r, 2 * r / cpu }'
# Where Chromium's CPU goes, by process type, per rendered page.
awk -v hz="$(getconf CLK_TCK)" -v r="$rendered" '{t[$1] = $2; k[$1] = $3}
  END {for (p in t) s[k[p]] += t[p];
       printf "chromium CPU per rendered page by process:";
       for (x in s) printf " %s %.3f s", x, s[x] / hz / r; printf "\n"}' "$OUT/chromium_ticks"

# Link agreement with Chromium's own document.links on a sample of pages.
sqlite3 "$OUT/crawl/crawl.db" "SELECT url FROM pages WHERE status='ok' ORDER BY id LIMIT $GT" > "$OUT/gt_urls.txt"
node bench/render/ground_truth.mjs "$PORT" < "$OUT/gt_urls.txt" > "$OUT/truth.tsv" 2> "$OUT/truth.log"
awk -F'\t' 'NR > 1 {split($3, r, "js:"); print $1 "\t" (r[2] == "" ? "static" : r[2])}' "$OUT/homes.tsv" > "$OUT/styles.tsv"
python3 bench/render/jaccard.py "$OUT/crawl" "$OUT/truth.tsv" "$OUT/styles.tsv"

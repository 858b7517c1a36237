#!/usr/bin/env bash
# Large-crawl bench (issue 12; a bench, not a test): serves the synthetic web
# `web synth --hosts 1000 --pages 3000000 --seed 3`, crawls it best-first
# with the dev-security topic and no delay, and prints every STEP pages:
# pages/s over the step, CPU ms per page over the step (utime + stime of the
# crawl process from /proc/PID/stat: unlike pages/s, it does not follow the
# other jobs' load on a shared machine), RSS, crawl.db (+WAL) and WARC bytes per stored page,
# the queue size, and the step's CPU ms per page by thread role
# (crawl/parse/store: which part grows), and the synthetic web server's CPU
# ms per page over the step (`web`: it shares the machine's cores with the
# crawl, so it bounds pages/s too). At the end: peak RSS and CPU (/usr/bin/time), the time
# from the end of the crawl loop (first "closing" line) to the process exit,
# and the time of a resume of the finished directory (it rebuilds the
# seen-set and queue from crawl.db, fetches nothing, and closes).
#
# Usage: bench/large_crawl/million_page_crawl.sh PAGES        (e.g. 1000000; several minutes)
# Env:   TOPICRAWL  binary (default build/topicrawl)
#        STEP       report interval in pages (default 100000)
#        OUT        crawl directory (default a temp dir, removed unless KEEP=1)
#        HOSTS      hosts of the synthetic web (default 1000)
#        WEB_PAGES  canonical pages of the synthetic web (default 3000000, at
#                   most 10^7: with the URL-trap budget on, a crawl admits
#                   few more URLs than the web has pages)
#        SEED_HOSTS seeds: http://site<i>.test/ for i < SEED_HOSTS (default 10;
#                   an index that is a Chinese host, zhan<i>, answers 404)
#        SYNTH      extra `web synth` flags (e.g. "--out-degree-min 20" for a
#                   web with a high out-degree: 10^7 admitted URLs)
#        EXTRA      extra crawl flags (e.g. "--link-details")
#        TOPIC      topic file (default ../shared/corpus/topics/dev-security.txt)
#        STRATEGY   crawl strategy (default best-first); with online, the
#                   end also prints its model memory (DIR/online_stats.json)
# Prints at the end a `decay:` line: the last step's pages/s against the
# first's (the target of issue 12), with the parse pool as a yardstick.
# Measure under the shared lock: flock /work/heavy.lock bench/large_crawl/million_page_crawl.sh N
set -euo pipefail
cd "$(dirname "$0")/../.."
PAGES=${1:?usage: bench/large_crawl/million_page_crawl.sh PAGES}
STEP=${STEP:-100000}
BIN=$(readlink -f "${TOPICRAWL:-build/topicrawl}")
# The topic file: TOPIC, else the corpus next to the checkout (a worktree
# in /work/wt/NAME finds it in /work/shared).
TOPIC=${TOPIC:-../shared/corpus/topics/dev-security.txt}
[ -f "$TOPIC" ] || TOPIC=../../shared/corpus/topics/dev-security.txt
TOPIC=$(readlink -f "$TOPIC")
[ -x /usr/bin/time ] || { echo "scale_bench: needs /usr/bin/time (Debian package 'time')" >&2; exit 1; }
TMP=$(mktemp -d /tmp/scale_bench.XXXXXX)
OUT=${OUT:-$TMP/crawl}
SYNTH_PID=
cleanup() {
  [ -n "$SYNTH_PID" ] && kill "$SYNTH_PID" 2>/dev/null || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$TMP"
}
trap cleanup EXIT

# shellcheck disable=SC2086
"$BIN" web synth --hosts "${HOSTS:-1000}" --pages "${WEB_PAGES:-3000000}" --seed 3 --port 0 ${SYNTH:-} \
  > "$TMP/synth.out" 2> "$TMP/synth.err" &
SYNTH_PID=$!
for _ in $(seq 100); do grep -q crawl-args "$TMP/synth.out" && break; sleep 0.1; done
CRAWL_ARGS=$(sed -n 's/^crawl-args: //p' "$TMP/synth.out")
[ -n "$CRAWL_ARGS" ] || { echo "scale_bench: web synth did not start" >&2; cat "$TMP/synth.err" >&2; exit 1; }
for i in $(seq 0 $((${SEED_HOSTS:-10} - 1))); do echo "http://site$i.test/"; done > "$TMP/seeds.txt"

# %d stops at 2^31. du fails when a file goes away between its directory
# read and its stat, or a path is missing; with pipefail (and set -e) that
# ended the whole bench and, through the closed log pipe, the crawl (two
# runs stopped silently at 1.5-3 x 10^5 pages; this is the one unguarded
# failure in the report loop). The sizes of the files that are there count.
bytes() { { du -sb "$@" 2>/dev/null || true; } | awk '{s += $1} END {printf "%.0f\n", s}'; }
# Each stderr line with the wall time it was read at.
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done; }

STRATEGY=${STRATEGY:-best-first}
echo "scale_bench: $PAGES pages, $STRATEGY $(basename "$TOPIC" .txt), web synth --hosts ${HOSTS:-1000} --pages ${WEB_PAGES:-3000000} --seed 3 ${SYNTH:-}, ${SEED_HOSTS:-10} seed hosts"
printf '%10s %9s %9s %8s %10s %10s %10s %9s %17s %6s\n' pages "pages/s" "cpu ms/pg" "RSS MB" \
  "db B/page" "warc B/pg" queue "elapsed" "crawl/parse/store" "web"
# shellcheck disable=SC2086
( /usr/bin/time -v -o "$TMP/time.txt" "$BIN" crawl --seeds "$TMP/seeds.txt" \
    --strategy "$STRATEGY" --topic "$TOPIC" --max-pages "$PAGES" --delay 0 $CRAWL_ARGS \
    ${EXTRA:-} --out "$OUT" 2>&1 >"$TMP/summary.txt" | stamp > "$TMP/crawl.log" ) &
RUNNER=$!
CRAWL_PID=
next=$STEP
last_t=$(date +%s.%N)
last_pages=0
last_cpu=0
TICKS=$(getconf CLK_TCK)
# CPU seconds (user + system, all threads) of the crawl process so far.
cpu_seconds() {
  awk -v hz="$TICKS" '{sub(/.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz}' \
    "/proc/$CRAWL_PID/stat" 2>/dev/null || true
}
# CPU seconds so far by thread role: "crawl parse store" (the crawl thread:
# libcurl, robots, frontier, near-duplicates; the tr-parse pool; the
# tr-store writer: SQLite and WARC). Threads that have exited are not
# counted, so a step's figure is exact only while the roles' threads live.
thread_cpu() {
  awk -v hz="$TICKS" '{
      comm = $0; sub(/^[^(]*\(/, "", comm); sub(/\).*/, "", comm)
      rest = $0; sub(/.*\) /, "", rest); split(rest, f, " ")
      t = (f[12] + f[13]) / hz
      if (comm ~ /^tr-parse/) p += t; else if (comm == "tr-store") s += t; else if (comm !~ /^tr-/) c += t
    } END { printf "%.2f %.2f %.2f\n", c, p, s }' /proc/"$CRAWL_PID"/task/*/stat 2>/dev/null || true
}
last_threads="0 0 0"
# CPU seconds of the synthetic web server so far.
web_seconds() {
  awk -v hz="$TICKS" '{sub(/.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz}' \
    "/proc/$SYNTH_PID/stat" 2>/dev/null || echo -1
}
last_web=0
report() {  # pages queue elapsed
  local now rss db warc cpu threads web
  now=$(date +%s.%N)
  cpu=$(cpu_seconds)
  web=$(web_seconds)
  threads=$(thread_cpu)
  [ -n "$threads" ] || threads=-
  [ -n "$cpu" ] || cpu=-1  # the crawl has exited: no CPU figure for this step
  rss=$(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$CRAWL_PID/status" 2>/dev/null || echo 0)
  db=$(bytes "$OUT/crawl.db" "$OUT/crawl.db-wal")
  warc=$(bytes "$OUT/warc")
  awk -v p="$1" -v q="$2" -v e="$3" -v t0="$last_t" -v t1="$now" -v p0="$last_pages" \
      -v rss="$rss" -v db="$db" -v warc="$warc" -v c0="$last_cpu" -v c1="$cpu" \
      -v th0="$last_threads" -v th1="$threads" -v w0="$last_web" -v w1="$web" 'BEGIN {
    cpu = c1 < 0 ? "-" : sprintf("%.3f", 1000 * (c1 - c0) / (p - p0))
    th = "-"
    # (A thread that has exited drops out of the sums: no figure then.)
    if (th1 != "-" && split(th0, a, " ") == 3 && split(th1, b, " ") == 3 &&
        b[1] >= a[1] && b[2] >= a[2] && b[3] >= a[3]) {
      th = sprintf("%.3f/%.3f/%.3f", 1000 * (b[1] - a[1]) / (p - p0),
                   1000 * (b[2] - a[2]) / (p - p0), 1000 * (b[3] - a[3]) / (p - p0))
    }
    web = w1 < 0 ? "-" : sprintf("%.3f", 1000 * (w1 - w0) / (p - p0))
    printf "%10d %9.0f %9s %8d %10.0f %10.0f %10d %9s %17s %6s\n", p, (p - p0) / (t1 - t0),
           cpu, rss, db / p, warc / p, q, e, th, web
    # pages, pages/s, parse pool ms/page (- when unknown) for the decay line.
    split(th, t3, "/")
    printf "%d %.1f %s\n", p, (p - p0) / (t1 - t0), th == "-" ? "-" : t3[2] > "/dev/stderr" }' \
    2>> "$TMP/steps.txt"
  last_t=$now
  [ "$cpu" = -1 ] || last_cpu=$cpu
  [ "$threads" = - ] || last_threads=$threads
  [ "$web" = -1 ] || last_web=$web
  last_pages=$1
}
while kill -0 "$RUNNER" 2>/dev/null; do
  sleep 1
  [ -n "$CRAWL_PID" ] || CRAWL_PID=$(pgrep -n -f "^$BIN crawl --seeds $TMP/seeds.txt" || true)
  line=$(grep -a 'pages/s | queue' "$TMP/crawl.log" | tail -1 || true)
  [ -n "$line" ] || continue
  pages=$(sed -E 's/.*pages ([0-9]+) ok.*/\1/' <<< "$line")
  queue=$(sed -E 's/.*queue ([0-9]+) .*/\1/' <<< "$line")
  elapsed=$(sed -E 's/^[0-9.]+ \[ *([0-9.]+s)\].*/\1/' <<< "$line")
  if [ "$pages" -ge "$next" ] && [ -n "$CRAWL_PID" ]; then
    report "$pages" "$queue" "$elapsed"
    while [ "$next" -le "$pages" ]; do next=$((next + STEP)); done
  fi
done
wait "$RUNNER" || true
end_t=$(awk '{print $1}' < <(tail -1 "$TMP/crawl.log"))
close_t=$(grep -a -m1 'closing' "$TMP/crawl.log" | awk '{print $1}' || true)
grep -a 'closing\|cpu by thread\|store queue\|frontier spill' "$TMP/crawl.log" | cut -d' ' -f2- || true
cat "$TMP/summary.txt" | head -1
awk -F': ' '/Maximum resident/ {printf "peak RSS: %.0f MB\n", $2 / 1024}
  /User time/ {u = $2} /System time/ {s = $2}
  /Elapsed/ {w = $2} END {printf "CPU: %.1f s user+sys, wall %s\n", u + s, w}' "$TMP/time.txt"
db=$(bytes "$OUT/crawl.db" "$OUT/crawl.db-wal")
warc=$(bytes "$OUT/warc")
stored=$(sqlite3 "$OUT/crawl.db" "SELECT count(*) FROM pages" 2>/dev/null || echo 0)
# frontier_log rows (schemas 4-5: the frontier itself, one row per admission,
# schema 4 also one per fetched page; `frontier` is a view that would sort
# them all).
rows=$(sqlite3 "$OUT/crawl.db" "SELECT count(*) FROM frontier_log" 2>/dev/null || echo 0)
ok=$(sqlite3 "$OUT/crawl.db" "SELECT count(*) FROM pages WHERE status = 'ok'" 2>/dev/null || echo 0)
# Schema 6: URL-trap refusals are frontier_state rows with a reason, not pages
# rows; "per fate" counts them with the pages rows (what schema 5's pages
# rows counted).
refused=$(sqlite3 "$OUT/crawl.db" "SELECT count(*) FROM frontier_state WHERE reason IS NOT NULL" 2>/dev/null || echo 0)
fates=$((stored + refused))
echo "store: crawl.db $((db / 1048576)) MB = $((db / (stored > 0 ? stored : 1))) B per pages row ($stored rows), $((db / (fates > 0 ? fates : 1))) B per fate ($fates: pages rows + $refused refusals), $((db / (ok > 0 ? ok : 1))) B per ok page ($ok), WARC $((warc / (stored > 0 ? stored : 1))) B per pages row, $rows frontier_log rows"
if command -v sqlite3 >/dev/null && sqlite3 "$OUT/crawl.db" "SELECT 1 FROM dbstat LIMIT 1" >/dev/null 2>&1; then
  sqlite3 "$OUT/crawl.db" "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6" |
    awk -F'|' -v p="$stored" -v r="$rows" '{printf "  %-14s %8.0f MB  %7.0f B/page  %6.0f B/frontier row\n", $1, $2 / 1048576, $2 / (p ? p : 1), $2 / (r ? r : 1)}'
fi
# Speed decay (issue 12's target: the last step's pages/s within 15 % of
# the first's). On a shared or virtual machine the speed of the machine
# itself moves between steps. The parse pool's work per page should not
# grow with the crawl's size, so its CPU per page (first step -> last step
# with thread figures) is printed as a yardstick, with the ratio as it
# would be if all of that change were the machine's speed. It is only a
# yardstick: the first step also pays the pool's warm-up, and the pages
# of later steps differ (in the 10^6 runs of docs/guides/performance.md the pool
# got 5-12 % cheaper per page late, so this figure reads lower).
[ -s "$TMP/steps.txt" ] && awk '
  NR == 1 { r0 = $2; if ($3 != "-") q0 = $3 }
  { r1 = $2; if ($3 != "-") q1 = $3; n = NR }
  END {
    if (n < 2 || r0 <= 0) exit
    printf "decay: last step %.0f pages/s = %.0f %% of the first step (%.0f pages/s)", r1, 100 * r1 / r0, r0
    if (q0 > 0 && q1 > 0) printf "; parse pool %.3f -> %.3f ms/page (%.0f %% if that change were all the machine)", q0, q1, 100 * r1 / r0 * q1 / q0
    printf "\n" }' "$TMP/steps.txt"
[ -n "$close_t" ] && awk -v a="$close_t" -v b="$end_t" 'BEGIN {printf "exit: %.1f s from the end of the crawl loop to the last line\n", b - a}'
if [ -r "$OUT/online_stats.json" ]; then
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print("online model: %.1f MB (FTRL table, bandit %d groups, judge, side table %d links, %d dropped)" % (j["model_bytes"] / 2**20, j["groups"], j["side_links"], j["side_dropped"]))' "$OUT/online_stats.json"
fi
# Resume of the finished directory: load, rebuild, close (fetches nothing).
start=$(date +%s.%N)
# shellcheck disable=SC2086
# --max-pages = the stored ok pages: after an interrupted crawl (SIGINT),
# PAGES would make the resume go on crawling.
/usr/bin/time -v -o "$TMP/resume_time.txt" "$BIN" crawl --resume "$OUT" --max-pages "$((ok > 0 ? ok : PAGES))" \
  $CRAWL_ARGS > /dev/null 2> "$TMP/resume.log" || true
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN {printf "resume: %.1f s wall", b - a}'
awk -F': ' '/User time/ {u = $2} /System time/ {s = $2}
  /Maximum resident/ {m = $2} END {printf ", %.1f s CPU, peak RSS %.0f MB\n", u + s, m / 1024}' "$TMP/resume_time.txt"

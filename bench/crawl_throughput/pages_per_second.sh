#!/usr/bin/env bash
# Crawl throughput bench (issue 2 item 13; a bench, not a test): crawls the
# served dev web with bfs and no delay and prints pages/s, CPU seconds per
# page (user+sys of the whole process, from getrusage via /usr/bin/time) and
# peak RSS.
#
# Usage: bench/crawl_throughput/pages_per_second.sh [N]            (N = --max-pages, default 20000)
# Env:   CRAWL_ARGS   crawl arguments for the dev web (default: the
#                     "crawl-args:" line printed by `scripts/webs dev`)
#        TOPICRAWL    binary (default build/topicrawl)
#        SEEDS        seeds file (default ../shared/corpus/homes/dev-homes.tsv)
#        EXTRA        extra crawl flags (e.g. "--parse-threads 1 --no-links-table")
#        KEEP=1       keep the crawl directory
#
# Figures (docs/guides/performance.md has the breakdown): bfs, delay 0, 15 dev-web
# seeds; each run also stores ~1.5 failure rows per ok page (robots-denied
# external hosts, 404s). Idle machine, N=20000:
#                          pages/s      CPU ms/page  peak RSS    cores used
#   main aad6b1e           914-931      1.84         505-522 MB
#   now                    1684-1776    1.03-1.06    377-399 MB  1.88
# The 3,000 pages/s target needs <= 0.67 ms CPU a page on 2 cores; myhtml,
# libcurl, SQLite, ISA-L, SHA-1 and nginx alone take ~0.69 ms a page here.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-20000}
BIN=${TOPICRAWL:-build/topicrawl}
SEEDS=${SEEDS:-../shared/corpus/homes/dev-homes.tsv}
if [ -z "${CRAWL_ARGS:-}" ]; then
  CRAWL_ARGS=$(scripts/webs dev | sed -n 's/^crawl-args: //p' | tail -1)
  [ -n "$CRAWL_ARGS" ] || { echo "crawl_bench: no crawl-args from scripts/webs dev" >&2; exit 1; }
fi
[ -x /usr/bin/time ] || { echo "crawl_bench: needs /usr/bin/time (Debian package 'time')" >&2; exit 1; }
# CPU seconds (user+sys) of the web server's processes, when its pid file
# is known: the server shares the 2 cores with the crawler.
SERVER_PIDFILE=${SERVER_PIDFILE:-webs/dev/nginx.pid}
server_cpu() {
  [ -r "$SERVER_PIDFILE" ] || { echo 0; return; }
  local master; master=$(cat "$SERVER_PIDFILE")
  local ticks=0 pid
  for pid in "$master" $(pgrep -P "$master" 2>/dev/null); do
    [ -r "/proc/$pid/stat" ] || continue
    ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}
SERVER_CPU0=$(server_cpu)
OUT=$(mktemp -d /tmp/crawl_bench.XXXXXX)
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$OUT"' EXIT
TIMES="$OUT.time"
# shellcheck disable=SC2086
/usr/bin/time -v -o "$TIMES" "$BIN" crawl --seeds "$SEEDS" --out "$OUT/crawl" \
  --strategy bfs --delay 0 --max-pages "$N" $CRAWL_ARGS ${EXTRA:-} 2> "$OUT.log" || {
  echo "crawl_bench: crawl failed:" >&2; tail -20 "$OUT.log" >&2; exit 1; }
SERVER_CPU1=$(server_cpu)
# A crawl that fetched nothing (the web is not served, wrong CRAWL_ARGS) is
# no measurement: say so instead of dividing by the requested page count.
if ! grep -qE 'pages [1-9][0-9]* ok' "$OUT.log"; then
  echo "crawl_bench: the crawl fetched no page (is the web served? CRAWL_ARGS: $CRAWL_ARGS):" >&2
  tail -8 "$OUT.log" >&2
  exit 1
fi
grep -E '\(final\)' "$OUT.log" >&2 || tail -3 "$OUT.log" >&2
awk -v logf="$OUT.log" -v server_s="$(awk -v a="$SERVER_CPU0" -v b="$SERVER_CPU1" 'BEGIN { print b - a }')" '
  /User time \(seconds\)/ { user = $NF }
  /System time \(seconds\)/ { sys = $NF }
  /Elapsed \(wall clock\) time/ {
    t = $NF; k = split(t, a, ":"); wall = 0
    for (i = 1; i <= k; ++i) wall = wall * 60 + a[i]
  }
  /Maximum resident set size/ { rss = $NF }
  END {
    n = 0
    while ((getline line < logf) > 0) {
      if (line ~ /\(final\)/) { sub(/.*pages /, "", line); sub(/ ok.*/, "", line); n = line + 0 }
    }
    printf "pages_ok       %d\n", n
    printf "wall_s         %.2f\n", wall
    printf "pages_per_s    %.0f\n", n / wall
    printf "cpu_user_s     %.2f\n", user
    printf "cpu_sys_s      %.2f\n", sys
    printf "cpu_ms_per_pg  %.3f\n", (user + sys) * 1000 / n
    printf "peak_rss_mb    %.1f\n", rss / 1024
    printf "server_cpu_s   %.2f\n", server_s
    printf "cores_used     %.2f\n", (user + sys + server_s) / wall
  }' "$TIMES"
rm -f "$TIMES" "$OUT.log"

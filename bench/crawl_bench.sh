#!/usr/bin/env bash
# Crawl throughput bench (issue 2 item 13; a bench, not a test): crawls the
# served dev web with bfs and no delay and prints pages/s, CPU seconds per
# page (user+sys of the whole process, from getrusage via /usr/bin/time) and
# peak RSS.
#
# Usage: bench/crawl_bench.sh [N]            (N = --max-pages, default 20000)
# Env:   CRAWL_ARGS   crawl arguments for the dev web (default: the
#                     "crawl-args:" line printed by `scripts/webs dev`)
#        TOPICRAWL    binary (default build/topicrawl)
#        SEEDS        seeds file (default ../shared/corpus/homes/dev-homes.tsv)
#        EXTRA        extra crawl flags (e.g. "--parse-threads 1 --no-links-table")
#        KEEP=1       keep the crawl directory
#
# Figures (2 shared cores, load 3-15 from other engineers' builds; pages/s
# swings a lot with the load, CPU ms/page is the steadier figure):
#   before (main 9aa745c), N=5000:  see the report in the commit message
#   after:                          see the commit message
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20000}
BIN=${TOPICRAWL:-build/topicrawl}
SEEDS=${SEEDS:-../shared/corpus/homes/dev-homes.tsv}
if [ -z "${CRAWL_ARGS:-}" ]; then
  CRAWL_ARGS=$(scripts/webs dev | sed -n 's/^crawl-args: //p' | tail -1)
  [ -n "$CRAWL_ARGS" ] || { echo "crawl_bench: no crawl-args from scripts/webs dev" >&2; exit 1; }
fi
[ -x /usr/bin/time ] || { echo "crawl_bench: needs /usr/bin/time (Debian package 'time')" >&2; exit 1; }
OUT=$(mktemp -d /tmp/crawl_bench.XXXXXX)
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$OUT"' EXIT
TIMES="$OUT.time"
# shellcheck disable=SC2086
/usr/bin/time -v -o "$TIMES" "$BIN" crawl --seeds "$SEEDS" --out "$OUT/crawl" \
  --strategy bfs --delay 0 --max-pages "$N" $CRAWL_ARGS ${EXTRA:-} 2> "$OUT.log" || {
  echo "crawl_bench: crawl failed:" >&2; tail -20 "$OUT.log" >&2; exit 1; }
grep -E '\(final\)' "$OUT.log" >&2 || tail -3 "$OUT.log" >&2
awk -v n_req="$N" -v logf="$OUT.log" '
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
    if (n == 0) n = n_req
    printf "pages_ok       %d\n", n
    printf "wall_s         %.2f\n", wall
    printf "pages_per_s    %.0f\n", n / wall
    printf "cpu_user_s     %.2f\n", user
    printf "cpu_sys_s      %.2f\n", sys
    printf "cpu_ms_per_pg  %.3f\n", (user + sys) * 1000 / n
    printf "peak_rss_mb    %.1f\n", rss / 1024
  }' "$TIMES"
rm -f "$TIMES" "$OUT.log"

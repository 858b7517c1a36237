#!/usr/bin/env bash
# What strategy `online` costs against best-first (issue 33, "Cost"; a bench,
# not a test): crawls the served dev web with both strategies, alternating
# (best-first, online, best-first, ...) so that the machine's load falls on
# both alike, and prints per run and as mean ± sd: pages/s, CPU ms per page
# (user + sys of the crawl process, from /usr/bin/time: unlike pages/s it
# does not follow other jobs' load), peak RSS, and online's model memory
# (`model_bytes` of DIR/online_stats.json: FTRL table, bandit, judge, side
# table). At the end: online's pages/s and CPU per page as a share of
# best-first's (the goal: pages/s >= 70 %).
#
# Usage: bench/online_cost/cost.sh [N]      (N = --max-pages, default 5000)
# Env:   CRAWL_ARGS  crawl arguments for the dev web (default: the
#                    "crawl-args:" line printed by `scripts/webs dev`)
#        TOPICRAWL   binary (default build/topicrawl)
#        SEEDS       seeds (default ../shared/corpus/homes/dev-homes.tsv)
#        TOPIC       topic (default ../shared/corpus/topics/dev-networking.txt)
#        RUNS        pairs of runs (default 3)
#        EXTRA       extra crawl flags for both strategies
#        KEYS        [strategy.online] keys for online (e.g. 'judge = "density"')
set -euo pipefail
N=${1:-5000}
BIN=${TOPICRAWL:-build/topicrawl}
SEEDS=${SEEDS:-../shared/corpus/homes/dev-homes.tsv}
TOPIC=${TOPIC:-../shared/corpus/topics/dev-networking.txt}
RUNS=${RUNS:-3}
[ -x /usr/bin/time ] || { echo "online_cost: needs /usr/bin/time (Debian package 'time')" >&2; exit 1; }
[ -x "$BIN" ] || { echo "online_cost: no binary $BIN (scripts/build topicrawl)" >&2; exit 1; }
[ -r "$TOPIC" ] || { echo "online_cost: cannot read topic $TOPIC" >&2; exit 1; }
if [ -z "${CRAWL_ARGS:-}" ]; then
  CRAWL_ARGS=$(scripts/webs dev | sed -n 's/^crawl-args: //p' | tail -1)
  [ -n "$CRAWL_ARGS" ] || { echo "online_cost: no crawl-args from scripts/webs dev" >&2; exit 1; }
fi
TMP=$(mktemp -d /tmp/online_cost.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
# The topic as a TOML file, with the online keys (best-first ignores them).
{
  echo "[topic]"
  printf 'keywords = { '
  awk -F'\t' 'NF >= 2 { printf "%s\"%s\" = %s", (n++ ? ", " : ""), $1, $2 }' "$TOPIC"
  echo ' }'
  echo '[strategy.online]'
  printf '%b\n' "${KEYS:-}"
} > "$TMP/topic.toml"

# run STRATEGY I: one crawl; appends "strategy pages wall cpu rss model" to $TMP/runs.
run() {
  local dir="$TMP/$1-$2"
  # shellcheck disable=SC2086
  /usr/bin/time -v -o "$dir.time" "$BIN" crawl --seeds "$SEEDS" --out "$dir" \
    --strategy "$1" --topic "$TMP/topic.toml" --delay 0 --max-pages "$N" \
    $CRAWL_ARGS ${EXTRA:-} > "$dir.out" 2> "$dir.log" || {
    echo "online_cost: $1 crawl failed:" >&2; tail -20 "$dir.log" >&2; exit 1; }
  local pages
  pages=$(grep '(final)' "$dir.log" | grep -oE 'pages [0-9]+ ok' | grep -oE '[0-9]+' | tail -1)
  if [ -z "$pages" ] || [ "$pages" -eq 0 ]; then
    echo "online_cost: the $1 crawl fetched no page (is the web served? CRAWL_ARGS: $CRAWL_ARGS)" >&2
    tail -5 "$dir.log" >&2; exit 1
  fi
  local model=0
  [ -r "$dir/online_stats.json" ] &&
    model=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["model_bytes"])' "$dir/online_stats.json")
  awk -v s="$1" -v n="$pages" -v model="$model" '
    /User time \(seconds\)/ { cpu += $NF }
    /System time \(seconds\)/ { cpu += $NF }
    /Elapsed \(wall clock\) time/ {
      k = split($NF, a, ":"); wall = 0
      for (i = 1; i <= k; ++i) wall = wall * 60 + a[i]
    }
    /Maximum resident set size/ { rss = $NF / 1024 }
    END { printf "%s %d %.2f %.2f %.1f %d\n", s, n, wall, cpu, rss, model }' "$dir.time" \
    | tee -a "$TMP/runs"
  rm -rf "$dir"
}

echo "strategy pages wall_s cpu_s peak_rss_mb model_bytes"
for i in $(seq 1 "$RUNS"); do
  run best-first "$i"
  run online "$i"
done
python3 - "$TMP/runs" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
def col(s, f):
    return [f(r) for r in rows if r[0] == s]
def ms(v):
    return f"{st.mean(v):.1f} ± {st.stdev(v) if len(v) > 1 else 0:.1f}"
pps = lambda r: int(r[1]) / float(r[2])
cpu = lambda r: float(r[3]) * 1000 / int(r[1])
print("\n| strategy | pages/s | CPU ms/page | peak RSS MB | model MB |")
print("|---|---:|---:|---:|---:|")
for s in ("best-first", "online"):
    print(f"| {s} | {ms(col(s, pps))} | {ms(col(s, cpu))} | {ms(col(s, lambda r: float(r[4])))} "
          f"| {ms(col(s, lambda r: int(r[5]) / 2**20))} |")
b, o = st.mean(col("best-first", pps)), st.mean(col("online", pps))
bc, oc = st.mean(col("best-first", cpu)), st.mean(col("online", cpu))
print(f"\nonline pages/s = {100 * o / b:.0f} % of best-first's (goal >= 70 %); "
      f"CPU per page = {100 * oc / bc:.0f} % of best-first's")
PY

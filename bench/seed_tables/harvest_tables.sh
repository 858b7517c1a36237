#!/usr/bin/env bash
# Re-measures the seed-000 table (Wang-Landau paper: DP 1k/5k/10k/15k,
# Accuracy, LP, ARDP, SDDP, ARLP, SDLP, recall, time, Friedman ranks) and the
# seed-001 table (Naive-Bayes link crawler) on the two benchmark webs, 5 RNG
# seeds per strategy (issue #17). Results: docs/strategies/wang-landau.md,
# docs/strategies/baselines.md, docs/strategies/naive-bayes.md.
#
# Usage: bench/seed_tables/harvest_tables.sh [OUT]        (default OUT=runs/seed-tables)
#   PARTS="dev zh nb-dev nb-zh"  which parts to run (default: all, in order)
#   DEV_ARGS / ZH_ARGS            crawl-args of the served webs (default: the
#                                 files /work/webs/dev.args, /work/webs/zh.args,
#                                 i.e. what `scripts/webs dev|zh` prints)
#   RUNS=5  DEV_PAGES=15000  ZH_PAGES=5000  NB_PAGES=2000
#   COLLECT_DEV=8000  COLLECT_ZH=4000  collect-links budgets (seed 001 models)
#   (zh: the web has 8,709 pages, so DP 10k/15k do not exist there)
#   EXTRA="..."                   extra crawl flags for every run
#   STRATEGIES=a,b                seed-000 strategies of the dev/zh parts
#                                 (default all five; two batches with
#                                 disjoint lists into one OUT can run side by
#                                 side, then one run with all five makes the
#                                 table from the finished runs)
# Finished runs are reused (compare's default), so an interrupted batch
# resumes where it stopped. compare's times are wall times on a shared
# machine: compare them only within one batch; OUT/NAME/cpu.tsv has each
# run's CPU seconds, which depend far less on the machine's load.
# Run it under `nice -n 10` on a shared machine; finished crawls can be
# deleted once their table is written (keep OUT/NAME/table.* and cpu.tsv).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${TOPICRAWL:-build/topicrawl}
CORPUS=${TOPICRAWL_CORPUS:-../shared/corpus}
OUT=${1:-runs/seed-tables}
PARTS=${PARTS:-dev zh nb-dev nb-zh}
RUNS=${RUNS:-5}
DEV_PAGES=${DEV_PAGES:-15000}
ZH_PAGES=${ZH_PAGES:-5000}
NB_PAGES=${NB_PAGES:-2000}
COLLECT_DEV=${COLLECT_DEV:-8000}
COLLECT_ZH=${COLLECT_ZH:-4000}
EXTRA=${EXTRA:-}
DEV_ARGS=${DEV_ARGS:-$(cat /work/webs/dev.args)}
ZH_ARGS=${ZH_ARGS:-$(cat /work/webs/zh.args)}
SEED000=${STRATEGIES:-bfs,best-first,shark-search,annealing,wang-landau}
mkdir -p "$OUT"
log() { echo "== $(date +%H:%M:%S) $*" >&2; }

compare() {  # compare NAME WEB_ARGS compare-flags...
  local name=$1 web=$2 extra=$EXTRA
  shift 2
  case $name in nb-*) extra="--concurrency 16 --per-host 4${EXTRA:+ $EXTRA}" ;; esac  # seed-001 protocol
  # Side-by-side batches (STRATEGIES) keep their own log and time files.
  local tag=$name${STRATEGIES:+-${STRATEGIES//,/+}}
  log "compare $tag"
  # shellcheck disable=SC2086  # web args and EXTRA are flag lists
  /usr/bin/time -f "%e s wall, %U s user, %S s sys" -o "$OUT/$tag.time" \
    "$BIN" compare "$@" $web --runs "$RUNS" --out "$OUT/$name" \
    ${extra:+--extra-crawl-args "$extra"} > "$OUT/$tag.log" 2>&1
  log "done $tag: $(cat "$OUT/$tag.time")"
  cpu_table "$OUT/$name"
}

# CPU seconds of every run (sum over the crawl's threads, from the "cpu by
# thread" line each crawl prints at its end): OUT/NAME/cpu.tsv. CPU time,
# unlike wall time, hardly depends on the load of the shared machine.
cpu_table() {
  local dir=$1 log
  printf 'run\tcpu_s\n' > "$dir/cpu.tsv"
  for log in "$dir"/runs/*.log; do
    [ -e "$log" ] || continue
    grep -h '^cpu by thread:' "$log" | tail -1 | tr ',' '\n' |
      awk -v run="$(basename "$log" .log)" \
        '{ for (i = 1; i <= NF; i++) if ($i == "s") s += $(i - 1) }
         END { if (NR) printf "%s\t%.2f\n", run, s }' >> "$dir/cpu.tsv"
  done
}

# NB-judged harvest (seed 001 §4.3.2) of every run of a seed-001 batch.
page_judge() {  # page_judge NAME TOPIC_NAME
  local name=$1 topic=$2 crawls=()
  local run
  for run in "$OUT/$name"/runs/*/; do crawls+=(--crawl "${run%/}"); done
  "$BIN" analyze page-judge --model "runs/nb/$topic/page.nb.json" "${crawls[@]}" \
    --at 500,1000,2000 > "$OUT/$name/page-judge.txt" 2> "$OUT/$name/page-judge.log" ||
    log "page-judge $name failed: see $OUT/$name/page-judge.log"
}

nb_models() {  # nb_models dev|zh TOPIC_NAME WEB_ARGS PAGES: collect, train (seed 001 §3.2)
  local web=$1 topic=$2 args=$3 pages=$4
  local models=runs/nb/$topic  # where data/topics/$topic-nb.toml points
  mkdir -p "$models"
  if [ ! -s "$models/link-g2.nb.json" ]; then
    log "collect-links $topic"
    # shellcheck disable=SC2086
    "$BIN" collect-links --seeds "$CORPUS/homes/$web-homes.tsv" \
      --topic "data/topics/$topic-nb.toml" --out "$OUT/nb-$topic-data" \
      --max-pages "$pages" --delay 0 $args > "$OUT/nb-$topic-collect.log" 2>&1
    "$BIN" train link-nb --data "$OUT/nb-$topic-data" --features 2 --all \
      --out "$models/link-g2.nb.json" > "$OUT/nb-$topic-train.log" 2>&1
    "$BIN" train page-nb --data "$OUT/nb-$topic-data" --all \
      --out "$models/page.nb.json" >> "$OUT/nb-$topic-train.log" 2>&1
  fi
}

for part in $PARTS; do
  case $part in
    dev)
      compare dev-networking "$DEV_ARGS" --strategies "$SEED000" \
        --seeds "$CORPUS/homes/dev-homes.tsv" --topic "$CORPUS/topics/dev-networking.txt" \
        --labels "$CORPUS/labels/dev-networking.tsv" --max-pages "$DEV_PAGES" \
        --at 1000,5000,10000,15000 ;;
    zh)
      compare zh-security "$ZH_ARGS" --strategies "$SEED000" \
        --seeds "$CORPUS/homes/zh-homes.tsv" --topic "$CORPUS/topics/zh-security.txt" \
        --labels "$CORPUS/labels/zh-security.tsv" --max-pages "$ZH_PAGES" \
        --at 1000,2000,3000,5000 ;;
    nb-dev)
      nb_models dev dev-networking "$DEV_ARGS" "$COLLECT_DEV"
      compare nb-dev-networking "$DEV_ARGS" --strategies nb-link,best-first,bfs \
        --seeds "$CORPUS/homes/dev-homes.tsv" --topic data/topics/dev-networking-nb.toml \
        --labels "$CORPUS/labels/dev-networking.tsv" --max-pages "$NB_PAGES" \
        --at 500,1000,2000
      page_judge nb-dev-networking dev-networking ;;
    nb-zh)
      nb_models zh zh-networking "$ZH_ARGS" "$COLLECT_ZH"
      compare nb-zh-networking "$ZH_ARGS" --strategies nb-link,best-first,bfs \
        --seeds "$CORPUS/homes/zh-homes.tsv" --topic data/topics/zh-networking-nb.toml \
        --labels "$CORPUS/labels/zh-networking.tsv" --max-pages "$NB_PAGES" \
        --at 500,1000,2000
      page_judge nb-zh-networking zh-networking ;;
    *) echo "unknown part '$part' (dev zh nb-dev nb-zh)" >&2; exit 2 ;;
  esac
done
log "all done: $OUT/*/table.md"

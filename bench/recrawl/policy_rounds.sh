#!/usr/bin/env bash
# Incremental-crawl bench (issue 11 item 8; a bench, not a test): the dev web
# evolved over 4 rounds (`web evolve`, default "news-ish" rates), crawled in
# round 0 once (best-first, dev-networking topic, whole web), then recrawled
# round by round with each policy. Prints eval's per-round table (new /
# changed / gone pages found, 304 share, freshness) for full, adaptive and
# nutch, and the CPU seconds and bytes of every round.
#
# Usage: bench/recrawl/policy_rounds.sh [BUDGET]     (BUDGET = adaptive/nutch revisit
#                                             budget, default 30%; full has none)
# Env:   TOPICRAWL  binary (default build/topicrawl)
#        EVO        evolved web directory to use or create
#                   (default /tmp/recrawl_bench/evo, made from /work/webs/dev)
#        BASE       built web to evolve (default /work/webs/dev)
#        OUT        runs directory (default /tmp/recrawl_bench/runs, replaced)
#        POLICIES   default "full adaptive nutch"; NAME:BUDGET gives one policy
#                   its own budget ("hubs:" = none: the policy's choice).
#                   "oracle" (bench only, simulated evolutions): the bound,
#                   planned by $ORACLE (build/bench/recrawl_oracle) from the
#                   evolution's true change rates (E/truth/rates.tsv)
#        ROUND0     a finished round-0 crawl directory to copy instead of
#                   crawling round 0 (same web, seeds and topic)
#        ROUNDS     default 4; SEED default 1 (the evolution's seed)
#        MODEL      evolution model when EVO is created: news (default) or legacy
#        HOMES, TOPIC, LABELS  seeds, topic and labels (default: the dev web's
#                   networking topic; e.g. the zh web's with BASE=/work/webs/zh)
#        HUB_MODEL  a model file for the hubs policy (`recrawl --model`:
#                   train hub-svm --features url or url-site); default none
#                   (the policy trains one on the crawl's own graph)
#        EVOLVE_FLAGS  more `web evolve` flags when EVO is created (e.g. the
#                   announcement knobs: --sitemap-hosts 0.7 --lastmod-accuracy 0.79)
#        HOSTS      space-separated hosts to limit the crawl to (--include-host;
#                   eval --scope-hosts; when EVO is created, only they evolve:
#                   `web evolve --hosts`): the whole dev web takes ~50k fetches
#                   a round, too long on a loaded 2-core machine. Default: all.
# The evolved web is served by this script on its own free ports (the shared
# webs are never touched); `web stop` at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUDGET=${1:-30%}
BIN=${TOPICRAWL:-build/topicrawl}
ORACLE=${ORACLE:-build/bench/recrawl_oracle}
BASE=${BASE:-/work/webs/dev}
EVO=${EVO:-/tmp/recrawl_bench/evo}
OUT=${OUT:-/tmp/recrawl_bench/runs}
ROUNDS=${ROUNDS:-4}
SEED=${SEED:-1}
POLICIES=${POLICIES:-full adaptive nutch}
SHARED=${SHARED:-../shared}
HOMES=${HOMES:-$SHARED/corpus/homes/dev-homes.tsv}
TOPIC=${TOPIC:-$SHARED/corpus/topics/dev-networking.txt}
LABELS=${LABELS:-$SHARED/corpus/labels/dev-networking.tsv}
[ -x /usr/bin/time ] || { echo "recrawl_bench: needs /usr/bin/time" >&2; exit 1; }

if [ ! -s "$EVO/evolve.tsv" ]; then
  mkdir -p "$(dirname "$EVO")"
  EVOLVE_HOSTS=""
  [ -z "${HOSTS:-}" ] || EVOLVE_HOSTS="--hosts $(echo $HOSTS | tr ' ' ',')"
  "$BIN" web evolve --dir "$BASE" --out "$EVO" --rounds "$ROUNDS" --seed "$SEED" --homes "$HOMES" \
    --model "${MODEL:-news}" $EVOLVE_HOSTS ${EVOLVE_FLAGS:-} --force
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port); TLS=$(free_port)
serve() {
  "$BIN" web serve --dir "$EVO" --round "$1" --port "$PORT" --tls-port "$TLS" 2>/dev/null |
    sed -n 's/^crawl-args: //p' | tail -1
}
trap '"$BIN" web stop --dir "$EVO" >/dev/null 2>&1 || true' EXIT
rm -rf "$OUT"; mkdir -p "$OUT"

# One timed run: prints "cpu_s wall_s" of the process.
timed() {
  local log=$1; shift
  /usr/bin/time -f '%U %S %e' -o "$log.time" "$@" > "$log" 2>&1 || {
    echo "recrawl_bench: failed: $*" >&2; tail -5 "$log" >&2; exit 1; }
  awk '{ printf "%.1f %.1f", $1 + $2, $3 }' "$log.time"
}

SCOPE=""; SEEDS=$HOMES; EVAL_SCOPE=""
if [ -n "${HOSTS:-}" ]; then
  SEEDS=$OUT/seeds.tsv
  head -1 "$HOMES" > "$SEEDS"
  for h in $HOSTS; do awk -F'\t' -v h="$h" '$1 == h' "$HOMES" >> "$SEEDS"; SCOPE="$SCOPE --include-host $h"; done
  EVAL_SCOPE=--scope-hosts
fi
ARGS=$(serve 0)
if [ -n "${ROUND0:-}" ]; then
  # Reuse a finished round-0 crawl of the same web (e.g. another policy's
  # bench run): every policy then starts from exactly the same store.
  echo "round 0: copied from $ROUND0" >&2
  cp -a "$ROUND0" "$OUT/round0"
  CPU0=0; WALL0=0
else
  echo "round 0: crawl (best-first${HOSTS:+, hosts $HOSTS}) ..." >&2
  # (`x=$(timed ...) || exit`: an exit inside $(...) leaves only the subshell)
  T=$(timed "$OUT/round0.log" "$BIN" crawl --seeds "$SEEDS" --topic "$TOPIC" \
    --strategy best-first --max-pages 0 --delay 0 $SCOPE $ARGS --out "$OUT/round0") || exit 1
  read -r CPU0 WALL0 <<< "$T"
fi
declare -A CPU
declare -A PBUDGET
NAMES=""
for spec in $POLICIES; do
  p=${spec%%:*}; NAMES="$NAMES $p"
  if [ "$spec" != "$p" ]; then PBUDGET[$p]=${spec#*:}
  elif [ "$p" = full ]; then PBUDGET[$p]=""
  else PBUDGET[$p]=$BUDGET; fi
done
POLICIES=$NAMES
for p in $POLICIES; do cp -a "$OUT/round0" "$OUT/$p"; CPU[$p]="$CPU0"; done
for k in $(seq 1 "$ROUNDS"); do
  ARGS=$(serve "$k")
  for p in $POLICIES; do
    b=""; [ -z "${PBUDGET[$p]}" ] || b="--budget ${PBUDGET[$p]}"
    echo "round $k: recrawl --policy $p $b ..." >&2
    if [ "$p" = oracle ]; then
      # Bench only: the oracle plans with the evolution's true change rates
      # (build/bench/recrawl_oracle), then the planned round runs as a resume.
      "$ORACLE" "$OUT/$p" --truth-dir "$EVO" --budget "${PBUDGET[$p]:-$BUDGET}" 2> "$OUT/$p.round$k.plan" || {
        echo "recrawl_bench: oracle plan failed" >&2; cat "$OUT/$p.round$k.plan" >&2; exit 1; }
      T=$(timed "$OUT/$p.round$k.log" "$BIN" recrawl "$OUT/$p" --resume --delay 0 $ARGS) || exit 1
    else
      m=""; [ "$p" != hubs ] || [ -z "${HUB_MODEL:-}" ] || m="--model $HUB_MODEL"
      T=$(timed "$OUT/$p.round$k.log" "$BIN" recrawl "$OUT/$p" --policy "$p" $b $m --delay 0 $ARGS) || exit 1
    fi
    read -r c w <<< "$T"
    CPU[$p]="${CPU[$p]} $c"
  done
done

echo "evolved web: $EVO ($(grep -E '^(model|seed|new_rate|change_rate|gone_rate|hidden_at_start|rate_shape|index_change_share|hosts)' "$EVO/evolve.tsv" | tr '\t\n' '= '))"
echo "round 0 crawl: ${CPU0} s CPU, ${WALL0} s wall (shared by all policies)"
for p in $POLICIES; do
  echo
  echo "== $p (budget ${PBUDGET[$p]:-none}) — CPU s per round (0..$ROUNDS): ${CPU[$p]}"
  "$BIN" eval "$OUT/$p" --truth-dir "$EVO" --labels "$LABELS" $EVAL_SCOPE
  "$BIN" eval "$OUT/$p" --truth-dir "$EVO" --labels "$LABELS" $EVAL_SCOPE --json > "$OUT/$p.json"
done

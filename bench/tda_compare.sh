#!/bin/bash
# Seed 002's third experiment (issue 14, docs/tda.md "TDA vs static ontology
# vs Shark-search"): for one evolve/crawl seed S, three crawlers on the
# evolved dev web, each its own round 0 and then rounds 1..6 with the same
# budget, `eval --truth-dir` after every round:
#   tda    strategy tda (SDTP, fastText vectors + DSV retrained from the
#          crawl), round policy topichub            -- the paper's TDA-Crawler
#   onto   strategy tda with alpha = 0 and no training (StaticSim only: the
#          static-ontology crawler), round policy static
#   shark  strategy shark-search, round policy static
# A bench, not a test.
#
# Usage: bench/tda_compare.sh S [B0] [B]   (defaults 1000 and 400)
#        ROUNDS (default 6): the rounds after round 0.
# Env:   BIN (default build/topicrawl), EVO (default /work/webs/tda-dev-evo;
#        the web is EVO/sS), OUT (default /work/runs/tda/compare), SHARED,
#        DIM / EPOCH (fastText of the tda arm; default 32 / 3, reduced from
#        the strategy's 64 / 5 to fit a shared 2-core machine).
# Runs its commands under nice -n 10 itself (do not nice the script too).
set -u
cd "$(dirname "$0")/.."
s=$1; B0=${2:-1000}; B=${3:-400}
HOSTS="www.erlang.org doc.qt.io httpd.apache.org docs.python.org docs.djangoproject.com git-scm.com www.postgresql.org nodejs.org www.sqlite.org cmake.org"
BIN=${BIN:-build/topicrawl}
SHARED=${SHARED:-../shared}; [ -d "$SHARED" ] || SHARED=../../shared  # a worktree under /work/wt
E=${EVO:-/work/webs/tda-dev-evo}/s$s
R=${OUT:-/work/runs/tda/compare}/s$s
H=$SHARED/corpus/homes/dev-homes.tsv
L=$SHARED/corpus/labels/dev-networking.tsv
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port); TLS=$(free_port)
serve() { $BIN web serve --dir "$E" --round "$1" --port "$PORT" --tls-port "$TLS" 2>/dev/null | sed -n 's/^crawl-args: //p' | tail -1; }
rm -rf "$R"; mkdir -p "$R"
KW="$(awk -F'\t' 'NF >= 2 && $1 !~ /^#/ { printf "%s\"%s\" = %s", n++ ? ", " : "", $1, $2 }' $SHARED/corpus/topics/dev-networking.txt)"
topic() { printf '[topic]\nname = "dev-networking"\nbeta = 0.5\nkeywords = { %s }\n%s' "$KW" "$1" > "$R/$2.toml"; }
topic "[strategy.tda]
dim = ${DIM:-32}
epoch = ${EPOCH:-3}
threads = 1
seed = $s
" tda
topic "[strategy.tda]
alpha = 0.0
retrain_pages = 1000000000
" onto
topic "" shark
SEEDS=$R/seeds.tsv; head -1 $H > $SEEDS; SCOPE=""
for h in $HOSTS; do awk -F'\t' -v h="$h" '$1 == h' $H >> $SEEDS; SCOPE="$SCOPE --include-host $h"; done
t() { /usr/bin/time -f "%U %S %e" -a -o "$R/times.txt" "$@"; }
echo "# arm round user sys wall" > "$R/times.txt"
ARGS=$(serve 0)
echo "s$s round 0 $(date +%T)"
for arm in tda onto shark; do
  case $arm in tda|onto) strat=tda ;; shark) strat=shark-search ;; esac
  echo -n "$arm 0 " >> "$R/times.txt"
  t nice -n 10 $BIN crawl --seeds $SEEDS $SCOPE --topic "$R/$arm.toml" --strategy $strat --max-pages $B0 --delay 0 --rng-seed $s $ARGS --out "$R/$arm" > "$R/$arm.log" 2>&1 || { echo "crawl $arm failed"; tail -3 "$R/$arm.log"; exit 1; }
done
for k in $(seq 1 "${ROUNDS:-6}"); do
  ARGS=$(serve $k)
  for arm in tda onto shark; do
    case $arm in tda) pol=topichub ;; *) pol=static ;; esac
    echo -n "$arm $k " >> "$R/times.txt"
    t nice -n 10 $BIN recrawl "$R/$arm" --policy $pol --budget $B --max-pages $B --delay 0 $SCOPE $ARGS >> "$R/$arm.log" 2>&1 || { echo "recrawl $arm $k failed"; tail -3 "$R/$arm.log"; }
  done
  echo "s$s round $k done $(date +%T)"
done
$BIN web stop --dir "$E" > /dev/null 2>&1
for arm in tda onto shark; do
  $BIN eval "$R/$arm" --truth-dir "$E" --scope-hosts --labels $L --json > "$R/$arm.eval.json" 2> "$R/$arm.eval.err"
  $BIN eval "$R/$arm" --labels $L --json > "$R/$arm.harvest.json" 2>/dev/null
done
echo "s$s finished $(date +%T)"

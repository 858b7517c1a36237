#!/usr/bin/env bash
# Issue 13 item 6 / acceptance (a bench, not a test): the `hubs` round policy
# against `full` and `adaptive` over several evolution seeds. For each web
# (dev: a subset of hosts, zh: the whole web) and each seed it builds an
# evolved web (`web evolve --rounds 4 --seed S`, hidden-at-start 8 %), then
# runs bench/recrawl/policy_rounds.sh for rounds 1..ROUNDS (it serves the evolved web
# on its own ports and stops it), keeps the eval text and JSON, and deletes
# the crawl directories and (with KEEP_WEBS=0) the evolved web.
# Summarise with bench/hubs_policy/summary.py OUTROOT.
#
# Env: TOPICRAWL (binary, default build/topicrawl), SEEDS (default "1 2 3 4 5"),
#      WEBS (default "dev zh"), ROUNDS (default 3), BUDGET (default 14%, for
#      hubs and adaptive), WEBROOT (evolved webs, default /work/webs),
#      OUTROOT (default /work/runs/hubs/incr), SHARED (default /work/shared),
#      DEV_HOSTS (default: the 8 hosts of docs/strategies/hub-svm.md), KEEP_WEBS (1).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${TOPICRAWL:-build/topicrawl}
SEEDS=${SEEDS:-1 2 3 4 5}
WEBS=${WEBS:-dev zh}
ROUNDS=${ROUNDS:-3}
BUDGET=${BUDGET:-14%}  # docs/strategies/hub-svm.md: 22 % leaves no room for seed 2's dead links
WEBROOT=${WEBROOT:-/work/webs}
OUTROOT=${OUTROOT:-/work/runs/hubs/incr}
SHARED=${SHARED:-/work/shared}
DEV_HOSTS=${DEV_HOSTS:-docs.python.org www.postgresql.org www.sqlite.org httpd.apache.org git-scm.com docs.sqlalchemy.org nodejs.org docs.djangoproject.com}
mkdir -p "$OUTROOT"
for web in $WEBS; do
  for s in $SEEDS; do
    evo=$WEBROOT/hubs-$web-s$s
    out=$OUTROOT/$web-s$s
    [ -s "$out.txt" ] && { echo "skip $web seed $s (have $out.txt)" >&2; continue; }
    hosts=""; [ "$web" = dev ] && hosts=$DEV_HOSTS
    if [ ! -s "$evo/evolve.tsv" ]; then
      h=""; [ -z "$hosts" ] || h="--hosts $(echo $hosts | tr ' ' ',')"
      "$BIN" web evolve --dir "$WEBROOT/$web" --out "$evo" --rounds 4 --seed "$s" \
        --homes "$SHARED/corpus/homes/$web-homes.tsv" $h --force > "$out.evolve.log" 2>&1
    fi
    echo "== $web seed $s" >&2
    TOPICRAWL=$BIN EVO=$evo OUT=$out ROUNDS=$ROUNDS SHARED=$SHARED HOSTS="$hosts" \
      HOMES=$SHARED/corpus/homes/$web-homes.tsv TOPIC=$SHARED/corpus/topics/$web-networking.txt \
      LABELS=$SHARED/corpus/labels/$web-networking.tsv \
      POLICIES="full hubs:$BUDGET adaptive:$BUDGET" bench/recrawl/policy_rounds.sh > "$out.txt.part" 2> "$out.err"
    mkdir -p "$out.json"
    for p in full hubs adaptive; do cp "$out/$p.json" "$out.json/$p.json"; done
    mv "$out.txt.part" "$out.txt"
    rm -rf "$out"
    [ "${KEEP_WEBS:-1}" = 1 ] || rm -rf "$evo"
  done
done

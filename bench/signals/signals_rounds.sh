#!/usr/bin/env bash
# The `signals` round policy against `adaptive` and `full` (issue 34): for
# each evolution seed, one evolved web (3 rounds, default announcement
# realism), one round-0 crawl shared by every policy, then
#   default   full, adaptive (30 %), signals (30 %)   bench/recrawl/policy_rounds.sh
#   nosm      signals (30 %) with no host announcing   (web announce --sitemap-hosts 0)
#   accurate  signals (30 %) with every host announcing true lastmods
#             (web announce --sitemap-hosts 1 --lastmod-accuracy 1 --lastmod-wrong 0)
# The variants rewrite only the evolved web's announcement files and reuse
# the seed's round 0 (its crawl does not read sitemaps).
#
# Usage: bench/signals/signals_rounds.sh WEB SEED...   (WEB: dev, zh or third; e.g. zh 1 2 3 4 5)
# Env:   RUNS (default /work/runs/sitemaps), HOSTS (crawl and evolve only
#        these hosts), BUDGET (default 30%), ROUNDS (default 3), TOPIC/LABELS
#        (default WEB-networking; third: data/webs/third's http topic),
#        TOPICRAWL (binary).
# Then:  bench/recrawl/summary.py RUNS/WEB-s*/ and RUNS/WEB-*-s*/ (tables).
set -euo pipefail
cd "$(dirname "$0")/../.."
WEB=${1:?usage: bench/signals/signals_rounds.sh dev|zh|third SEED...}; shift
RUNS=${RUNS:-/work/runs/sitemaps}
BIN=${TOPICRAWL:-build/topicrawl}
BUDGET=${BUDGET:-30%}
export ROUNDS=${ROUNDS:-3}
export BASE=/work/webs/$WEB
if [ "$WEB" = third ]; then
  export HOMES=${HOMES:-data/webs/third/homes/third-homes.tsv}
  export TOPIC=${TOPIC:-data/webs/third/topics/third-http.txt}
  export LABELS=${LABELS:-data/webs/third/labels/third-http.tsv}
else
  export HOMES=${HOMES:-../shared/corpus/homes/$WEB-homes.tsv}
  export TOPIC=${TOPIC:-../shared/corpus/topics/$WEB-networking.txt}
  export LABELS=${LABELS:-../shared/corpus/labels/$WEB-networking.tsv}
fi
mkdir -p "$RUNS"
for seed in "$@"; do
  export SEED=$seed EVO=$RUNS/$WEB-evo-s$seed
  OUT=$RUNS/$WEB-s$seed POLICIES="full adaptive signals" nice -n 10 bench/recrawl/policy_rounds.sh "$BUDGET" \
    > "$RUNS/$WEB-s$seed.txt"
  "$BIN" web announce --dir "$EVO" --sitemap-hosts 0
  OUT=$RUNS/$WEB-nosm-s$seed ROUND0=$RUNS/$WEB-s$seed/round0 POLICIES="signals" \
    nice -n 10 bench/recrawl/policy_rounds.sh "$BUDGET" > "$RUNS/$WEB-nosm-s$seed.txt"
  "$BIN" web announce --dir "$EVO" --sitemap-hosts 1 --lastmod-accuracy 1 --lastmod-wrong 0
  OUT=$RUNS/$WEB-accurate-s$seed ROUND0=$RUNS/$WEB-s$seed/round0 POLICIES="signals" \
    nice -n 10 bench/recrawl/policy_rounds.sh "$BUDGET" > "$RUNS/$WEB-accurate-s$seed.txt"
  "$BIN" web announce --dir "$EVO"  # back to the default realism
done

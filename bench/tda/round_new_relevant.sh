#!/bin/bash
# Seed 002's round experiment (issue 14, docs/strategies/tda.md "Rounds"): for one
# evolve/crawl seed S, a round-0 crawl of the evolved dev web, copied, then
# rounds 1..6 with the round policies `topichub` and `static` on the copies
# (same budget), `eval --truth-dir` after every round. A bench, not a test.
#
# Usage: bench/tda/round_new_relevant.sh S [B0] [B]   (B0 round-0 pages, default 1500;
#                                         B fetches a round, default 600)
# Env:   BIN (default build/topicrawl), STRAT (strategy, default best-first),
#        ARMS (default "topichub static"; "topichub-breadth" is topichub with
#        [strategy.tda] hub_budget = "breadth", the first version's plan),
#        EVO (default /work/webs/tda-dev-evo; the web is EVO/sS, made with
#        `web evolve --rounds 6 --seed S`), OUT (default /work/runs/tda/rounds),
#        SHARED (default ../shared).
# Serves EVO/sS itself on free ports and stops it at the end (one run a
# served directory at a time). Runs its commands under nice -n 10 itself.
set -u
cd "$(dirname "$0")/../.."
s=$1; B0=${2:-1500}; B=${3:-600}
DEFAULT_OUT=/work/runs/tda/rounds
. bench/tda/common.sh
T=$R.topic.toml   # dev-networking with beta 0.5 (TopicHub's "relevant")
printf '[topic]\nname = "dev-networking"\nbeta = 0.5\nkeywords = { %s }\n' "$KW" > "$T"
ARGS=$(serve 0)
echo "s$s round 0 args: $ARGS $(date +%T)"
STRAT=${STRAT:-best-first}
for arm in bf; do
  strat=$STRAT
  echo -n "$arm 0 " >> "$R/times.txt"
  t nice -n 10 $BIN crawl --seeds $SEEDS $SCOPE --topic $T --strategy $strat --max-pages $B0 --delay 0 --rng-seed $s $ARGS --out "$R/$arm-0" > "$R/$arm-0.log" 2>&1 || { echo "crawl $arm failed"; tail -3 "$R/$arm-0.log"; exit 1; }
done
ARMS=${ARMS:-topichub static}
DIRS=""
for a in $ARMS; do
  cp -a "$R/bf-0" "$R/bf-$a"; DIRS="$DIRS bf-$a"
  if [ "$a" = topichub-breadth ]; then  # same topic, the first version's revisit plan
    { cat "$T"; printf '[strategy.tda]\nhub_budget = "breadth"\n'; } > "$R.breadth.toml"
    sed -i "s|^topic_file = .*|topic_file = \"$R.breadth.toml\"|" "$R/bf-$a/config.toml"
  fi
done
rm -rf "$R/bf-0"
for k in 1 2 3 4 5 6; do
  ARGS=$(serve $k)
  for d in $DIRS; do
    pol=${d#bf-}; pol=${pol%-breadth}
    echo -n "$d $k " >> "$R/times.txt"
    t nice -n 10 $BIN recrawl "$R/$d" --policy $pol --budget $B --max-pages $B --delay 0 $SCOPE $ARGS >> "$R/$d.log" 2>&1 || { echo "recrawl $d $k failed"; tail -3 "$R/$d.log"; }
  done
  for d in $DIRS; do
    $BIN eval "$R/$d" --truth-dir "$E" --scope-hosts --labels $L --json > "$R/$d.eval.json" 2> "$R/$d.eval.err"
  done
  echo "s$s round $k done $(date +%T)"
done
stop_web
for d in $DIRS; do
  $BIN eval "$R/$d" --truth-dir "$E" --scope-hosts --labels $L --json > "$R/$d.eval.json" 2> "$R/$d.eval.err"
  $BIN eval "$R/$d" --truth-dir "$E" --scope-hosts --labels $L > "$R/$d.eval.txt" 2>&1
done
for d in $DIRS; do $BIN eval "$R/$d" --labels $L --json > "$R/$d.harvest.json" 2>/dev/null; done
echo "s$s finished $(date +%T)"

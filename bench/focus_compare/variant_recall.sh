#!/usr/bin/env bash
# Recall at 3|R| of one strategy with given `[strategy.NAME]` keys, over
# RNG seeds 1..5 (mean and population sd): for ablations of a strategy's
# parameters on a served web (the full comparison with the oracle row is
# run.sh).
#
# Usage: bench/focus_compare/variant_recall.sh TAG ARGS_FILE HOMES TOPIC LABELS STRATEGY "KEYS" [SEEDS]
#   TAG        run name (OUT/TAG/r<seed>)
#   ARGS_FILE  a file holding the served web's crawl flags (`web serve` prints them)
#   TOPIC      a keyword list (keyword<TAB>weight); it is written as TOML with
#   KEYS       the `[strategy.STRATEGY]` lines, "\n"-separated, e.g. 'exploration = 0\ngamma = 0'
#   SEEDS      default "1 2 3 4 5"
# Env: BIN (default build/topicrawl), OUT (default /tmp/variant-recall).
# Prints: TAG r1 .. r5 mean M sd S
set -u
[ $# -ge 7 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
TAG=$1 ARGS_FILE=$2 HOMES=$3 TOPIC=$4 LABELS=$5 STRAT=$6 KEYS=$7 SEEDS=${8:-"1 2 3 4 5"}
BIN=${BIN:-build/topicrawl}
OUT=${OUT:-/tmp/variant-recall}
R=$(awk -F'\t' '$2 == 1' "$LABELS" | wc -l)
B=$((3 * R))
D=$OUT/$TAG
mkdir -p "$D"
{
  echo "[topic]"
  printf "keywords = { "
  awk -F'\t' 'NF >= 2 { printf "%s\"%s\" = %s", (n++ ? ", " : ""), $1, $2 }' "$TOPIC"
  echo " }"
  echo "[strategy.$STRAT]"
  printf "%b\n" "$KEYS"
} > "$D/topic.toml"
ARGS=$(cat "$ARGS_FILE")
for s in $SEEDS; do
  rm -rf "$D/r$s"
  # shellcheck disable=SC2086  # ARGS is a flag list
  nice -n 5 "$BIN" crawl --strategy "$STRAT" --seeds "$HOMES" --topic "$D/topic.toml" \
    --max-pages "$B" --delay 0 --rng-seed "$s" --out "$D/r$s" $ARGS > "$D/r$s.log" 2>&1 ||
    echo "seed $s: crawl failed (see $D/r$s.log)" >&2
  "$BIN" eval "$D/r$s" --labels "$LABELS" --at "$B" --json 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["checkpoints"][-1]["recall"])' \
      > "$D/r$s.recall" 2>/dev/null || echo "seed $s: no recall" >&2
done
python3 - "$D" "$TAG" $SEEDS <<'PY'
import statistics as st, sys
d, tag = sys.argv[1], sys.argv[2]
v = []
for s in sys.argv[3:]:
    try:
        v.append(float(open(f"{d}/r{s}.recall").read().split()[0]))
    except (OSError, ValueError, IndexError):
        print(f"seed {s}: no recall", file=sys.stderr)
if v:
    print(tag, " ".join(f"{x:.3f}" for x in v), f"mean {st.mean(v):.3f} sd {st.pstdev(v):.3f}")
PY

#!/bin/bash
# Spot check of an evolved web against its truth (docs/guides/rounds.md):
#   bench/evolved_web/truth_check.sh E K PORT [topicrawl binary]
# serves rounds K-1 and K of E on 127.0.0.1:PORT (and PORT+1 for TLS),
# fetches every 97th URL of each truth state of round K (at most 15) from
# both rounds with curl, and counts the URLs whose answers match the state:
# new = 404 then 200, gone = 200 then 404/410, changed = 200 both with other
# bytes, unchanged = same bytes. Leaves round K served.
set -u
E=$1; K=$2; P=$3; T=$(realpath "${4:-build/topicrawl}")
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT; cd "$W"
mkdir -p s
for st in new changed unchanged gone; do grep -P "\t$st$" $E/truth/round-$K.tsv | awk 'NR%97==1' | head -15 | cut -f1 > s/$st.txt; done
for r in $((K-1)) $K; do
  $T web serve --dir $E --round $r --port $P --tls-port $((P+1)) >/dev/null 2>&1
  for st in new changed unchanged gone; do i=0; while read u; do i=$((i+1)); curl -s --connect-to :80:127.0.0.1:$P -o s/$st-$i-$r.body -w "%{http_code}\n" "$u" > s/$st-$i-$r.code; done < s/$st.txt; done
done
for st in new changed unchanged gone; do n=$(wc -l < s/$st.txt); ok=0
  for i in $(seq 1 $n); do a=$(cat s/$st-$i-$((K-1)).code); b=$(cat s/$st-$i-$K.code)
    case $st in
      new) [ "$a" = 404 ] && [ "$b" = 200 ] && ok=$((ok+1));;
      gone) [ "$a" = 200 ] && { [ "$b" = 404 ] || [ "$b" = 410 ]; } && ok=$((ok+1));;
      changed) [ "$a" = 200 ] && [ "$b" = 200 ] && ! cmp -s s/$st-$i-$((K-1)).body s/$st-$i-$K.body && ok=$((ok+1));;
      unchanged) [ "$a" = 200 ] && [ "$b" = 200 ] && cmp -s s/$st-$i-$((K-1)).body s/$st-$i-$K.body && ok=$((ok+1));;
    esac; done
  echo "round $K $st: $ok/$n as the truth says"; done

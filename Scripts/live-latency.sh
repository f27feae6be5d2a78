#!/usr/bin/env bash
# Time from another process's one-item import to the terminal UI showing it.
#
#   Scripts/live-latency.sh CORPUS.jsonl [ROUNDS]
#
# Builds an index from CORPUS in a scratch folder, opens the release UI on it
# in a detached tmux session with a query typed, then imports one new item at
# a time from another process and polls the screen until the item shows.
# Prints, per round, the importing command's own time and the time from its
# exit to the screen (no key is sent in between).
set -euo pipefail
corpus=${1:?usage: live-latency.sh CORPUS.jsonl [ROUNDS]}
rounds=${2:-5}
bin=$(cd "$(dirname "$0")/.." && pwd)/.build/release/searchlight
[ -x "$bin" ] || { echo "build first: swift build -c release" >&2; exit 1; }
work=$(mktemp -d)
trap 'tmux -L live kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
index=$work/index.sqlite
"$bin" index import "$corpus" --index "$index" >/dev/null
"$bin" search warmup --index "$index" --limit 1 >/dev/null   # leaves a snapshot
now() { date +%s.%N; }
TERM=xterm-256color tmux -L live new-session -d -x 100 -y 30 "$bin --index '$index'"
until tmux -L live capture-pane -p | grep -q 'Type to search'; do sleep 0.05; done
tmux -L live send-keys -l "zqxlive"
sleep 1
printf 'round\timport_s\tto_screen_s\n'
for round in $(seq 1 "$rounds"); do
  sleep "0.$((RANDOM % 9 + 1))"   # imports at random moments of the UI's loop
  printf '{"uniqueIdentifier":"live/%s","visibility":"public","attributeSet":{"title":"Zqxlive round%s"}}\n' \
    "$round" "$round" > "$work/one.jsonl"
  t0=$(now)
  "$bin" index import "$work/one.jsonl" --index "$index" >/dev/null
  t1=$(now)
  until tmux -L live capture-pane -p | grep -Eq " $round results? ·"; do sleep 0.005; done
  t2=$(now)
  printf "%s\t%.3f\t%.3f\n" "$round" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
done

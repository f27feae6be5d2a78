#!/usr/bin/env bash
# Records every bundled demo (Data/demos/*.demo) as an asciicast v2 file in
# Docs/demos/, at 100x30 and a human pace: `asciinema play Docs/demos/typos.cast`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${SEARCHLIGHT:-$root/.build/release/searchlight}
[ -x "$bin" ] || { echo "build first: swift build -c release (or set SEARCHLIGHT)" >&2; exit 1; }
mkdir -p "$root/Docs/demos"
for demo in "$root"/Data/demos/*.demo; do
  name=$(basename "$demo" .demo)
  "$bin" demo "$demo" --cast "$root/Docs/demos/$name.cast" --size 100x30 --data "$root/Data"
  echo "Docs/demos/$name.cast"
done

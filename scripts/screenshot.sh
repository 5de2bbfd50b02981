#!/usr/bin/env bash
# Screenshot of the built app (dist/) for a visual check: scripts/screenshot.sh '#/gallery' out.png [width] [height]
# Build first with `trunk build` (or --release). Serves dist/ on a free loopback port for the shot.
# SCHEME=dark renders with prefers-color-scheme: dark.
set -euo pipefail
source "$(dirname "$0")/env.sh"
route="${1:-#/}"; out="${2:-screenshot.png}"; width="${3:-1400}"; height="${4:-2400}"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$ROOT/dist" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do curl -s "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.1; done
profile=$(mktemp -d)
scheme_flag=()
[[ "${SCHEME:-light}" == dark ]] && scheme_flag=(--force-dark-mode)
"$CHROMIUM" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
  "${scheme_flag[@]}" --user-data-dir="$profile" --window-size="$width,$height" --virtual-time-budget=3000 \
  --screenshot="$out" "http://127.0.0.1:$port/$route" 2>/dev/null
rm -rf "$profile"
echo "$out"

#!/usr/bin/env bash
# Sets up what is missing, then serves the app with live reload on http://127.0.0.1:8080.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/setup.sh"
cd "$ROOT"
exec trunk serve "$@"

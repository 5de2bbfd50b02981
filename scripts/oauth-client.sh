#!/usr/bin/env bash
# Writes the app's OAuth Client ID Metadata Document, oauth/client.json, into the build (a Trunk
# post_build hook) when AUTOUI_PUBLIC_URL names where the app is deployed: an https URL ending in
# `/`, e.g. https://dashboards.example.com/autoui/. Authorization servers that support such documents
# fetch it from there, and the document's URL is then the app's client_id (no registration needed).
# Without AUTOUI_PUBLIC_URL nothing is written and the app registers itself where it can.
#   AUTOUI_PUBLIC_URL=https://example.com/ scripts/oauth-client.sh <dir>   (by hand: writes <dir>/oauth/client.json)
set -euo pipefail
public="${AUTOUI_PUBLIC_URL:-}"
[[ -n "$public" ]] || exit 0
# Only characters that need no escaping in JSON, and https (authorization servers fetch it).
if [[ ! "$public" =~ ^https://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~/-]*)?/$ ]]; then
  echo "AUTOUI_PUBLIC_URL must be an https URL ending in / (got: $public)" >&2
  exit 1
fi
out="${1:-${TRUNK_STAGING_DIR:?run by Trunk as a post_build hook, or pass the output directory}}/oauth"
mkdir -p "$out"
cat >"$out/client.json" <<JSON
{
  "client_id": "${public}oauth/client.json",
  "client_name": "autoui",
  "client_uri": "${public}",
  "redirect_uris": ["${public}oauth/callback.html"],
  "grant_types": ["authorization_code", "refresh_token"],
  "response_types": ["code"],
  "token_endpoint_auth_method": "none",
  "application_type": "web"
}
JSON

#!/usr/bin/env bash
# Starts the real Marquee binary for the end-to-end journeys on a fresh SQLite database.
# The data folder is test-output/e2e-data-<port> (env.ts DATA_FOLDER), so the journeys can read the
# mail files, and two servers on two ports keep apart.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
webapp="$(dirname "$here")"
# MARQUEE_BIN points at another build of the binary; by default the one `make build` makes.
bin="${MARQUEE_BIN:-$(dirname "$webapp")/bin/marquee}"
port="${E2E_PORT:-18181}"
data="$webapp/test-output/e2e-data-$port"

if [[ ! -x "$bin" ]]; then
  echo "start-server: $bin is missing; run 'make build' first" >&2
  exit 1
fi

rm -rf "$data"
mkdir -p "$data"

export PORT="$port"
export DATA_DIR="$data"
export BASE_URL="http://127.0.0.1:$port"
export MAIL_POLL_INTERVAL=1s
export SIGNIN_RATE_LIMIT=1000
export RESET_RATE_LIMIT=1000
export SIGNUP_RATE_LIMIT=1000
export UPLOAD_RATE_LIMIT=1000
export LOG_FORMAT=text
export LOG_LEVEL=warn
# Webhooks: the journey's receiver listens on loopback over http, which only
# development allows; deliveries are polled every second.
export WEBHOOK_ALLOW_PRIVATE=true
export WEBHOOK_POLL_INTERVAL=1s
# The map tiles: a host that never resolves (RFC 2606), so the journeys are offline wherever they
# run, and the map draws its built-in basemap without asking for tiles.
export TILE_URL="${TILE_URL:-https://tiles.invalid/{z}/{x}/{y}.png}"

"$bin" migrate
"$bin" seed --demo
exec "$bin" serve

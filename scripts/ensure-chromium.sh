#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing: Playwright drives the system browser
# (never `playwright install`, which cannot download here).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "Installing Chromium for the end-to-end tests (apt-get install chromium)..."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "Chromium is missing and this user cannot install it: run 'apt-get install -y chromium' as root" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version

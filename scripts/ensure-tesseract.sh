#!/usr/bin/env bash
# Installs Debian's Tesseract OCR (5.3.0 on bookworm) when it is missing: the creative pre-flight
# reads the text of uploaded images with the `tesseract` CLI (docs/creatives.md "OCR"), so the
# server stays CGO_ENABLED=0.
set -euo pipefail
if command -v tesseract >/dev/null && tesseract --list-langs 2>/dev/null | grep -qx eng; then
  exit 0
fi
echo "Installing Tesseract for the creative pre-flight (apt-get install tesseract-ocr tesseract-ocr-eng)..."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "Tesseract is missing and this user cannot install it: run 'apt-get install -y tesseract-ocr tesseract-ocr-eng' as root" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng >/dev/null
tesseract --version | head -1

#!/usr/bin/env bash
# Makes sure a Traditional-Chinese font is installed, so screenshots show the text rather than empty boxes
# (Debian: fonts-noto-cjk). Installs it as root like the test command installs Chromium; otherwise says how.
# The tests themselves do not need it: they read the page's text, not its pixels.
set -euo pipefail
if fc-list :lang=zh-tw family 2>/dev/null | grep -q .; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's fonts-noto-cjk for legible screenshots…"
  apt-get update -qq && apt-get install -y -qq fonts-noto-cjk >/dev/null
else
  echo "No Traditional-Chinese font: screenshots will show boxes. Install one as root with: apt-get install -y fonts-noto-cjk" >&2
fi

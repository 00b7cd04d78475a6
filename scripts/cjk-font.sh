#!/usr/bin/env bash
# Makes sure a Traditional-Chinese font and a colour emoji font are installed, so screenshots show the text and the
# children's avatars rather than empty boxes (Debian: fonts-noto-cjk, fonts-noto-color-emoji). Installs them as root
# like the test command installs Chromium; otherwise says how. The tests themselves do not need them: they read the
# page's text, not its pixels.
set -euo pipefail
missing=()
fc-list :lang=zh-tw family 2>/dev/null | grep -q . || missing+=(fonts-noto-cjk)
fc-list 2>/dev/null | grep -qi "color emoji" || missing+=(fonts-noto-color-emoji)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's ${missing[*]} for legible screenshots…"
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "Screenshots will show boxes. Install as root with: apt-get install -y ${missing[*]}" >&2
fi

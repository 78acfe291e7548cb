#!/usr/bin/env bash
# Opens the DocC site of `make docs` in headless Chromium and saves a screenshot of the BlazeKit
# landing page (and one article), so a broken site is seen, not assumed. Not part of `make test`
# (it needs Chromium, ~300 MB: installed from Debian if missing).
#
#   Tools/docs/check_docs_site.sh [SITE_DIR] [OUT_DIR]     (defaults: docs-site, docs-site-check)
set -euo pipefail
cd "$(dirname "$0")/../.."
site=${1:-docs-site}
out=${2:-docs-site-check}
[ -f "$site/index.html" ] || { echo "check_docs_site: $site/index.html missing; run make docs first" >&2; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium >&2
  browser=$(command -v chromium)
fi
mkdir -p "$out"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 -d "$site" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 1
for page in documentation/blazekit documentation/blazekit/camerabuffers documentation/blazekit/facelandmarker; do
  name=$(echo "$page" | tr '/' '_')
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 --virtual-time-budget=8000 \
    --screenshot="$out/$name.png" "http://127.0.0.1:$port/$page" >/dev/null 2>&1
  size=$(stat -c %s "$out/$name.png" 2>/dev/null || echo 0)
  # The DocC app renders with JavaScript; an empty page compresses to a few kilobytes.
  [ "$size" -gt 20000 ] || { echo "check_docs_site: $page rendered nearly empty ($size bytes)" >&2; exit 1; }
  echo "check_docs_site: $page -> $out/$name.png ($size bytes)"
done

#!/usr/bin/env bash
# The browser UI test drives Debian's Chromium (/usr/bin/chromium) with playwright-core. On a fresh machine where we
# are root with apt-get, install it; elsewhere say how, and let the test decide (it skips locally, fails under CI).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: installing Debian's chromium for the browser UI test" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "ensure-chromium: /usr/bin/chromium is missing; install it (e.g. 'sudo apt-get install chromium') to run the UI test" >&2

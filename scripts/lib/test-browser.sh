# Sourced by scripts/test: Debian's chromium for the browser tests (tests/web/test_browser.py),
# driven by the playwright wheel with executable_path=/usr/bin/chromium: playwright's own
# browser download ("playwright install") is never used.
# Without chromium (and no root to install Debian's package) those tests are skipped, and this
# says so loudly.

ensure_test_browser() {
  local chromium="${HIMIKO_CHROMIUM:-/usr/bin/chromium}"
  if [ -x "$chromium" ]; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Browser: installing Debian's chromium package" >&2
    if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >&2 \
      && [ -x "$chromium" ]; then
      return 0
    fi
    echo "Browser: installing the chromium package failed" >&2
  fi
  echo "************************************************************************" >&2
  echo "* Browser: no Chromium at $chromium (and not root to install it)." >&2
  echo "* The browser tests of the web pages (tests/web/test_browser.py) are SKIPPED." >&2
  echo "* Install Debian's chromium package, or set HIMIKO_CHROMIUM to a Chromium binary." >&2
  echo "************************************************************************" >&2
}

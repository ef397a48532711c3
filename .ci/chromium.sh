#!/usr/bin/env bash
# Debian's Chromium for the browser tests (Playwright drives it through executable_path; no
# browser download). Installs the package if /usr/bin/chromium is missing. Needs root or sudo.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q >&2 || true
    $SUDO apt-get install -y -q --no-install-recommends chromium fonts-noto-cjk >&2
fi

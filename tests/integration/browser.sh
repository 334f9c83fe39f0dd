#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make check-browser`: the browser tests alone, which `make check`'s run
# of the integration suite leaves out: test_browser.py (headless Chromium
# reads the API from a page of another origin) and test_page.py (the
# reference page of contrib/page/, driven by playwright-core).  Same
# environment and exit status as run.sh; 77 (SKIP) without Chromium.
#
#     tests/integration/browser.sh [pytest arguments...]
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 &&
   ! command -v chromium-browser >/dev/null 2>&1; then
    echo "SKIP: no chromium (scripts/install-deps installs it)" >&2
    exit 77
fi
INTEGRATION_TESTS="tests/integration/test_browser.py tests/integration/test_page.py"
export INTEGRATION_TESTS
exec "$here/run.sh" "$@"

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The configuration matrix: the integration tests of routing, negotiation,
# validators, errors, CORS, reloads and coexistence with other modules,
# again under each server configuration that run.sh (event MPM, minimal
# module set) does not cover:
#
#   worker    PROFILE_MPM=worker
#   prefork   PROFILE_MPM=prefork
#   debian    PROFILE_MODSET=debian: the modules a fresh `apt install
#             apache2` enables on Debian 12, plus rewrite, each with its
#             .conf from /etc/apache2/mods-available (event MPM)
#   php       the debian set on prefork with Debian's mod_php
#             (libapache2-mod-php), as a Debian server with PHP runs
#
# httpd_harness.py writes each test server's configuration from these
# variables; docs/testing.md lists what runs where.
#
#     tests/integration/matrix.sh [pytest arguments...]
#     MATRIX_CONFIGS="prefork php" tests/integration/matrix.sh -x
#     MATRIX_FILES="test_cors.py" tests/integration/matrix.sh
#
# A configuration whose Debian files are absent (e.g. no libapache2-mod-php)
# is skipped with the missing files named.  In a sanitized build (run.sh
# preloads ASan into httpd) the php configuration is left out: mod_php
# cannot run under ASan.
#
# Exit status: 0 every configuration passed; 1 one failed; 77 (automake
# SKIP) none failed but at least one was skipped, or no httpd/pytest; 99
# hard error.
here=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
export SRCDIR

# What each configuration can change decides what runs under it.  The
# module has no code of its own that depends on the MPM (no ap_mpm_query;
# make coverage shows the same lines of mod_profile/ run under each), so
# worker and prefork run what their process model changes: start, reload,
# restart and stop, last-good data, bad files, the status and the logs,
# the other modules beside ours, plus a smoke of every route of the API
# and the page (LIFECYCLE).  The debian and php module sets put other
# modules' filters and handlers on every request, so they also run the
# request-level files: negotiation, validators, errors, CORS, methods,
# query strings and content codings (REQUEST).
LIFECYCLE="test_routes.py test_page_http.py test_datafile.py test_lastgood.py
test_bad_data.py test_reload_unchanged.py test_real_configs.py
test_status.py test_logging.py test_coexistence.py"
REQUEST="test_language.py test_validators.py test_errors.py test_cors.py
test_methods.py test_query.py test_encoding.py"
if [ -z "${MATRIX_CONFIGS:-}" ]; then
    MATRIX_CONFIGS="worker prefork debian php"
    if [ -n "${SANITIZER_RUNTIME:-}" ]; then
        # mod_php dlopens its extensions (opcache.so...) with RTLD_DEEPBIND,
        # which the preloaded ASan runtime refuses
        # (github.com/google/sanitizers/issues/611): no server with PHP
        # starts.  The plain build's make check-matrix runs it.
        MATRIX_CONFIGS="worker prefork debian"
        echo "NOTE: sanitized build: the php configuration is not run" \
             "(mod_php's RTLD_DEEPBIND and ASan exclude each other)"
    fi
fi

config_files()
{
    case $1 in
        worker|prefork) echo "$LIFECYCLE" ;;
        *)              echo "$LIFECYCLE $REQUEST" ;;
    esac
}

config_env()
{
    case $1 in
        worker)  echo "PROFILE_MPM=worker" ;;
        prefork) echo "PROFILE_MPM=prefork" ;;
        debian)  echo "PROFILE_MODSET=debian" ;;
        php)     echo "PROFILE_MODSET=debian PROFILE_MPM=prefork PROFILE_PHP=1" ;;
        *)       return 1 ;;
    esac
}

PY=
for candidate in "${PYTHON3:-}" /usr/bin/python3 python3; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1; then
        PY=$candidate
        break
    fi
done
[ -n "$PY" ] || { echo "SKIP: no python3" >&2; exit 77; }

out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
trap 'exit 1' INT TERM HUP
summary=
failed=0
skipped=0
total_start=$(date +%s)
for name in $MATRIX_CONFIGS; do
    vars=$(config_env "$name") || {
        echo "ERROR: unknown configuration '$name' in MATRIX_CONFIGS" >&2
        exit 99
    }
    # shellcheck disable=SC2086  # NAME=value words
    missing=$(env $vars "$PY" -c '
import sys
sys.path.insert(0, sys.argv[1])
import httpd_harness as h
print(" ".join(h.CONFIGURATION.missing_files()))' "$here") || {
        echo "ERROR: $name ($vars): the harness refuses the configuration" >&2
        exit 99
    }
    if [ -n "$missing" ]; then
        echo "SKIP: $name ($vars): this machine lacks $missing" \
             "(scripts/install-deps installs them)"
        summary="$summary
$name: SKIP (missing $missing)"
        skipped=$((skipped + 1))
        continue
    fi
    tests=
    for f in ${MATRIX_FILES:-$(config_files "$name")}; do
        tests="$tests tests/integration/$f"
    done
    echo "== $name ($vars)"
    start=$(date +%s)
    # shellcheck disable=SC2086
    env $vars INTEGRATION_TESTS="$tests" "$here/run.sh" "$@" >"$out" 2>&1
    rc=$?
    cat "$out"
    counts=$(tail -1 "$out" | sed 's/^=* *//; s/ *=*$//')
    secs=$(( $(date +%s) - start ))
    case $rc in
        0)  result=PASS ;;
        77) result=SKIP; skipped=$((skipped + 1)) ;;
        99) echo "ERROR: $name: run.sh could not run" >&2; exit 99 ;;
        *)  result=FAIL; failed=$((failed + 1)) ;;
    esac
    summary="$summary
$name: $result in ${secs} s ($counts)"
done

echo
echo "configuration matrix ($(( $(date +%s) - total_start )) s):$summary"
[ $failed -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77
exit 0

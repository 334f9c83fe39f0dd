#!/bin/sh
# Integration tests of mod_profile against a real Apache httpd 2.4.
#
# `make check` runs this with HTTPD, PYTHON3, MODULE, SRCDIR and BUILDDIR in
# the environment; by hand it works without any of them:
#
#     tests/integration/run.sh [pytest arguments...]
#
# Exit status: pytest's, or 77 (automake SKIP) when there is no httpd to
# test with, or 99 (automake hard error) when the module is not built.
here=$(cd "$(dirname "$0")" && pwd)

: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
# Unset: Debian's binary.  Set but empty (configure found none): skip.
HTTPD=${HTTPD-/usr/sbin/apache2}
: "${MODULE:=$BUILDDIR/mod_profile/.libs/mod_profile.so}"

if [ -z "$HTTPD" ] || [ ! -x "$HTTPD" ]; then
    echo "SKIP: no httpd binary (HTTPD='$HTTPD')" >&2
    exit 77
fi
if [ ! -f "$MODULE" ]; then
    echo "ERROR: module not built: $MODULE" >&2
    exit 99
fi

# Debian's python3-pytest belongs to /usr/bin/python3; a python3 earlier on
# PATH (pyenv) may have no pytest.
PY=
for candidate in /usr/bin/python3 "${PYTHON3:-}" python3; do
    [ -n "$candidate" ] || continue
    if "$candidate" -c 'import pytest' >/dev/null 2>&1; then
        PY=$candidate
        break
    fi
done
if [ -z "$PY" ]; then
    echo "SKIP: no python3 with pytest" >&2
    exit 77
fi

HTTPD=$(command -v "$HTTPD")
case $MODULE in /*) ;; *) MODULE=$(pwd)/$MODULE ;; esac
export HTTPD MODULE SRCDIR BUILDDIR
# The source tree may be read-only (distcheck): no bytecode, no cache.
export PYTHONDONTWRITEBYTECODE=1

cd "$SRCDIR" || exit 99
"$PY" -m pytest -q -p no:cacheprovider tests/integration "$@"
exit $?

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make distcheck` as an unprivileged user, and httpd's module directory
# untouched by it: the distributed tree (`make distdir`) is copied to a
# temporary directory, configured and distchecked there -- as the user `nobody`
# when run as root, else as the caller -- and a listing of the module
# directory with checksums must be the same before and after.
#
# distcheck runs `make check` in the unpacked tarball; here its TESTS are
# the unit tests and the fuzz corpus replays (the integration suite is
# `make check`'s own business and takes minutes): what this checks is the
# tarball, the VPATH build, install, uninstall and distclean.
#
# SRCDIR and BUILDDIR (a configured build tree) come from `make`.
# Exit status: 0 pass, 1 fail, 77 skip, 99 error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
[ -f "$BUILDDIR/Makefile" ] || { echo "SKIP: $BUILDDIR is not configured"; exit 77; }
moddir=$(sed -n 's/^APXS_LIBEXECDIR = //p' "$BUILDDIR/Makefile")
[ -n "$moddir" ] || { echo "ERROR: no APXS_LIBEXECDIR in the Makefile"; exit 99; }

tmp=$(mktemp -d /tmp/mod-profile-distcheck.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
listing()
{
    find "$moddir" -printf '%p %y %m %s %T@\n' | LC_ALL=C sort
    find "$moddir" -type f -exec md5sum {} + | LC_ALL=C sort
}
before=$(listing)

make -s -C "$BUILDDIR" distdir distdir="$tmp/mod_profile" >"$tmp/dist.log" 2>&1 ||
    { cat "$tmp/dist.log"; echo "ERROR: make distdir failed"; exit 99; }
run_as=
if [ "$(id -u)" -eq 0 ]; then
    command -v runuser >/dev/null || { echo "SKIP: no runuser"; exit 77; }
    chown -R nobody "$tmp"
    run_as="runuser -u nobody --"
fi
$run_as sh -c '
    cd "$1/mod_profile" &&
    HOME=$1 ./configure >configure.log 2>&1 &&
    HOME=$1 nice make -j2 distcheck \
        TESTS="\$(UNIT_TESTS) tests/fuzz/replay" >distcheck.log 2>&1
' sh "$tmp"
rc=$?
if [ $rc -ne 0 ]; then
    tail -30 "$tmp/mod_profile/distcheck.log" "$tmp/mod_profile/configure.log" \
        2>/dev/null
    echo "FAIL: make distcheck as $(${run_as:-} id -un) failed"
    exit 1
fi
grep -q 'archives ready for distribution' "$tmp/mod_profile/distcheck.log" ||
    { echo "FAIL: distcheck did not finish"; exit 1; }
after=$(listing)
if [ "$before" != "$after" ]; then
    echo "$before" >"$tmp/before"; echo "$after" >"$tmp/after"
    diff "$tmp/before" "$tmp/after"
    echo "FAIL: make distcheck changed $moddir"
    exit 1
fi
echo "make distcheck passed as $(${run_as:-} id -un); $moddir untouched"
exit 0

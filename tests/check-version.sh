#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One version: configure.ac's AC_INIT is where it is written; the module
# (PROFILE_VERSION) and profilectl (PACKAGE_VERSION) get it from there
# through Makefile.am.  The Debian package's version, the first entry of
# debian/changelog, must name the same upstream version (without an
# epoch or a Debian revision), or a rebuilt package would report another
# version than its name; so must the footer of profilectl(1) (written in
# the page).  Prints what differs.
cd "${SRCDIR:-$(dirname "$0")/..}" || exit 99
ac=$(sed -n 's/^AC_INIT(\[mod_profile\], *\[\([^]]*\)\].*/\1/p' configure.ac)
deb=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' debian/changelog)
if [ -z "$ac" ] || [ -z "$deb" ]; then
    echo "ERROR: no version found (configure.ac: '$ac'," \
         "debian/changelog: '$deb')"
    exit 99
fi
upstream=${deb#*:}
upstream=${upstream%-*}
status=0
if [ "$upstream" != "$ac" ]; then
    echo "configure.ac's AC_INIT says $ac, debian/changelog says $deb:" \
         "change AC_INIT with every new debian/changelog entry"
    status=1
fi
man=$(sed -n 's/^\.TH [^"]*"[^"]*" "mod_profile \([^"]*\)".*/\1/p' \
    profilectl/profilectl.1)
if [ "$man" != "$ac" ]; then
    echo "configure.ac's AC_INIT says $ac, the .TH line of" \
         "profilectl/profilectl.1 says '$man'"
    status=1
fi
exit $status

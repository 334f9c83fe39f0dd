#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One version: configure.ac's AC_INIT is where it is written; the module
# (PROFILE_VERSION) and profilectl (PACKAGE_VERSION) get it from there
# through Makefile.am.  The Debian package's version, the first entry of
# debian/changelog, must name the same upstream version (without an
# epoch or a Debian revision), or a rebuilt package would report another
# version than its name: prints both when they differ.
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
if [ "$upstream" != "$ac" ]; then
    echo "configure.ac's AC_INIT says $ac, debian/changelog says $deb:" \
         "change AC_INIT with every new debian/changelog entry"
    exit 1
fi

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The pure core (mod_profile/profile_*) must not depend on httpd: no
# httpd header, no ap_ call.  Unit tests link it without httpd.
dir="${SRCDIR:-$(dirname "$0")/..}/mod_profile"
bad=$(grep -lE '#[[:space:]]*include[[:space:]]*[<"](httpd|http_[a-z_]+|ap_[a-z_]+|util_[a-z_]+|mod_[a-z_]+)\.h' \
      "$dir"/profile_*.c "$dir"/profile_*.h)
calls=$(grep -nE '\bap_[a-z_]+\(' "$dir"/profile_*.c "$dir"/profile_*.h \
        | grep -vE ':[0-9]+:[[:space:]]*(\*|/\*|//)')
if [ -n "$bad$calls" ]; then
    echo "core files depend on httpd:"
    [ -n "$bad" ] && echo "$bad"
    [ -n "$calls" ] && echo "$calls"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "core files include no httpd header and call no ap_ function"
exit 0

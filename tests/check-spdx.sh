#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Fails when a source file of the project has no SPDX-License-Identifier
# line (the project is Apache-2.0: README, LICENSE, debian/copyright).
cd "${SRCDIR:-$(dirname "$0")/..}" || exit 99
missing=0
for f in $(find mod_profile profilectl tests bench scripts httpd-conf data contrib .ci \
               -type f \( -name '*.c' -o -name '*.h' -o -name '*.py' \
               -o -name '*.sh' -o -name '*.lua' -o -name '*.js' \
               -o -name '*.conf' -o -name '*.load' -o -name '*.in' \
               -o -name '*.1' -o -name '*.vcl' -o -name 'install-deps' \
               -o -path 'contrib/monitoring/*' -o -name '*.css' \
               -o -name '*.mjs' -o -path 'contrib/page/*.html' \
               -o -name 'run' \) \
               -not -path 'tests/schemas/oas-3.1/*' \
               -not -path 'tests/fuzz/corpus/*' -not -path '*/.libs/*' \
               -not -path '*/node_modules/*' -not -path '*/artifacts/*' \
               -not -path 'tests/sanitize/build/*' 2>/dev/null) \
         configure.ac Makefile.am autogen.sh; do
    if ! grep -q 'SPDX-License-Identifier' "$f"; then
        echo "no SPDX-License-Identifier line: $f"
        missing=1
    fi
done
exit $missing

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The log-message tags (PROFILE0001...): every tag the module's code logs
# (PROFILE_LOGNO(nnnn), mod_profile.h, in mod_profile/*.c) must have a row
# in the table of docs/operations.md ("Log messages"), and every row of
# that table must name a tag the code logs, once.  Prints the tags that
# differ.
cd "${SRCDIR:-$(dirname "$0")/..}" || exit 99
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# In the code: PROFILE_LOGNO(0001), or a tag written out.
grep -ohE 'PROFILE_LOGNO\([0-9]{4}\)|PROFILE[0-9]{4}' mod_profile/*.c |
    sed 's/PROFILE_LOGNO(\([0-9]*\))/PROFILE\1/' | sort -u > "$tmp/code"
# In the table: the rows whose first cell is a tag.
sed -n 's/^| *`\(PROFILE[0-9][0-9][0-9][0-9]\)` *|.*/\1/p' \
    docs/operations.md | sort > "$tmp/table"

if [ ! -s "$tmp/code" ] || [ ! -s "$tmp/table" ]; then
    echo "ERROR: no tags found (code: $(wc -l < "$tmp/code")," \
         "docs/operations.md: $(wc -l < "$tmp/table"))"
    exit 99
fi
status=0
for id in $(comm -23 "$tmp/code" "$tmp/table"); do
    echo "$id: logged by $(grep -lE "PROFILE_LOGNO\(${id#PROFILE}\)|$id" \
        mod_profile/*.c | tr '\n' ' ')but not in the table of" \
        "docs/operations.md"
    status=1
done
for id in $(sort -u "$tmp/table" | comm -13 "$tmp/code" -); do
    echo "$id: in the table of docs/operations.md but logged nowhere in" \
         "mod_profile/*.c"
    status=1
done
for id in $(uniq -d "$tmp/table"); do
    echo "$id: more than one row in the table of docs/operations.md"
    status=1
done
[ $status -eq 0 ] &&
    echo "$(wc -l < "$tmp/code") tags, each logged and in the table:" \
         $(cat "$tmp/code")
exit $status

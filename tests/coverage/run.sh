#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make coverage`: the line and branch coverage (gcov, through gcovr) of
# mod_profile/ and profilectl/ by each part of `make check-all` that runs
# code built in this tree, and by all of them together.
#
#     tests/coverage/run.sh [PART...]      (default: every part)
#
# The parts, each run alone with its counters reset before it:
#
#   unit         the test programs of `make check` (the TESTS that are
#                check_PROGRAMS: the cmocka unit tests, tests/fuzz/replay)
#   integration  the other TESTS: tests/integration/run.sh (and the guards
#                and the schema lint, which run no built code)
#   matrix       MATRIX_TESTS (tests/integration/matrix.sh)
#   browser      BROWSER_TESTS (tests/integration/browser.sh)
#   sanitize     what `make check-sanitize` runs in its sanitized build
#                (tests/sanitize/run.sh): that build's `make check-all`
#
# The copy of the source comes from `make distdir`, into
# BUILDDIR/coverage-build/src, as tests/sanitize/run.sh makes its build.
# The first four parts run in coverage-build/build, configured with
# CFLAGS='-O0 -g --coverage -fprofile-update=atomic' (atomic: the
# loader's threads and httpd's would race on the counters), through that
# build's own `make check-suite`, so with its TESTS_ENVIRONMENT (its
# MODULE, BUILDDIR and SRCDIR; HTTPD, PYTHON3...) as `make check-all` runs
# them; which tests each part runs is read from its Makefile (TESTS,
# check_PROGRAMS, MATRIX_TESTS, BROWSER_TESTS).  The sanitize part builds
# coverage-build/build-sanitize the same way with --enable-sanitizers and
# runs its `make check-all`, so it follows the `if SANITIZERS` selection of
# Makefile.am and what the scripts leave out under SANITIZER_RUNTIME
# without naming either here.  The sanitizers add code of their own to the
# lines (ASan's marks at declarations, UBSan's checks as branches): its
# lines are counted on the plain build's lines, its branches not at all
# (report.py project).
#
# The fuzzers (clang, libFuzzer) and the package and distcheck targets
# build their code elsewhere: they are listed as not measured.
#
# A process writes its counters (.gcda) when it exits normally: httpd's
# parent and children at a stop, a graceful restart or a reload (as root,
# the children are www-data); a process killed by a signal writes nothing.
# So before each part every .gcda is made anew, empty and writable by all:
# gcov fills an empty file as a new one and merges into it what later
# processes add.  What libgcov says goes to logs/PART.gcov-errors, not
# into the tests' output.  profilectl under a file size limit (a test of
# test_profilectl.py) could write its counters only in part, which would
# leave counts that contradict each other: the build's
# profilectl/profilectl is a script that drops them in that case.  The
# page's test (test_page.py) finds the npm packages of SRCDIR/tests/page.
#
# Writes coverage-build/parts/PART.json (gcovr's JSON) for each part,
# merges them (gcovr --add-tracefile) into all.json, and prints a table
# of each part and of all: line and branch coverage of mod_profile/ and
# profilectl/ and the lines only that part covers (report.py table); the
# same table goes to coverage-build/coverage.md.
#
# COVERAGE_KEEP=1 reuses the builds of an earlier run (and the JSON of the
# parts not run again).  Takes MAKE, CC, APXS, PYTHON3, SRCDIR and
# BUILDDIR from the environment (`make coverage` passes the parent
# build's); needs gcovr.  Exit status: 0 when every part run passed; 1
# when a build or a part's tests failed (the table still shows what ran);
# 99 on a usage error.
here=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
: "${MAKE:=make}"
: "${PYTHON3:=python3}"
: "${GCOVR:=gcovr}"

ALL_PARTS="unit integration matrix browser sanitize"
parts=
for p in "$@"; do
    case " $ALL_PARTS " in
        *" $p "*) parts="$parts $p" ;;
        *) echo "usage: $0 [PART...]; the parts: $ALL_PARTS" >&2
           exit 99 ;;
    esac
done
[ -n "$parts" ] || parts=$ALL_PARTS
command -v "$GCOVR" >/dev/null 2>&1 || {
    echo "ERROR: no gcovr (Debian's gcovr; scripts/install-deps)" >&2
    exit 99
}

top=$BUILDDIR/coverage-build
build=$top/build
sbuild=$top/build-sanitize
# The parent's job server is not ours to use.
unset MAKEFLAGS MFLAGS MAKELEVEL
start_all=$(date +%s)

# configure_build DIR [CONFIGURE ARGS...]: configure and build the copy in
# DIR with coverage, and the test programs and modules `make check` builds;
# fails unless the module is instrumented.
# shellcheck disable=SC2046  # make_value: a list of targets
configure_build() {
    dir=$1; shift
    log=$dir/build.log
    mkdir "$dir" || return 1
    echo "== build in $dir (log $log)"
    (cd "$dir" && "$top/src/configure" "$@" ${CC:+CC="$CC"} \
        ${APXS:+--with-apxs="$APXS"} \
        CFLAGS='-O0 -g --coverage -fprofile-update=atomic' \
        LDFLAGS='--coverage') >>"$log" 2>&1 &&
    (cd "$dir" && nice -n 10 $MAKE -j2) >>"$log" 2>&1 &&
    (cd "$dir" && nice -n 10 $MAKE -j2 \
        $(make_value "$dir" '$(check_PROGRAMS) $(check_LTLIBRARIES)')) \
        >>"$log" 2>&1 || {
        echo "FAILED: the build in $dir"
        tail -40 "$log"
        return 1
    }
    # configure's test programs, compiled with --coverage too.
    rm -f "$dir"/*conftest*.gcno
    # (Its own copy of libgcov, local: the module exports only
    # profile_module, so nm -D does not show it.)
    if ! nm "$dir/mod_profile/.libs/mod_profile.so" \
            | grep -q ' __gcov_init$'; then
        echo "ERROR: $dir/mod_profile/.libs/mod_profile.so has no gcov" \
             "instrumentation"
        return 1
    fi
    # profilectl under a file size limit (test_profilectl.py gives it
    # RLIMIT_FSIZE 1000) would write only the first bytes of each .gcda,
    # leaving the rest as earlier processes wrote it: counts that
    # contradict each other, which gcov reads as negative.  So the counts
    # of such a run are not written: profilectl/profilectl becomes a script
    # that runs the program, moved to profilectl/.coverage/.
    real=$dir/profilectl/.coverage/profilectl
    mkdir -p "${real%/*}" && mv "$dir/profilectl/profilectl" "$real" &&
    cat >"$dir/profilectl/profilectl" <<EOF &&
#!/bin/sh
# tests/coverage/run.sh: the coverage build's profilectl.  Under a file
# size limit its counters (.gcda) could not be written whole: they are not.
if [ "\$(ulimit -f)" != unlimited ]; then
    GCOV_PREFIX=/dev/null/none GCOV_ERROR_FILE=/dev/null
    export GCOV_PREFIX GCOV_ERROR_FILE
fi
exec "$real" "\$@"
EOF
    chmod 755 "$dir/profilectl/profilectl"
}

# make_value DIR 'EXPRESSION': the value of a make expression
# ('$(TESTS)') in the Makefile of the build in DIR.
make_value() {
    printf 'coverage-make-value:\n\t@echo %s\n' "$2" >"$top/value.mk"
    (cd "$1" && $MAKE -s --no-print-directory -f Makefile \
        -f "$top/value.mk" coverage-make-value)
}

# reset_counters DIR: every .gcda of the build in DIR empty, writable by
# the test servers' children (www-data).
reset_counters() {
    find "$1" -name '*.gcda' -exec rm -f {} +
    find "$1" -name '*.gcno' | while IFS= read -r f; do
        : >"${f%.gcno}.gcda" && chmod 666 "${f%.gcno}.gcda" || exit 1
    done
}

# collect DIR PART OUT: PART's counters in the build in DIR, for the
# sources of mod_profile/ and profilectl/, into OUT (gcovr's JSON).
collect() {
    # A .gcda still empty belongs to code the part never ran; gcov reads
    # its .gcno alone.
    find "$1" -name '*.gcda' -size 0 -exec rm -f {} +
    mkdir -p "$top/parts"
    # A process that stops while writing its counts (killed), or while
    # another of its threads is inside the code, leaves counts that
    # contradict each other; gcov reads some as negative, and gcovr leaves
    # those branches out (--gcov-ignore-parse-errors) and says so.  (Not
    # gcovr -j: 5.2 hangs when a thread meets an error.)
    (cd "$top/src" && "$GCOVR" --root "$top/src" \
        --object-directory "$1" --filter 'mod_profile/' \
        --filter 'profilectl/' --gcov-ignore-parse-errors \
        --json "$3" "$1") >"$top/logs/$2.gcovr.log" 2>&1 || {
        echo "ERROR: gcovr failed for $2 (log $top/logs/$2.gcovr.log)"
        tail -20 "$top/logs/$2.gcovr.log"
        return 1
    }
    n=$(grep -c 'Exception during parsing' "$top/logs/$2.gcovr.log")
    [ "$n" -eq 0 ] || echo "note: $n counts that gcov read as negative" \
        "left out ($top/logs/$2.gcovr.log)"
    if [ -s "$GCOV_ERROR_FILE" ]; then
        echo "note: libgcov said $(wc -l <"$GCOV_ERROR_FILE") line(s)" \
             "($GCOV_ERROR_FILE)"
    fi
}

# code_lines DIR: gcov's JSON of each object of the build in DIR, in
# TOP/code: the lines that are code in that build.
code_lines() {
    rm -rf "$top/code" && mkdir "$top/code" || return 1
    find "$1" -name '*.gcno' | sed 's|/[^/]*$||' | sort -u |
    while IFS= read -r d; do
        # (What it says of the counts, which are not used, does not matter.)
        (cd "$top/code" && "${GCOV:-gcov}" --json-format -o "$d" "$d"/*.gcno) \
            >>"$top/logs/code.log" 2>&1
    done
}

failed=
# The builds.
if [ "${COVERAGE_KEEP:-}" = 1 ] && [ -f "$build/Makefile" ]; then
    echo "== reusing the build in $build (COVERAGE_KEEP=1)"
else
    rm -rf "$top" && mkdir -p "$top/logs" || exit 1
    echo "== copy of the source in $top/src"
    $MAKE -C "$BUILDDIR" distdir distdir="$top/src" >"$top/logs/distdir.log" \
        2>&1 || {
        echo "FAILED: make distdir"
        tail -40 "$top/logs/distdir.log"
        exit 1
    }
    # The page's test (test_page.py, BROWSER_TESTS) drives Chromium with
    # the npm packages installed in the source tree, which the copy lacks.
    if [ -d "$SRCDIR/tests/page/node_modules" ]; then
        ln -s "$SRCDIR/tests/page/node_modules" \
            "$top/src/tests/page/node_modules" || exit 1
    fi
    configure_build "$build" || exit 1
fi
mkdir -p "$top/logs" "$top/parts"
case " $parts " in *" sanitize "*)
    if [ "${COVERAGE_KEEP:-}" = 1 ] && [ -f "$sbuild/Makefile" ]; then
        echo "== reusing the build in $sbuild (COVERAGE_KEEP=1)"
    else
        rm -rf "$sbuild"
        configure_build "$sbuild" --enable-sanitizers || exit 1
        if ! nm -D "$sbuild/mod_profile/.libs/mod_profile.so" \
                | grep -q ' U __asan_report'; then
            echo "ERROR: $sbuild's module is not built with ASan"
            exit 1
        fi
    fi
esac
echo "build: $(( $(date +%s) - start_all )) s"

# The parts.
for part in $parts; do
    echo "== $part"
    start=$(date +%s)
    log=$top/logs/$part.log
    rm -f "$top/parts/$part.json" "$top/parts/$part.failed" \
        "$top/parts/$part.time"
    # What libgcov says (a .gcda it cannot write...), kept out of the
    # tests' output and error logs; the children (www-data) write it too.
    GCOV_ERROR_FILE=$top/logs/$part.gcov-errors
    export GCOV_ERROR_FILE
    : >"$GCOV_ERROR_FILE" && chmod 666 "$GCOV_ERROR_FILE" || exit 1
    case $part in
        sanitize)
            dir=$sbuild
            reset_counters "$dir" || exit 1
            # As tests/sanitize/run.sh runs it.
            (cd "$dir" && nice -n 10 $MAKE -j2 check-all) >"$log" 2>&1
            rc=$? ;;
        *)
            dir=$build
            case $part in
                unit)        sel='$(filter $(check_PROGRAMS),$(TESTS))' ;;
                integration) sel='$(filter-out $(check_PROGRAMS),$(TESTS))' ;;
                matrix)      sel='$(MATRIX_TESTS)' ;;
                browser)     sel='$(BROWSER_TESTS)' ;;
            esac
            tests=$(make_value "$dir" "$sel") || exit 1
            echo "tests: $tests"
            reset_counters "$dir" || exit 1
            (cd "$dir" && $MAKE --no-print-directory check-suite \
                SUITE="coverage-$part" SUITE_TESTS="$tests") >"$log" 2>&1
            rc=$? ;;
    esac
    secs=$(( $(date +%s) - start ))
    grep -E '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR|failing):' "$log"
    tail -1 "$log"
    echo "$secs" >"$top/parts/$part.time"
    if [ $rc -ne 0 ]; then
        echo "FAILED: $part (exit $rc; log $log, the tests' logs in $dir)"
        echo "$rc" >"$top/parts/$part.failed"
        failed="$failed $part"
    fi
    if [ "$part" = sanitize ]; then
        # Its lines on the plain build's (report.py project).
        collect "$dir" "$part" "$top/sanitize-build.json" &&
        code_lines "$build" &&
        "$PYTHON3" "$here/report.py" project "$top/code" "$top/src" \
            "$top/sanitize-build.json" "$top/parts/$part.json" ||
            failed="$failed $part"
    else
        collect "$dir" "$part" "$top/parts/$part.json" ||
            failed="$failed $part"
    fi
    echo "$part: ${secs} s"
done

# The table: every part with a JSON (this run's, or an earlier run's kept
# with COVERAGE_KEEP=1), and their union.
set --
for part in $ALL_PARTS; do
    [ -f "$top/parts/$part.json" ] && set -- "$@" "$part"
done
if [ $# -gt 0 ]; then
    tracefiles=
    for part in "$@"; do
        tracefiles="$tracefiles --add-tracefile $top/parts/$part.json"
    done
    # shellcheck disable=SC2086  # options and paths without blanks
    (cd "$top/src" && "$GCOVR" --root "$top/src" $tracefiles \
        --json "$top/all.json") >"$top/logs/all.log" 2>&1 || {
        echo "ERROR: gcovr could not merge the parts ($top/logs/all.log)"
        exit 1
    }
    rev=$(git -C "$SRCDIR" describe --always --dirty 2>/dev/null)
    {
        echo "Coverage of mod_profile/ and profilectl/ by the parts of" \
             "\`make check-all\`, $(date -u +%Y-%m-%d), source" \
             "${rev:-$SRCDIR} (tests/coverage/run.sh):"
        echo
        "$PYTHON3" "$here/report.py" table "$top" "$@"
    } >"$top/coverage.md" || exit 1
    echo
    cat "$top/coverage.md"
fi
echo "coverage: $(( $(date +%s) - start_all )) s in all; table in" \
     "$top/coverage.md"
if [ -n "$failed" ]; then
    echo "FAILED:$failed"
    exit 1
fi
exit 0

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian package, end to end, on this machine's apache2:
#
#   1. copies the distributed tree (`make distdir`) to a temporary directory
#      and builds libapache2-mod-profile there with `dpkg-buildpackage`;
#   2. checks the package's relations and contents, and that the docs
#      (packaging.md's `dpkg -c` listing, operations.md's table of installed
#      files, the links of the installed Markdown files) match them;
#   3. installs it with apt-get, checks that nothing got enabled, then runs
#      `a2enmod profile`, `a2enconf profile-site`, `apachectl configtest`;
#   4. starts the system apache2 with a copy of /etc/apache2 that listens on
#      a free loopback port (a running apache2 on port 80 is not touched),
#      with a virtual host holding the <IfModule profile_module> block that
#      docs/operations.md tells administrators to copy, and reads the API:
#      200 JSON in English, Spanish by Accept-Language, 304 for the ETag,
#      200 from the copied block;
#   5. purges the package and checks that its files and links are gone, that
#      `apachectl configtest` still passes, that a fresh copy of
#      /etc/apache2 with the copied virtual host still in place parses,
#      starts and answers (a static file, httpd's 404 for the API), that the
#      same block without <IfModule> would not parse, and that /etc/apache2
#      and /var/lib/apache2 are as they were before.
#
# It changes the machine while it runs, so it runs only as root and only
# when the package is not installed yet; whatever happens, it stops its
# server, purges the package and removes what it created.
#
#     tests/package/run.sh            # or: make check-package
#     KEEP_TMP=1 tests/package/run.sh # keep the build tree, logs and .debs
#
# SRCDIR and BUILDDIR (a configured build tree; default: SRCDIR) come from
# `make`.  Exit status: 0 pass, 1 fail, 77 skip (not root, tools missing,
# or the machine is not in a state this test may change), 99 error.
set -u

here=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
# Called from make: its job-server settings mean nothing to our own makes.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

PKG=libapache2-mod-profile
# Every path the package ships, the links a2enmod/a2enconf make and their
# state files: none may exist before the test, none may remain after it.
TRACES="/usr/lib/apache2/modules/mod_profile.so
/etc/apache2/mods-available/profile.load
/etc/apache2/mods-available/profile.conf
/etc/apache2/conf-available/profile-site.conf
/etc/apache2/mods-enabled/profile.load
/etc/apache2/mods-enabled/profile.conf
/etc/apache2/conf-enabled/profile-site.conf
/usr/share/mod_profile
/usr/share/doc/$PKG"
for state in enabled_by_admin enabled_by_maint disabled_by_admin \
             disabled_by_maint; do
    TRACES="$TRACES
/var/lib/apache2/module/$state/profile
/var/lib/apache2/conf/$state/profile-site"
done
DATA=/usr/share/mod_profile/profile.json
STEP_TIMEOUT=600

status=77
skip() { echo "SKIP: $*" >&2; status=77; exit 77; }
say() { echo "== $*"; }

# --------------------------------------------------------- preconditions
[ "$(id -u)" -eq 0 ] || skip "not root (the test installs a package)"
for tool in dpkg-buildpackage dpkg-checkbuilddeps dpkg-parsechangelog \
            apt-get a2enmod a2enconf a2query apache2ctl apachectl curl \
            python3 timeout; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
[ -x /usr/sbin/apache2 ] || skip "no /usr/sbin/apache2 (package apache2)"
[ -f "$BUILDDIR/Makefile" ] ||
    skip "$BUILDDIR is not configured (run ./configure first)"
case $(dpkg-query -W -f '${db:Status-Status}' "$PKG" 2>/dev/null) in
    ""|not-installed) ;;
    *) skip "$PKG is already on this machine; the test would replace it" ;;
esac
for p in $TRACES; do
    [ -e "$p" ] || [ -L "$p" ] &&
        skip "$p exists (a manual install?); the test would replace it"
done
# apache2ctl (configtest too, and the maintainer scripts' calls) creates
# these runtime directories.
had_run_dir=; [ -d /run/apache2 ] && had_run_dir=1
had_lock_dir=; [ -d /run/lock/apache2 ] && had_lock_dir=1

# ------------------------------------------------------ state and cleanup
tmp=$(mktemp -d /tmp/mod-profile-package.XXXXXX) || exit 99
# apt reads the .deb as its unprivileged user _apt.
chmod 755 "$tmp"
status=1
installed_by_us=
server_confdir=

# What the test must leave as it found it.
snapshot()
{
    for d in /etc/apache2 /var/lib/apache2 /usr/lib/apache2/modules; do
        [ -d "$d" ] || continue
        find "$d" -printf '%p %y %m %l\n'
        find "$d" -type f -exec md5sum {} +
    done | LC_ALL=C sort
}
system_apache_pid()
{
    pid=$(cat /run/apache2/apache2.pid 2>/dev/null) &&
        kill -0 "$pid" 2>/dev/null && echo "$pid"
}
had_server=$(system_apache_pid)
# a2enmod and a2enconf keep their state below /var/lib/apache2; a purge
# removes the state but not the directories holding it.
state_dirs_before=$(find /var/lib/apache2 -type d 2>/dev/null)

stop_test_server()
{
    [ -n "$server_confdir" ] || return 0
    APACHE_CONFDIR=$server_confdir timeout 30 apache2ctl stop >/dev/null 2>&1
    i=0
    while pid=$(cat "$tmp/run/apache2.pid" 2>/dev/null) &&
          kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
        sleep 0.1; i=$((i + 1))
    done
    if pid=$(cat "$tmp/run/apache2.pid" 2>/dev/null) &&
       kill -0 "$pid" 2>/dev/null; then
        # httpd's parent leads its own process group, children included.
        echo "test server $pid did not stop; killing its group" >&2
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
    fi
    server_confdir=
}

purge()
{
    DEBIAN_FRONTEND=noninteractive timeout "$STEP_TIMEOUT" \
        apt-get purge -y -q -o DPkg::Lock::Timeout=120 "$PKG"
}

cleanup_state_dirs()
{
    find /var/lib/apache2 -depth -type d -empty 2>/dev/null |
    while read -r d; do
        echo "$state_dirs_before" | grep -qxF "$d" || rmdir "$d"
    done
}

cleanup()
{
    stop_test_server
    if [ -n "$installed_by_us" ]; then
        echo "cleanup: purging $PKG" >&2
        purge >/dev/null 2>&1 || echo "cleanup: purge failed" >&2
        installed_by_us=
    fi
    # None of these existed before: whatever is left was made by the test
    # (after a failure, or by a package whose scripts leave links behind).
    for p in $TRACES; do
        if [ -e "$p" ] || [ -L "$p" ]; then
            echo "cleanup: removing $p" >&2
            rm -rf "$p"
        fi
    done
    # The package's prerm restarts a running apache2 and, on machines where
    # services may start, that can start one: stop what was not running.
    if [ -z "$had_server" ] && pid=$(system_apache_pid); then
        echo "cleanup: stopping the system apache2 ($pid) the test started" >&2
        if [ -d /run/systemd/system ]; then
            timeout 60 systemctl stop apache2
        else
            timeout 30 apache2ctl stop >/dev/null 2>&1
        fi
    fi
    cleanup_state_dirs
    if [ -z "$had_server" ] && [ -z "$(system_apache_pid)" ]; then
        [ -n "$had_run_dir" ] || rm -rf /run/apache2
        [ -n "$had_lock_dir" ] || rm -rf /run/lock/apache2
    fi
    if [ -n "${KEEP_TMP:-}" ]; then
        echo "kept $tmp" >&2
    else
        rm -rf "$tmp"
    fi
}
trap 'cleanup; exit $status' EXIT
trap 'exit' INT TERM HUP

fail()
{
    echo "FAIL: $*" >&2
    status=1
    exit
}
error()
{
    echo "ERROR: $*" >&2
    status=99
    exit
}

before=$(snapshot)
if ! apachectl configtest >"$tmp/configtest.log" 2>&1; then
    cat "$tmp/configtest.log" >&2
    skip "apachectl configtest fails before the test; fix /etc/apache2 first"
fi

# ------------------------------------------------------------- 1. build
version=$(dpkg-parsechangelog -l "$SRCDIR/debian/changelog" -S Version) ||
    error "cannot read debian/changelog"
upstream=$(sed -n 's/^PACKAGE_VERSION = //p' "$BUILDDIR/Makefile")
[ "$version" = "$upstream" ] ||
    fail "debian/changelog says $version, configure.ac says $upstream"

say "copy of the distributed tree"
src=$tmp/mod-profile-$version
make -s -C "$BUILDDIR" distdir distdir="$src" >"$tmp/distdir.log" 2>&1 ||
    { cat "$tmp/distdir.log" >&2; error "make distdir failed"; }

cd "$src" || error "no $src"
deps=$(dpkg-checkbuilddeps 2>&1) ||
    skip "build dependencies missing (scripts/install-deps installs them): $deps"

say "dpkg-buildpackage -us -uc -b"
if ! DEB_BUILD_OPTIONS=parallel=2 timeout "$STEP_TIMEOUT" \
        nice dpkg-buildpackage -us -uc -b >"$tmp/build.log" 2>&1; then
    tail -40 "$tmp/build.log" >&2
    fail "dpkg-buildpackage failed (log: $tmp/build.log)"
fi
cd "$tmp" || error "no $tmp"
deb=$tmp/${PKG}_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "no $deb after the build"

# -------------------------------------------------- 2. relations, contents
say "package relations and contents"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
case ", $depends," in
    *", apache2-api-"[0-9]*) ;;
    *) fail "Depends names no apache2-api-NNNNNNNN (the httpd ABI)" ;;
esac
for field in Depends Pre-Depends Recommends; do
    # Relations on the apache2 package itself (apache2-bin and the ABI
    # virtual package are what a module needs).
    dpkg-deb -f "$deb" "$field" | tr ',|' '\n\n' |
        grep -Eq '^ *apache2( |$|:|\()' &&
        fail "$field names the apache2 package"
done
dpkg-deb -e "$deb" "$tmp/control" || error "dpkg-deb -e failed"
[ -e "$tmp/control/postinst" ] &&
    fail "the package has a postinst (it must enable nothing)"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$tmp/contents"
for f in /usr/lib/apache2/modules/mod_profile.so \
         /etc/apache2/mods-available/profile.load \
         /etc/apache2/mods-available/profile.conf \
         /etc/apache2/conf-available/profile-site.conf \
         "$DATA" /usr/share/doc/$PKG/copyright \
         /usr/share/doc/$PKG/changelog.gz; do
    grep -qx "$f" "$tmp/contents" || fail "the package lacks $f"
done
grep -q '^/etc/apache2/.*-enabled' "$tmp/contents" &&
    fail "the package ships links in /etc/apache2/*-enabled"

# The docs describe this package: the `dpkg -c` listing in packaging.md
# and the table of installed files in operations.md name exactly its
# paths, and every relative link of its installed Markdown files leads to
# a file it installs (X or its compressed X.gz; a link into the package
# that points outside it must exist on this machine).
say "the docs list the package's files; installed docs link to installed files"
sed -n '/^    \$ dpkg -c /,/^    \$ /p' "$SRCDIR/docs/packaging.md" |
    sed '1d;$d' | awk '{print $6}' | sed 's|^\./|/|' | LC_ALL=C sort \
    >"$tmp/contents.doc"
LC_ALL=C sort "$tmp/contents" >"$tmp/contents.deb"
if ! diff -u "$tmp/contents.doc" "$tmp/contents.deb" >"$tmp/contents.diff"
then
    cat "$tmp/contents.diff" >&2
    fail "the dpkg -c listing in docs/packaging.md is not the .deb's (- doc, + .deb)"
fi
dpkg-deb -x "$deb" "$tmp/unpacked" || error "dpkg-deb -x failed"
python3 - "$SRCDIR/docs/operations.md" "$tmp/unpacked" "/usr/share/doc/$PKG" \
    <<'EOF' || fail "the docs do not match the package (above)"
import gzip, os, re, sys
doc, root, docdir = sys.argv[1:]
bad = []

# operations.md: the table after "The package ... installs:".
lines = open(doc, encoding="utf-8").read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("The package `"))
rows = []
for l in lines[start + 1:]:
    if l.startswith("|"):
        rows.append(l)
    elif rows:
        break
named = []
for row in rows[2:]:
    last = None
    for item in re.findall(r"`([^`]+)`", row.split("|")[1]):
        if not item.startswith("/"):
            item = os.path.join(os.path.dirname(last), item)
        named.append(item)
        last = item
shipped = []
for d, dirs, files in os.walk(root):
    for f in files + [x for x in dirs if os.path.islink(os.path.join(d, x))]:
        shipped.append("/" + os.path.relpath(os.path.join(d, f), root))
for item in named:
    if not os.path.lexists(root + item.rstrip("/")):
        bad.append("operations.md's table names %s, which the package lacks" % item)
for f in sorted(shipped):
    if not any(f == n or (n.endswith("/") and f.startswith(n)) for n in named):
        bad.append("operations.md's table does not cover %s" % f)

# Relative links of every installed Markdown file.
def exists(path, via_link=False):
    p = root + path
    if os.path.islink(p):
        t = os.readlink(p)
        if not t.startswith("/"):
            t = os.path.normpath(os.path.join(os.path.dirname(path), t))
        return exists(t, True)
    return os.path.exists(p) or (via_link and os.path.exists(path))
for d, dirs, files in os.walk(root + docdir):
    for f in files:
        if not re.search(r"\.md(\.gz)?$", f):
            continue
        path = os.path.join(d, f)
        text = (gzip.open if f.endswith(".gz") else open)(
            path, "rt", encoding="utf-8").read()
        here = os.path.dirname(path)[len(root):]
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            target = target.split("#")[0]
            p = os.path.normpath(os.path.join(here, target))
            if not (exists(p) or exists(p + ".gz")):
                bad.append("%s links to %s, which the package does not install"
                           % (path[len(root):], target))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
echo "packaging.md's listing, operations.md's table and the installed docs' links match"

# ----------------------------------------------------------- 3. install
say "apt-get install $deb"
# Only this package may be installed: anything else would stay behind.
others=$(apt-get -s -o DPkg::Lock::Timeout=120 install "$deb" 2>&1 |
         sed -n 's/^Inst \([^ ]*\).*/\1/p' | grep -vx "$PKG")
[ -z "$others" ] ||
    error "installing would also install: $others (scripts/install-deps)"
installed_by_us=1
DEBIAN_FRONTEND=noninteractive timeout "$STEP_TIMEOUT" \
    apt-get install -y -q -o DPkg::Lock::Timeout=120 "$deb" \
    >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log" >&2; fail "apt-get install failed"; }
[ -f /usr/lib/apache2/modules/mod_profile.so ] || fail "no module installed"
if [ -e /etc/apache2/mods-enabled/profile.load ] ||
   [ -e /etc/apache2/conf-enabled/profile-site.conf ]; then
    fail "installing the package enabled the module or the example"
fi

say "a2enmod profile && a2enconf profile-site"
a2enmod profile || fail "a2enmod profile failed"
a2enconf profile-site || fail "a2enconf profile-site failed"
say "apachectl configtest"
apachectl configtest || fail "apachectl configtest fails with the module"

# ------------------------------------------------------------ 4. serve
port=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])') || error "no free port"
base=http://127.0.0.1:$port/api/v1
copied=http://127.0.0.1:$port/copied/api/v1

# The block docs/operations.md tells administrators to copy into a virtual
# host of their own (the first <IfModule profile_module> there), at
# /copied/api/v1 so that it is told apart from the example's /api/v1.
awk '/^    <IfModule profile_module>$/ { p = 1 }
     p { print substr($0, 5) }
     p && /^    <\/IfModule>$/ { exit }' "$SRCDIR/docs/operations.md" |
    sed 's|/api/v1|/copied/api/v1|' >"$tmp/copied-block.conf"
grep -q '^        SetHandler profile$' "$tmp/copied-block.conf" &&
    grep -q '^        ProfileData ' "$tmp/copied-block.conf" ||
    fail "docs/operations.md has no <IfModule profile_module> block to copy"
mkdir -p "$tmp/www" || error "mkdir"
echo "a static file beside the API" >"$tmp/www/static.txt"

# A copy of /etc/apache2 as it is now, listening on 127.0.0.1:$port, with
# its own runtime files and, in sites-enabled, a virtual host holding the
# block an administrator copied from docs/operations.md.
setup_server_copy()
{
    server_confdir=$tmp/apache2
    rm -rf "$server_confdir"
    cp -a /etc/apache2 "$server_confdir" || error "cannot copy /etc/apache2"
    mkdir -p "$tmp/run" "$tmp/lock" "$tmp/log" || error "mkdir"
    chown www-data "$tmp/lock" 2>/dev/null
    echo "Listen 127.0.0.1:$port" >"$server_confdir/ports.conf"
    cat >>"$server_confdir/envvars" <<EOF
# tests/package/run.sh: this copy's own runtime files
export APACHE_PID_FILE=$tmp/run/apache2.pid
export APACHE_RUN_DIR=$tmp/run
export APACHE_LOCK_DIR=$tmp/lock
export APACHE_LOG_DIR=$tmp/log
EOF
    {
        echo "# copied by an administrator from docs/operations.md"
        echo "<VirtualHost 127.0.0.1:$port>"
        echo "    ServerName copied.example"
        echo "    DocumentRoot $tmp/www"
        echo "    <Directory $tmp/www>"
        echo "        Require all granted"
        echo "    </Directory>"
        sed 's/^/    /' "$tmp/copied-block.conf"
        echo "</VirtualHost>"
    } >"$server_confdir/sites-enabled/zz-copied-profile.conf"
}
start_test_server()
{
    APACHE_CONFDIR=$server_confdir timeout 60 apache2ctl start ||
        fail "apache2ctl start failed: $(cat "$tmp/log/error.log" 2>/dev/null)"
    i=0
    until curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/"; do
        i=$((i + 1))
        [ $i -lt 50 ] || fail "the server does not answer on $port"
        sleep 0.2
    done
}

say "the system apache2 on 127.0.0.1:$port (a copy of /etc/apache2)"
setup_server_copy
start_test_server

# GET $1 with extra curl arguments; prints the status code (none when curl
# fails), headers in $tmp/headers, body in $tmp/b.
get()
{
    url=$1; shift
    rm -f "$tmp/h" "$tmp/b"
    curl -s --max-time 10 -D "$tmp/h" -o "$tmp/b" "$@" "$url" || return
    tr -d '\r' <"$tmp/h" >"$tmp/headers"
    sed -n '1s/^HTTP\/[0-9.]* \([0-9]*\).*/\1/p' "$tmp/headers"
}
header()
{
    sed -n "s/^$1: *//Ip" "$tmp/headers" | head -1
}
# The body must be the data file's profile, in language $1.
check_profile_body()
{
    python3 - "$DATA" "$tmp/b" "$1" <<'EOF' || fail "body of /profile in $1"
import json, sys
data = json.load(open(sys.argv[1], encoding="utf-8"))["profile"]
body = json.load(open(sys.argv[2], encoding="utf-8"))
want = {"name": data["name"], "headline": data["headline"][sys.argv[3]],
        "summary": data["summary"][sys.argv[3]]}
if body != want:
    print("got ", body, "\nwant", want, file=sys.stderr)
    sys.exit(1)
EOF
}

code=$(get "$base/profile")
[ "$code" = 200 ] || fail "GET /profile: $code, not 200"
[ "$(header Content-Type)" = application/json ] ||
    fail "GET /profile: Content-Type $(header Content-Type)"
[ "$(header Content-Language)" = en ] ||
    fail "GET /profile: Content-Language $(header Content-Language), not en"
check_profile_body en
etag=$(header ETag)
[ -n "$etag" ] || fail "GET /profile: no ETag"
echo "GET /profile: 200 application/json, en, ETag $etag"

code=$(get "$base/profile" -H 'Accept-Language: es-MX,es;q=0.9,en;q=0.5')
[ "$code" = 200 ] || fail "GET /profile in Spanish: $code, not 200"
[ "$(header Content-Language)" = es ] ||
    fail "Accept-Language es-MX: Content-Language $(header Content-Language)"
check_profile_body es
[ "$(header ETag)" != "$etag" ] || fail "the Spanish ETag is the English one"
echo "GET /profile, Accept-Language: es-MX: 200, es, ETag $(header ETag)"

code=$(get "$base/profile" -H "If-None-Match: $etag")
[ "$code" = 304 ] || fail "If-None-Match with the ETag: $code, not 304"
[ ! -s "$tmp/b" ] || fail "the 304 has a body"
[ "$(header ETag)" = "$etag" ] || fail "the 304 carries ETag $(header ETag)"
echo "GET /profile, If-None-Match: $etag: 304"

code=$(get "$copied/profile")
[ "$code" = 200 ] || fail "GET /copied/api/v1/profile (the copied block): $code"
check_profile_body en
echo "GET /copied/api/v1/profile (the block copied into a virtual host): 200"

if grep -E '\[profile:(warn|error|crit|alert|emerg)\]' "$tmp/log/error.log"
then
    fail "the server logged problems of mod_profile"
fi
stop_test_server

# ------------------------------------------------------------ 5. purge
say "apt-get purge $PKG"
purge >"$tmp/purge.log" 2>&1 ||
    { cat "$tmp/purge.log" >&2; fail "apt-get purge failed"; }
installed_by_us=
case $(dpkg-query -W -f '${db:Status-Status}' "$PKG" 2>/dev/null) in
    ""|not-installed) ;;
    *) fail "$PKG is still known to dpkg after the purge" ;;
esac
for p in $TRACES; do
    if [ -e "$p" ] || [ -L "$p" ]; then fail "$p is still there"; fi
done
say "apachectl configtest after the purge"
apachectl configtest || fail "apachectl configtest fails after the purge"

# The administrator's virtual host with the copied block is still there:
# Apache must still parse it, start, and serve everything else.
say "after the purge, with the copied <IfModule> block still in a site"
setup_server_copy
APACHE_CONFDIR=$server_confdir apache2ctl configtest ||
    fail "configtest fails after the purge with the copied block in place"
start_test_server
code=$(get "http://127.0.0.1:$port/static.txt")
[ "$code" = 200 ] && grep -qx "a static file beside the API" "$tmp/b" ||
    fail "GET /static.txt after the purge: ${code:-no answer}, not 200"
echo "GET /static.txt: 200"
for url in "$copied/profile" "$base/profile"; do
    code=$(get "$url")
    [ "$code" = 404 ] ||
        fail "GET $url after the purge: ${code:-no answer}, not 404"
    case $(header Content-Type) in
        application/json*|application/problem+json*)
            fail "GET $url after the purge: a JSON answer" ;;
    esac
    echo "GET $url: httpd's 404"
done
stop_test_server
# The same block without its <IfModule> is what breaks a server: checked,
# so that the check above means something.
setup_server_copy
sed -i '/^    <IfModule profile_module>$/d; /^    <\/IfModule>$/d' \
    "$server_confdir/sites-enabled/zz-copied-profile.conf"
if APACHE_CONFDIR=$server_confdir apache2ctl configtest \
        >"$tmp/unwrapped.log" 2>&1; then
    fail "the copied block without <IfModule> parses after the purge"
fi
grep -q "Invalid command 'ProfileData'" "$tmp/unwrapped.log" || {
    cat "$tmp/unwrapped.log" >&2
    fail "unexpected configtest error without <IfModule>"
}
echo "without <IfModule>: $(grep -m1 "Invalid command" "$tmp/unwrapped.log")"
server_confdir=

cleanup_state_dirs
after=$(snapshot)
if [ "$before" != "$after" ]; then
    echo "$before" >"$tmp/before"
    echo "$after" >"$tmp/after"
    diff "$tmp/before" "$tmp/after" >&2
    fail "/etc/apache2, /var/lib/apache2 or the modules differ from before"
fi
say "PASS"
status=0

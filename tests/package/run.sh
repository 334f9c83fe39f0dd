#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian packages, end to end, on this machine's apache2, as an
# administrator following the docs:
#
#   1. copies the distributed tree (`make distdir`) to a temporary directory
#      and builds libapache2-mod-profile and profilectl there with
#      `dpkg-buildpackage` (which runs the unit tests and fuzz replays),
#      then once more as a higher version (VERSION+pkgtest1: a temporary
#      debian/changelog entry, configure.ac and the man page to match);
#   2. checks the packages' relations and contents, and that the docs
#      (packaging.md's `dpkg -c` listings, operations.md's table of
#      installed files, the links of the installed Markdown files) match;
#   3. checks every configuration snippet the docs show (snippets.py): the
#      lines naming the module must be inside <IfModule profile_module>;
#   4. installs both with apt-get, checks that nothing got enabled, runs
#      `a2enmod profile`, `a2enconf profile-site`, `a2ensite profile-vhost`
#      and `apachectl configtest`;
#   5. starts the system apache2 on a copy of /etc/apache2 (its own
#      loopback ports and runtime files; a running apache2 is not touched)
#      holding every snippet of the docs, and reads the API at each place:
#      English, Spanish, 304, the vhost example's port serving only the
#      API, the JSON status with the package's version; breaks the data
#      (the last good data stays served, the status says stale) and fixes
#      it; no [profile:warn] or worse while the data is good;
#   6. upgrades to the higher version over the running server: dpkg,
#      `profilectl --version` and, after a graceful, the status name it;
#   7. removes the module package: configtest passes, the copy with every
#      snippet still in place parses, starts, serves its other content,
#      gives httpd's 404 for the API, and stops;
#   8. reinstalls it: nothing is enabled again ("disabled by maintainer
#      script", as README.Debian says); the commands README.Debian gives
#      publish the API again;
#   9. purges both: every file, link and state file is gone, the copy with
#      the snippets still parses, starts, serves and stops, the same
#      snippets without <IfModule> would not parse, and /etc/apache2,
#      /var/lib/apache2 and the module directory are as they were before.
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
TOOL=profilectl
# Every path the package ships, the links a2enmod/a2enconf make and their
# state files: none may exist before the test, none may remain after it.
TRACES="/usr/lib/apache2/modules/mod_profile.so
/etc/apache2/mods-available/profile.load
/etc/apache2/mods-available/profile.conf
/etc/apache2/conf-available/profile-site.conf
/etc/apache2/mods-enabled/profile.load
/etc/apache2/mods-enabled/profile.conf
/etc/apache2/conf-enabled/profile-site.conf
/etc/apache2/conf-available/profile-page.conf
/etc/apache2/conf-enabled/profile-page.conf
/etc/apache2/sites-available/profile-vhost.conf
/etc/apache2/sites-enabled/profile-vhost.conf
/usr/share/mod_profile
/var/cache/apache2/mod_profile
/usr/share/doc/$PKG
/usr/bin/profilectl
/usr/share/man/man1/profilectl.1.gz
/usr/share/doc/$TOOL"
for state in enabled_by_admin enabled_by_maint disabled_by_admin \
             disabled_by_maint; do
    TRACES="$TRACES
/var/lib/apache2/module/$state/profile
/var/lib/apache2/conf/$state/profile-site
/var/lib/apache2/conf/$state/profile-page
/var/lib/apache2/site/$state/profile-vhost"
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
for p in $PKG $TOOL; do
    case $(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null) in
        ""|not-installed) ;;
        *) skip "$p is already on this machine; the test would replace it" ;;
    esac
done
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
        apt-get purge -y -q -o DPkg::Lock::Timeout=120 "$PKG" "$TOOL"
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
        echo "cleanup: purging $PKG $TOOL" >&2
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
version2=$version+pkgtest1
arch=$(dpkg --print-architecture)

say "copy of the distributed tree"
make -s -C "$BUILDDIR" distdir distdir="$tmp/dist" >"$tmp/distdir.log" 2>&1 ||
    { cat "$tmp/distdir.log" >&2; error "make distdir failed"; }
(cd "$tmp/dist" && dpkg-checkbuilddeps) >"$tmp/deps.log" 2>&1 ||
    skip "build dependencies missing (scripts/install-deps installs them): $(cat "$tmp/deps.log")"

# build_version V DIR: the distributed tree as version V, built in DIR
# (the .debs land in $tmp/DIR-debs).
build_version()
{
    v=$1
    dir=$tmp/$2/mod-profile-$v
    mkdir -p "$tmp/$2" && cp -a "$tmp/dist" "$dir" || error "cp"
    if [ "$v" != "$version" ]; then
        # One version everywhere (tests/check-version.sh): AC_INIT, the
        # man page's footer and a changelog entry of its own.
        sed -i "s/^AC_INIT(\[mod_profile\], *\[$version\]/AC_INIT([mod_profile], [$v]/" \
            "$dir/configure.ac"
        sed -i "s/\"mod_profile $version\"/\"mod_profile $v\"/" \
            "$dir/profilectl/profilectl.1"
        { printf 'mod-profile (%s) unstable; urgency=medium\n\n' "$v"
          printf '  * tests/package/run.sh: the same tree, a higher version.\n\n'
          printf ' -- Package Test <test@example.invalid>  %s\n\n' "$(date -R)"
          cat "$dir/debian/changelog"; } >"$dir/debian/changelog.new" &&
            mv "$dir/debian/changelog.new" "$dir/debian/changelog"
        grep -q "^AC_INIT(\[mod_profile\], \[$v\]" "$dir/configure.ac" ||
            error "cannot set the version in configure.ac"
    fi
    say "dpkg-buildpackage -us -uc -b ($v)"
    if ! (cd "$dir" && DEB_BUILD_OPTIONS=parallel=2 timeout "$STEP_TIMEOUT" \
            nice dpkg-buildpackage -us -uc -b) >"$tmp/build-$v.log" 2>&1; then
        tail -40 "$tmp/build-$v.log" >&2
        fail "dpkg-buildpackage failed (log: $tmp/build-$v.log)"
    fi
    grep -q '^PASS: tests/unit/test_validate' "$tmp/build-$v.log" ||
        fail "the package build ran no unit tests"
    for p in $PKG $TOOL; do
        [ -f "$tmp/$2/${p}_${v}_$arch.deb" ] || fail "no ${p}_${v}_$arch.deb"
    done
}
build_version "$version" v1
build_version "$version2" v2
deb=$tmp/v1/${PKG}_${version}_$arch.deb
tooldeb=$tmp/v1/${TOOL}_${version}_$arch.deb
deb2=$tmp/v2/${PKG}_${version2}_$arch.deb
tooldeb2=$tmp/v2/${TOOL}_${version2}_$arch.deb
chmod -R a+rX "$tmp/v1" "$tmp/v2"

# -------------------------------------------------- 2. relations, contents
say "package relations and contents"
depends=$(dpkg-deb -f "$deb" Depends)
echo "$PKG Depends: $depends"
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
    # profilectl needs nothing of Apache httpd's.
    dpkg-deb -f "$tooldeb" "$field" | grep -q apache2 &&
        fail "$TOOL's $field names an apache2 package: $(dpkg-deb -f "$tooldeb" "$field")"
done
echo "$TOOL Depends: $(dpkg-deb -f "$tooldeb" Depends)"
for d in "$deb" "$tooldeb"; do
    rm -rf "$tmp/control"
    dpkg-deb -e "$d" "$tmp/control" || error "dpkg-deb -e failed"
    [ -e "$tmp/control/postinst" ] &&
        fail "$(basename "$d") has a postinst (it must enable nothing)"
done
listing()
{
    dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|' | LC_ALL=C sort
}
listing "$deb" >"$tmp/contents"
listing "$tooldeb" >"$tmp/contents.tool"
for f in /usr/lib/apache2/modules/mod_profile.so \
         /etc/apache2/mods-available/profile.load \
         /etc/apache2/mods-available/profile.conf \
         /etc/apache2/conf-available/profile-site.conf \
         /etc/apache2/sites-available/profile-vhost.conf \
         "$DATA" /usr/share/doc/$PKG/copyright \
         /usr/share/doc/$PKG/changelog.gz \
         /usr/share/doc/$PKG/README.Debian \
         /usr/share/doc/$PKG/NEWS.Debian.gz; do
    grep -qx "$f" "$tmp/contents" || fail "$PKG lacks $f"
done
for f in /usr/bin/profilectl /usr/share/man/man1/profilectl.1.gz \
         /usr/share/doc/$TOOL/copyright; do
    grep -qx "$f" "$tmp/contents.tool" || fail "$TOOL lacks $f"
done
grep -q profilectl "$tmp/contents" && fail "$PKG ships profilectl's files"
grep -q '^/etc/apache2/.*-enabled' "$tmp/contents" &&
    fail "the package ships links in /etc/apache2/*-enabled"

# The docs describe the packages: the `dpkg -c` listings in packaging.md
# and the table of installed files in operations.md name exactly their
# paths, and every relative link of the installed Markdown files leads to
# a file the package installs (X or its compressed X.gz; a link into the
# package that points outside it must exist on this machine).
say "the docs list the packages' files; installed docs link to installed files"
for p in $PKG $TOOL; do
    sed -n "/^    \\\$ dpkg -c \\.\\.\\/${p}_/,/^    \\\$ /p" \
        "$SRCDIR/docs/packaging.md" |
        sed '1d;$d' | awk '{print $6}' | sed 's|^\./|/|' | LC_ALL=C sort \
        >"$tmp/contents.doc"
    [ "$p" = "$PKG" ] && c=$tmp/contents || c=$tmp/contents.tool
    if ! diff -u "$tmp/contents.doc" "$c" >"$tmp/contents.diff"; then
        cat "$tmp/contents.diff" >&2
        fail "the dpkg -c listing of $p in docs/packaging.md is not the .deb's (- doc, + .deb)"
    fi
done
dpkg-deb -x "$deb" "$tmp/unpacked" && dpkg-deb -x "$tooldeb" "$tmp/unpacked" ||
    error "dpkg-deb -x failed"
python3 - "$SRCDIR/docs/operations.md" "$tmp/unpacked" "/usr/share/doc/$PKG" \
    <<'EOF' || fail "the docs do not match the package (above)"
import gzip, os, re, sys
doc, root, docdir = sys.argv[1:]
bad = []

# operations.md: the table after "The package ... installs".
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
        bad.append("operations.md's table names %s, which the packages lack" % item)
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
echo "packaging.md's listings, operations.md's table and the installed docs' links match"

# ------------------------------------------------------- 3. the snippets
say "every snippet of the docs that names the module is inside <IfModule profile_module>"
data=$tmp/data/profile.json
mkdir -p "$tmp/data" && cp "$SRCDIR/data/profile.json" "$data" ||
    error "cannot copy the sample data"
chmod 755 "$tmp/data"
python3 "$here/snippets.py" "$SRCDIR" "$tmp/snippets" "$data" ||
    fail "a snippet of the docs would break Apache once the module is gone"
grep -q '^api ' "$tmp/snippets/manifest" &&
    grep -q '^status ' "$tmp/snippets/manifest" ||
    fail "the docs show no API or status snippet (snippets.py found none)"
grep -l 'LogLevel.*profile:' "$tmp/snippets"/zz-snippet-*.conf >/dev/null ||
    fail "no LogLevel snippet found (snippets.py misses them)"

# ----------------------------------------------------------- 4. install
apt_install()
{
    # Only our packages may be installed: anything else would stay behind.
    others=$(apt-get -s -o DPkg::Lock::Timeout=120 install "$@" 2>&1 |
             sed -n 's/^Inst \([^ ]*\).*/\1/p' | grep -vx -e "$PKG" -e "$TOOL")
    [ -z "$others" ] ||
        error "installing would also install: $others (scripts/install-deps)"
    installed_by_us=1
    DEBIAN_FRONTEND=noninteractive timeout "$STEP_TIMEOUT" \
        apt-get install -y -q -o DPkg::Lock::Timeout=120 "$@" \
        >"$tmp/install.log" 2>&1 ||
        { cat "$tmp/install.log" >&2; fail "apt-get install $* failed"; }
}
configtest()
{
    apachectl configtest >"$tmp/configtest.log" 2>&1 ||
        { cat "$tmp/configtest.log" >&2; fail "apachectl configtest fails $1"; }
    echo "apachectl configtest $1: $(tail -1 "$tmp/configtest.log")"
}
say "apt-get install $PKG $TOOL ($version)"
apt_install "$deb" "$tooldeb"
[ -f /usr/lib/apache2/modules/mod_profile.so ] || fail "no module installed"
if [ -e /etc/apache2/mods-enabled/profile.load ] ||
   [ -e /etc/apache2/conf-enabled/profile-site.conf ] ||
   [ -e /etc/apache2/conf-enabled/profile-page.conf ] ||
   [ -e /etc/apache2/sites-enabled/profile-vhost.conf ]; then
    fail "installing the package enabled the module or an example"
fi
profilectl --version | grep -qF "$version" ||
    fail "profilectl --version: $(profilectl --version 2>&1), not $version"

say "a2enmod profile && a2enconf profile-site && a2ensite profile-vhost"
a2enmod profile || fail "a2enmod profile failed"
a2enconf profile-site || fail "a2enconf profile-site failed"
a2ensite profile-vhost || fail "a2ensite profile-vhost failed"
# The page's static files (docs/page.md), and its configuration.
for f in page.css page.js favicon.svg; do
    [ -f "/usr/share/mod_profile/page/$f" ] ||
        fail "the package did not install the page's $f"
done
# (The server copy below enables mod_headers, which sends its CSP.)
say "a2enconf profile-page"
a2enconf profile-page || fail "a2enconf profile-page failed"
configtest "with the module, both examples and the page"

# ------------------------------------------------------------ 5. serve
free_port()
{
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])' || error "no free port"
}
port=$(free_port)
vport=$(free_port)
base=http://127.0.0.1:$port/api/v1
mkdir -p "$tmp/www" || error "mkdir"
echo "a static file beside the API" >"$tmp/www/static.txt"

# A copy of /etc/apache2 as it is now, listening on 127.0.0.1:$port (and
# the vhost example on $vport instead of 8081), with its own runtime
# files, a virtual host with a static file, the modules the snippets use,
# and every snippet of the docs in conf-enabled/ (none with $1 "none").
setup_server_copy()
{
    server_confdir=$tmp/apache2
    rm -rf "$server_confdir"
    cp -a /etc/apache2 "$server_confdir" || error "cannot copy /etc/apache2"
    mkdir -p "$tmp/run" "$tmp/lock" "$tmp/log" || error "mkdir"
    chown www-data "$tmp/lock" 2>/dev/null
    echo "Listen 127.0.0.1:$port" >"$server_confdir/ports.conf"
    v=$server_confdir/sites-available/profile-vhost.conf
    [ -f "$v" ] && sed -i "s/8081/$vport/g" "$v"
    cat >>"$server_confdir/envvars" <<EOF
# tests/package/run.sh: this copy's own runtime files
export APACHE_PID_FILE=$tmp/run/apache2.pid
export APACHE_RUN_DIR=$tmp/run
export APACHE_LOCK_DIR=$tmp/lock
export APACHE_LOG_DIR=$tmp/log
EOF
    # What the snippets need (docs/ecosystem.md: a2enmod filter env
    # headers deflate brotli; the redirect example: rewrite).
    for m in filter env headers deflate brotli rewrite; do
        for f in "$server_confdir/mods-available/$m".*; do
            [ -e "$f" ] || continue
            [ -e "$server_confdir/mods-enabled/${f##*/}" ] ||
                ln -s "../mods-available/${f##*/}" "$server_confdir/mods-enabled/"
        done
    done
    cat >"$server_confdir/sites-enabled/zz-static.conf" <<EOF
<VirtualHost 127.0.0.1:$port>
    ServerName static.example
    DocumentRoot $tmp/www
    <Directory $tmp/www>
        Require all granted
    </Directory>
</VirtualHost>
EOF
    [ "${1:-}" = none ] && return
    for f in "$tmp/snippets"/zz-snippet-*.conf; do
        cp "$f" "$server_confdir/conf-enabled/" || error "cp $f"
    done
}
ctl()
{
    APACHE_CONFDIR=$server_confdir timeout 60 apache2ctl "$@"
}
start_test_server()
{
    ctl configtest >"$tmp/copy-configtest.log" 2>&1 ||
        { cat "$tmp/copy-configtest.log" >&2; fail "configtest of the copy fails $1"; }
    ctl start ||
        fail "apache2ctl start failed $1: $(tail -5 "$tmp/log/error.log" 2>/dev/null)"
    i=0
    until curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/"; do
        i=$((i + 1))
        [ $i -lt 50 ] || fail "the server does not answer on $port $1"
        sleep 0.2
    done
    echo "the copy with every snippet parses and starts $1"
}
stop_checked()
{
    pid=$(cat "$tmp/run/apache2.pid" 2>/dev/null)
    ctl stop || fail "apache2ctl stop failed $1"
    i=0
    while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
        i=$((i + 1))
        [ $i -lt 100 ] || fail "apache2ctl stop: the server still runs $1"
        sleep 0.1
    done
    server_confdir=
    echo "apache2ctl stop $1: stopped"
}

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
# status_field FIELD: the JSON status's FIELD, read from the first
# status snippet.
status_url=http://127.0.0.1:$port$(sed -n 's/^status //p' "$tmp/snippets/manifest" | head -1)
status_field()
{
    code=$(get "$status_url")
    [ "$code" = 200 ] || { echo "status: $code"; return; }
    python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$tmp/b" "$1"
}
# wait_status FIELD VALUE: after a graceful, until the status says so.
wait_status()
{
    i=0
    while [ "$(status_field "$1")" != "$2" ]; do
        i=$((i + 1))
        [ $i -lt 100 ] ||
            fail "the status's $1 is $(status_field "$1"), not $2"
        sleep 0.2
    done
    echo "status: $1 $2"
}
check_apis_serve()
{
    for u in $(sed -n 's/^api //p' "$tmp/snippets/manifest"); do
        code=$(get "http://127.0.0.1:$port$u/profile")
        [ "$code" = 200 ] ||
            fail "GET $u/profile (a snippet of the docs): ${code:-no answer}, not 200"
        lang=$(sed -n "s|^lang $u ||p" "$tmp/snippets/manifest")
        check_profile_body "${lang:-en}"
    done
    echo "every API snippet of the docs answers 200 with the data"
}
check_apis_gone()
{
    for u in "$base" $(sed -n 's/^api //p' "$tmp/snippets/manifest" |
                       sed "s|^|http://127.0.0.1:$port|"); do
        code=$(get "$u/profile")
        [ "$code" = 404 ] ||
            fail "GET $u/profile $1: ${code:-no answer}, not 404"
        case $(header Content-Type) in
            application/json*|application/problem+json*)
                fail "GET $u/profile $1: a JSON answer" ;;
        esac
    done
    code=$(get "http://127.0.0.1:$port/static.txt")
    [ "$code" = 200 ] && grep -qx "a static file beside the API" "$tmp/b" ||
        fail "GET /static.txt $1: ${code:-no answer}, not 200"
    echo "$1: the static file 200, every API path httpd's 404"
}

say "the system apache2 on 127.0.0.1:$port (a copy of /etc/apache2 with every snippet)"
setup_server_copy
start_test_server "with the module"

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

# The page through the installed Apache, beside the API, under its CSP.
code=$(get "http://127.0.0.1:$port/profile/")
[ "$code" = 200 ] || fail "GET /profile/ (the page): ${code:-no answer}, not 200"
[ "$(header Content-Type)" = "text/html; charset=utf-8" ] ||
    fail "GET /profile/: Content-Type $(header Content-Type)"
grep -qE '<link rel="alternate" hreflang="x-default" href="https?://[^"]+/profile/">' "$tmp/b" ||
    fail "GET /profile/: not the page the module renders"
grep -qF 'Lucía Álvarez Romero' "$tmp/b" ||
    fail "GET /profile/: the page does not hold the profile's name"
csp=$(header Content-Security-Policy)
case $csp in
    "default-src 'self';"*) ;;
    *) fail "GET /profile/: Content-Security-Policy '$csp'" ;;
esac
case $csp in *unsafe*) fail "GET /profile/: the CSP allows unsafe-*: $csp" ;; esac
code=$(get "http://127.0.0.1:$port/profile-assets/page.js")
[ "$code" = 200 ] && [ "$(header Content-Type)" = "text/javascript; charset=utf-8" ] ||
    fail "GET /profile-assets/page.js: ${code:-no answer} $(header Content-Type)"
echo "GET /profile/: the page, text/html, CSP $csp; its script text/javascript"

check_apis_serve

# The removal checklist's grep (docs/operations.md, "Removing it"), run on
# the copy: it must list every file holding a snippet, and none of the
# package's own files.
checklist=$(sed -n 's/^    \(grep -rnE .*\)$/\1/p' "$SRCDIR/docs/operations.md")
[ "$(echo "$checklist" | grep -c .)" = 1 ] ||
    fail "docs/operations.md has not one removal grep: $checklist"
(cd "$server_confdir" &&
 eval "$(echo "$checklist" | sed 's| /etc/apache2/ | ./ |')") |
    cut -d: -f1 | sed 's|^\./||' | LC_ALL=C sort -u >"$tmp/checklist.found"
(cd "$server_confdir" && ls conf-enabled/zz-snippet-*.conf) | LC_ALL=C sort \
    >"$tmp/checklist.want"
diff -u "$tmp/checklist.want" "$tmp/checklist.found" ||
    fail "the removal checklist's grep does not find exactly the snippets (- missed, + extra)"
echo "the removal checklist's grep finds every snippet and no file of the package"

code=$(get "http://127.0.0.1:$vport/api/v1/profile")
[ "$code" = 200 ] || fail "the vhost example: GET /api/v1/profile: ${code:-no answer}"
code=$(get "http://127.0.0.1:$vport/")
[ "$code" = 403 ] || fail "the vhost example serves / (${code:-no answer}), not only the API"
echo "the vhost example: the API 200, / 403"
wait_status version "$version"

if grep -E '\[profile:(warn|error|crit|alert|emerg)\]' "$tmp/log/error.log"
then
    fail "the server logged problems of mod_profile"
fi

say "a bad data file, then fixed"
etag_snip=
u1=$(sed -n 's/^api //p' "$tmp/snippets/manifest" | head -1)
get "http://127.0.0.1:$port$u1/profile" >/dev/null
etag_snip=$(header ETag)
cp "$data" "$tmp/data.good"
printf '{"profile": {"name": ' >"$data"
ctl graceful || fail "graceful with a bad data file failed (ProfileBadData keep)"
wait_status stale 1
code=$(get "http://127.0.0.1:$port$u1/profile")
[ "$code" = 200 ] && [ "$(header ETag)" = "$etag_snip" ] ||
    fail "with a bad file: $code $(header ETag), not the last good data"
apachectl configtest >/dev/null 2>&1 || fail "configtest fails with a bad file"
cp "$tmp/data.good" "$data"
ctl graceful || fail "graceful after fixing the data failed"
wait_status stale 0
wait_status fresh "$(status_field files)"
echo "the last good data stayed served while the file was bad"

# ------------------------------------------------------------ 6. upgrade
say "upgrade to $version2 over the running server"
apt_install "$deb2" "$tooldeb2"
[ "$(dpkg-query -W -f '${Version}' "$PKG")" = "$version2" ] ||
    fail "dpkg says $PKG $(dpkg-query -W -f '${Version}' "$PKG")"
profilectl --version | grep -qF "$version2" ||
    fail "profilectl --version: $(profilectl --version 2>&1), not $version2"
[ -e /etc/apache2/mods-enabled/profile.load ] ||
    fail "the upgrade disabled the module"
configtest "after the upgrade"
ctl graceful || fail "graceful after the upgrade failed"
wait_status version "$version2"
check_apis_serve
stop_checked "after the upgrade"

# ------------------------------------------------------------ 7. remove
say "apt-get remove $PKG"
DEBIAN_FRONTEND=noninteractive timeout "$STEP_TIMEOUT" \
    apt-get remove -y -q -o DPkg::Lock::Timeout=120 "$PKG" \
    >"$tmp/remove.log" 2>&1 ||
    { cat "$tmp/remove.log" >&2; fail "apt-get remove failed"; }
[ -e /usr/lib/apache2/modules/mod_profile.so ] && fail "the module stayed"
[ -e /etc/apache2/mods-enabled/profile.load ] && fail "the module stayed enabled"
command -v profilectl >/dev/null || fail "removing the module removed profilectl"
configtest "after the removal"
setup_server_copy
start_test_server "after the removal"
check_apis_gone "after the removal"
stop_checked "after the removal"

# --------------------------------------------------------- 8. reinstall
say "apt-get install $PKG again: nothing enabled (README.Debian)"
apt_install "$deb2"
a2query -m profile >"$tmp/a2query.log" 2>&1 &&
    fail "the reinstall enabled the module: $(cat "$tmp/a2query.log")"
grep -q "disabled by maintainer script" "$tmp/a2query.log" ||
    fail "a2query -m profile: $(cat "$tmp/a2query.log")"
echo "a2query -m profile: $(cat "$tmp/a2query.log")"
a2query -c profile-site >/dev/null 2>&1 && fail "the reinstall enabled profile-site"
a2query -s profile-vhost >/dev/null 2>&1 && fail "the reinstall enabled profile-vhost"
# The commands README.Debian gives.
grep -q 'a2enmod profile && a2enconf profile-site' "$SRCDIR/debian/README.Debian" ||
    fail "README.Debian no longer gives the commands this test runs"
a2enmod profile && a2enconf profile-site && a2ensite profile-vhost ||
    fail "enabling again failed"
configtest "after enabling again"
setup_server_copy
start_test_server "after the reinstall"
code=$(get "$base/profile")
[ "$code" = 200 ] || fail "GET /profile after the reinstall: $code"
check_apis_serve
# profile.conf's ProfileCompiledDir: the start compiled the data files
# there (and the purge below takes them).
ls /var/cache/apache2/mod_profile/*.pcs >/dev/null 2>&1 ||
    fail "no compiled form in /var/cache/apache2/mod_profile after a start"
echo "compiled forms: $(ls /var/cache/apache2/mod_profile | wc -l) in /var/cache/apache2/mod_profile"
stop_checked "after the reinstall"

# ------------------------------------------------------------ 9. purge
say "apt-get purge $PKG $TOOL"
purge >"$tmp/purge.log" 2>&1 ||
    { cat "$tmp/purge.log" >&2; fail "apt-get purge failed"; }
installed_by_us=
for p in $PKG $TOOL; do
    case $(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null) in
        ""|not-installed) ;;
        *) fail "$p is still known to dpkg after the purge" ;;
    esac
done
for p in $TRACES; do
    if [ -e "$p" ] || [ -L "$p" ]; then fail "$p is still there"; fi
done
configtest "after the purge"
setup_server_copy
start_test_server "after the purge"
check_apis_gone "after the purge"
stop_checked "after the purge"
# Each snippet without its <IfModule> is what breaks a server: checked
# one by one, so that the checks above mean something.
n=0
for bare in "$tmp/snippets/bare"/zz-snippet-*.conf; do
    grep -Eq '^ *(Profile[A-Z]|LogLevel .*profile:)' "$bare" || continue
    setup_server_copy none
    cp "$bare" "$server_confdir/conf-enabled/" || error "cp $bare"
    if ctl configtest >"$tmp/unwrapped.log" 2>&1; then
        fail "$(sed -n '1s/^# tests.package.run.sh: //p' "$bare") parses after the purge"
    fi
    grep -Eq "Invalid command 'Profile|Cannot find module profile" \
            "$tmp/unwrapped.log" || {
        cat "$tmp/unwrapped.log" >&2
        fail "unexpected configtest error for $bare"
    }
    n=$((n + 1))
    echo "$(sed -n '1s/^# tests.package.run.sh: //p' "$bare"): $(grep -m1 -oE "Invalid command '[A-Za-z]+'|Cannot find module profile" "$tmp/unwrapped.log")"
done
[ $n -gt 0 ] || fail "no snippet checked without its <IfModule>"
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

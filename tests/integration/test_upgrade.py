# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §9 (revised 2026-11-26): what the module keeps across restarts
belongs to the build that made it.  After an upgrade a bad file still
leaves the last good data served (the new build loads the kept bytes of
the last good file), or, where that cannot be, a 503 with the reason
logged; never data read through another build's layout.

The servers load the module from a copy inside their ServerRoot, which
the tests replace as dpkg does (a new file renamed over it: a new inode),
then signal a graceful restart.  The other builds are `make check`'s
test-only builds (Makefile.am): mod_profile_variant.so, whose
profile_store_t has 72 more bytes at its start and another
PROFILE_STORE_LAYOUT, and mod_profile_unversioned.so, whose holders read
as those of the builds before the kept prefix (their magic, and nothing
else of them may be read).

test_upgrade_with_bad_file_serves_last_good_bytes: both directions
(this build to the variant and back): every route's body, ETag,
Last-Modified and Content-Language in both languages, and a gzip form,
the same byte for byte before the file broke, after it broke, and after
the upgrade; the status says stale since the same time; a good file then
loads (fresh).

test_upgrade_from_build_that_kept_no_bytes_answers_503: from a build
whose holder keeps no bytes, a bad file gives 503 and the error log says
why (PROFILE0012), until the file loads.

test_refused_file_gives_its_memory_back (review 2026-11-26, D7): after a
graceful onto a refused 4 MB file, the parent's VmRSS is back within
8 MB of what it was before.
"""
import json
import os
import re
import shutil
import subprocess

import pytest

import httpd_harness as h
import proc_util as pu
from test_datafile import MINIMAL_FILE
from test_memory import _parent_rss
from test_status import STATUS, auto_lines, status_json

SANITIZED = bool(os.environ.get("HTTPD_ENV_LD_PRELOAD"))
LIBS = os.path.join(h.BUILDDIR, "mod_profile", ".libs")
VARIANTS = ["mod_profile_variant", "mod_profile_unversioned"]
ROUTES = ["/profile", "/skills", "/experience", "/experience/only-job",
          "/education", "/contact", "/metrics"]
BROKEN = b'{"broken":'
MB = 1024 * 1024


@pytest.fixture(scope="module")
def builds():
    """{"this": .so, "variant": .so, "unversioned": .so}.  Made (or
    brought up to date) here, so that they never lag the sources."""
    make = os.environ.get("MAKE") or "make"
    cp = subprocess.run([make, "-C", h.BUILDDIR]
                        + ["mod_profile/%s.la" % v for v in VARIANTS],
                        capture_output=True, text=True, timeout=900)
    assert cp.returncode == 0, cp.stdout + cp.stderr
    out = {"this": h.MODULE}
    for v in VARIANTS:
        out[v.split("_")[-1]] = os.path.join(LIBS, v + ".so")
        assert os.path.isfile(out[v.split("_")[-1]])
    return out


def _install(src, dst):
    """As dpkg installs a file: a new one renamed over the old."""
    tmp = dst + ".dpkg-new"
    shutil.copyfile(src, tmp)
    os.chmod(tmp, 0o644)
    os.rename(tmp, dst)


def _write(path, data, mtime):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.utime(tmp, (mtime, mtime))
    os.rename(tmp, path)


def _good(version):
    d = h.load_data(MINIMAL_FILE)
    d["profile"]["headline"]["en"] = "Version %d" % version
    return (json.dumps(d, ensure_ascii=False, indent=2) + "\n").encode()


def _server(make_httpd, workdir, name, first):
    """A server loading build `first` from its ServerRoot, serving the
    good data version 1: (server, data path)."""
    d = os.path.join(workdir, name + "-data")
    os.makedirs(d)
    os.chmod(d, 0o755)
    path = os.path.join(d, "profile.json")
    _write(path, _good(1), h.DATA_MTIME)
    server = make_httpd(name, "")
    os.makedirs(os.path.join(server.root, "modules"))
    server.module = os.path.join(server.root, "modules", "mod_profile.so")
    _install(first, server.module)
    server.write_conf(h.load_modules("status") + STATUS
                      + h.location("/api/v1", path))
    server.start_checked()
    return server, path


def _answers(server):
    """Every route in both languages, and a gzip form: what a client
    sees of it (status, body, validators, language)."""
    out = {}
    for route in ROUTES:
        for lang in ("en", "es"):
            r = server.get("/api/v1" + route, {"Accept-Language": lang})
            out[(route, lang)] = (r.status, r.body, r.etag,
                                  r.header("Last-Modified"),
                                  r.header("Content-Language"))
    r = server.get("/api/v1/skills", {"Accept-Encoding": "gzip"})
    out[("/skills", "gzip")] = (r.status, r.body, r.etag,
                                r.header("Content-Encoding"))
    return out


def _file_status(server):
    files = status_json(server)["data"]
    assert len(files) == 1, files
    return files[0]


STALE_LOG = r"\[profile:error\] .*PROFILE0003: ProfileData: .*profile\.json"


@pytest.mark.allow_log(STALE_LOG)
@pytest.mark.parametrize("first,second", [("this", "variant"),
                                          ("variant", "this")])
def test_upgrade_with_bad_file_serves_last_good_bytes(
        make_httpd, workdir, builds, first, second):
    server, path = _server(make_httpd, workdir,
                           "upgrade-%s-%s" % (first, second), builds[first])
    good = _answers(server)
    assert all(a[0] == 200 for a in good.values()), good
    assert json.loads(good[("/profile", "en")][1])["headline"] == \
        "Version 1"
    assert _file_status(server)["state"] == "fresh"

    _write(path, BROKEN, h.DATA_MTIME + 100)
    text = pu.restart(server, "USR1")
    assert "PROFILE0003" in text, text
    assert _answers(server) == good
    stale = _file_status(server)
    assert stale["state"] == "stale", stale

    _install(builds[second], server.module)
    text = pu.restart(server, "USR1")
    pu.assert_no_crash(server, text)
    # The new build loaded the bytes the old one kept, and says so.
    assert re.search(r"PROFILE0011: ProfileData %s: the last good data, "
                     r"loaded .*, was kept by another build of mod_profile"
                     % re.escape(path), text), text
    assert re.search(r"PROFILE0003: ProfileData: %s:1:\d+: invalid JSON.*"
                     r"still serving the last good data"
                     % re.escape(path), text), text
    assert _answers(server) == good
    after = _file_status(server)
    assert after["state"] == "stale", after
    for key in ("staleSince", "loadedAt", "loaded"):
        assert after[key] == stale[key], (key, stale, after)
    auto = auto_lines(server)
    assert auto["ProfileStale"] == "1", auto
    assert auto["ProfileData[0]State"] == "stale", auto

    # The same build again, the file still bad: its own store now.
    text = pu.restart(server, "USR1")
    assert "PROFILE0011" not in text, text
    assert "PROFILE0003" in text, text
    assert _answers(server) == good

    _write(path, _good(2), h.DATA_MTIME + 200)
    text = pu.restart(server, "USR1")
    assert not [ln for ln in text.splitlines() if h.LOG_PROBLEM.search(ln)], \
        text
    r = server.get("/api/v1/profile", {"Accept-Language": "en"})
    assert r.status == 200, r
    assert r.json()["headline"] == "Version 2"
    assert r.header("Last-Modified") == h.http_date(h.DATA_MTIME + 200)
    assert _file_status(server)["state"] == "fresh"


@pytest.mark.allow_log(
    r"\[profile:error\] .*PROFILE0012: ProfileData .*profile\.json: the "
    r"last good data of this file was loaded by another build of "
    r"mod_profile and cannot be served by this one",
    r"\[profile:error\] .*PROFILE0005: ProfileData: .*profile\.json",
    STALE_LOG)
def test_upgrade_from_build_that_kept_no_bytes_answers_503(
        make_httpd, workdir, builds):
    server, path = _server(make_httpd, workdir, "upgrade-unversioned",
                           builds["unversioned"])
    good = _answers(server)
    _write(path, BROKEN, h.DATA_MTIME + 100)
    pu.restart(server, "USR1")
    assert _answers(server) == good     # that build's own last good data

    _install(builds["this"], server.module)
    text = pu.restart(server, "USR1")
    pu.assert_no_crash(server, text)
    lost = [ln for ln in text.splitlines() if "PROFILE0012" in ln]
    assert len(lost) == 1, text
    assert "it was kept by an earlier build of mod_profile, which keeps " \
        "no copy of the file's bytes; answering 503 until the file loads" \
        in lost[0], lost
    assert "PROFILE0005" in text, text
    for route in ROUTES:
        r = server.get("/api/v1" + route)
        assert r.status == 503, (route, r)
        assert r.header("Retry-After") == "60"
    assert _file_status(server)["state"] == "unavailable"
    assert auto_lines(server)["ProfileUnavailable"] == "1"

    _write(path, _good(2), h.DATA_MTIME + 200)
    text = pu.restart(server, "USR1")
    assert "PROFILE0012" not in text, text
    r = server.get("/api/v1/profile", {"Accept-Language": "en"})
    assert r.status == 200, r
    assert r.json()["headline"] == "Version 2"


def _bomb(size):
    """{"x":[{},{},...]} of about `size` bytes: valid JSON, refused."""
    n = (size - 8) // 3
    return b'{"x":[' + b"{}," * (n - 1) + b"{}]}"


@pytest.mark.skipif(SANITIZED, reason="memory figures are meaningless "
                    "under the sanitizer runtime")
@pytest.mark.allow_log(STALE_LOG)
def test_refused_file_gives_its_memory_back(make_httpd, workdir):
    d = os.path.join(workdir, "trim-data")
    os.makedirs(d)
    os.chmod(d, 0o755)
    path = os.path.join(d, "profile.json")
    h.copy_data(h.SAMPLE_DATA, path)
    server = make_httpd("trim", h.location("/api/v1", path))
    server.start_checked()
    good = server.get("/api/v1/skills")
    assert good.status == 200, good
    before = _parent_rss(server.pid)

    _write(path, _bomb(4 * MB), h.DATA_MTIME + 100)
    text = pu.restart(server, "USR1", timeout=120)
    assert "PROFILE0003" in text, text
    after = _parent_rss(server.pid)
    r = server.get("/api/v1/skills")
    assert (r.status, r.body, r.etag) == (good.status, good.body, good.etag)
    assert after <= before + 8 * 1024, \
        "parent VmRSS %d KiB before, %d KiB after refusing 4 MB" % (
            before, after)

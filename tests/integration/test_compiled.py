# SPDX-License-Identifier: Apache-2.0
"""The work of a load done before the restart signal (issue 35,
deliverable 1; docs/operations.md, "Compiled forms").

* `apachectl configtest` (and the first of httpd's two readings at
  start-up, and `httpd -k graceful` before it signals) compiles each good
  data file into ProfileCompiledDir; the restart that follows maps it
  ("loaded in ... from its compiled form") and serves what a load serves.
* A file edited between configtest and the restart is served from its
  new bytes; one edited to be bad leaves the last good data served
  (CONTRACT §9), never the compiled form of the bytes it no longer holds.
* A file configtest found bad is not parsed again by the restart while
  it holds the bytes refused (its verdict, kept where its compiled form
  goes): the same message, the last good data kept (review E3).
* A compiled form written by another build of the module (a package
  upgrade replaced the .so) is never read.
* Between restarts the parent maps what configtest compiled (its
  monitor hook, about every ten seconds; PROFILE0015), and the restart
  serves that ("mapped before the signal") only while it is still the
  compiled file and the data file still holds its bytes.
* A directory others may write is not used (PROFILE0013); Off writes
  nothing; compiled forms nothing uses are removed after an hour (by the
  parent, once the restart's children run).
"""
import glob
import json
import os
import shutil
import time

import pytest

import httpd_harness as h
import proc_util as pu

B = "/api/v1"
INFO = "LogLevel warn profile:info\nProfileCompiledDir logs/mod_profile\n"
MAPPED = "from its compiled form"
AHEAD = "mapped before the signal"
# httpd runs the monitor hook about every ten seconds.
MONITOR_S = 30


def _bytes(headline):
    d = h.load_data(os.path.join(h.TEST_DATA, "minimal.json"))
    d["profile"]["headline"]["en"] = headline
    return (json.dumps(d, ensure_ascii=False, indent=2) + "\n").encode()


def _write(path, data):
    """As a deploy writes a file: a new one renamed over the old."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.rename(tmp, path)


def _line(text, path):
    lines = [ln for ln in text.splitlines()
             if "PROFILE0006" in ln and path in ln]
    assert len(lines) == 1, text
    return lines[0]


def _headline(server):
    r = server.get(B + "/profile", {"Accept-Language": "en"})
    assert r.status == 200, r
    return r.json()["headline"]


def _mapped_ahead(server, since):
    """Waits until the parent has mapped ahead what configtest compiled;
    the log from `since` on."""
    deadline = time.monotonic() + MONITOR_S
    while time.monotonic() < deadline:
        text = pu.log_since(server, since)
        if "PROFILE0015" in text:
            assert "1 compiled form mapped ahead" in text, text
            return text
        time.sleep(0.2)
    raise AssertionError("nothing mapped ahead in %d s" % MONITOR_S)


def _compiled(server, d=None):
    return sorted(glob.glob(os.path.join(
        d or os.path.join(server.root, "logs", "mod_profile"), "*.pcs")))


@pytest.fixture
def server(make_httpd, workdir, request):
    srv = make_httpd("compiled", "")
    srv.path = os.path.join(workdir, "compiled-%s.json" % request.node.name)
    _write(srv.path, _bytes("Version A"))
    srv.write_conf(INFO + h.location(B, srv.path))
    yield srv.start_checked()
    srv.stop()


def test_configtest_compiles_and_the_restart_maps(server):
    _write(server.path, _bytes("Version B"))
    cp = server.configtest()
    assert cp.returncode == 0, cp.stderr
    assert len(_compiled(server)) == 1
    text = pu.restart(server, "USR1")
    assert MAPPED in _line(text, server.path)
    assert _headline(server) == "Version B"
    # Every coding and language as a load gives them.
    for lang in ("en", "es"):
        for coding in ("identity", "gzip", "br"):
            r = server.get(B + "/experience", {"Accept-Language": lang,
                                               "Accept-Encoding": coding})
            assert r.status == 200, r
            body = h.decompress(r.body, coding) if coding != "identity" \
                else r.body
            assert json.loads(body, object_pairs_hook=list) == h.expected(
                h.load_data(server.path), "/experience", lang)
    # `httpd -k graceful` compiles before it signals, too.
    _write(server.path, _bytes("Version C"))
    text = pu.restart(server, "graceful")
    assert MAPPED in _line(text, server.path)
    assert _headline(server) == "Version C"


def test_the_restart_serves_what_the_parent_mapped_ahead(server):
    since = pu.log_size(server)
    _write(server.path, _bytes("Version B"))
    assert server.configtest().returncode == 0
    _mapped_ahead(server, since)
    text = pu.restart(server, "USR1")
    assert AHEAD in _line(text, server.path)
    assert _headline(server) == "Version B"
    for coding in ("identity", "gzip", "br"):
        r = server.get(B + "/experience", {"Accept-Language": "es",
                                           "Accept-Encoding": coding})
        assert r.status == 200, r
        body = h.decompress(r.body, coding) if coding != "identity" \
            else r.body
        assert json.loads(body, object_pairs_hook=list) == h.expected(
            h.load_data(server.path), "/experience", "es")


@pytest.mark.parametrize("edit", ["same size", "bad"])
def test_an_edit_after_the_mapping_ahead_is_not_served_from_it(server,
                                                                edit):
    since = pu.log_size(server)
    _write(server.path, _bytes("Version B"))
    assert server.configtest().returncode == 0
    _mapped_ahead(server, since)
    if edit == "bad":
        _write(server.path, b'{"broken":')
    else:
        with open(server.path, "r+b") as f:
            f.write(_bytes("Version C"))
    text = pu.restart(server, "USR1")
    if edit == "bad":
        assert "PROFILE0003" in text and "invalid JSON" in text, text
        assert _headline(server) == "Version A"
        server.log_checked = pu.log_size(server)
    else:
        line = _line(text, server.path)
        assert "loaded in" in line and MAPPED not in line, line
        assert _headline(server) == "Version C"


def test_an_edit_after_configtest_is_served_from_its_new_bytes(server):
    _write(server.path, _bytes("Version B"))
    assert server.configtest().returncode == 0
    # The same size, written in place at once: only the bytes tell.
    with open(server.path, "r+b") as f:
        f.write(_bytes("Version C"))
    text = pu.restart(server, "USR1")
    line = _line(text, server.path)
    assert "loaded in" in line and MAPPED not in line, line
    assert _headline(server) == "Version C"


def test_a_bad_edit_after_configtest_keeps_the_last_good_data(server):
    _write(server.path, _bytes("Version B"))
    assert server.configtest().returncode == 0
    _write(server.path, b'{"broken":')
    text = pu.restart(server, "USR1")
    assert "PROFILE0003" in text and "invalid JSON" in text, text
    # The last good data this server loaded, not the compiled Version B.
    assert _headline(server) == "Version A"
    server.log_checked = pu.log_size(server)


def test_a_file_configtest_found_bad_is_not_parsed_again(server):
    """Review E3: the restart does not parse again, while every site is
    silent, the bytes configtest refused; it gives the same message and
    keeps the last good data, and only while the file holds those
    bytes."""
    _write(server.path, b'{"skills":[{},{},{}]}')
    cp = server.configtest()
    assert cp.returncode == 0 and server.path in cp.stderr, cp.stderr
    text = pu.restart(server, "USR1")
    assert "found bad, not read again" in _line(text, server.path), text
    assert "PROFILE0003" in text and "more problems: apachectl configtest " \
        "lists them" in text, text
    assert _headline(server) == "Version A"
    # Good bytes since, without a configtest: loaded, never judged.
    _write(server.path, _bytes("Version C"))
    text = pu.restart(server, "USR1")
    assert "loaded in" in _line(text, server.path), text
    assert _headline(server) == "Version C"
    server.log_checked = pu.log_size(server)


def test_another_builds_compiled_form_is_never_read(server):
    so = os.path.join(server.root, "mod_profile.so")

    def install():
        shutil.copyfile(h.MODULE, so + ".new")
        os.rename(so + ".new", so)

    install()
    server.module = so
    server.write_conf()
    pu.restart(server, "USR1")
    _write(server.path, _bytes("Version B"))
    assert server.configtest().returncode == 0
    install()                   # an upgrade: another build
    text = pu.restart(server, "USR1")
    line = _line(text, server.path)
    assert "loaded in" in line and MAPPED not in line, line
    assert _headline(server) == "Version B"


def test_a_directory_others_may_write_is_not_used(server, workdir):
    d = os.path.join(workdir, "open-compiled")
    os.makedirs(d)
    os.chmod(d, 0o777)
    server.write_conf(INFO.replace("logs/mod_profile", d)
                      + h.location(B, server.path))
    _write(server.path, _bytes("Version B"))
    text = pu.restart(server, "USR1")
    assert "PROFILE0013" in text and "not a directory that only" in text
    assert _headline(server) == "Version B"
    assert _compiled(server, d) == []
    server.log_checked = pu.log_size(server)


def test_off_writes_nothing(server):
    shutil.rmtree(os.path.join(server.root, "logs", "mod_profile"))
    server.write_conf(INFO.replace("logs/mod_profile", "Off")
                      + h.location(B, server.path))
    _write(server.path, _bytes("Version B"))
    assert server.configtest().returncode == 0
    pu.restart(server, "graceful")
    assert _headline(server) == "Version B"
    assert not os.path.exists(os.path.join(server.root, "logs",
                                           "mod_profile"))


def test_unused_compiled_forms_go_after_an_hour(server):
    d = os.path.join(server.root, "logs", "mod_profile")
    (used,) = _compiled(server)
    old = os.path.join(d, "0" * 40 + ".pcs")
    young = os.path.join(d, "1" * 40 + ".pcs")
    mine = os.path.join(d, "notes.txt")
    for f in (old, young, mine):
        with open(f, "w") as fh:
            fh.write("x")
    hour_ago = time.time() - 3700
    for f in (old, used, mine):
        os.utime(f, (hour_ago, hour_ago))
    pu.restart(server, "USR1")
    deadline = time.monotonic() + MONITOR_S
    while os.path.exists(old) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not os.path.exists(old)
    assert os.path.exists(used) and os.path.exists(young)
    assert os.path.exists(mine)

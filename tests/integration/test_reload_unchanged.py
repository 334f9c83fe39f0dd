# SPDX-License-Identifier: Apache-2.0
"""A restart keeps the loaded data of a file whose bytes did not change
(issue 12, item 5; docs/operations.md, "Updating the data").

* A graceful restart (SIGUSR1, `apache2 -k graceful`) or an immediate one
  (SIGHUP) with the file untouched, or only touched, logs PROFILE0006
  "unchanged, kept", loads nothing, and serves the same bytes and ETags;
  Last-Modified stays the file's modification time (CONTRACT §5), so a
  touch moves it.
* A changed file is always loaded: an edit of the same size written in
  place whose modification time was set back to the old one gives the
  new data and new ETags.
* What shapes the store must match too: a change of ProfileCompression
  loads again, and a ProfileMaxDataSize below the file's size refuses it
  (the last good data is served) as a load would.
* A file that went bad after a kept restart is reported (PROFILE0003);
  the same bytes as the kept data coming back end the staleness.
"""
import json
import os

import pytest

import httpd_harness as h
import proc_util as pu

B = "/api/v1"
ROUTES = ["/profile", "/skills", "/experience/only-job", "/metrics"]
KEPT = "unchanged, kept the data loaded"
INFO = "LogLevel warn profile:info\n"


def _data(headline):
    d = h.load_data(os.path.join(h.TEST_DATA, "minimal.json"))
    d["profile"]["headline"]["en"] = headline
    return d


@pytest.fixture
def server(make_httpd, workdir, request):
    """A server of its own per test (only the parent, as root, reads the
    file)."""
    srv = make_httpd("unchanged", "")
    srv.path = h.write_json(os.path.join(workdir, "unchanged-%s.json"
                                         % request.node.name),
                            _data("Version A"))
    srv.write_conf(INFO + h.location(B, srv.path))
    yield srv.start_checked()
    srv.stop()


def _snapshot(server):
    out = {}
    for route in ROUTES:
        for lang in ("en", "es"):
            for coding in ("identity", "br"):
                r = server.get(B + route, {"Accept-Language": lang,
                                           "Accept-Encoding": coding})
                assert r.status == 200, (route, lang, r)
                out[(route, lang, coding)] = (
                    r.etag, r.header("Last-Modified"), r.body)
    return out


def _bytes(snapshot):
    """A snapshot without Last-Modified: the ETags and bodies."""
    return {k: (etag, body) for k, (etag, _, body) in snapshot.items()}


def _profile_line(text, path):
    lines = [ln for ln in text.splitlines()
             if "PROFILE0006" in ln and path in ln]
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.parametrize("how", ["USR1", "graceful", "HUP"])
def test_unchanged_file_is_kept(server, how):
    before = _snapshot(server)
    text = pu.restart(server, how)
    line = _profile_line(text, server.path)
    assert KEPT in line and "loaded in" not in line, line
    assert "[profile:info]" in line, line
    assert _snapshot(server) == before


def test_touched_file_is_kept_with_its_new_last_modified(server):
    """Only the time moved: the bytes and ETags stay; Last-Modified is
    the file's modification time (CONTRACT §5), as after any load."""
    before = _snapshot(server)
    os.utime(server.path, (h.DATA_MTIME + 86400, h.DATA_MTIME + 86400))
    text = pu.restart(server, "USR1")
    assert KEPT in _profile_line(text, server.path)
    after = _snapshot(server)
    assert after.keys() == before.keys()
    for k, (etag, modified, body) in after.items():
        assert (etag, body) == (before[k][0], before[k][2]), k
        assert modified == h.http_date(h.DATA_MTIME + 86400), k


def test_same_size_edit_with_reset_mtime_is_loaded(server):
    before = _snapshot(server)
    st = os.stat(server.path)
    with open(server.path, "rb") as f:
        raw = f.read()
    new = raw.replace(b'"Version A"', b'"Version B"')
    assert len(new) == len(raw) and new != raw
    # In place (same inode), then the old time back, to the nanosecond.
    with open(server.path, "r+b") as f:
        f.write(new)
    os.utime(server.path, ns=(st.st_atime_ns, st.st_mtime_ns))
    after_st = os.stat(server.path)
    assert (after_st.st_ino, after_st.st_size, after_st.st_mtime_ns) == \
        (st.st_ino, st.st_size, st.st_mtime_ns)

    text = pu.restart(server, "USR1")
    line = _profile_line(text, server.path)
    assert "loaded in" in line and KEPT not in line, line
    after = _snapshot(server)
    for key in before:
        route, lang, _ = key
        if (route, lang) == ("/profile", "en"):
            assert after[key][0] != before[key][0], key
            assert json.loads(after[("/profile", "en", "identity")][2])[
                "headline"] == "Version B"
        else:
            assert after[key][0] == before[key][0], key
        assert after[key][1] == before[key][1], key     # the same mtime


def test_compression_change_loads_again(server):
    server.write_conf(INFO + h.location(B, server.path,
                                        opts="compress=off"))
    line = _profile_line(pu.restart(server, "USR1"), server.path)
    assert "loaded in" in line and "no compressed forms" in line, line
    r = server.get(B + "/profile", {"Accept-Encoding": "br"})
    assert r.status == 200 and not r.has("Content-Encoding"), r
    line = _profile_line(pu.restart(server, "USR1"), server.path)
    assert KEPT in line, line

    server.write_conf(INFO + h.location(B, server.path))
    line = _profile_line(pu.restart(server, "USR1"), server.path)
    assert "loaded in" in line and "with gzip and br forms" in line, line
    r = server.get(B + "/profile", {"Accept-Encoding": "br"})
    assert r.header("Content-Encoding") == "br", r


@pytest.mark.allow_log(r"PROFILE0003: ProfileData: .*limit")
def test_size_limit_applies_to_kept_data(server):
    before = _snapshot(server)
    size = os.path.getsize(server.path)
    server.write_conf("ProfileMaxDataSize %d\n" % (size - 1)
                      + INFO + h.location(B, server.path))
    text = pu.restart(server, "USR1")
    assert "PROFILE0003" in text and "ProfileMaxDataSize" in text, text
    assert KEPT not in text, text
    assert _snapshot(server) == before

    # The limit lifted: the file still holds the kept bytes.
    server.write_conf(INFO + h.location(B, server.path))
    text = pu.restart(server, "USR1")
    assert KEPT in _profile_line(text, server.path)
    assert "PROFILE0003" not in text, text
    assert _snapshot(server) == before


@pytest.mark.allow_log(r"PROFILE0003: ProfileData: .*/unchanged-.*\.json")
def test_file_gone_bad_after_a_kept_restart_is_reported(server):
    before = _snapshot(server)
    assert KEPT in pu.restart(server, "USR1")
    with open(server.path, "rb") as f:
        good = f.read()
    with open(server.path, "wb") as f:
        f.write(good[:len(good) // 2])
    text = pu.restart(server, "USR1")
    assert "PROFILE0003" in text and "invalid JSON" in text, text
    assert _snapshot(server) == before

    # The same bytes as the kept data again (written now, so a new
    # Last-Modified): kept, and no longer stale.
    with open(server.path, "wb") as f:
        f.write(good)
    text = pu.restart(server, "USR1")
    assert KEPT in _profile_line(text, server.path)
    assert "PROFILE0003" not in text, text
    assert _bytes(_snapshot(server)) == _bytes(before)


def test_a_file_no_generation_names_is_forgotten(server, workdir):
    """A restart whose configuration no longer names a file frees what was
    kept of it: named again later, unchanged, it is loaded afresh."""
    other = h.write_json(os.path.join(workdir, "unchanged-other.json"),
                         _data("Other"))
    server.write_conf(INFO + h.location(B, other))
    text = pu.restart(server, "USR1")
    assert "loaded in" in _profile_line(text, other)
    assert server.path not in text
    server.write_conf(INFO + h.location(B, server.path))
    text = pu.restart(server, "USR1")
    line = _profile_line(text, server.path)
    assert "loaded in" in line and KEPT not in line, line

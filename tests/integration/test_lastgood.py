# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §9, last good data: every kind of bad data file

* makes start-up fail with one message naming the file and the problem;
* reaching a running server by a restart signalled straight to the parent
  (`kill -USR1`, graceful, and `kill -HUP`, immediate; neither runs the
  configuration check that `apachectl` and `apache2 -k graceful` run
  first), is logged in one PROFILE0003 line naming the file and the
  problem, while the server keeps serving the last good data: the same
  bodies, ETags and Last-Modified;
* does not stick: the next good reload takes effect.

One server serves every kind in turn (test_datafile.py holds the
configuration check of the content kinds and the refusals of
`-k graceful`)."""
import json
import os
import re
import shutil

import pytest

import httpd_harness as h
import proc_util as pu
from test_datafile import BAD_FILES, MINIMAL_FILE


def _sample_text():
    with open(h.SAMPLE_DATA, encoding="utf-8") as f:
        return f.read()


def _content(text_maker):
    """A kind whose file holds `text_maker(sample)` (str or bytes)."""
    def make(path, sample):
        data = text_maker(sample)
        if isinstance(data, str):
            data = data.encode("utf-8")
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.rename(tmp, path)        # atomic, as an editor or deploy does
    return make


def _truncated(sample):
    # An interrupted copy: the sample cut about 60 % in, inside a string
    # value (a cut between tokens says "... expected near end of file"
    # instead), so the message does not depend on where that lands.
    text = _sample_text().encode("utf-8")
    return text[:text.index(b'": "', len(text) * 6 // 10) + 8]


def _not_utf8(sample):
    # The same document saved as Latin-1: "Lucía" holds the byte 0xED.
    return _sample_text().encode("latin-1", "replace")


def _directory(path, sample):
    os.unlink(path)
    os.mkdir(path)                  # unreadable as a file, even for root


def _deleted(path, sample):
    os.unlink(path)


SYNTAX_AT = r"%s:\d+:\d+: invalid JSON"

# kind -> (make(path, sample), [fragments of the message after the path])
KINDS = {
    "syntax": (_content(BAD_FILES["syntax"][0]),
               BAD_FILES["syntax"][1]),
    "truncated": (_content(_truncated),
                  [re.compile(SYNTAX_AT % ""), "premature end of input"]),
    "empty": (_content(lambda s: b""), [re.compile(SYNTAX_AT % "")]),
    "not_utf8": (_content(_not_utf8),
                 [re.compile(SYNTAX_AT % ""),
                  re.compile(r"decode byte 0x[0-9a-f]{2}")]),
    "directory": (_directory, ["not a regular file"]),
    "deleted": (_deleted, ["No such file or directory"]),
}
for _kind in ["missing_translation", "unknown_key", "wrong_type", "null",
              "duplicate_id", "bad_id", "duplicate_json_key",
              "missing_field"]:
    KINDS[_kind] = (_content(BAD_FILES[_kind][0]), BAD_FILES[_kind][1])

# Start-up is cheap to test: every content kind test_datafile.py knows too.
START_KINDS = dict(KINDS)
for _kind, (_maker, _frags) in BAD_FILES.items():
    START_KINDS.setdefault(_kind, (_content(_maker), _frags))


def _assert_one_clear_line(text, path, fragments, tag=None):
    """Exactly one line of `text` names `path`; it holds every fragment
    (and `tag`, when given)."""
    lines = [ln for ln in text.splitlines() if path + ":" in ln]
    assert len(lines) == 1, text
    line = lines[0]
    if tag is not None:
        assert tag in line, line
    rest = line.split(path, 1)[1]
    for frag in fragments:
        if isinstance(frag, str):
            assert frag in line, (frag, line)
        else:
            assert frag.search(rest) or frag.search(line), \
                (frag.pattern, line)
    return line


# CONTRACT §9: start-up with a bad file fails.
@pytest.mark.parametrize("kind", sorted(START_KINDS))
def test_start_with_bad_file_fails(make_httpd, workdir, sample, kind):
    make, fragments = START_KINDS[kind]
    d = os.path.join(workdir, "start-%s" % kind)
    os.makedirs(d)
    path = os.path.join(d, "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    make(path, sample)
    server = make_httpd("start-" + kind,
                         h.REFUSE + h.location("/api/v1", path))
    cp = server.start()
    try:
        assert cp.returncode != 0, cp
        _assert_one_clear_line(cp.stdout + cp.stderr, path, fragments)
        assert not server.answers()
    finally:
        server.stop()


# ---------------------------------------------------------------- reloads
ROUTES = ["/profile", "/skills", "/experience/only-job", "/metrics"]


def _good(version):
    """Good data, version n: the minimal file with the English headline
    "Version n" (other representations unchanged)."""
    d = h.load_data(MINIMAL_FILE)
    d["profile"]["headline"]["en"] = "Version %d" % version
    return d


class _State:
    pass


@pytest.fixture(scope="module")
def lastgood(make_httpd, workdir):
    """One server for every kind; `state.version` is the good data it
    serves, `state.mtime` that file's modification time."""
    d = os.path.join(workdir, "lastgood")
    os.makedirs(d)
    os.chmod(d, 0o755)
    path = os.path.join(d, "profile.json")
    st = _State()
    st.version = 1
    st.mtime = h.DATA_MTIME
    h.write_json(path, _good(1), st.mtime)
    server = make_httpd("lastgood", h.location("/api/v1", path))
    assert server.start().returncode == 0
    st.server = server
    st.path = path
    yield st
    server.stop()


def _snapshot(server):
    out = {}
    for route in ROUTES:
        for lang in ("en", "es"):
            r = server.get("/api/v1" + route, {"Accept-Language": lang})
            assert r.status == 200, (route, lang, r)
            out[(route, lang)] = (r.etag, r.header("Last-Modified"), r.body)
    return out


def _put_good(st, version):
    """Replaces whatever is at the data path by good data `version`."""
    if os.path.isdir(st.path):
        shutil.rmtree(st.path)
    st.mtime += 1000
    tmp = st.path + ".tmp"
    h.write_json(tmp, _good(version), st.mtime)
    os.chmod(tmp, 0o644)
    os.rename(tmp, st.path)


# CONTRACT §9: a reload with a bad file keeps the last good data.
@pytest.mark.allow_log(r"\[profile:error\] .*PROFILE0003: ProfileData: "
                       r".*/lastgood/profile\.json")
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_bad_file_on_reload_keeps_last_good_data(lastgood, sample, kind):
    st = lastgood
    server = st.server
    make, fragments = KINDS[kind]
    before = _snapshot(server)
    assert json.loads(before[("/profile", "en")][2])["headline"] == \
        "Version %d" % st.version
    pid = server.pid

    make(st.path, sample)
    for how in ("USR1", "HUP"):
        text = pu.restart(server, how)
        assert server.pid == pid and server.running()
        pu.assert_no_crash(server, text)
        line = _assert_one_clear_line(text, st.path, fragments,
                                      tag="PROFILE0003")
        assert "[profile:error]" in line, line
        assert "still serving the last good data" in line, line
        assert _snapshot(server) == before, how

    # The next good reload takes effect (graceful or immediate by turns).
    st.version += 1
    _put_good(st, st.version)
    how = "USR1" if st.version % 2 else "HUP"
    text = pu.restart(server, how)
    assert not pu.module_messages(text), text
    after = _snapshot(server)
    assert json.loads(after[("/profile", "en")][2])["headline"] == \
        "Version %d" % st.version
    assert after[("/profile", "en")][0] != before[("/profile", "en")][0]
    for key in after:
        assert after[key][1] == h.http_date(st.mtime), key
        if key != ("/profile", "en"):
            # Bytes unchanged: the same ETag (CONTRACT §5).
            assert after[key][0] == before[key][0], key
            assert after[key][2] == before[key][2], key

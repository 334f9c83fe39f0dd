# SPDX-License-Identifier: Apache-2.0
"""profilectl, the profile owner's tool (profilectl/profilectl.1): check
lists every problem of a data file (and configtest the first ten), show
sends the module's own bytes and ETags, diff names exactly the
representations a change of data changes, new writes a valid file."""
import copy
import json
import os
import re
import subprocess

import pytest

import httpd_harness as h
from conftest import changed_variant

PROFILECTL = os.path.join(h.BUILDDIR, "profilectl", "profilectl")
SYNTAX_FILE = os.path.join(h.TEST_DATA, "syntax-error.json")
LANGS = ["en", "es"]
CODINGS = ["identity", "gzip", "br"]
# Fields httpd itself adds, or that carry the clock.
HTTPD_FIELDS = {"date", "server", "connection", "keep-alive", "expires"}


def ctl(*args, check_rc=None):
    cp = subprocess.run([PROFILECTL] + list(args), capture_output=True,
                        timeout=60)
    if check_rc is not None:
        assert cp.returncode == check_rc, (args, cp)
    return cp


def lines(cp):
    return cp.stdout.decode("utf-8").splitlines()


def write(workdir, name, data):
    return h.write_json(os.path.join(workdir, name), data)


def several_problems(sample):
    """Four problems, made from the end of the file back."""
    d = copy.deepcopy(sample)
    d["metrics"][3]["id"] = d["metrics"][1]["id"]
    del d["experience"][2]["period"]["es"]
    d["skills"][0]["colour"] = "red"
    d["profile"]["name"] = 42
    return d


SEVERAL_EXPECTED = [
    ("$.profile.name", "expected a text value"),
    ("$.skills[0].colour", 'unknown key "colour"'),
    ("$.experience[2].period", 'missing translation "es"'),
    ("$.metrics[3].id", 'duplicate id "ingestion-latency" (also at '
     '$.metrics[1])'),
]


def many_problems(sample, n):
    """n problems: n metrics with bad ids."""
    d = copy.deepcopy(sample)
    d["metrics"] = [dict(d["metrics"][0], id="-bad%d" % i) for i in range(n)]
    return d


class TestCheck:
    def test_sample_has_no_problems(self):
        cp = ctl("check", h.SAMPLE_DATA, check_rc=0)
        assert cp.stdout == b""

    def test_every_problem_in_file_order(self, workdir, sample):
        path = write(workdir, "ctl-several.json", several_problems(sample))
        cp = ctl("check", path, check_rc=1)
        got = lines(cp)
        assert len(got) == len(SEVERAL_EXPECTED), got
        with open(path, encoding="utf-8") as f:
            text_lines = f.read().split("\n")
        last = 0
        for line, (jpath, text) in zip(got, SEVERAL_EXPECTED):
            # PATH:LINE:COL: $.json.path: message, LINE where the value
            # of $.json.path begins (or the object lacking it), in order.
            m = re.match(re.escape(path) + r":(\d+):(\d+): "
                         + re.escape(jpath) + ": ", line)
            assert m, line
            n, col = int(m.group(1)), int(m.group(2))
            assert n >= last and 1 <= col <= len(text_lines[n - 1]) + 1, line
            last = n
            key = re.sub(r"\[\d+\]$", "", jpath).rsplit(".", 1)[1]
            assert ('"%s"' % key) in text_lines[n - 1] or \
                text_lines[n - 1][col - 1] in "{[", (line, text_lines[n - 1])
            assert text in line, line

    def test_json_lists_the_same_problems(self, workdir, sample):
        path = write(workdir, "ctl-several-json.json",
                     several_problems(sample))
        cp = ctl("check", "--json", path, check_rc=1)
        got = json.loads(cp.stdout)
        assert [p["path"] for p in got] == [e[0] for e in SEVERAL_EXPECTED]
        plain = lines(ctl("check", path, check_rc=1))
        for p, (_, text), ln in zip(got, SEVERAL_EXPECTED, plain):
            assert set(p) == {"file", "line", "column", "path", "message"}
            assert p["file"] == path and p["line"] > 0 and p["column"] > 0
            assert ln == "%s:%d:%d: %s: %s" % (path, p["line"], p["column"],
                                               p["path"], p["message"])
            assert text in p["message"]

    def test_syntax_error_is_one_problem_with_line_and_column(self):
        cp = ctl("check", SYNTAX_FILE, check_rc=1)
        got = lines(cp)
        assert len(got) == 1, got
        assert re.match(re.escape(SYNTAX_FILE) + r":4:1[234]: invalid JSON",
                        got[0]), got
        p, = json.loads(ctl("check", "--json", SYNTAX_FILE).stdout)
        assert p["line"] == 4 and p["path"] is None

    def test_several_files_only_bad_ones_are_listed(self, workdir, sample):
        bad = write(workdir, "ctl-bad2.json", several_problems(sample))
        missing = os.path.join(workdir, "ctl-none.json")
        # A file that cannot be read is unusable input: 2 beats 1.
        cp = ctl("check", h.SAMPLE_DATA, bad, missing, check_rc=2)
        got = lines(cp)
        assert len(got) == len(SEVERAL_EXPECTED) + 1, got
        assert all(ln.startswith(bad + ":") for ln in got[:-1]), got
        assert got[-1].startswith(missing + ": cannot read"), got[-1]
        assert h.SAMPLE_DATA not in cp.stdout.decode()

    def test_json_of_a_good_file_is_an_empty_list(self):
        cp = ctl("check", "--json", h.SAMPLE_DATA, check_rc=0)
        assert json.loads(cp.stdout) == []

    def test_a_script_link_is_a_problem_of_the_data(self, workdir, sample):
        # CONTRACT §9 (revised 2026-11-26), review D10: exit 1, the
        # path and the value, where the value stands.
        d = copy.deepcopy(sample)
        d["contact"]["links"][0]["url"] = "javascript:alert(document.cookie)"
        d["education"][0]["institutionUrl"] = "https://"
        path = write(workdir, "ctl-js.json", d)
        got = lines(ctl("check", path, check_rc=1))
        assert len(got) == 2, got
        assert re.match(re.escape(path) + r":\d+:\d+: \$\.education\[0\]"
                        r"\.institutionUrl: \"https://\" is not an https, "
                        r"http, mailto or tel URL \(https and http need "
                        r"\"//\" and a host\)$", got[0]), got[0]
        assert re.match(re.escape(path) + r":\d+:\d+: \$\.contact\.links"
                        r"\[0\]\.url: \"javascript:alert\(document\."
                        r"cookie\)\" is not an https, http, mailto or tel "
                        r"URL$", got[1]), got[1]


class TestConfigtestMessage:
    # CONTRACT §9: each problem (the first ten, then how many more).
    def test_more_than_ten_problems_show_ten_and_how_many_more(
            self, make_httpd, workdir, sample):
        path = write(workdir, "ctl-many.json", many_problems(sample, 13))
        server = make_httpd("ctl-many", h.REFUSE + h.location("/api/v1",
                                                              path))
        cp = server.configtest()
        assert cp.returncode != 0
        out = cp.stdout + cp.stderr
        ours = [ln.split("PROFILE0007: ", 1)[1] for ln in out.splitlines()
                if "PROFILE0007: " in ln]
        assert len(ours) == 12, out
        assert ours[0].startswith("ProfileData: %s: 13 problems "
                                  "(ProfileData on line" % path), ours[0]
        # The same lines as profilectl check's first ten.
        listed = lines(ctl("check", path, check_rc=1))
        assert len(listed) == 13
        assert ours[1:11] == listed[:10]
        for i, ln in enumerate(ours[1:11]):
            assert re.match(re.escape(path) + r":\d+:\d+: \$\.metrics\[%d\]"
                            r"\.id: bad id" % i, ln), ln
        assert ours[11] == "%s: and 3 more" % path

    def test_keep_mode_warns_each_problem_and_passes(self, make_httpd,
                                                      workdir, sample):
        path = write(workdir, "ctl-few.json", several_problems(sample))
        server = make_httpd("ctl-few", h.location("/api/v1", path))
        cp = server.configtest()
        assert cp.returncode == 0, cp.stderr
        out = cp.stdout + cp.stderr
        ours = [ln for ln in out.splitlines() if "PROFILE0007: " in ln]
        assert len(ours) == 1 + len(SEVERAL_EXPECTED), out
        assert "bad=keep" in ours[0]
        for ln, (jpath, _) in zip(ours[1:], SEVERAL_EXPECTED):
            assert re.search(re.escape(path) + r":\d+:\d+: "
                             + re.escape(jpath) + ": ", ln), ln
        assert "Syntax OK" in out


def shown(data_file, route, *opts):
    cp = ctl("show", "-i", data_file, route, *opts)
    assert cp.returncode in (0, 1), cp
    return h.parse_response(cp.stdout, dechunk=False)


def fields(resp):
    return {k.lower(): v for k, v in resp.headers
            if k.lower() not in HTTPD_FIELDS}


def assert_same_answer(mine, module, what):
    assert mine.status == module.status, what
    assert mine.body == module.body, what
    assert mine.etag == module.etag, what
    assert fields(mine) == fields(module), what


class TestShow:
    def test_every_route_language_and_coding_as_the_module_sends_it(
            self, api, B, data_files, sample):
        for route in h.all_routes(sample):
            for lang in LANGS:
                for coding in CODINGS:
                    module = api.get(B + route, {"Accept-Language": lang,
                                                 "Accept-Encoding": coding})
                    assert module.status == 200
                    mine = shown(data_files["main"], route, "--lang", lang,
                                 "--coding", coding)
                    assert_same_answer(mine, module, (route, lang, coding))
                    if coding != "identity" and module.header(
                            "Content-Encoding"):
                        assert mine.header("Content-Encoding") == coding

    @pytest.mark.parametrize("route,query,headers", [
        ("/skills", "q=kubernetes", {"Accept-Language": "es-MX"}),
        ("/experience", "company=%C3%81LVAREZ+x", {}),
        ("/skills", "q=", {}),
        ("/metrics", "q=x", {"Accept-Language": "es"}),
        ("/experience/nope", None, {}),
        ("/Skills", None, {"Accept-Language": "es"}),
    ])
    def test_queries_and_errors_as_the_module_sends_them(
            self, api, B, data_files, route, query, headers):
        target = B + route + ("?" + query if query is not None else "")
        module = api.get(target, headers)
        opts = ["--query", query] if query is not None else []
        if "Accept-Language" in headers:
            opts += ["--lang", headers["Accept-Language"]]
        mine = shown(data_files["main"], route, *opts)
        assert_same_answer(mine, module, target)

    def test_body_only_without_i(self, api, B, data_files):
        cp = ctl("show", data_files["main"], "/profile", "--lang", "es",
                 check_rc=0)
        assert cp.stdout == api.get(B + "/profile",
                                    {"Accept-Language": "es"}).body

    def test_gzip_bytes_are_the_modules(self, api, B, data_files):
        cp = ctl("show", data_files["main"], "/experience", "--coding",
                 "br", check_rc=0)
        module = api.get(B + "/experience", {"Accept-Encoding": "br"})
        assert module.header("Content-Encoding") == "br"
        assert cp.stdout == module.body
        assert h.decompress(cp.stdout, "br") == api.get(
            B + "/experience").body

    def test_unknown_route_exits_non_zero(self, data_files):
        cp = ctl("show", data_files["main"], "/nope", check_rc=1)
        assert json.loads(cp.stdout)["status"] == 404

    def test_bad_file_is_refused_naming_its_problems(self, workdir, sample):
        path = write(workdir, "ctl-show-bad.json", several_problems(sample))
        cp = ctl("show", path, "/profile", check_rc=2)
        assert cp.stdout == b""
        assert re.search(re.escape(path) + r":\d+:\d+: \$\.profile\.name:",
                         cp.stderr.decode())


def diff_lines(old, new):
    cp = ctl("diff", old, new)
    assert cp.returncode in (0, 1), cp
    out = []
    for ln in lines(cp):
        kind, route, lang, coding, a, b = ln.split(" ")
        out.append((kind, route, lang, coding, a, b))
    return cp.returncode, out


class TestDiff:
    def test_same_data_changes_nothing(self, data_files):
        rc, out = diff_lines(h.SAMPLE_DATA, data_files["ana"])
        assert (rc, out) == (0, [])

    def test_names_exactly_what_the_module_changes(self, api, data_files,
                                                   sample):
        """/changed/api/v1 serves changed_variant(): the representations
        whose ETags differ there from /api/v1 are diff's list, with the
        same ETags."""
        rc, out = diff_lines(data_files["main"], data_files["changed"])
        assert rc == 1
        want = []
        for route in h.all_routes(sample):
            for lang in LANGS:
                for coding in CODINGS:
                    hdrs = {"Accept-Language": lang,
                            "Accept-Encoding": coding}
                    a = api.get("/api/v1" + route, hdrs).etag
                    b = api.get("/changed/api/v1" + route, hdrs).etag
                    if a != b:
                        want.append(("changed", route, lang, coding, a, b))
        last = sample["experience"][-1]["id"]
        assert {(r, lang) for _, r, lang, _, _, _ in want} == {
            ("/experience", "en"), ("/experience/" + last, "en")}
        assert out == want

    def test_added_and_removed_records(self, workdir, sample):
        d = copy.deepcopy(sample)
        gone = d["caseStudies"].pop(1)["id"]
        d["experience"].append(dict(d["experience"][0], id="new-role"))
        new = write(workdir, "ctl-diff-new.json", d)
        rc, out = diff_lines(h.SAMPLE_DATA, new)
        assert rc == 1
        kinds = {(k, r) for k, r, _, _, _, _ in out}
        assert ("added", "/experience/new-role") in kinds
        assert ("removed", "/case-studies/" + gone) in kinds
        assert {r for _, r, _, _, _, _ in out} == {
            "/experience", "/experience/new-role", "/case-studies",
            "/case-studies/" + gone}
        for k, r, lang, coding, a, b in out:
            assert (a == "-") == (k == "added")
            assert (b == "-") == (k == "removed")
            assert lang in LANGS and coding in CODINGS
        # Every language and coding of the new record.
        assert len([1 for k, r, *_ in out if r == "/experience/new-role"]) \
            == len(LANGS) * len(CODINGS)


class TestNew:
    def test_skeleton_is_valid_and_served(self, make_httpd, workdir):
        path = os.path.join(workdir, "ctl-new.json")
        ctl("new", path, check_rc=0)
        os.chmod(path, 0o644)
        ctl("check", path, check_rc=0)
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        # One language, its texts tagged: a second language is added as
        # translations, never served from empty strings (issue 27).
        assert d["languages"] == ["en"]
        assert d["profile"]["headline"] == {"en": ""}
        assert set(d) == {"languages", "profile", "skills", "experience",
                          "education", "contact", "caseStudies", "metrics"}
        server = make_httpd("ctl-new", h.REFUSE + h.location("/api/v1",
                                                             path))
        assert server.configtest().returncode == 0
        try:
            server.start_checked()
            r = server.get("/api/v1/profile", {"Accept-Language": "es"})
            assert r.status == 200
            assert r.json() == {"name": "", "headline": "", "summary": ""}
        finally:
            server.stop()

    def test_stdout_is_the_same_file(self, workdir):
        path = os.path.join(workdir, "ctl-new2.json")
        ctl("new", path, check_rc=0)
        with open(path, "rb") as f:
            assert ctl("new", check_rc=0).stdout == f.read()

    def test_existing_file_is_kept_unless_forced(self, workdir):
        path = os.path.join(workdir, "ctl-new3.json")
        with open(path, "w") as f:
            f.write("mine")
        ctl("new", path, check_rc=2)
        with open(path) as f:
            assert f.read() == "mine"
        ctl("new", "--force", path, check_rc=0)
        ctl("check", path, check_rc=0)

    def test_other_languages(self, workdir):
        cp = ctl("new", "--languages", "es,en,fr", check_rc=0)
        d = json.loads(cp.stdout)
        assert d["languages"] == ["es", "en", "fr"]
        assert d["profile"]["headline"] == {"es": "", "en": "", "fr": ""}
        assert b"every text is empty in 3 languages" in cp.stderr
        assert ctl("new", "--languages", "fr", check_rc=0).stderr == b""
        ctl("new", "--languages", "es,e1", check_rc=2)


def test_usage_errors_exit_2():
    assert ctl().returncode == 2
    assert ctl("frobnicate").returncode == 2
    assert ctl("show", h.SAMPLE_DATA).returncode == 2
    assert ctl("show", "--coding", "deflate", h.SAMPLE_DATA,
               "/profile").returncode == 2
    assert ctl("help").returncode == 0


# ------------------------------------------------------- writing files
# profilectl.1, OUTPUT FILES and EXIT STATUS: one writer for every
# command that writes a file, and one exit-status scheme.
JR_DATA = os.path.join(h.SRCDIR, "tests", "integration", "data",
                       "jsonresume")
STDOUT_LOST = b"cannot write to standard output"


def ctl_env(*args, umask=None, fsize=None, stdout=None):
    """profilectl with a umask, a file size limit (RLIMIT_FSIZE: a larger
    write fails with EFBIG) or standard output of its own."""
    import resource

    def pre():
        if umask is not None:
            os.umask(umask)
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run([PROFILECTL] + [str(a) for a in args],
                          stdout=stdout if stdout else subprocess.PIPE,
                          stderr=subprocess.PIPE, preexec_fn=pre,
                          timeout=60)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def copy_file(src, dst):
    with open(dst, "wb") as f:
        f.write(read(src))
    return str(dst)


class Writer:
    """A command that writes a file: `inputs` are its input files (in
    tmp), `args(out)` its arguments writing to out."""

    def __init__(self, name, inputs, args):
        self.name, self.inputs, self.args = name, inputs, args


def importer(tmp):
    en = copy_file(os.path.join(JR_DATA, "sample.en.json"), tmp / "en.json")
    es = copy_file(os.path.join(JR_DATA, "sample.es.json"), tmp / "es.json")
    return Writer("import-jsonresume", [en, es],
                  lambda out: ["import-jsonresume", en, es, "-o", out])


def exporter(tmp):
    data = copy_file(h.SAMPLE_DATA, tmp / "profile.json")
    return Writer("export-jsonresume", [data],
                  lambda out: ["export-jsonresume", "--lang", "en", "-o",
                               out, data])


def newer(tmp):
    return Writer("new", [], lambda out: ["new", "--force", out])


WRITERS = [importer, exporter, newer]
WRITERS_WITH_INPUTS = [importer, exporter]


def aliases(tmp, path):
    """Other names of the file `path`: itself, another path to it, a hard
    link, a symbolic link (relative) and a link to the link."""
    sub = tmp / "sub"
    sub.mkdir(exist_ok=True)
    hard = tmp / "hard.json"
    os.link(path, hard)
    soft = tmp / "soft.json"
    os.symlink(os.path.basename(path), soft)
    soft2 = sub / "soft2.json"
    os.symlink(os.path.join("..", "soft.json"), soft2)
    return {"same path": path,
            "another path": os.path.join(str(sub), "..",
                                         os.path.basename(path)),
            "hard link": str(hard), "symbolic link": str(soft),
            "link to a link": str(soft2)}


def names_in(tmp):
    return sorted(p for p, _, fs in os.walk(tmp) for p in
                  [os.path.join(p, f) for f in fs])


@pytest.mark.parametrize("make", WRITERS_WITH_INPUTS,
                         ids=lambda m: m.__name__)
@pytest.mark.parametrize("alias", ["same path", "another path", "hard link",
                                   "symbolic link", "link to a link"])
def test_output_that_is_an_input_is_refused_and_the_input_kept(
        tmp_path, make, alias):
    w = make(tmp_path)
    for victim in w.inputs:
        before = read(victim)
        out = aliases(tmp_path, victim)[alias]
        files = names_in(tmp_path)
        cp = ctl(*w.args(out), check_rc=2)
        assert b"nothing written" in cp.stderr, cp.stderr
        assert read(victim) == before
        assert names_in(tmp_path) == files     # no temporary file left
        for p in files:
            if p.endswith(("hard.json", "soft.json", "soft2.json")):
                os.unlink(p)


def test_export_appended_to_its_input_is_refused(tmp_path):
    data = copy_file(h.SAMPLE_DATA, tmp_path / "profile.json")
    before = read(data)
    with open(data, "ab") as out:
        cp = ctl_env("export-jsonresume", data, stdout=out)
    assert cp.returncode == 2 and b"nothing written" in cp.stderr
    assert read(data) == before


@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
def test_replaced_file_keeps_its_mode(tmp_path, make):
    w = make(tmp_path)
    out = tmp_path / "out.json"
    out.write_bytes(b"old")
    os.chmod(out, 0o600)
    ctl_env(*w.args(out), umask=0o022).check_returncode()
    assert os.stat(out).st_mode & 0o7777 == 0o600
    assert read(out) != b"old"
    os.chmod(out, 0o640)
    ctl_env(*w.args(out), umask=0o077).check_returncode()
    assert os.stat(out).st_mode & 0o7777 == 0o640


@pytest.mark.skipif(os.geteuid() != 0, reason="chown needs root")
@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
def test_replaced_file_keeps_its_group_as_root_when_root_owns_it(tmp_path,
                                                                 make):
    w = make(tmp_path)
    out = tmp_path / "out.json"
    out.write_bytes(b"old")
    os.chown(out, 0, 65534)
    os.chmod(out, 0o640)
    ctl(*w.args(out), check_rc=0)
    st = os.stat(out)
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (0, 65534, 0o640)


@pytest.mark.skipif(os.geteuid() != 0, reason="chown needs root")
@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
def test_root_gives_no_file_away_nor_a_set_id_bit(tmp_path, make):
    """Another user's file replaced by root becomes root's, with the
    permission bits but not the set-id bits."""
    w = make(tmp_path)
    out = tmp_path / "out.json"
    out.write_bytes(b"old")
    os.chown(out, 65534, 65534)
    os.chmod(out, 0o6644)
    ctl(*w.args(out), check_rc=0)
    st = os.stat(out)
    assert (st.st_uid, st.st_mode & 0o7777) == (0, 0o644)
    assert st.st_gid != 65534


@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
@pytest.mark.parametrize("umask,mode", [(0o077, 0o600), (0o022, 0o644),
                                        (0o002, 0o664)])
def test_new_file_honours_the_umask(tmp_path, make, umask, mode):
    w = make(tmp_path)
    out = tmp_path / "fresh.json"
    ctl_env(*w.args(out), umask=umask).check_returncode()
    assert os.stat(out).st_mode & 0o7777 == mode


@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
def test_file_is_replaced_not_written_in_place(tmp_path, make):
    """A rename: another hard link to the old file keeps the old bytes."""
    w = make(tmp_path)
    out = tmp_path / "out.json"
    out.write_bytes(b"old")
    os.link(out, tmp_path / "old-link")
    ctl(*w.args(out), check_rc=0)
    assert read(tmp_path / "old-link") == b"old"
    assert read(out) != b"old"
    assert not os.path.samefile(out, tmp_path / "old-link")


@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
def test_symbolic_link_is_replaced_never_followed(tmp_path, make):
    """The link itself becomes the new file (a new file's mode); the
    file it pointed to is not touched."""
    w = make(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = elsewhere / "real.json"
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.json"
    os.symlink(os.path.join("elsewhere", "real.json"), link)
    ctl_env(*w.args(link), umask=0o022).check_returncode()
    assert not os.path.islink(link)
    json.loads(read(link))
    assert os.stat(link).st_mode & 0o7777 == 0o644
    assert read(real) == b"old"
    assert sorted(os.listdir(elsewhere)) == ["real.json"]


@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
def test_dangling_symbolic_link_is_replaced(tmp_path, make):
    w = make(tmp_path)
    link = tmp_path / "link.json"
    os.symlink("missing.json", link)
    ctl(*w.args(link), check_rc=0)
    assert not os.path.islink(link)
    json.loads(read(link))
    assert not os.path.exists(tmp_path / "missing.json")


@pytest.mark.skipif(os.geteuid() != 0, reason="the attack needs root")
@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
def test_link_planted_by_another_user_never_makes_root_write_elsewhere(
        tmp_path, make):
    """The review's D4: in a directory nobody owns, nobody's link to a
    root-owned 0600 file; root's profilectl (new --force, -o) replaces
    the link, never the file it names, and gives nothing to nobody."""
    w = make(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"secret root data\n")
    os.chmod(victim, 0o600)
    udir = tmp_path / "udir"
    udir.mkdir()
    os.chown(udir, 65534, 65534)
    link = udir / "profile.json"
    os.symlink(str(victim), link)
    os.lchown(link, 65534, 65534)
    ctl(*w.args(link), check_rc=0)
    st = os.stat(victim)
    assert read(victim) == b"secret root data\n"
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (0, 0, 0o600)
    assert not os.path.islink(link) and os.stat(link).st_uid == 0
    assert os.listdir(udir) == ["profile.json"]


@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
@pytest.mark.parametrize("kind", ["FIFO", "device", "link to a FIFO",
                                  "link to a device"])
def test_target_that_is_not_a_regular_file_is_refused_at_once(
        tmp_path, make, kind):
    """Writing into a FIFO or a device is standard output's job: exit 2,
    at once (a FIFO nobody reads would block an open for writing)."""
    w = make(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = {"FIFO": str(fifo), "device": "/dev/null"}.get(kind)
    if out is None:
        out = str(tmp_path / "link")
        os.symlink(str(fifo) if "FIFO" in kind else "/dev/null", out)
    files = names_in(tmp_path)
    cp = subprocess.run([PROFILECTL] + [str(a) for a in w.args(out)],
                        capture_output=True, timeout=10)
    assert cp.returncode == 2, cp
    assert b"not a regular file" in cp.stderr, cp.stderr
    assert b"standard output" in cp.stderr, cp.stderr
    assert names_in(tmp_path) == files
    if out.endswith("link"):
        assert os.path.islink(out)


@pytest.mark.parametrize("make", WRITERS, ids=lambda m: m.__name__)
def test_failed_write_leaves_the_old_file_and_no_temporary_file(
        tmp_path, make):
    w = make(tmp_path)
    out = tmp_path / "out.json"
    out.write_bytes(b"old contents")
    files = names_in(tmp_path)
    # Every output is larger than 1000 bytes: its write fails (EFBIG).
    cp = ctl_env(*w.args(out), fsize=1000)
    assert cp.returncode == 2, cp
    assert b"File too large" in cp.stderr and b"unchanged" in cp.stderr
    assert read(out) == b"old contents"
    assert names_in(tmp_path) == files


def test_failed_write_of_a_new_file_leaves_nothing(tmp_path):
    data = copy_file(h.SAMPLE_DATA, tmp_path / "profile.json")
    cp = ctl_env("export-jsonresume", "-o", tmp_path / "out.json", data,
                 fsize=1000)
    assert cp.returncode == 2 and b"nothing was written" in cp.stderr
    assert os.listdir(tmp_path) == ["profile.json"]


def test_directory_target_is_an_error(tmp_path):
    data = copy_file(h.SAMPLE_DATA, tmp_path / "profile.json")
    cp = ctl("export-jsonresume", "-o", tmp_path, data, check_rc=2)
    assert b"directory" in cp.stderr
    assert os.listdir(tmp_path) == ["profile.json"]


def test_new_refuses_an_existing_name_even_a_dangling_link(tmp_path):
    link = tmp_path / "link.json"
    os.symlink("missing.json", link)
    cp = ctl("new", link, check_rc=2)
    assert b"exists (--force replaces it)" in cp.stderr
    assert os.listdir(tmp_path) == ["link.json"]


def test_new_force_replaces_a_link_not_its_target(tmp_path):
    real = tmp_path / "real.json"
    real.write_bytes(b"mine")
    link = tmp_path / "link.json"
    os.symlink("real.json", link)
    ctl("new", link, check_rc=2)
    assert read(real) == b"mine" and os.path.islink(link)
    ctl("new", "--force", link, check_rc=0)
    assert not os.path.islink(link)
    assert read(real) == b"mine"
    ctl("check", link, check_rc=0)


# Every command that reads a file, with X for that file.
READERS = {
    "check": ["check", "X"],
    "show": ["show", "X", "/profile"],
    "diff": ["diff", h.SAMPLE_DATA, "X"],
    "export-jsonresume": ["export-jsonresume", "X"],
    "merge": ["merge", h.SAMPLE_DATA, "X"],
    "import-jsonresume": ["import-jsonresume", "--lang-order", "en", "X"],
    "import-linkedin": ["import-linkedin", "X"],
    "untranslated": ["untranslated", "X"],
    "export-po": ["export-po", "--lang", "es", "X"],
    "import-po": ["import-po", "X", h.SAMPLE_DATA],
}


@pytest.mark.parametrize("cmd", sorted(READERS))
@pytest.mark.parametrize("kind", ["FIFO", "link to a FIFO", "/dev/zero",
                                  "directory"])
def test_input_that_is_not_a_regular_file_is_refused_at_once(tmp_path, cmd,
                                                             kind):
    """A FIFO nobody writes would block open() for ever, /dev/zero a
    read: refused before either, exit 2 (an unusable input).  A hang is
    the timeout's failure."""
    if kind == "directory" and cmd == "import-linkedin":
        pytest.skip("an export may be a folder")
    fifo = tmp_path / "in.json"
    os.mkfifo(fifo)
    x = {"FIFO": str(fifo), "/dev/zero": "/dev/zero",
         "directory": str(tmp_path)}.get(kind)
    if x is None:
        x = str(tmp_path / "link.json")
        os.symlink("in.json", x)
    args = [x if a == "X" else a for a in READERS[cmd]]
    cp = subprocess.run([PROFILECTL] + args, capture_output=True,
                        timeout=10)
    assert cp.returncode == 2, cp
    what = {"FIFO": b"a FIFO", "link to a FIFO": b"a FIFO",
            "/dev/zero": b"a character device",
            "directory": b"a directory"}[kind]
    said = cp.stdout + cp.stderr
    assert x.encode() + b": cannot read it: " + what \
        + b", not a regular file" in said, said


def _bad_data(tmp):
    return write(str(tmp), "bad.json", several_problems(_sample()))


def _sample():
    with open(h.SAMPLE_DATA, encoding="utf-8") as f:
        return json.load(f)


def _changed(tmp):
    d = _sample()
    d["profile"]["name"] = "Someone Else"
    return write(str(tmp), "changed.json", d)


FULL_STDOUT = [
    ("check", lambda t: ["check", _bad_data(t)]),
    ("check --json", lambda t: ["check", "--json", h.SAMPLE_DATA]),
    ("show", lambda t: ["show", h.SAMPLE_DATA, "/skills"]),
    ("show -i", lambda t: ["show", "-i", h.SAMPLE_DATA, "/nope"]),
    ("diff", lambda t: ["diff", h.SAMPLE_DATA, _changed(t)]),
    ("new", lambda t: ["new"]),
    ("export", lambda t: ["export-jsonresume", h.SAMPLE_DATA]),
    ("export -o -", lambda t: ["export-jsonresume", "-o", "-",
                               h.SAMPLE_DATA]),
    ("import", lambda t: ["import-jsonresume", "--lang-order", "en,es",
                          os.path.join(JR_DATA, "sample.en.json"),
                          os.path.join(JR_DATA, "sample.es.json")]),
    ("untranslated --json", lambda t: ["untranslated", "--json",
                                       h.SAMPLE_DATA]),
    ("export-po", lambda t: ["export-po", "--lang", "es", h.SAMPLE_DATA]),
    ("--version", lambda t: ["--version"]),
    ("help", lambda t: ["help"]),
    ("check --help", lambda t: ["check", "--help"]),
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("name,args", FULL_STDOUT,
                         ids=[n for n, _ in FULL_STDOUT])
def test_lost_standard_output_is_an_error(tmp_path, name, args):
    with open("/dev/full", "wb") as full:
        cp = ctl_env(*args(tmp_path), stdout=full)
    assert cp.returncode == 2, (name, cp)
    assert STDOUT_LOST in cp.stderr, cp.stderr


def test_check_of_a_good_file_to_dev_full_is_fine():
    """Nothing to write, nothing lost."""
    with open("/dev/full", "wb") as full:
        assert ctl_env("check", h.SAMPLE_DATA, stdout=full).returncode == 0


def test_export_to_a_full_device_is_an_error(tmp_path):
    """-o names a file; a device is refused, and standard output sent
    there reports the write error."""
    cp = ctl("export-jsonresume", "-o", "/dev/full", h.SAMPLE_DATA,
             check_rc=2)
    assert b"not a regular file" in cp.stderr, cp.stderr
    with open("/dev/full", "wb") as full:
        cp = ctl_env("export-jsonresume", h.SAMPLE_DATA, stdout=full)
    assert cp.returncode == 2
    assert b"No space left on device" in cp.stderr, cp.stderr


# ------------------------------------------------------ exit statuses
def _resume(tmp, fname, **change):
    d = json.loads(read(os.path.join(JR_DATA, "sample.en.json")))
    d["basics"].update(change)
    return write(str(tmp), fname, d)


def test_exit_statuses_of_check(tmp_path):
    ctl("check", h.SAMPLE_DATA, check_rc=0)
    ctl("check", _bad_data(tmp_path), check_rc=1)
    ctl("check", SYNTAX_FILE, check_rc=1)
    ctl("check", tmp_path / "missing.json", check_rc=2)
    ctl("check", check_rc=2)
    ctl("check", "--bogus", h.SAMPLE_DATA, check_rc=2)


def test_exit_statuses_of_show(tmp_path):
    ctl("show", h.SAMPLE_DATA, "/profile", check_rc=0)
    ctl("show", h.SAMPLE_DATA, "/nope", check_rc=1)
    ctl("show", _bad_data(tmp_path), "/profile", check_rc=2)
    ctl("show", h.SAMPLE_DATA, check_rc=2)


def test_exit_statuses_of_diff(tmp_path):
    ctl("diff", h.SAMPLE_DATA, h.SAMPLE_DATA, check_rc=0)
    ctl("diff", h.SAMPLE_DATA, _changed(tmp_path), check_rc=1)
    ctl("diff", h.SAMPLE_DATA, tmp_path / "missing.json", check_rc=2)
    ctl("diff", "--bogus", h.SAMPLE_DATA, h.SAMPLE_DATA, check_rc=2)
    ctl("diff", h.SAMPLE_DATA, check_rc=2)


def test_exit_statuses_of_new(tmp_path):
    ctl("new", tmp_path / "a.json", check_rc=0)
    ctl("new", tmp_path / "a.json", check_rc=2)
    ctl("new", "--force", tmp_path / "a.json", check_rc=0)
    ctl("new", "--languages", "en,1x", check_rc=2)
    ctl("new", "a", "b", check_rc=2)


def test_exit_statuses_of_import(tmp_path):
    en = _resume(tmp_path, "en.json")
    ctl("import-jsonresume", en, check_rc=0)
    # A problem in the document: 1 (a number for a name is read as its
    # text, issue 27; a text per language without the file's is not).
    cp = ctl("import-jsonresume", _resume(tmp_path, "x.en.json",
                                          name={"fr": "Richard"}),
             check_rc=1)
    assert cp.stdout == b""
    # Not JSON, or not there: 2, with the file's name.
    (tmp_path / "y.en.json").write_text("{")
    cp = ctl("import-jsonresume", tmp_path / "y.en.json", check_rc=2)
    assert b"y.en.json:1:" in cp.stderr, cp.stderr
    cp = ctl("import-jsonresume", tmp_path / "z.en.json", check_rc=2)
    assert b"z.en.json" in cp.stderr and b"-1:-1" not in cp.stderr
    ctl("import-jsonresume", check_rc=2)
    ctl("import-jsonresume", "--bogus", en, check_rc=2)
    ctl("import-jsonresume", en, "-o", check_rc=2)


def test_exit_statuses_of_export(tmp_path):
    ctl("export-jsonresume", h.SAMPLE_DATA, check_rc=0)
    ctl("export-jsonresume", "--lang", "fr", h.SAMPLE_DATA, check_rc=2)
    ctl("export-jsonresume", _bad_data(tmp_path), check_rc=2)
    ctl("export-jsonresume", tmp_path / "missing.json", check_rc=2)
    ctl("export-jsonresume", h.SAMPLE_DATA, h.SAMPLE_DATA, check_rc=2)
    ctl("export-jsonresume", "--bogus", h.SAMPLE_DATA, check_rc=2)


def test_every_message_names_profilectl_and_the_command(tmp_path):
    for args in (["check", "--bogus", "x"], ["diff", "--x", "a", "b"],
                 ["import-jsonresume", "--bogus", "x.en.json"],
                 ["export-jsonresume", "--lang"],
                 ["new", "--force", "--languages"]):
        cp = ctl(*args, check_rc=2)
        for line in cp.stderr.decode().splitlines():
            assert line.startswith("profilectl %s: " % args[0]), line


def _package_version():
    with open(os.path.join(h.SRCDIR, "configure.ac"),
              encoding="utf-8") as f:
        return re.search(r"AC_INIT\(\[[^]]*\], \[([^]]*)\]",
                         f.read()).group(1)


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_is_configures(flag):
    cp = ctl(flag, check_rc=0)
    assert cp.stdout == ("profilectl %s\n" % _package_version()).encode()


@pytest.mark.parametrize("cmd", ["check", "show", "diff", "new",
                                 "import-jsonresume", "export-jsonresume"])
def test_command_help_is_its_usage(cmd):
    cp = ctl(cmd, "--help", check_rc=0)
    assert cp.stdout.startswith(("usage: profilectl %s" % cmd).encode())


# -------------------------------------------------- JSON Resume input
def test_check_of_a_json_resume_says_how_to_import_it(tmp_path):
    jr = copy_file(os.path.join(JR_DATA, "sample.en.json"),
                   tmp_path / "resume.json")
    cp = ctl("check", jr, check_rc=1)
    assert lines(cp) == [
        "%s: a JSON Resume document, not a data file: make one with "
        "profilectl import-jsonresume %s -o profile.json" % (jr, jr)]
    got = json.loads(ctl("check", "--json", jr, check_rc=1).stdout)
    assert len(got) == 1 and got[0]["path"] is None
    assert "import-jsonresume" in got[0]["message"]


def test_schema_alone_marks_a_json_resume(tmp_path):
    path = write(str(tmp_path), "s.json", {
        "$schema": "https://raw.githubusercontent.com/jsonresume/"
                   "resume-schema/v1.0.0/schema.json"})
    assert len(lines(ctl("check", path, check_rc=1))) == 1


def test_data_file_with_a_basics_key_is_not_called_a_resume(tmp_path):
    d = _sample()
    d["basics"] = {}
    path = write(str(tmp_path), "d.json", d)
    got = lines(ctl("check", path, check_rc=1))
    assert len(got) == 1 and re.match(
        re.escape(path) + r':\d+:\d+: \$\.basics: unknown key "basics"$',
        got[0]), got


@pytest.mark.parametrize("args", [["show", "{}", "/profile"],
                                  ["diff", h.SAMPLE_DATA, "{}"],
                                  ["export-jsonresume", "{}"]])
def test_show_diff_export_of_a_json_resume_say_how_to_import_it(
        tmp_path, args):
    jr = copy_file(os.path.join(JR_DATA, "sample.es.json"),
                   tmp_path / "resume.json")
    cp = ctl(*[jr if a == "{}" else a for a in args], check_rc=2)
    err = cp.stderr.decode().splitlines()
    assert len(err) == 1, err
    assert "a JSON Resume document" in err[0]
    assert "import-jsonresume %s -o profile.json" % jr in err[0]

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
        for line, (jpath, text) in zip(got, SEVERAL_EXPECTED):
            assert line.startswith("%s: %s: " % (path, jpath)), line
            assert text in line, line

    def test_json_lists_the_same_problems(self, workdir, sample):
        path = write(workdir, "ctl-several-json.json",
                     several_problems(sample))
        cp = ctl("check", "--json", path, check_rc=1)
        got = json.loads(cp.stdout)
        assert [p["path"] for p in got] == [e[0] for e in SEVERAL_EXPECTED]
        for p, (_, text) in zip(got, SEVERAL_EXPECTED):
            assert set(p) == {"file", "line", "column", "path", "message"}
            assert p["file"] == path and p["line"] is None
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
        assert all(ln.startswith(bad + ": ") for ln in got[:-1])
        assert got[-1].startswith(missing + ": cannot read"), got[-1]
        assert h.SAMPLE_DATA not in cp.stdout.decode()

    def test_json_of_a_good_file_is_an_empty_list(self):
        cp = ctl("check", "--json", h.SAMPLE_DATA, check_rc=0)
        assert json.loads(cp.stdout) == []


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
            assert ln.startswith("%s: $.metrics[%d].id: bad id" % (path, i))
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
        assert "ProfileBadData keep" in ours[0]
        for ln, (jpath, _) in zip(ours[1:], SEVERAL_EXPECTED):
            assert "%s: %s: " % (path, jpath) in ln, ln
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
        assert "%s: $.profile.name:" % path in cp.stderr.decode()


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
        assert d["languages"] == ["en", "es"]
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
        ctl("new", "--languages", "es,e1", check_rc=2)


def test_usage_errors_exit_2():
    assert ctl().returncode == 2
    assert ctl("frobnicate").returncode == 2
    assert ctl("show", h.SAMPLE_DATA).returncode == 2
    assert ctl("show", "--coding", "deflate", h.SAMPLE_DATA,
               "/profile").returncode == 2
    assert ctl("help").returncode == 0

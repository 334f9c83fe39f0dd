# SPDX-License-Identifier: Apache-2.0
"""The reference page (contrib/page/, docs/page.md) in a real browser.

Debian's chromium, driven by playwright-core (tests/page/check.mjs, npm
packages pinned in tests/page/package-lock.json, installed by
scripts/install-deps), reads the page from two servers:

- `make serve DATA=F SERVE_PORT=P`, exactly as the README says, with F a
  copy of the sample whose headline is changed: the page at /, the API at
  /api/v1 serving F;
- a test server with the shipped httpd-conf/profile-page.conf (the page at
  /profile/), a base whose data file never loaded (503), and the recipe of
  one API base per language (docs/ecosystem.md).

Every section in en and es, desktop and mobile; axe-core; the language
switch; deep links; the search and the filter; keyboard use; print to
PDF; the 503 and server-down states; the first view's byte and request
budget and the toggles' request counts, printed.  Screenshots and the PDF
are kept in BUILDDIR/tests/page/artifacts/.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.parse

import pytest

import httpd_harness as h

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or \
    shutil.which("chromium-browser")
# The sanitized build (tests/sanitize/run.sh) is a copy of the sources
# without tests/page/node_modules, and its module loads only into an
# httpd with the ASan runtime preloaded, which `make serve` (the command
# users run) does not do: the page is the same in both builds and is
# tested by the normal one; test_browser.py serves the sanitized module
# to a browser.
pytestmark = [
    pytest.mark.skipif(not CHROMIUM, reason="no chromium "
                       "(scripts/install-deps installs it)"),
    pytest.mark.skipif(bool(os.environ.get("HTTPD_ENV_LD_PRELOAD")),
                       reason="the sanitized build: tested by the normal "
                       "build"),
]

PAGE = os.path.join(h.SRCDIR, "contrib", "page")
DRIVER_DIR = os.path.join(h.SRCDIR, "tests", "page")
ARTIFACTS = os.path.join(h.BUILDDIR, "tests", "page", "artifacts")
PAGE_CONF = os.path.join(h.SRCDIR, "httpd-conf", "profile-page.conf")
LANGS = ("en", "es")
HEADLINE = {"en": "Staff Reliability Engineer for a page test",
            "es": "Ingeniera principal de fiabilidad para una prueba"}
# The first view of the sample: HTML, CSS, five scripts, the icon
# (uncompressed: `make serve` loads no mod_deflate) and the seven API
# answers (br), headers included (docs/page.md).
BUDGET_REQUESTS = 15
BUDGET_BYTES = 60 * 1024


def shipped_csp():
    with open(PAGE_CONF, encoding="utf-8") as f:
        return re.search(r'Content-Security-Policy "([^"]+)"', f.read()).group(1)


def drive(origin, scenarios, **cfg):
    """Runs check.mjs; returns its results, each scenario's dict."""
    if not os.path.isdir(os.path.join(DRIVER_DIR, "node_modules",
                                      "playwright-core")):
        pytest.fail("tests/page/node_modules is missing: run "
                    "scripts/install-deps (npm ci in tests/page)")
    cfg.update(origin=origin, artifacts=ARTIFACTS, scenarios=scenarios)
    cp = subprocess.run(["node", os.path.join(DRIVER_DIR, "check.mjs"),
                         json.dumps(cfg)], capture_output=True, text=True,
                        timeout=600, cwd=DRIVER_DIR,
                        env=dict(os.environ, CHROMIUM=CHROMIUM))
    assert cp.returncode == 0, cp.stderr[-4000:]
    out = json.loads(cp.stdout)
    for name in scenarios:
        assert "error" not in out[name], out[name]["error"]
    return out


def wait_port(port, proc, deadline=30):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        assert proc.poll() is None, "make serve exited %s" % proc.returncode
        try:
            if h.request(port, "GET", "/api/v1/profile").status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError("make serve did not answer on %d" % port)


@pytest.fixture(scope="module")
def data_file(workdir, sample):
    data = json.loads(open(h.SAMPLE_DATA, encoding="utf-8").read())
    data["profile"]["headline"] = dict(HEADLINE)
    path = os.path.join(workdir, "own-profile.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
    os.chmod(path, 0o644)
    return path


@pytest.fixture(scope="module")
def served(workdir, data_file):
    """`make serve DATA=F SERVE_PORT=P` in the build tree (SERVE_DIR below
    the test's work directory, so a developer's `make serve` is left
    alone)."""
    port = h.free_port()
    serve_dir = os.path.join(workdir, "serve")
    proc = subprocess.Popen(
        ["make", "-s", "-C", h.BUILDDIR, "serve", "DATA=" + data_file,
         "SERVE_PORT=%d" % port, "SERVE_DIR=" + serve_dir],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True)
    try:
        wait_port(port, proc)
        yield "http://127.0.0.1:%d" % port, port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def copy_page(dst, api_base):
    shutil.copytree(PAGE, dst)
    index = os.path.join(dst, "index.html")
    with open(index, encoding="utf-8") as f:
        html = f.read()
    html, n = re.subn(r'(<meta name="profile-api" content=")[^"]*"',
                      r'\g<1>%s"' % api_base, html)
    assert n == 1
    with open(index, "w", encoding="utf-8") as f:
        f.write(html)
    for d, _, files in os.walk(dst):
        os.chmod(d, 0o755)
        for name in files:
            os.chmod(os.path.join(d, name), 0o644)


@pytest.fixture(scope="module")
def site(make_httpd, data_files, workdir):
    """The shipped profile-page.conf (its Debian path changed to a copy of
    the page), the API at /api/v1, a base whose data never loaded, and one
    base per language."""
    server = make_httpd("page", "")
    page = os.path.join(server.root, "page")
    copy_page(page, "/api/v1")
    copy_page(os.path.join(server.root, "broken-page"), "/broken/api/v1")
    copy_page(os.path.join(server.root, "perlang-page"), "/{lang}/api/v1")
    bad = os.path.join(workdir, "never-loaded.json")
    with open(bad, "w") as f:
        f.write('{"profile": ')
    os.chmod(bad, 0o644)
    with open(PAGE_CONF, encoding="utf-8") as f:
        page_conf = f.read().replace("/usr/share/mod_profile/page", page)
    extra = "".join(
        """Alias /{name}/ "{root}/{name}-page/"
<Directory "{root}/{name}-page">
    Require all granted
    DirectoryIndex index.html
    AddType text/javascript .js
    AddType text/css .css
    AddType image/svg+xml .svg
    Header always set Content-Security-Policy "{csp}"
</Directory>
""".format(name=name, root=server.root, csp=shipped_csp())
        for name in ("broken", "perlang"))
    per_lang = "".join(h.location(
        "/%s/api/v1" % lang, data_files["main"],
        "    RequestHeader set Accept-Language %s\n" % lang)
        for lang in LANGS)
    server.write_conf(
        h.load_modules("alias", "mime", "dir", "headers")
        + "TypesConfig /dev/null\n"
        + h.location("/api/v1", data_files["main"])
        + h.location("/broken/api/v1", bad)
        + per_lang + page_conf + extra)
    server.start()
    for _ in range(100):
        try:
            if server.get("/api/v1/profile").status == 200:
                break
        except OSError:
            pass
        time.sleep(0.1)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def oracle(served):
    """oracle(path, lang): what the API served by `make serve` answers."""
    _, port = served

    def get(path, lang):
        r = h.request(port, "GET", "/api/v1" + path,
                      {"Accept-Language": lang})
        assert r.status in (200, 404), r
        return r.json()
    return get


@pytest.fixture(scope="module")
def results(served, oracle):
    origin, _ = served
    exp = oracle("/experience", "en")
    cases = oracle("/case-studies", "es")
    return drive(
        origin, ["views", "switch", "deepLinks", "search", "keyboard",
                 "print", "links", "down"],
        deepLinks=[["es", "#/case-studies/" + cases[1]["id"]],
                   ["en", "#/experience/" + exp[0]["id"]],
                   ["es", "#/experience/no-such-role"],
                   ["en", "#/case-studies/no-such-study"]],
        query="kube", noMatch="zzzz-no-skill",
        company=exp[-1]["company"],
        urls=["https://a.example/x", "http://a.example", "mailto:a@b.example",
              "tel:+34600000000", "javascript:alert(1)",
              "JavaScript:alert(1)", " javascript:alert(1)",
              "data:text/html,<script>alert(1)</script>", "/relative",
              "//a.example/x", "vbscript:x", "ftp://a.example/", "", None])


@pytest.fixture(scope="module")
def site_results(site):
    return drive("http://127.0.0.1:%d" % site.port, ["unavailable", "toggles"],
                 brokenPath="/broken/", togglePaths=["/profile/", "/perlang/"])


def visible_titles(cases, mobile):
    return [c["mobileTitle"] if mobile else c["title"] for c in cases]


# ---------------------------------------------------------------- tests
def test_make_serve_answers_the_page_and_the_data_file(served):
    _, port = served
    r = h.request(port, "GET", "/")
    assert r.status == 200
    assert r.header("Content-Type") == "text/html; charset=utf-8"
    assert b'<meta name="profile-api" content="/api/v1">' in r.body
    assert r.header("Content-Security-Policy") == shipped_csp()
    r = h.request(port, "GET", "/api/v1/profile", {"Accept-Language": "es"})
    assert r.json()["headline"] == HEADLINE["es"]


def test_csp_is_strict(served):
    csp = shipped_csp()
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert "unsafe" not in csp
    # The page's own <meta> policy is the same (minus frame-ancestors,
    # which only a header can carry).
    with open(os.path.join(PAGE, "index.html"), encoding="utf-8") as f:
        html = f.read()
    meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"',
                     html).group(1)
    assert meta == csp.replace("; frame-ancestors 'none'", "")
    # No inline script or style, no third-party address anywhere.
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert "<style" not in html and " style=" not in html
    for d, _, files in os.walk(PAGE):
        for name in files:
            with open(os.path.join(d, name), encoding="utf-8") as f:
                text = f.read()
            assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/",
                                 re.sub(r"http://www\.w3\.org/2000/svg", "",
                                        text)), name


@pytest.mark.parametrize("view", ["en-desktop", "en-mobile", "es-desktop",
                                  "es-mobile"])
def test_every_section_rendered(results, oracle, view):
    lang, vp = view.split("-")
    v = results["views"][view]
    s = v["shown"]
    assert s["htmlLang"] == lang
    assert s["pressed"] == [lang]
    assert s["headline"] == HEADLINE[lang]
    assert s["name"] == oracle("/profile", lang)["name"]
    assert s["summary"] == oracle("/profile", lang)["summary"]
    metrics = oracle("/metrics", lang)
    assert s["metrics"] == [m["value"] for m in metrics]
    assert s["metricLabels"] == [m["label"] for m in metrics]
    assert s["experience"] == [e["role"] for e in oracle("/experience", lang)]
    assert s["caseStudies"] == visible_titles(oracle("/case-studies", lang),
                                              vp == "mobile")
    assert s["skills"] == [g["title"] for g in oracle("/skills", lang)]
    assert s["education"] == [e["degree"] for e in oracle("/education", lang)]
    contact = oracle("/contact", lang)
    assert s["contacts"] == [c["url"] for c in contact["contacts"]
                             + contact["links"]]
    assert s["labels"]["skills"] == {"en": "Skills", "es": "Competencias"}[lang]
    assert v["csp"] == shipped_csp()
    assert not v["errors"], v["errors"]
    # No console error: a CSP violation, a failed load, a 404 would show.
    assert not v["console"], v["console"]
    assert os.path.getsize(v["screenshot"]) > 20000


def test_spanish_metrics_follow_spanish_conventions(results):
    es = results["views"]["es-desktop"]["shown"]["metrics"]
    en = results["views"]["en-desktop"]["shown"]["metrics"]
    assert "99,95 %" in es and "1,2 M" in es
    assert "99.95%" in en and "1.2 M" in en


@pytest.mark.parametrize("view", ["en-desktop", "en-mobile", "es-desktop",
                                  "es-mobile"])
def test_axe_reports_no_violation(results, view):
    axe = results["views"][view]["axe"]
    assert axe["passes"] > 20
    assert axe["violations"] == [], json.dumps(axe["violations"], indent=1)


def test_first_view_within_budget(results):
    reqs = results["views"]["en-desktop"]["requests"]
    total = sum(r["bytes"] for r in reqs)
    print("\nfirst view of the sample (en, desktop): %d requests, %d bytes "
          "(budget %d requests, %d bytes)" % (len(reqs), total,
                                             BUDGET_REQUESTS, BUDGET_BYTES))
    for r in reqs:
        print("  %3s %6d %s" % (r["status"], r["bytes"], r["url"]))
    assert all(r["status"] == 200 for r in reqs), reqs
    assert all(r["url"].startswith("http://127.0.0.1:") for r in reqs)
    assert len(reqs) <= BUDGET_REQUESTS
    assert total <= BUDGET_BYTES
    api = [r for r in reqs if "/api/v1/" in r["url"]]
    assert len(api) == 7


def test_language_switch_sets_lang_and_is_remembered(results):
    s = results["switch"]
    assert s["before"]["htmlLang"] == "en"
    assert s["after"]["htmlLang"] == "es"
    assert s["after"]["headline"] == HEADLINE["es"]
    assert s["after"]["pressed"] == ["es"]
    assert s["reloaded"]["htmlLang"] == "es"       # the choice is kept
    assert s["reloaded"]["headline"] == HEADLINE["es"]
    assert s["byKeyboard"]["htmlLang"] == "en"
    assert s["byKeyboard"]["headline"] == HEADLINE["en"]
    # Before any choice the browser's own Accept-Language went out; then
    # exactly the chosen language.
    assert {r["al"] for r in s["requests"][:7]} == {"en-US"}
    assert {r["al"] for r in s["requests"][7:14]} == {"es"}
    assert not s["errors"] and not s["console"], s


def test_deep_links_open_detail_views(results, oracle):
    d = results["deepLinks"]
    cases = oracle("/case-studies", "es")
    rec = d["es #/case-studies/" + cases[1]["id"]]
    assert rec["state"] == "ready" and rec["open"]
    assert rec["title"] == cases[1]["title"]
    assert cases[1]["problem"] in rec["body"]
    assert rec["focused"] == "detail-title"
    assert rec["htmlLang"] == "es"
    exp = oracle("/experience", "en")[0]
    rec = d["en #/experience/" + exp["id"]]
    assert rec["title"] == exp["role"]
    assert all(x in rec["body"] for x in exp["highlights"])


@pytest.mark.parametrize("lang, hash, path", [
    ("es", "#/experience/no-such-role", "/experience/no-such-role"),
    ("en", "#/case-studies/no-such-study", "/case-studies/no-such-study")])
def test_unknown_id_shows_the_problem_in_the_page_language(results, oracle,
                                                           lang, hash, path):
    rec = results["deepLinks"]["%s %s" % (lang, hash)]
    problem = oracle(path, lang)
    assert problem["status"] == 404
    assert rec["state"] == "problem"
    assert rec["title"] == problem["title"]
    assert rec["body"] == problem["detail"]
    assert "no-such" in rec["body"]
    # The 404 is expected: the browser reports it, nothing else.
    assert all("404" in c for c in rec["console"]), rec["console"]


def test_search_and_filter(results, served):
    _, port = served
    s = results["search"]
    want = h.request(port, "GET", "/api/v1/skills?q=kube",
                     {"Accept-Language": "en"}).json()
    assert s["found"]["skills"] == [g["title"] for g in want]
    assert s["count"] == "1 skill group matches “kube”."
    assert len(s["cleared"]["skills"]) > len(want)
    assert s["none"]["skills"] == []
    assert s["none"]["count"] == "No skill group matches “zzzz-no-skill”."
    urls = [r["url"] for r in s["requests"]]
    assert any(u.endswith("/skills?q=kube") for u in urls)
    # An empty (or blank) box asks for the whole list: q is never empty.
    assert not any(re.search(r"[?&]q=(&|$)|[?&]q=(%20|\+)*(&|$)", u)
                   for u in urls), urls
    # A search the page itself cancelled (a newer one, or the box
    # emptied, while it was on its way: AbortController) is no answer.
    assert all(r["status"] == 200 for r in s["requests"]
               if r.get("failed") != "net::ERR_ABORTED"), s["requests"]
    company = s["options"][-1]
    want = h.request(port, "GET", "/api/v1/experience?company="
                     + urllib.parse.quote(company),
                     {"Accept-Language": "en"}).json()
    assert s["options"][0] == "All companies"
    assert want and s["filtered"]["experience"] == [e["role"] for e in want]
    assert s["filterCount"].endswith(" at %s." % company)
    assert not s["errors"] and not s["console"], s


def test_keyboard_only(results):
    k = results["keyboard"]
    assert k["order"][0]["text"] == "Skip to content"
    # Every stop is visible and shows a focus outline.
    for stop in k["order"]:
        assert stop["visible"] and stop["outline"], stop
    texts = [s["text"] for s in k["order"]]
    for want in ("Results", "Contact", "English", "Español", "Print CV"):
        assert want in texts, texts
    assert k["skip"] == "skip" and k["afterSkip"] == "main"
    assert k["inDialog"] and k["hashOpen"] == k["href"]
    assert k["back"] == {"href": k["href"], "hash": ""}


def test_print_is_one_clean_document(results):
    p = results["print"]
    assert p["layout"] == {"bar": False, "search": False, "details": False,
                           "caseStudyParts": True, "name": True,
                           "urlsWritten": p["layout"]["urlsWritten"]}
    assert p["layout"]["urlsWritten"].startswith('" <mailto:')
    assert p["head"] == "%PDF-"
    assert 2 <= p["pages"] <= 8, p["pages"]
    assert p["size"] > 20000


def test_only_safe_links(results):
    got = {u: (href, tag) for u, href, tag in results["links"]}
    for u in ("https://a.example/x", "http://a.example", "mailto:a@b.example",
              "tel:+34600000000"):
        assert got[u][0] is not None and got[u][1] == "A", u
    for u in ("javascript:alert(1)", "JavaScript:alert(1)",
              " javascript:alert(1)", "data:text/html,<script>alert(1)</script>",
              "/relative", "//a.example/x", "vbscript:x", "ftp://a.example/",
              ""):
        assert got[u] == (None, "SPAN"), u


def test_server_down_then_back(results):
    d = results["down"]
    assert d["banner"].startswith("The profile’s server cannot be reached")
    assert d["kept"]["headline"] == HEADLINE["en"]     # what was shown stays
    assert d["back"]["hidden"]
    assert d["back"]["shown"]["headline"] == HEADLINE["es"]
    assert not d["errors"]


@pytest.mark.parametrize("lang", LANGS)
def test_503_counts_down_from_retry_after(site, site_results, lang):
    u = site_results["unavailable"][lang]
    r = site.get("/broken/api/v1/profile", {"Accept-Language": lang})
    assert r.status == 503 and r.header("Retry-After") == "60"
    assert u["detail"] == r.json()["detail"]
    first = int(re.search(r"(\d+) s", u["first"]).group(1))
    later = int(re.search(r"(\d+) s", u["later"]).group(1))
    assert first in (60, 59) and 56 <= later < first
    assert u["first"].startswith({"en": "The profile is temporarily",
                                  "es": "El perfil no está"}[lang])
    assert u["htmlLang"] == lang
    assert set(u["statuses"]) == {503}
    assert u["axe"]["violations"] == [], u["axe"]["violations"]


def test_shipped_conf_serves_the_page(site):
    r = site.get("/profile/")
    assert r.status == 200
    assert r.header("Content-Type") == "text/html; charset=utf-8"
    assert b'<meta name="profile-api" content="/api/v1">' in r.body
    assert r.header("Content-Security-Policy") == shipped_csp()
    assert site.get("/profile/js/main.js").header("Content-Type") == \
        "text/javascript; charset=utf-8"


def test_toggle_requests_one_base_against_one_base_per_language(site_results):
    t = site_results["toggles"]
    one, per = t["/profile/"]["counts"], t["/perlang/"]["counts"]
    print("\nAPI requests that reached the network: first view, then "
          "es, en, es, en:\n  one base (Accept-Language):   %s\n"
          "  one base per language (URL): %s" % (one, per))
    assert one[0] == 7 and per[0] == 7
    # One base: Chromium keeps one variant per URL, every toggle fetches
    # all seven again.
    assert one[1:] == [7, 7, 7, 7]
    # One base per language: both languages stay cached.
    assert per[1:] == [7, 0, 0, 0]

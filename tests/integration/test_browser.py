# SPDX-License-Identifier: Apache-2.0
"""A real browser (headless Chromium) calls the API from a page of another
origin with fetch() (docs/ecosystem.md).

The page (tests/browser/index.html + app.js) is served by a second virtual
host on its own port, so every API call is cross-origin and goes through
the browser's CORS checks.  It writes what it could read into the DOM as
JSON; Chromium's --dump-dom hands that back and the tests below compare it
with what the API serves.  The API's access log shows what reached the
server (preflights, the browser cache's own revalidation).

BROWSER_SCREENSHOT=/path/file.png also saves a picture of the page.
"""
import html
import json
import os
import re
import shutil
import subprocess
import time

import pytest

import httpd_harness as h

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or \
    shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    not CHROMIUM, reason="no chromium (scripts/install-deps installs it)")

PAGE_DIR = os.path.join(h.SRCDIR, "tests", "browser")
LANGS = ["en", "es"]
LOG_FORMAT = "%m %U%q %>s al=[%{Accept-Language}i] inm=[%{If-None-Match}i] " \
    "acrh=[%{Access-Control-Request-Headers}i] ae=[%{Accept-Encoding}i]"


@pytest.fixture(scope="module")
def site(make_httpd, data_files):
    """The API on the main port (/api/v1 for every origin, /listed/api/v1
    for the page's origin only, /denied/api/v1 for another one), and the
    page on a second port."""
    page_port = h.free_port()
    server = make_httpd("browser", "")
    page_root = os.path.join(server.root, "page")
    shutil.copytree(PAGE_DIR, page_root,
                    ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    for d, _, files in os.walk(page_root):
        os.chmod(d, 0o755)
        for f in files:
            os.chmod(os.path.join(d, f), 0o644)
    page_origin = "http://127.0.0.1:%d" % page_port
    server.write_conf(
        h.load_modules("mime")
        + "TypesConfig /dev/null\n"
        + "AddType text/html .html\nAddType text/javascript .js\n"
        + "AddCharset utf-8 .html .js\n"
        + 'LogFormat "%s" api\n' % LOG_FORMAT.replace('"', '\\"')
        + "CustomLog logs/api.log api\n"
        + h.location("/api/v1", data_files["main"])
        + h.location("/listed/api/v1", data_files["main"],
                     "    ProfileCORSOrigins %s\n" % page_origin)
        + h.location("/denied/api/v1", data_files["main"],
                     "    ProfileCORSOrigins https://a.example\n")
        + """Listen 127.0.0.1:{port}
<VirtualHost 127.0.0.1:{port}>
    ServerName 127.0.0.1:{port}
    DocumentRoot "{page}"
    <Directory "{page}">
        Require all granted
    </Directory>
</VirtualHost>
""".format(port=page_port, page=page_root))
    server.page_port = page_port
    server.page_origin = page_origin
    server.start_checked()
    yield server
    server.stop()


def page_url(site, **extra):
    api = "http://127.0.0.1:%d" % site.port
    q = {"api": api + "/api/v1", "listed": api + "/listed/api/v1",
         "denied": api + "/denied/api/v1"}
    q.update(extra)
    return "%s/index.html?%s" % (site.page_origin, "&".join(
        "%s=%s" % (k, v) for k, v in q.items()))


def chromium(tmp, lang, *args):
    """Runs headless Chromium with a fresh profile; nothing but loopback
    addresses resolves."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
           "--user-data-dir=" + os.path.join(tmp, "profile-" + lang),
           "--no-first-run", "--no-default-browser-check",
           "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--disable-extensions", "--disable-default-apps",
           "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
           "--lang=" + lang, "--accept-lang=" + lang,
           "--virtual-time-budget=30000"] + list(args)
    cp = subprocess.run(cmd, capture_output=True, text=True, timeout=100)
    assert cp.returncode == 0, cp.stderr[-3000:]
    return cp.stdout


def page_results(dom):
    m = re.search(r'<pre id="results">(.*?)</pre>', dom, re.S)
    assert m and m.group(1), "the page wrote no results:\n" + dom[-3000:]
    out = json.loads(html.unescape(m.group(1)))
    assert out.get("done"), out
    return out


def log_lines(site):
    with open(os.path.join(site.root, "logs", "api.log"),
              encoding="utf-8") as f:
        # httpd writes a missing field as "-" and escapes quotes.
        return [ln.rstrip("\n").replace('\\"', '"').replace("[-]", "[]")
                for ln in f]


@pytest.fixture(scope="module")
def run(site, tmp_path_factory):
    """One visit of the page: (what the page read, the API's access log
    lines of that visit)."""
    tmp = str(tmp_path_factory.mktemp("chromium"))
    before = len(log_lines(site))
    dom = chromium(tmp, "en-US", "--dump-dom", page_url(site))
    out = page_results(dom)
    # httpd logs a request after answering it: wait for the last one.
    deadline = time.monotonic() + 10
    while True:
        log = log_lines(site)[before:]
        if any(ln.startswith("GET /denied/") for ln in log) or \
                time.monotonic() > deadline:
            break
        time.sleep(0.1)
    shot = os.environ.get("BROWSER_SCREENSHOT")
    if shot:
        chromium(tmp, "en-US", "--hide-scrollbars",
                 "--window-size=1400,1040",
                 "--screenshot=" + os.path.abspath(shot), page_url(site))
    return out, log


@pytest.fixture(scope="module")
def served(run, api):
    """served(path, headers) -> what the API answers the browser's request
    (with the browser's own Accept-Encoding, which a page cannot change),
    its body decoded into .text."""
    _, log = run
    values = {re.search(r" ae=\[(.*)\]$", ln).group(1) for ln in log
              if ln.startswith("GET /api/v1/")}
    assert len(values) == 1, values
    ae = values.pop()

    def get(path, headers=None):
        hdrs = {"Accept-Encoding": ae}
        hdrs.update(headers or {})
        r = api.get(path, hdrs)
        r.text = h.decompress(r.body, r.header("Content-Encoding")).decode()
        r.ae = ae
        return r
    return get


def named(out, name):
    recs = [r for r in out["results"] if r["name"] == name]
    assert recs, name
    return recs


def path_of(rec):
    return re.sub(r"^https?://[^/]+", "", rec["url"])


# ---------------------------------------------------------------- tests
@pytest.mark.parametrize("lang", LANGS)
def test_every_route_read_in_the_asked_language(run, served, sample, lang):
    out, _ = run
    recs = named(out, "route " + lang)
    assert sorted(path_of(r) for r in recs) == \
        sorted("/api/v1" + route for route in h.all_routes(sample))
    for rec in recs:
        want = served(path_of(rec), {"Accept-Language": lang})
        assert rec["status"] == 200, rec
        assert rec["text"] == want.text, rec["url"]
        hd = rec["headers"]
        assert hd["content-language"] == lang
        assert hd["content-type"] == "application/json"
        # ETag is readable only because the API exposes it.
        assert hd["etag"] == want.etag
        # Vary and nosniff are not exposed: the browser hides them.
        assert "vary" not in hd and "x-content-type-options" not in hd


def test_explicit_if_none_match_gives_the_page_a_304(run, served):
    out, log = run
    etag = served("/api/v1/experience", {"Accept-Language": "en"}).etag
    rec, = named(out, "304")
    assert rec["sent"]["If-None-Match"] == etag
    assert rec["status"] == 304
    assert rec["text"] == ""
    assert rec["headers"]["etag"] == etag
    # If-None-Match is not a safelisted request header: preflight first.
    pre = [ln for ln in log if ln.startswith("OPTIONS /api/v1/experience ")]
    assert pre and "if-none-match" in pre[0].split("acrh=")[1].lower()
    assert "GET /api/v1/experience 304 al=[en] inm=[%s] " % etag \
        in " ".join(log)


def test_english_etag_does_not_match_spanish(run, served):
    out, _ = run
    rec, = named(out, "en etag, es asked")
    es = served("/api/v1/experience", {"Accept-Language": "es"})
    assert rec["status"] == 200
    assert rec["headers"]["content-language"] == "es"
    assert rec["headers"]["etag"] == es.etag
    assert rec["text"] == es.text


def test_browser_cache_revalidates_by_itself(run, served):
    """fetch with cache "no-cache": the second time Chromium sends the
    stored ETag itself, gets 304 and gives the page the stored 200."""
    out, log = run
    es = served("/api/v1/metrics", {"Accept-Language": "es"})
    fill, = named(out, "cache: fill")
    reval, = named(out, "cache: revalidate")
    for rec in (fill, reval):
        assert rec["status"] == 200
        assert rec["text"] == es.text
        assert rec["headers"]["etag"] == es.etag
    # (The first of three is the "route es" visit, with cache "no-store".)
    metrics = [ln for ln in log if ln.startswith("GET /api/v1/metrics ")
               and "al=[es]" in ln]
    assert metrics[1:] == [
        "GET /api/v1/metrics 200 al=[es] inm=[] acrh=[] ae=[%s]" % es.ae,
        "GET /api/v1/metrics 304 al=[es] inm=[%s] acrh=[] ae=[%s]"
        % (es.etag, es.ae)]


def test_head(run, served):
    out, _ = run
    rec, = named(out, "HEAD")
    get = served("/api/v1/contact")
    assert rec["status"] == 200 and rec["text"] == ""
    assert rec["headers"]["content-length"] == str(len(get.body))
    assert rec["headers"]["etag"] == get.etag


def test_filter_with_non_ascii_value(run, sample):
    out, _ = run
    rec, = named(out, "filter")
    assert rec["status"] == 200
    assert json.loads(rec["text"], object_pairs_hook=list) == \
        h.expected_filtered(sample, "/experience", "company", "INGENIERÍA",
                            "en")
    assert len(rec["body"]) == 1


@pytest.mark.parametrize("name, path, lang, ctype, status", [
    ("404 path", "/api/v1/nope", "es", "application/json", 404),
    ("404 id", "/api/v1/case-studies/nope", "en", "application/json", 404),
    ("404 problem+json", "/api/v1/nope", "en", "application/problem+json",
     404),
    ("400", "/api/v1/skills?q=", "es", "application/json", 400)])
def test_problem_bodies_readable(run, served, name, path, lang, ctype,
                                 status):
    out, _ = run
    rec, = named(out, name)
    want = served(path, {"Accept-Language": lang, "Accept": ctype})
    assert rec["status"] == status
    assert rec["headers"]["content-type"] == ctype
    assert rec["headers"]["content-language"] == lang
    assert rec["body"] == json.loads(want.text)
    assert rec["body"]["status"] == status
    if status == 400:
        assert rec["body"]["invalid-params"][0]["name"] == "q"


def test_method_the_preflight_refuses_never_sent(run):
    out, log = run
    rec, = named(out, "DELETE")
    assert rec["error"].startswith("TypeError")
    assert any(ln.startswith("OPTIONS /api/v1/profile ") for ln in log)
    assert not any(ln.startswith("DELETE ") for ln in log)


def test_listed_origin_reads_and_revalidates(run, served):
    out, _ = run
    etag = served("/api/v1/profile").etag
    rec, = named(out, "listed origin")
    assert rec["status"] == 200 and rec["headers"]["etag"] == etag
    rec, = named(out, "listed origin 304")
    assert rec["status"] == 304 and rec["headers"]["etag"] == etag


def test_origin_not_listed_cannot_read(run):
    """The answer reaches the browser, which refuses it to the page."""
    out, log = run
    rec, = named(out, "origin not listed")
    assert rec["error"].startswith("TypeError")
    assert "status" not in rec
    assert any(ln.startswith("GET /denied/api/v1/profile 200 ")
               for ln in log)


@pytest.mark.parametrize("browser_lang, lang", [("en-US", "en"),
                                                ("es-ES", "es"),
                                                ("de-DE", "en")])
def test_browser_language_without_the_page_asking(site, served, tmp_path,
                                                  browser_lang, lang):
    """The page sets no Accept-Language: the browser's own setting picks
    the language."""
    out = page_results(chromium(str(tmp_path), browser_lang, "--dump-dom",
                                page_url(site, only="language")))
    rec, = out["results"]
    assert rec["status"] == 200
    assert rec["headers"]["content-language"] == lang
    assert rec["text"] == \
        served("/api/v1/profile", {"Accept-Language": lang}).text

# SPDX-License-Identifier: Apache-2.0
"""The API beside the modules real servers load, each on the same server as
the API (`<Location /api/v1> SetHandler profile ...`): mod_rewrite,
mod_alias, mod_headers, mod_expires, mod_status, and ModSecurity with the
OWASP Core Rule Set as Debian packages them (docs/operations.md, "Beside
other modules").

A test skips, saying which file is missing, only when a Debian module
file it needs is absent; scripts/install-deps installs them all.
tests/integration/matrix.sh runs this file under every MPM and module set.
"""
import os
import re

import pytest

import httpd_harness as h

B = "/api/v1"
STATIC = b"<p>a static page</p>\n"
NOTE = b"a file outside the API\n"


def need(*paths):
    """Skips the test unless every path exists."""
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        pytest.skip("not installed on this machine: %s (scripts/install-deps "
                    "installs it)" % ", ".join(missing))


def need_modules(*names):
    need(*[os.path.join(h.MODULES_DIR, "mod_%s.so" % n) for n in names])


def start(make_httpd, name, body):
    """A server whose configuration is `body` (@ROOT@ names its server
    root), with ROOT/htdocs/static.html and ROOT/files/note.txt, started
    with a clean error log."""
    server = make_httpd(name, "")
    with open(os.path.join(server.root, "htdocs", "static.html"), "wb") as f:
        f.write(STATIC)
    files = os.path.join(server.root, "files")
    os.makedirs(files)
    os.chmod(files, 0o755)
    with open(os.path.join(files, "note.txt"), "wb") as f:
        f.write(NOTE)
    server.write_conf(body.replace("@ROOT@", server.root))
    return server.start_checked()


def api_location(data, extra=""):
    return h.location(B, data, extra)


def assert_api_unaffected(server, sample):
    """Every route in both languages, a filter, a 304 and a 404: the
    module's own answers."""
    for lang in ("en", "es"):
        for route in h.all_routes(sample):
            r = server.get(B + route, {"Accept-Language": lang})
            assert r.status == 200, (route, r)
            assert r.header("Content-Type") == "application/json", route
            assert r.pairs() == h.expected(sample, route, lang), route
    r = server.get(B + "/skills?q=rust")
    assert r.status == 200
    assert r.pairs() == h.expected_filtered(sample, "/skills", "q", "rust",
                                            "en")
    tag = server.get(B + "/profile").etag
    r = server.get(B + "/profile", {"If-None-Match": tag})
    assert r.status == 304 and r.body == b"", r
    assert_problem(server.get(B + "/nope"), 404)


def assert_problem(r, status):
    """The module's own problem answer (CONTRACT §7)."""
    assert r.status == status, r
    assert r.header("Content-Type") == "application/json", r
    body = r.json()
    assert body["status"] == status and body["type"] == "about:blank", body
    assert r.header("Cache-Control") == "no-store", r
    assert r.header("Content-Language") is not None, r


def location_path(r):
    loc = r.header("Location")
    assert loc, r
    return re.sub(r"^https?://[^/]+", "", loc)


# ---------------------------------------------------------------- rewrite
@pytest.fixture(scope="module")
def rewrite_server(make_httpd, data_files):
    need_modules("rewrite")
    server = start(make_httpd, "rewrite", h.load_modules("rewrite") + """\
<Directory "@ROOT@/htdocs">
    Require all granted
</Directory>
RewriteEngine On
# Out of the API: an old API URL now names a static page.
RewriteRule ^/api/v1/old$ /static.html [PT]
# Into the API: a sibling URL served by it.
RewriteRule ^/v1/(.*)$ /api/v1/$1 [PT]
# A redirect at server level, of a path below the API.
RewriteRule ^/api/v1/old-metrics$ /api/v1/metrics [R=301,L]
""" + api_location(data_files["main"], """\
    # A redirect inside the API's section.  Rules in a <Location> see the
    # handler's internal file name, not the URL: match on REQUEST_URI.
    RewriteEngine On
    RewriteCond %{REQUEST_URI} ^/api/v1/old-skills$
    RewriteRule ^ /api/v1/skills [R=301,L]
"""))
    yield server
    server.stop()


class TestRewrite:
    def test_pt_rule_out_of_the_api_serves_the_file(self, rewrite_server):
        """`RewriteRule ^/api/v1/old$ /static.html [PT]` outside the API's
        section: the static page, not the API's (or core's) 404.  Needs
        the translate_name fix (review B1)."""
        r = rewrite_server.get(B + "/old")
        assert r.status == 200, r
        assert r.body == STATIC
        assert not r.has("Content-Language"), r     # not the module's

    def test_pt_rule_into_the_api_is_served_by_the_api(self, rewrite_server,
                                                       sample):
        """`RewriteRule ^/v1/(.*)$ /api/v1/$1 [PT]`: the API answers the
        sibling URL as it answers its own."""
        for route in h.all_routes(sample):
            for lang in ("en", "es"):
                hdrs = {"Accept-Language": lang}
                a = rewrite_server.get("/v1" + route, hdrs)
                b = rewrite_server.get(B + route, hdrs)
                assert a.status == 200, (route, a)
                assert a.body == b.body and a.etag == b.etag, route
        r = rewrite_server.get("/v1/skills?q=rust")
        assert r.pairs() == h.expected_filtered(sample, "/skills", "q",
                                                "rust", "en")
        tag = rewrite_server.get("/v1/profile").etag
        assert rewrite_server.get("/v1/profile",
                                  {"If-None-Match": tag}).status == 304
        assert_problem(rewrite_server.get("/v1/nope"), 404)

    def test_redirect_inside_the_api_section(self, rewrite_server):
        r = rewrite_server.get(B + "/old-skills")
        assert r.status == 301, r
        assert location_path(r) == B + "/skills"

    def test_redirect_at_server_level_below_the_api(self, rewrite_server):
        r = rewrite_server.get(B + "/old-metrics")
        assert r.status == 301, r
        assert location_path(r) == B + "/metrics"

    def test_api_unaffected(self, rewrite_server, sample):
        assert_api_unaffected(rewrite_server, sample)


# ------------------------------------------------------------------ alias
@pytest.fixture(scope="module")
def alias_server(make_httpd, data_files):
    need_modules("alias")
    server = start(make_httpd, "alias", h.load_modules("alias") + """\
<Directory "@ROOT@/htdocs">
    Require all granted
</Directory>
<Directory "@ROOT@/files">
    Require all granted
</Directory>
Redirect 301 /old-page /static.html
Redirect 301 /api/v0 /api/v1
Redirect 301 /api/v1/old-metrics /api/v1/metrics
Alias /files "@ROOT@/files"
""" + api_location(data_files["main"]))
    yield server
    server.stop()


class TestAlias:
    def test_redirect_of_a_sibling_page(self, alias_server):
        r = alias_server.get("/old-page")
        assert r.status == 301, r
        assert location_path(r) == "/static.html"

    def test_redirect_of_a_sibling_api_version(self, alias_server):
        r = alias_server.get("/api/v0/profile?x=1")
        assert r.status == 301, r
        assert location_path(r) == B + "/profile?x=1"

    def test_redirect_below_the_api(self, alias_server):
        """mod_alias decides in translate_name before the module claims
        the URL."""
        r = alias_server.get(B + "/old-metrics")
        assert r.status == 301, r
        assert location_path(r) == B + "/metrics"

    def test_alias_of_a_sibling_path(self, alias_server):
        r = alias_server.get("/files/note.txt")
        assert r.status == 200, r
        assert r.body == NOTE

    def test_api_unaffected(self, alias_server, sample):
        assert_api_unaffected(alias_server, sample)


# ---------------------------------------------------------------- headers
HSTS = "max-age=63072000; includeSubDomains"


@pytest.fixture(scope="module")
def headers_server(make_httpd, data_files):
    need_modules("headers")
    server = start(make_httpd, "headers", h.load_modules("headers")
                   + api_location(data_files["main"], """\
    Header set X-Frame-Options DENY
    Header always set Strict-Transport-Security "%s"
""" % HSTS))
    yield server
    server.stop()


class TestHeaders:
    """`Header set` (the onsuccess table) and `Header always set` in the
    API's section, on the module's answers.  The module writes its error
    answers itself (no ErrorDocument, no ap_die), so httpd treats them
    like any response its handler sent: both tables apply."""

    def _answers(self, server):
        tag = server.get(B + "/profile").etag
        return {
            "200": server.get(B + "/profile"),
            "HEAD": server.request("HEAD", B + "/profile"),
            "304": server.get(B + "/profile", {"If-None-Match": tag}),
            "OPTIONS": server.request("OPTIONS", B + "/profile", {
                "Origin": "https://a.example",
                "Access-Control-Request-Method": "GET"}),
            "404": server.get(B + "/nope"),
            "400": server.get(B + "/skills?q="),
            "405": server.request("DELETE", B + "/skills"),
        }

    def test_always_header_on_every_answer(self, headers_server):
        for what, r in self._answers(headers_server).items():
            assert r.header_all("Strict-Transport-Security") == [HSTS], \
                (what, r)

    def test_onsuccess_header_on_200_and_304(self, headers_server):
        answers = self._answers(headers_server)
        assert answers["200"].status == 200
        assert answers["304"].status == 304
        for what in ("200", "HEAD", "304", "OPTIONS"):
            assert answers[what].header_all("X-Frame-Options") == \
                ["DENY"], (what, answers[what])

    def test_onsuccess_header_at_most_once_on_errors(self, headers_server):
        for what in ("404", "400", "405"):
            r = self._answers(headers_server)[what]
            assert r.status == int(what), r
            assert r.header_all("X-Frame-Options") in ([], ["DENY"]), r

    def test_module_headers_kept(self, headers_server):
        answers = self._answers(headers_server)
        for what in ("200", "304"):
            r = answers[what]
            assert r.etag and r.header("Cache-Control") == \
                "public, max-age=300", (what, r)
            assert "accept-language" in r.tokens("Vary"), (what, r)
            assert r.header("Access-Control-Allow-Origin") == "*", (what, r)

    def test_api_unaffected(self, headers_server, sample):
        assert_api_unaffected(headers_server, sample)


# ---------------------------------------------------------------- expires
@pytest.fixture(scope="module")
def expires_server(make_httpd, data_files):
    need_modules("expires")
    server = start(make_httpd, "expires", h.load_modules("expires")
                   + api_location(data_files["main"], """\
    ExpiresActive On
    ExpiresDefault "access plus 1 month"
""") + h.location("/short/api/v1", data_files["main"], """\
    ProfileMaxAge 60
    ExpiresActive On
    ExpiresDefault "access plus 1 month"
"""))
    yield server
    server.stop()


def _assert_fresh_for(r, seconds):
    """Exactly one max-age, the module's (CONTRACT §5), and an Expires that
    says the same to HTTP/1.0 caches: Date + max-age."""
    assert r.header_all("Cache-Control") == \
        ["public, max-age=%d" % seconds], r
    assert len(r.header_all("Expires")) == 1, r
    assert h.parse_http_date(r.header("Expires")) == \
        h.parse_http_date(r.header("Date")) + seconds, r


class TestExpires:
    """mod_expires steps aside when a response has Expires; the module
    sends one (review R3).  Needs that change of the module."""

    def test_200_has_one_max_age_and_matching_expires(self, expires_server,
                                                      sample):
        for route in h.all_routes(sample):
            r = expires_server.get(B + route)
            assert r.status == 200, (route, r)
            _assert_fresh_for(r, 300)
        r = expires_server.get(B + "/skills?q=rust")
        _assert_fresh_for(r, 300)
        _assert_fresh_for(expires_server.request("HEAD", B + "/skills"), 300)

    def test_304_has_one_max_age_and_matching_expires(self, expires_server):
        tag = expires_server.get(B + "/profile").etag
        r = expires_server.get(B + "/profile", {"If-None-Match": tag})
        assert r.status == 304, r
        _assert_fresh_for(r, 300)

    def test_profile_max_age_decides(self, expires_server):
        r = expires_server.get("/short/api/v1/metrics")
        assert r.status == 200, r
        _assert_fresh_for(r, 60)

    def test_errors_stay_no_store(self, expires_server):
        for target, status in ((B + "/nope", 404),
                               (B + "/skills?q=", 400),
                               (B + "/experience/nope", 404)):
            r = expires_server.get(target)
            assert_problem(r, status)
            assert r.header_all("Cache-Control") == ["no-store"], r


# ----------------------------------------------------------------- status
@pytest.fixture(scope="module")
def status_server(make_httpd, data_files):
    need_modules("status", "authz_host")
    server = start(make_httpd, "status",
                   h.load_modules("status", "authz_host") + """\
<Location /server-status>
    SetHandler server-status
    Require local
</Location>
""" + api_location(data_files["main"]))
    yield server
    server.stop()


class TestStatus:
    def test_server_status_beside_the_api(self, status_server):
        status_server.get(B + "/profile")
        r = status_server.get("/server-status?auto")
        assert r.status == 200, r
        text = r.body.decode("latin-1")
        assert "ServerMPM: %s" % h.CONFIGURATION.mpm in text, text[:400]
        r = status_server.get("/server-status")
        assert r.status == 200, r
        assert b"Apache Server Status" in r.body

    def test_api_unaffected(self, status_server, sample):
        assert_api_unaffected(status_server, sample)


# ------------------------------------------------------------ ModSecurity
SECURITY2 = os.path.join(h.MODULES_DIR, "mod_security2.so")
UNIQUE_ID = os.path.join(h.MODULES_DIR, "mod_unique_id.so")
MODSEC_RECOMMENDED = "/etc/modsecurity/modsecurity.conf-recommended"
UNICODE_MAPPING = "/etc/modsecurity/unicode.mapping"
CRS_LOAD = "/usr/share/modsecurity-crs/owasp-crs.load"
CRS_SETUP = "/etc/modsecurity/crs/crs-setup.conf"


def modsecurity_conf(root):
    """Debian's modsecurity.conf-recommended as Debian's README.Debian
    says to use it: copied, with `SecRuleEngine On`.  Its directories and
    audit log are this server root's own."""
    d = os.path.join(root, "modsecurity")
    for sub in ("tmp", "data"):
        os.makedirs(os.path.join(d, sub))
    if os.geteuid() == 0:
        # The children (www-data) write there.
        import pwd
        pw = pwd.getpwnam("www-data")
        for sub in ("", "tmp", "data"):
            os.chown(os.path.join(d, sub), pw.pw_uid, pw.pw_gid)
    os.chmod(d, 0o755)
    with open(MODSEC_RECOMMENDED) as f:
        text = f.read()
    subs = [(r"SecRuleEngine .*", "SecRuleEngine On"),
            (r"SecTmpDir .*", 'SecTmpDir "%s/tmp"' % d),
            (r"SecDataDir .*", 'SecDataDir "%s/data"' % d),
            (r"SecAuditLog .*",
             'SecAuditLog "%s"' % os.path.join(root, "logs",
                                               "modsec_audit.log")),
            (r"SecUnicodeMapFile unicode.mapping",
             "SecUnicodeMapFile %s" % UNICODE_MAPPING)]
    for pattern, repl in subs:
        text, n = re.subn(r"(?m)^" + pattern + r"$", repl, text) \
            if pattern.endswith(".*") else \
            re.subn(r"(?m)^" + pattern, repl, text)
        assert n == 1, (pattern, "not once in " + MODSEC_RECOMMENDED)
    path = os.path.join(d, "modsecurity.conf")
    with open(path, "w") as f:
        f.write(text)
    return path


@pytest.fixture(scope="module")
def modsec_server(make_httpd, data_files):
    need(SECURITY2, UNIQUE_ID, MODSEC_RECOMMENDED, UNICODE_MAPPING, CRS_LOAD,
         CRS_SETUP)
    server = make_httpd("modsecurity", "")
    conf = modsecurity_conf(server.root)
    # As Debian's security2.load and security2.conf do, with this server's
    # modsecurity.conf instead of /etc/modsecurity/*.conf; the CRS set-up
    # (paranoia level 1, anomaly scoring) and rules through Debian's
    # owasp-crs.load.
    server.write_conf(h.load_modules("unique_id") + """\
LoadModule security2_module {security2}
<IfModule security2_module>
    Include "{conf}"
    Include "{crs}"
</IfModule>
""".format(security2=SECURITY2, conf=conf, crs=CRS_LOAD)
        + api_location(data_files["main"])
        + h.location("/cors/api/v1", data_files["main"],
                     "    ProfileCORSOrigins https://a.example "
                     "https://b.example\n"))
    # ModSecurity logs its version lines at notice: nothing to judge.
    server.start_checked()
    yield server
    server.stop()


def _enc(s):
    from urllib.parse import quote
    return quote(s, safe="")


LANGUAGE_HEADERS = [None, "en", "es", "es-MX,es;q=0.9,en;q=0.8", "es-419",
                    "ES", "en-GB,en;q=0.9", "en;q=0, *", "de, *;q=0.5",
                    "fr-CA, fr;q=0.8, es;q=0.5", "es;q=abc, en"]
ENCODINGS = ["gzip", "br", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8, *;q=0.1",
             "identity", "gzip;q=0, br;q=0"]
FILTERS = [
    ("/skills", "q=" + _enc("ingeniería")),
    ("/skills", "q=ingeniería"),                   # raw UTF-8, as curl sends
    ("/skills", "q=C%2B%2B"),                      # C++
    ("/skills", "q=Code+review"),                  # + is a space
    ("/skills", "q=Code%20review"),
    ("/skills", "q=Code%2Breview"),
    ("/skills", "q=" + _enc("CÓDIGO")),
    ("/skills", "q=rust"),
    ("/skills", "q=%20rust%20"),
    ("/skills", "q=" + _enc(" & ")),
    ("/skills", "q=testing"),
    ("/skills", "q=Pruebas"),
    ("/skills", "q=" + _enc("e\u0301" * 5)),
    ("/skills", "q=" + _enc("é" * 100)),
    ("/skills", "q=" + _enc("\U0001F600")),
    ("/experience", "company=" + _enc("Álvarez")),
    ("/experience", "company=Álvarez"),
    ("/experience", "company=Mareta+Pagos"),
    ("/experience", "company=NORTEVERDE"),
    ("/experience", "company=" + _enc("INGENIERÍA")),
    ("/experience", "company=" + _enc("Hafenstraße")),
    ("/experience", "company=" + _enc("STRASSE")),
    ("/experience", "company=a"),
    ("/experience", "&company=mareta&"),
    ("/case-studies", "organization=gmbh"),
    ("/case-studies", "organization=" + _enc("ía")),
    ("/case-studies", "organization=zzzz"),
]
# Requests a client sends in good faith that the module answers with a
# problem (CONTRACT §7): they must reach it too.
MODULE_ERRORS = [
    ("GET", "/nope", {}),
    ("GET", "/skills/", {}),
    ("GET", "/Skills", {}),
    ("GET", "/experience/nope", {}),
    ("GET", "/skills?q=", {}),
    ("GET", "/skills?q=%20%20", {}),
    ("GET", "/skills?x=1", {}),
    ("GET", "/skills?q=a&q=b", {}),
    ("GET", "/profile?q=a", {}),
    ("GET", "/skills?q=" + _enc("é" * 101), {}),
    ("GET", "/nope", {"Accept": "application/problem+json"}),
    ("GET", "/nope", {"Accept-Language": "es-MX,es;q=0.9,en;q=0.8"}),
    ("POST", "/skills", {"Content-Length": "0"}),
]


def valid_requests(reference, sample):
    """(method, target, headers) of every kind of valid request the suite
    sends, with the validators `reference` (the session's server, same
    data file) gives."""
    out = []
    routes = h.all_routes(sample)
    for route in routes:
        for lang in LANGUAGE_HEADERS:
            hdrs = {"Accept-Language": lang} if lang else {}
            out.append(("GET", B + route, hdrs))
        out.append(("HEAD", B + route, {}))
        out.append(("HEAD", B + route,
                    {"Accept-Language": "es-MX,es;q=0.9,en;q=0.8"}))
        for coding in ENCODINGS:
            out.append(("GET", B + route, {"Accept-Encoding": coding}))
        out.append(("GET", B + route, {
            "Accept": "application/json",
            "Accept-Encoding": "gzip, deflate, br",
            "Accept-Language": "es-MX,es;q=0.9,en;q=0.8",
            "Origin": "https://a.example",
            "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) "
                          "AppleWebKit/537.36 (KHTML, like Gecko) "
                          "Chrome/120.0 Safari/537.36"}))
        out.append(("OPTIONS", B + route, {}))
        out.append(("OPTIONS", B + route, {
            "Origin": "https://a.example",
            "Access-Control-Request-Method": "GET"}))
        out.append(("OPTIONS", B + route, {
            "Origin": "https://a.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers":
                "accept-language, if-none-match"}))
        for origin in ("https://a.example", "https://c.example"):
            out.append(("GET", "/cors" + B + route, {"Origin": origin}))
            out.append(("OPTIONS", "/cors" + B + route, {
                "Origin": origin, "Access-Control-Request-Method": "GET"}))
        # Revalidations with the validators the server gave.
        for lang in ("en", "es"):
            r = reference.get(B + route, {"Accept-Language": lang})
            tag, lm = r.etag, r.header("Last-Modified")
            hl = {"Accept-Language": lang}
            out.append(("GET", B + route, dict(hl, **{"If-None-Match": tag})))
            out.append(("HEAD", B + route,
                        dict(hl, **{"If-None-Match": tag})))
            out.append(("GET", B + route, dict(hl, **{
                "If-None-Match": '"p1-0000000000000000", ' + tag})))
            out.append(("GET", B + route, dict(hl, **{
                "If-None-Match": "W/" + tag})))
            out.append(("GET", B + route, dict(hl, **{
                "If-Modified-Since": lm})))
            out.append(("GET", B + route, dict(hl, **{
                "If-None-Match": tag, "If-Modified-Since": lm})))
        rg = reference.get(B + route, {"Accept-Encoding": "gzip"})
        out.append(("GET", B + route, {"Accept-Encoding": "gzip",
                                       "If-None-Match": rg.etag}))
    out.append(("GET", B + "/profile", {"If-None-Match": "*"}))
    for route, query in FILTERS:
        for lang in ("en", "es-MX,es;q=0.9,en;q=0.8"):
            out.append(("GET", B + route + "?" + query,
                        {"Accept-Language": lang}))
        out.append(("HEAD", B + route + "?" + query, {}))
        r = reference.get(B + route + "?" + query)
        out.append(("GET", B + route + "?" + query,
                    {"If-None-Match": r.etag}))
    for method, target, hdrs in MODULE_ERRORS:
        out.append((method, B + target, hdrs))
    return out


# Headers the module decides; everything else (Date, Server, Connection)
# may differ between two servers.
COMPARED = ["Content-Type", "Content-Language", "Content-Encoding",
            "Content-Length", "ETag", "Last-Modified", "Cache-Control",
            "Vary", "Allow", "Access-Control-Allow-Origin",
            "Access-Control-Allow-Methods", "Access-Control-Allow-Headers",
            "Access-Control-Max-Age", "Access-Control-Expose-Headers",
            "X-Content-Type-Options", "Retry-After"]


def _answer(r):
    return (r.status, r.body, [(k, r.header_all(k)) for k in COMPARED])


def _send(server, method, target, headers, host=None):
    hdrs = dict(headers)
    if host:
        hdrs["Host"] = host
    body = b"" if method == "POST" else None
    return server.request(method, target, hdrs, body=body)


class TestModSecurity:
    """ModSecurity 2 with the OWASP CRS (Debian's packages, paranoia level
    1, SecRuleEngine On) in front of the API: every valid request gets the
    module's answer, byte for byte as without ModSecurity, and no rule
    even matches (the error-log guard fails on any ModSecurity warning);
    obvious attacks in the query are blocked with CRS's 403."""

    def test_valid_requests_get_the_modules_answers(self, modsec_server, api,
                                                    sample):
        requests = valid_requests(api, sample)
        host = "localhost:%d" % modsec_server.port
        log_start = os.path.getsize(modsec_server.error_log)
        false_positives = []
        for method, target, hdrs in requests:
            got = _send(modsec_server, method, target, hdrs, host)
            want = _send(api, method, target, hdrs)
            if _answer(got) != _answer(want):
                false_positives.append((method, target, hdrs, got.status,
                                        want.status))
        print("ModSecurity/CRS: %d valid requests, %d false positives"
              % (len(requests), len(false_positives)))
        assert len(requests) > 500
        assert not false_positives, "\n".join(map(repr, false_positives))
        with open(modsec_server.error_log, errors="replace") as f:
            f.seek(log_start)
            matched = [ln for ln in f if "ModSecurity:" in ln]
        assert not matched, "rules matched valid requests:\n" + \
            "".join(matched)

    @pytest.mark.allow_log(r"\[security2:error\] .*ModSecurity: ")
    def test_requests_by_ip_address_still_pass(self, modsec_server, api,
                                               sample):
        """A client that names the server by its address (Host:
        127.0.0.1:port) triggers CRS rule 920350, a warning that scores
        below the blocking threshold: the answers stay the module's."""
        log_start = os.path.getsize(modsec_server.error_log)
        for route in h.all_routes(sample):
            got = _send(modsec_server, "GET", B + route,
                        {"Accept-Language": "es-MX,es;q=0.9,en;q=0.8"})
            want = _send(api, "GET", B + route,
                         {"Accept-Language": "es-MX,es;q=0.9,en;q=0.8"})
            assert _answer(got) == _answer(want), route
        with open(modsec_server.error_log, errors="replace") as f:
            f.seek(log_start)
            assert '[id "920350"]' in f.read()

    ATTACKS = [
        "/skills?q=" + _enc("1' OR '1'='1"),
        "/skills?q=" + _enc("1 UNION SELECT password FROM users--"),
        "/experience?company=" + _enc("x' OR 1=1--"),
        "/case-studies?organization=" + _enc("'; DROP TABLE users;--"),
        "/skills?q=" + _enc("<script>alert(1)</script>"),
        "/skills?q=" + _enc('"><img src=x onerror=alert(1)>'),
        "/experience?company=" + _enc("<svg/onload=alert(document.cookie)>"),
        "/skills?q=" + _enc("../../../../etc/passwd"),
        "/skills?q=" + _enc(";cat /etc/passwd"),
        "/skills?q=" + _enc("<?php system($_GET['c']); ?>"),
    ]

    @pytest.mark.allow_log(r"\[security2:error\] .*ModSecurity: ")
    def test_attacks_in_the_query_are_blocked(self, modsec_server):
        host = "localhost:%d" % modsec_server.port
        blocked = []
        for target in self.ATTACKS:
            r = _send(modsec_server, "GET", B + target, {}, host)
            if r.status == 403:
                blocked.append(target)
                # CRS's answer, not the module's: HTML, no CORS, no
                # Content-Language (docs/operations.md).
                assert r.header("Content-Type").startswith("text/html"), r
                assert not r.has("Access-Control-Allow-Origin"), r
                assert not r.has("Content-Language"), r
        print("ModSecurity/CRS: %d attacks sent, %d blocked"
              % (len(self.ATTACKS), len(blocked)))
        assert blocked == self.ATTACKS
        with open(os.path.join(modsec_server.root, "logs",
                               "modsec_audit.log"), errors="replace") as f:
            audit = f.read()
        assert "949110" in audit        # CRS's blocking rule, audited

    @pytest.mark.allow_log(r"\[security2:error\] .*ModSecurity: ")
    def test_methods_crs_does_not_allow_get_its_403(self, modsec_server):
        """CRS allows GET, HEAD, POST and OPTIONS (tx.allowed_methods):
        other methods get its 403 before the module could give its 405
        with `Allow`.  POST still reaches the module."""
        host = "localhost:%d" % modsec_server.port
        for method in ("PUT", "DELETE", "PATCH"):
            r = _send(modsec_server, method, B + "/skills", {}, host)
            assert r.status == 403, (method, r)
        r = _send(modsec_server, "POST", B + "/skills", {}, host)
        assert_problem(r, 405)


# ------------------------------------------------- the Debian module set
APACHE2_POSTINST = "/var/lib/dpkg/info/apache2.postinst"


def test_debian_module_set_is_what_apache2_enables():
    """PROFILE_MODSET=debian (httpd_harness.DEBIAN_DEFAULT_MODULES) is what
    apache2's postinst enables on a fresh install, with the modules their
    .load files say they depend on; and the default MPM is event."""
    need(APACHE2_POSTINST)
    with open(APACHE2_POSTINST) as f:
        text = f.read()
    m = re.search(r"enable_default_modules\(\)\s*\{.*?for module in (.*?);"
                  r"\s*do", text, re.S)
    assert m, "no enable_default_modules loop in " + APACHE2_POSTINST
    names = set(m.group(1).replace("\\", " ").split())
    todo = list(names)
    while todo:
        load = os.path.join(h.MODS_AVAILABLE, todo.pop() + ".load")
        need(load)
        with open(load) as f:
            for line in f:
                if line.startswith("# Depends:"):
                    for dep in line.split(":", 1)[1].split():
                        if dep not in names:
                            names.add(dep)
                            todo.append(dep)
    assert names == set(h.DEBIAN_DEFAULT_MODULES)
    m = re.search(r"enable_default_mpm\(\).*?a2enmod -m -q (\S+)", text,
                  re.S)
    assert m and m.group(1) == "mpm_event"

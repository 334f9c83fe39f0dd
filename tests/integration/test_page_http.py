# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §11: the profile's page, rendered by the module at load, as
HTTP serves it -- read without a browser, as a crawler, a link preview
or curl reads it (the browser's view is test_page.py).

Each language has its URL ({base}/en/, {base}/es/), the base negotiates
(the x-default); records have pages of their own; every record's content
is in the HTML; the page is served with the API's rules (strong ETag,
304, HEAD, coded forms, Content-Language, 503 and last good data) and a
strict Content-Security-Policy; a data file written to attack the page
renders as text.
"""
import copy
import html.parser
import json
import os

import pytest

import httpd_harness as h

P = "/p"
LANGS = ["en", "es"]
CSP_NEEDED = ["default-src 'self'", "object-src 'none'", "base-uri 'none'",
              "frame-ancestors 'none'"]
HOSTILE = ("<img src=x onerror=\"window.pwned=1\">\"'></p><script>"
           "window.pwned=1</script></script><!--\u2028\u2029\u202e")


class Page(html.parser.HTMLParser):
    """The parts of a page a test reads: its text, elements with their
    attributes, and the bodies of its <script> elements."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements = []          # (tag, attrs dict)
        self.words = []
        self.scripts = []
        self._script = None
        self.feed(text)
        self.close()
        self.text = " ".join(" ".join(self.words).split())

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag == "script":
            self._script = [a, ""]

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.scripts.append(tuple(self._script))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script[1] += data
        else:
            self.words.append(data)

    def find(self, tag, **want):
        return [a for t, a in self.elements if t == tag and all(
            a.get(k.replace("_", "-")) == v for k, v in want.items())]

    def ld(self):
        blocks = [json.loads(s) for a, s in self.scripts
                  if a.get("type") == "application/ld+json"]
        assert len(blocks) == 1, blocks
        return blocks[0]


def norm(s):
    return " ".join(s.split())


def text(v, lang):
    return v if isinstance(v, str) else v[lang]


def page_conf(data, port, base=P, extra=""):
    return """<Location {base}>
    Require all granted
    SetHandler profile-page
    ProfileData "{data}" url=http://127.0.0.1:{port}{base}/
{extra}</Location>
""".format(base=base, data=data, port=port, extra=extra)


def serve(make_httpd, workdir, name, data, start=True):
    path = h.write_json(os.path.join(workdir, name + ".json"), data)
    os.chmod(path, 0o644)
    server = make_httpd(name, "")
    server.write_conf(page_conf(path, server.port)
                      + h.location("/api/v1", path))
    server.data_path = path
    if start:
        server.start_checked()
    return server


@pytest.fixture(scope="module")
def site(make_httpd, workdir, sample):
    server = serve(make_httpd, workdir, "page", sample)
    yield server, sample
    server.stop()


def get(server, target, lang=None, **more):
    hdrs = {"Accept-Language": lang} if lang else {}
    hdrs.update(more)
    return server.get(target, hdrs)


class TestUrls:
    @pytest.mark.parametrize("lang", LANGS)
    def test_each_language_has_its_url(self, site, lang):
        server, _ = site
        r = get(server, "%s/%s/" % (P, lang), "de")
        assert r.status == 200
        assert r.header("Content-Language") == lang
        assert r.header("Content-Type") == "text/html; charset=utf-8"
        assert "accept-language" not in r.tokens("Vary")
        assert r.etag.startswith('"') and not r.etag.startswith("W/")
        assert Page(r.body.decode()).find("html")[0]["lang"] == lang

    @pytest.mark.parametrize("al,lang", [("es-MX", "es"), ("en-GB", "en"),
                                         (None, "en"), ("de, *;q=0.5", "en"),
                                         ("en;q=0, *", "es")])
    def test_the_base_negotiates(self, site, al, lang):
        server, _ = site
        r = get(server, P + "/", al)
        one = get(server, "%s/%s/" % (P, lang))
        assert r.status == 200
        assert r.header("Content-Language") == lang
        assert "accept-language" in r.tokens("Vary")
        assert r.body == one.body and r.etag == one.etag

    @pytest.mark.parametrize("target,to", [(P, P + "/"),
                                           (P + "/es", P + "/es/")])
    def test_a_url_without_its_slash_is_redirected(self, site, target, to):
        server, _ = site
        r = get(server, target)
        assert r.status == 301
        assert r.header("Location") == to

    @pytest.mark.parametrize("target", ["/nope", "/en/nope", "/fr/",
                                        "/en/experience/", "/en/experience/x/y",
                                        "/es/case-studies/no-such-id",
                                        "/EN/", "/en/index.html"])
    def test_any_other_url_is_a_404_page_in_the_negotiated_language(
            self, site, target):
        server, _ = site
        r = get(server, P + target, "es")
        assert r.status == 404
        assert r.header("Content-Type") == "text/html; charset=utf-8"
        assert r.header("Cache-Control") == "no-store"
        page = Page(r.body.decode())
        assert page.find("html")[0]["lang"] == "es"
        assert "Página no encontrada" in page.text

    def test_a_query_string_changes_nothing(self, site):
        server, _ = site
        plain = get(server, P + "/en/")
        q = get(server, P + "/en/?q=kube&utm_source=x&%zz")
        assert q.status == 200 and q.body == plain.body
        assert q.etag == plain.etag


class TestContent:
    @pytest.mark.parametrize("lang", LANGS)
    def test_the_html_holds_every_record(self, site, lang):
        server, data = site
        page = Page(get(server, "%s/%s/" % (P, lang)).body.decode())
        t = page.text
        assert norm(text(data["profile"]["name"], lang)) in t
        assert norm(text(data["profile"]["headline"], lang)) in t
        for r in data["experience"]:
            assert norm(text(r["role"], lang)) in t
            assert norm(text(r["company"], lang)) in t
            for hl in r["highlights"]:
                assert norm(text(hl, lang)) in t
        for r in data["education"]:
            assert norm(text(r["degree"], lang)) in t
            assert norm(text(r["institution"], lang)) in t
        for r in data["caseStudies"]:
            assert norm(text(r["title"], lang)) in t
        for r in data["metrics"]:
            assert norm(text(r["label"], lang)) in t
        for g in data["skills"]:
            for s in g["skills"]:
                assert norm(text(s, lang)) in t
        hrefs = [a.get("href") for a in page.find("a")]
        for c in data["contact"]["contacts"]:
            assert norm(text(c["label"], lang)) in t
            assert norm(text(c["text"], lang)) in t
            # A contact without a URL (a location, CONTRACT §9) is text.
            assert not c["url"] or c["url"] in hrefs
        assert "" not in hrefs
        for link in data["contact"]["links"]:
            a = next(a for a in page.find("a")
                     if a.get("href") == link["url"])
            # rel="me" on the owner's profiles, not on a project's link.
            assert a.get("rel") == (None if link["kind"] == "project"
                                    else "me"), link

    @pytest.mark.parametrize("lang", LANGS)
    def test_alternates_link_every_language_and_answer_in_it(self, site,
                                                             lang):
        server, _ = site
        base = "http://127.0.0.1:%d%s/" % (server.port, P)
        page = Page(get(server, "%s/%s/" % (P, lang)).body.decode())
        alt = {a["hreflang"]: a["href"]
               for a in page.find("link", rel="alternate")}
        assert alt == {"en": base + "en/", "es": base + "es/",
                       "x-default": base}
        assert page.find("link", rel="canonical")[0]["href"] == \
            base + lang + "/"
        for tag in LANGS:
            r = get(server, alt[tag][len("http://127.0.0.1:%d" %
                                         server.port):])
            assert r.status == 200 and r.header("Content-Language") == tag
        switch = [a for a in page.find("a") if a.get("hreflang")]
        assert [a["href"] for a in switch] == [base + "en/", base + "es/"]

    @pytest.mark.parametrize("lang", LANGS)
    def test_search_engines_and_previews_read_the_person(self, site, lang):
        server, data = site
        page = Page(get(server, "%s/%s/" % (P, lang)).body.decode())
        name = data["profile"]["name"]
        head = text(data["profile"]["headline"], lang)
        assert page.find("title") and page.text.startswith(
            "%s — %s" % (name, head))
        og = {a["property"]: a["content"] for a in page.find("meta")
              if "property" in a}
        assert og["og:type"] == "profile"
        assert og["og:title"] == "%s — %s" % (name, head)
        assert og["og:url"].endswith("/%s/" % lang)
        assert og["og:locale"] == {"en": "en_US", "es": "es_ES"}[lang]
        desc = page.find("meta", name="description")[0]["content"]
        assert desc[:40] == text(data["profile"]["summary"], lang)[:40]
        ld = page.ld()
        assert ld["@type"] == "ProfilePage"
        assert ld["mainEntity"]["@type"] == "Person"
        assert ld["mainEntity"]["name"] == name
        assert ld["mainEntity"]["jobTitle"] == head
        assert ld["dateModified"].endswith("Z")
        assert ld["mainEntity"]["sameAs"] == [
            link["url"] for link in data["contact"]["links"]
            if link["kind"] != "project"]

    @pytest.mark.parametrize("where", ["/cv", "/"])
    def test_without_url_the_page_names_itself_from_the_server_name(
            self, make_httpd, workdir, sample, where):
        # make serve's configuration: no url= on the ProfileData line, so
        # the absolute URLs come from ServerName (scheme, host, port) and
        # the section's path, never from the request's Host.
        path = h.write_json(os.path.join(workdir, "named.json"), sample)
        os.chmod(path, 0o644)
        # ("/": the page at the site's root, as make serve puts it.)
        base = where.rstrip("/")
        server = make_httpd("page-named", "")
        server.write_conf('ServerName https://cv.example.org:8443\n'
                          '<Location %s>\n    Require all granted\n'
                          '    ProfileData "%s"\n'
                          '    SetHandler profile-page\n</Location>\n'
                          % (where, path))
        server.start_checked()
        try:
            for lang in LANGS:
                r = get(server, "%s/%s/" % (base, lang), Host="evil.example")
                assert r.status == 200, r
                page = Page(r.body.decode())
                want = "https://cv.example.org:8443%s/%s/" % (base, lang)
                assert page.find("link", rel="canonical")[0]["href"] == want
                og = {a["property"]: a["content"] for a in page.find("meta")
                      if "property" in a}
                assert og["og:url"] == want
                assert "evil.example" not in r.body.decode()
        finally:
            server.stop()

    def test_a_record_has_its_own_page_in_each_language(self, site):
        server, data = site
        cs = data["caseStudies"][0]
        for lang in LANGS:
            r = get(server, "%s/%s/case-studies/%s" % (P, lang, cs["id"]))
            assert r.status == 200 and r.header("Content-Language") == lang
            t = Page(r.body.decode()).text
            for field in ("problem", "intervention", "result"):
                assert norm(text(cs[field], lang)) in t
        ex = data["experience"][1]
        r = get(server, "%s/es/experience/%s" % (P, ex["id"]))
        assert r.status == 200
        assert norm(text(ex["role"], "es")) in Page(r.body.decode()).text

    def test_the_card_links_the_case_study_page(self, site):
        server, data = site
        page = Page(get(server, P + "/en/").body.decode())
        base = "http://127.0.0.1:%d%s/en/case-studies/" % (server.port, P)
        links = [a["href"] for a in page.find("a")
                 if "case-link" in a.get("class", "")]
        assert links == [base + c["id"] for c in data["caseStudies"]]


class TestHttp:
    def test_304_and_head_as_on_the_api(self, site):
        server, _ = site
        r = get(server, P + "/es/")
        nm = get(server, P + "/es/", **{"If-None-Match": r.etag})
        assert nm.status == 304 and nm.body == b""
        for f in ("ETag", "Cache-Control", "Content-Language", "Vary"):
            assert nm.header(f) == r.header(f), f
        head = server.request("HEAD", P + "/es/")
        assert head.status == 200 and head.body == b""
        assert int(head.header("Content-Length")) == len(r.body)
        assert head.etag == r.etag
        old = get(server, P + "/es/", **{"If-None-Match": '"p1-0"'})
        assert old.status == 200

    @pytest.mark.parametrize("coding", ["br", "gzip"])
    def test_coded_forms_hold_the_same_page(self, make_httpd, workdir,
                                            sample, coding):
        server = make_httpd("page-" + coding, "")
        path = h.write_json(os.path.join(workdir, "pc.json"), sample)
        os.chmod(path, 0o644)
        server.write_conf(page_conf(path, server.port).replace(
            'pc.json"', 'pc.json" compress=on'))
        server.start_checked()
        try:
            plain = get(server, P + "/en/")
            r = get(server, P + "/en/", **{"Accept-Encoding": coding})
            assert r.header("Content-Encoding") == coding
            assert h.decompress(r.body, coding) == plain.body
            assert r.etag != plain.etag
            assert "accept-encoding" in r.tokens("Vary")
        finally:
            server.stop()

    def test_options_and_other_methods(self, site):
        server, _ = site
        o = server.request("OPTIONS", P + "/en/")
        assert o.status == 200 and o.body == b""
        assert set(o.tokens("Allow")) == {"get", "head", "options"}
        for m in ("POST", "PUT", "DELETE", "TRACE"):
            r = server.request(m, P + "/en/", body=b"x" if m != "TRACE"
                               else None)
            assert r.status == 405, m
            assert set(r.tokens("Allow")) == {"get", "head", "options"}

    @pytest.mark.parametrize("target", ["/", "/en/", "/nope"])
    def test_every_page_has_a_strict_csp(self, site, target):
        server, _ = site
        r = get(server, P + target)
        csp = r.header("Content-Security-Policy")
        for d in CSP_NEEDED:
            assert d in csp
        assert "unsafe" not in csp
        assert r.header("X-Content-Type-Options") == "nosniff"

    def test_the_api_beside_it_is_unchanged(self, site, api):
        server, _ = site
        for route in ("/profile", "/skills", "/experience"):
            for lang in LANGS:
                mine = get(server, "/api/v1" + route, lang)
                theirs = get(api, "/api/v1" + route, lang)
                assert mine.body == theirs.body
                assert mine.etag == theirs.etag


def hostile_data(sample):
    d = copy.deepcopy(sample)

    def poison(node, key=None):
        if isinstance(node, dict):
            if node and set(node) <= set(LANGS):
                return {k: poison(v) for k, v in node.items()}
            return {k: (v if k in ("id", "url", "companyUrl",
                                   "institutionUrl", "kind")
                        else poison(v, k)) for k, v in node.items()}
        if isinstance(node, list):
            return [poison(v) for v in node]
        if isinstance(node, str):
            return node + HOSTILE
        return node
    for k in ("profile", "skills", "experience", "education", "contact",
              "caseStudies", "metrics"):
        d[k] = poison(d[k])
    d["profile"]["summary"]["en"] += " " + "W" * 10000
    return d


class TestBadInput:
    def test_a_hostile_file_renders_as_text(self, make_httpd, workdir,
                                            sample):
        data = hostile_data(sample)
        server = serve(make_httpd, workdir, "hostile", data)
        try:
            targets = ["/en/", "/es/", "/nope",
                       "/en/case-studies/" + data["caseStudies"][0]["id"],
                       "/es/experience/" + data["experience"][0]["id"]]
            for t in targets:
                body = get(server, P + t).body.decode()
                page = Page(body)
                assert not page.find("img"), t
                assert [a.get("type") for a, _ in page.scripts] in (
                    ["module", "application/ld+json"], ["module"], []), t
                for tag, attrs in page.elements:
                    assert not any(k.startswith("on") for k in attrs), t
                # U+2028 and a raw "<" never reach the JSON-LD's text.
                for a, s in page.scripts:
                    assert "<" not in s and "\u2028" not in s, t
                assert norm(HOSTILE) in page.text or t == "/nope"
            ld = Page(get(server, P + "/en/").body.decode()).ld()
            assert ld["mainEntity"]["name"] == data["profile"]["name"]
        finally:
            server.stop()

    def test_a_javascript_link_is_refused_with_the_file(self, make_httpd,
                                                        workdir, sample):
        data = copy.deepcopy(sample)
        data["contact"]["links"][0]["url"] = "javascript:alert(1)"
        server = serve(make_httpd, workdir, "jslink", data, start=False)
        cp = server.configtest()
        assert "javascript" in cp.stderr or "scheme" in cp.stderr, cp.stderr

    def test_fallback_text_is_marked_in_a_spanish_page(self, make_httpd,
                                                       workdir, sample):
        data = copy.deepcopy(sample)
        data["fallback"] = "en"
        del data["profile"]["headline"]["es"]
        server = serve(make_httpd, workdir, "pagefb", data)
        try:
            r = get(server, P + "/es/")
            assert r.header("Content-Language") == "es, en"
            page = Page(r.body.decode())
            assert page.find("html")[0]["lang"] == "es"
            head = [a for a in page.find("p")
                    if "headline" in a.get("class", "")]
            assert head and head[0].get("lang") == "en"
            assert "Experiencia" in page.text
            en = get(server, P + "/en/")
            assert en.header("Content-Language") == "en"
            # A case study without any fallback text says es alone.
            cs = get(server, P + "/es/case-studies/"
                     + data["caseStudies"][0]["id"])
            assert cs.header("Content-Language") == "es"
        finally:
            server.stop()

    def test_an_empty_profile_shows_no_empty_section(self, make_httpd,
                                                     workdir, sample):
        data = copy.deepcopy(sample)
        for k in ("skills", "experience", "education", "caseStudies",
                  "metrics"):
            data[k] = []
        data["contact"] = {"contacts": [], "links": []}
        server = serve(make_httpd, workdir, "empty", data)
        try:
            page = Page(get(server, P + "/en/").body.decode())
            sections = [a.get("id") for a in page.find("section")]
            assert sections == [None]           # the intro alone
            assert not page.find("nav", **{"class": "sections"})
            assert not page.find("ul", **{"class": "contact"})
            assert sample["profile"]["name"] in page.text
        finally:
            server.stop()

    def test_a_bad_file_keeps_the_last_good_page(self, make_httpd, workdir,
                                                 sample):
        server = serve(make_httpd, workdir, "pagebad", sample)
        try:
            good = get(server, P + "/es/")
            with open(server.data_path, "w") as f:
                f.write('{"languages": ["en", "es"], "profile": ')
            cp = server.graceful()
            assert cp.returncode == 0, cp.stderr
            h.wait_for(lambda: "PROFILE0003" in server.read_log())
            again = get(server, P + "/es/")
            assert again.status == 200 and again.etag == good.etag
            assert again.body == good.body
        finally:
            server.stop()
            server.new_problem_lines()

    def test_a_file_that_never_loaded_is_a_503_page(self, make_httpd,
                                                    workdir):
        path = os.path.join(workdir, "never.json")
        with open(path, "w") as f:
            f.write("{")
        os.chmod(path, 0o644)
        server = make_httpd("never", "")
        server.write_conf(page_conf(path, server.port))
        cp = server.start()
        try:
            assert cp.returncode == 0, cp.stderr
            r = get(server, P + "/en/", "es")
            assert r.status == 503
            assert r.header("Retry-After") == "60"
            assert r.header("Cache-Control") == "no-store"
            assert r.header("Content-Type") == "text/html; charset=utf-8"
            page = Page(r.body.decode())
            assert page.find("html")[0]["lang"] == "es"
            o = server.request("OPTIONS", P + "/en/")
            assert o.status == 200
        finally:
            server.stop()
            server.new_problem_lines()

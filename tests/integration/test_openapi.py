# SPDX-License-Identifier: Apache-2.0
"""docs/openapi.yaml against the module's real answers.

Every answer below is matched to the document: its path to a path item
(or to `x-unknown-paths`), its method to an operation (or to the path's
`x-other-methods`), its status to a response of that operation; then every
header field must be declared by that response (httpd's own framing fields
aside), every required one present, each value valid against its schema,
the Content-Type one the response's content names, and the body valid
against that media type's schema (no body where the document declares
none, and none on HEAD).  Anything the document does not describe fails.

Then: the examples in the document are the module's real answers to the
requests they name (`x-request`), and every response the document lists
for an operation is one the module really gives, and valid: each status
of each operation (OPTIONS 200 and 500 both with and without the
preflight fields) is produced by a real request to a running server -- the
sample's API, an API whose data file was bad at start (503) and a location
with `SetHandler profile` whose base cannot be known (500).

The validator is this file's `conformance()` over python3-jsonschema
(Draft 2020-12, every $ref resolved inside the document): Debian 12
packages no validator of HTTP answers against an OpenAPI 3.1 document
(python3-openapi-core is not packaged; libjson-validator-perl 5.14 and
golang-github-getkin-kin-openapi-dev 0.110 read OpenAPI 3.0 only).
"""
import gzip
import os
import re
import sys

import pytest

import httpd_harness as h

pytest.importorskip("yaml")
pytest.importorskip("jsonschema")
sys.path.insert(0, os.path.join(h.SRCDIR, "tests", "schemas"))
import schemacheck as sc  # noqa: E402

# Fields httpd itself adds to frame every message; the document describes
# the API's fields.  Content-Type is checked against the response content.
FRAMING = {"date", "server", "connection", "keep-alive", "content-length",
           "transfer-encoding", "content-type"}
LANGS = ["en", "es"]


@pytest.fixture(scope="module")
def doc():
    return sc.load_openapi()


_validators = {}


def _schema_errors(doc, schema, value):
    key = repr(schema)
    if key not in _validators:
        _validators[key] = sc.doc_validator(doc, schema)
    return sc.errors(_validators[key], value)


def _template_re(path):
    return re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+",
                                   re.escape(path)) + "$")


def describe(doc, method, route):
    """(key, responses) the document gives for `method` on `route` (a
    path below the base, without query).  key names what describes it:
    (path, operation) or (path, "x-other-methods"), or
    ("x-unknown-paths", "options" or "responses")."""
    for path, item in doc["paths"].items():
        if _template_re(path).match(route):
            item = sc.resolve(doc, item)
            op = item.get(method.lower())
            if op is not None:
                return (path, method.lower()), op["responses"]
            return ((path, "x-other-methods"),
                    item["x-other-methods"]["responses"])
    kind = "options" if method == "OPTIONS" else "responses"
    return ("x-unknown-paths", kind), doc["x-unknown-paths"][kind]


def conformance(doc, method, route, r):
    """The ways response `r` to `method` `route` breaks the document."""
    key, responses = describe(doc, method, route)
    where = "%s %s, described by %s" % (method, route, "/".join(key))
    if str(r.status) not in responses:
        return ["%s: status %d is not described (described: %s)"
                % (where, r.status, ", ".join(responses))]
    resp = sc.resolve(doc, responses[str(r.status)])
    where = "%s -> %d" % (where, r.status)
    problems = []
    declared = {k.lower(): sc.resolve(doc, v)
                for k, v in resp.get("headers", {}).items()}
    for name in sorted({k.lower() for k, _ in r.headers} - FRAMING):
        if name not in declared:
            problems.append("%s: header %s is not described"
                            % (where, name))
            continue
        value = r.header(name)
        schema = declared[name]["schema"]
        if sc.resolve(doc, schema).get("type") == "integer":
            if not re.fullmatch(r"[0-9]+", value):
                problems.append("%s: header %s: %r is not an integer"
                                % (where, name, value))
                continue
            value = int(value)
        problems += ["%s: header %s %r: %s" % (where, name, value, e)
                     for e in _schema_errors(doc, schema, value)]
    for name, hdr in declared.items():
        if hdr.get("required") and not r.has(name):
            problems.append("%s: required header %s is missing"
                            % (where, name))
    content = resp.get("content")
    ctype = r.header("Content-Type")
    if not content:
        if ctype is not None:
            problems.append("%s: Content-Type %s where no content is "
                            "described" % (where, ctype))
        if r.body:
            problems.append("%s: a body where none is described: %r"
                            % (where, r.body[:100]))
        return problems
    media = (ctype or "").split(";")[0].strip().lower()
    if media not in content:
        return problems + ["%s: Content-Type %r is not one of %s"
                           % (where, ctype, sorted(content))]
    if method == "HEAD":
        if r.body:
            problems.append("%s: HEAD with a body" % where)
        return problems
    body = r.body
    coding = (r.header("Content-Encoding") or "").lower()
    if coding == "gzip":
        body = gzip.decompress(body)
    elif coding:
        return problems + ["%s: cannot decode Content-Encoding %s here"
                           % (where, coding)]
    try:
        value = h.json.loads(body.decode("utf-8"))
    except ValueError as e:
        return problems + ["%s: body is not JSON (%s): %r"
                           % (where, e, body[:100])]
    problems += ["%s: body %s" % (where, e) for e in
                 _schema_errors(doc, content[media]["schema"], value)]
    return problems


def route_of(target):
    """The path part of a target below the base (the query dropped)."""
    return target.split("?", 1)[0]


# ------------------------------------------------------------ requests
def _requests(sample):
    """(method, target below the base, headers) exercising every route,
    status and header the document describes, in both languages."""
    out = []
    routes = h.all_routes(sample)
    filtered = ["/skills?q=kubernetes", "/skills?q=zzz-no-match",
                "/experience?company=STRASSE",
                "/case-studies?organization=ingenier%C3%ADa",
                "/skills?q=+%20Linux%09"]
    errors = [
        # 400: every reason, on routes with and without a filter
        "/skills?q=", "/skills?q=" + "x" * 101, "/skills?q=a&q=b",
        "/skills?Q=a", "/profile?lang=es", "/metrics?", "/experience?&",
        "/experience?company=%ZZ", "/case-studies?organization=%FF",
        "/skills?q=a%01b", "/skills?" + "&".join("p%d=1" % i
                                                 for i in range(25)),
        "/experience/norteverde-platform-lead?x=1",
        # 404: unknown ids, unknown paths, the base itself
        "/experience/nope", "/case-studies/NOPE", "/nope", "/skills/",
        "/Skills", "", "/", "/experience/a/b", "/experience/%2F",
    ]
    for lang in LANGS:
        al = {"Accept-Language": lang}
        for t in routes + filtered + errors:
            out.append(("GET", t, al))
            out.append(("HEAD", t, al))
        others = ["POST", "PUT", "DELETE", "PATCH", "FOO"]
        for i, t in enumerate(routes + ["/experience/nope", "/nope",
                                        "/skills?q=", "/skills/"]):
            out.append(("OPTIONS", t, al))
            out.append(("OPTIONS", t, dict(al, **{
                "Origin": "https://app.example",
                "Access-Control-Request-Method": "GET"})))
            out.append((others[i % len(others)], t, al))
        for accept in ["application/problem+json", "application/json",
                       "*/*"]:
            for t in ["/skills?q=", "/nope"]:
                out.append(("GET", t, dict(al, Accept=accept)))
            out.append(("DELETE", "/profile", dict(al, Accept=accept)))
        out.append(("GET", "/metrics", dict(al, **{
            "If-Match": '"p1-0000000000000000"'})))
        out.append(("HEAD", "/skills?q=c", dict(al, **{
            "If-Unmodified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"})))
        out.append(("GET", "/profile", dict(al, **{
            "If-Modified-Since": h.http_date(h.DATA_MTIME)})))
        out.append(("GET", "/profile", dict(al, **{
            "If-None-Match": "*", "Accept-Encoding": "identity"})))
        out.append(("GET", "/metrics", dict(al, **{
            "Accept-Encoding": "gzip"})))
        out.append(("GET", "/experience", dict(al, **{
            "Origin": "https://app.example"})))
    return out


def _id(req):
    method, target, headers = req
    return "%s %s %s" % (method, target[:40], ",".join(
        "%s=%s" % (k, v[:20]) for k, v in sorted(headers.items())))


REQUESTS = _requests(h.load_data(h.SAMPLE_DATA))


class TestAnswersMatchTheDocument:
    @pytest.mark.parametrize("req", REQUESTS, ids=[_id(r) for r in REQUESTS])
    def test_answer(self, api, B, doc, req):
        method, target, headers = req
        r = api.request(method, B + target, headers)
        problems = conformance(doc, method, route_of(target), r)
        assert not problems, "\n".join(problems)

    @pytest.mark.parametrize("lang", LANGS)
    def test_revalidation_304(self, api, B, doc, sample, lang):
        """304 for every unfiltered route, GET and HEAD, by ETag."""
        for route in h.all_routes(sample) + ["/skills?q=linux"]:
            etag = api.get(B + route, {"Accept-Language": lang}).etag
            for method in ["GET", "HEAD"]:
                r = api.request(method, B + route, {
                    "Accept-Language": lang, "If-None-Match": etag})
                assert r.status == 304, (route, r)
                problems = conformance(doc, method, route_of(route), r)
                assert not problems, "\n".join(problems)

    @pytest.mark.parametrize("origin", ["https://a.example",
                                        "https://other.example", None])
    @pytest.mark.parametrize("method,target", [
        ("GET", "/metrics"), ("HEAD", "/experience/nope"),
        ("GET", "/skills?q="), ("OPTIONS", "/nope"), ("PUT", "/profile")])
    def test_cors_origin_list(self, api, doc, origin, method, target):
        """A location with a list of origins: Access-Control-Allow-Origin
        comes and goes, and Vary names Origin."""
        headers = {"Accept-Language": "es"}
        if origin:
            headers["Origin"] = origin
            if method == "OPTIONS":
                headers["Access-Control-Request-Method"] = "GET"
        r = api.request(method, "/cors/api/v1" + target, headers)
        problems = conformance(doc, method, route_of(target), r)
        assert not problems, "\n".join(problems)
        assert "origin" in r.tokens("Vary")


# ------------------------------------------------------------ examples
def _examples(doc):
    """(where, example) for every example with an x-request."""
    out = []
    for name, resp in doc["components"]["responses"].items():
        for media, mt in resp.get("content", {}).items():
            for ex_name, ex in (mt.get("examples") or {}).items():
                out.append(("%s %s %s" % (name, media, ex_name), ex))
    return out


EXAMPLES = _examples(sc.load_openapi())


@pytest.mark.parametrize("where,ex", EXAMPLES, ids=[w for w, _ in EXAMPLES])
def test_example_is_the_real_answer(api, B, doc, where, ex):
    """Examples are what the module answers to the request they name:
    equal, or, for an excerpt, the first records of the real list."""
    req = ex.get("x-request")
    if req is None:
        # Only the misconfiguration and bad-data examples, checked by
        # TestBrokenLocations.
        assert where.startswith(("InternalServerError ",
                                 "ServiceUnavailable ")), \
            "%s: an example without x-request" % where
        return
    r = api.request(req["method"], B + req["path"], req.get("headers"))
    assert not conformance(doc, req["method"], route_of(req["path"]), r)
    real = r.json()
    if ex.get("x-excerpt"):
        assert isinstance(real, list) and len(real) > len(ex["value"])
        real = real[:len(ex["value"])]
    assert real == ex["value"], "%s: the module now answers %r" % (
        where, real)


# ------------------------------------------------------- misconfigured
@pytest.fixture(scope="module")
def unconfigured(make_httpd, data_files):
    """Two misconfigurations where every request is a 500 (README:
    PROFILE0001): a <LocationMatch> with SetHandler profile and no
    ProfileBasePath, whose base path cannot be known, and a <Location>
    with SetHandler profile where no ProfileData applies."""
    server = make_httpd("unconfigured", """\
<LocationMatch "^/m/api/v1">
    Require all granted
    SetHandler profile
    ProfileData "{data}"
</LocationMatch>
<Location /n/api/v1>
    Require all granted
    SetHandler profile
</Location>
""".format(data=data_files["main"]))
    cp = server.start()
    assert cp.returncode == 0, cp.stderr
    yield server
    server.stop()


# ------------------------------------------------------------ bad data
@pytest.fixture(scope="module")
def unloaded(make_httpd, workdir):
    """ProfileBadData keep (the default) and a data file that was bad at
    start-up: every request below the base is a 503, but OPTIONS, which
    gets its 200 (CONTRACT §9)."""
    path = os.path.join(workdir, "data", "unloaded.json")
    with open(path, "w") as f:
        f.write('{"languages": ["en", "es"], "profile": ')
    os.chmod(path, 0o644)
    server = make_httpd("unloaded", h.location("/u/api/v1", path))
    cp = server.start()
    assert cp.returncode == 0, cp.stderr
    yield server
    server.stop()


# Servers whose every answer below the base is one error (OPTIONS aside
# where the contract says so), the response of the document that
# describes it, and the base.
BROKEN = {"unconfigured": (500, "InternalServerError", "/m/api/v1"),
          "nodata": (500, "InternalServerError", "/n/api/v1"),
          "unloaded": (503, "ServiceUnavailable", "/u/api/v1")}
SERVER_OF = {"unconfigured": "unconfigured", "nodata": "unconfigured",
             "unloaded": "unloaded"}
PREFLIGHT = {"Origin": "https://app.example",
             "Access-Control-Request-Method": "GET"}


def broken_status(which, method):
    """What a broken server answers `method`: its error, or 200 to
    OPTIONS below a base whose data never loaded (CONTRACT §9)."""
    if which == "unloaded" and method == "OPTIONS":
        return 200
    return BROKEN[which][0]


def _broken_requests(sample):
    """(method, target, headers) for a broken location: every route, an
    unknown record, an unknown path, a bad query; GET, HEAD, OPTIONS with
    and without the preflight fields, another method."""
    out = []
    others = ["POST", "PUT", "DELETE", "PATCH", "FOO"]
    targets = h.all_routes(sample) + [
        "/experience/nope", "/case-studies/nope", "/nope", "", "/skills/",
        "/skills?q=", "/profile?x=1"]
    for lang in LANGS:
        al = {"Accept-Language": lang}
        for i, t in enumerate(targets):
            for method in ["GET", "HEAD", "OPTIONS"]:
                out.append((method, t, al))
            out.append(("OPTIONS", t, dict(al, **PREFLIGHT)))
            out.append((others[i % len(others)], t, al))
        out.append(("GET", "/profile", dict(
            al, Accept="application/problem+json")))
        out.append(("GET", "/profile", dict(al, **{"If-None-Match": "*"})))
        out.append(("GET", "/metrics", dict(al, Origin="https://a.example")))
    return out


BROKEN_REQUESTS = _broken_requests(h.load_data(h.SAMPLE_DATA))


@pytest.mark.allow_log(r"PROFILE0001", r"PROFILE0005")
@pytest.mark.parametrize("which", sorted(BROKEN))
class TestBrokenLocations:
    @pytest.mark.parametrize("req", BROKEN_REQUESTS,
                             ids=[_id(r) for r in BROKEN_REQUESTS])
    def test_answer_matches_the_document(self, request, which, doc, req):
        method, target, headers = req
        base = BROKEN[which][2]
        server = request.getfixturevalue(SERVER_OF[which])
        r = server.request(method, base + target, headers)
        assert r.status == broken_status(which, method), r
        problems = conformance(doc, method, route_of(target), r)
        assert not problems, "\n".join(problems)

    def test_example_is_the_real_answer(self, request, which, doc):
        _, name, base = BROKEN[which]
        r = request.getfixturevalue(SERVER_OF[which]).get(base + "/profile")
        ex = sc.resolve(doc, doc["components"]["responses"][name])
        ex = ex["content"]["application/json"]["examples"]["en"]
        assert r.json() == ex["value"]


# ------------------------------------------------------------ coverage
def options_kind(method, headers):
    """The two kinds of OPTIONS answer the document tells apart: a
    preflight's (Access-Control-Allow-Methods and friends) and any other
    (Access-Control-Expose-Headers)."""
    if method != "OPTIONS":
        return None
    names = {k.lower() for k in headers or {}}
    return "preflight" if {"origin", "access-control-request-method"} \
        <= names else "plain"


def http10(server, method, target, headers=None):
    """One HTTP/1.0 request on a raw socket."""
    req = "%s %s HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n" % (method, target,
                                                        server.port)
    req += "".join("%s: %s\r\n" % kv for kv in (headers or {}).items())
    raw = h.raw_exchange(server.port, (req + "\r\n").encode("ascii"))
    return h.parse_response(raw, dechunk=False)


@pytest.mark.allow_log(r"PROFILE0001", r"PROFILE0005")
def test_every_described_response_happens_and_is_valid(
        api, B, doc, sample, unconfigured, unloaded):
    """Each status the document lists for each operation is one a real
    request gets from a running server, and those answers are valid
    against the document: OPTIONS 200 and 500 each as a preflight and as
    a plain OPTIONS."""
    seen = set()
    problems = []

    def see(server, base, method, target, headers=None, send=None):
        r = (send or server.request)(method, base + target, headers)
        key, _ = describe(doc, method, route_of(target))
        kind = options_kind(method, headers)
        seen.add(key + (str(r.status),) + ((kind,) if kind else ()))
        problems.extend(conformance(doc, method, route_of(target), r))

    for method, target, headers in REQUESTS:
        see(api, B, method, target, headers)
    for route in h.all_routes(sample):
        etag = api.get(B + route).etag
        for method in ["GET", "HEAD"]:
            see(api, B, method, route, {"If-None-Match": etag})
            see(api, B, method, route, {"If-Match": '"x"'})
            see(api, B, method, route + "?bad=1")
    # HTTP/1.0 (Expires = Date): the same fields, the same document.
    for method, target, headers in [
            ("GET", "/profile", {}), ("HEAD", "/metrics", {}),
            ("GET", "/skills", {"If-None-Match": "*"}),
            ("OPTIONS", "/nope", PREFLIGHT), ("GET", "/nope", {})]:
        see(api, B, method, target, headers,
            send=lambda m, t, hd: http10(api, m, t, hd))
    for which in sorted(BROKEN):
        server = unloaded if which == "unloaded" else unconfigured
        for method, target, headers in BROKEN_REQUESTS:
            see(server, BROKEN[which][2], method, target, headers)

    described = set()
    for path, item in doc["paths"].items():
        for op in ["get", "head", "options", "x-other-methods"]:
            for st in item[op]["responses"]:
                if op == "options":
                    described |= {(path, op, st, kind)
                                  for kind in ("preflight", "plain")}
                else:
                    described.add((path, op, st))
    for kind in ["options", "responses"]:
        for st in doc["x-unknown-paths"][kind]:
            if kind == "options":
                described |= {("x-unknown-paths", kind, st, k)
                              for k in ("preflight", "plain")}
            else:
                described.add(("x-unknown-paths", kind, st))
    missing = sorted(described - seen)
    extra = sorted(seen - described)
    report = problems[:50]
    if missing:
        report.append("described, never given: %s" % missing)
    if extra:
        report.append("given, not described: %s" % extra)
    assert not report, "\n".join(report)

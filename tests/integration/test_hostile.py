# SPDX-License-Identifier: Apache-2.0
"""CONTRACT §7 ("no request can produce a 5xx or crash a process") under
at least 10,000 malformed and hostile requests, generated from a fixed seed
(HOSTILE_SEED, HOSTILE_REQUESTS override) so that a failure reproduces.

Every case states who must answer it and how:

* httpd itself, before the module runs (`core`): a malformed request line
  or header, a raw control byte, an invalid `%` sequence or `%00` in the
  path, a request line over LimitRequestLine (414), a header line over
  LimitRequestFieldSize or more than LimitRequestFields lines (400), a
  timeout (408).  httpd 2.4 answers these with its HTML pages; it never
  sends 431.
* the module (`module`): everything that reaches it, with the exact status
  of the contract (200 with the oracle's body, 304, 400, 404, 405), JSON
  bodies and the module's headers;
* nobody (`none`): the connection closes without an answer;
* HTTP/0.9 (`http09`): a request line without a version gets the bare body.

Valid requests are mixed in throughout and must get the right body.  Two
ports: the main one with httpd's default limits, and one whose
LimitRequestFieldSize is 65536, so that a 10 KB Accept-Language and
If-None-Match lists with thousands of entries reach the module.  The server
has `Timeout 3`, which bounds the slow clients.  At the end the error log
must show no crashed child and the parent must be the same process.
"""
import collections
import concurrent.futures
import json
import os
import random
import socket
import threading
import time
import urllib.parse

import pytest

import httpd_harness as h
import proc_util as pu

SEED = int(os.environ.get("HOSTILE_SEED", "4242"))
TOTAL = int(os.environ.get("HOSTILE_REQUESTS", "10000"))
SERVER_TIMEOUT = 3          # the server's Timeout directive, seconds
LIMIT_LINE = 8191           # longest request line httpd 2.4 takes (bytes
                            # before CRLF) with LimitRequestLine 8190
LIMIT_FIELD = 8191           # the same for one header line
LIMIT_MERGED = 8190         # a header's lines joined with ", " (value)
BIG_LIMIT = 65536           # LimitRequestLine and ...FieldSize, big port
# httpd maps URL paths to file names below DocumentRoot before any
# handler runs; from this many bytes (DocumentRoot + path) on, APR's
# PATH_MAX refuses it and httpd would answer 403 (AH00127 "Cannot map").
# The module claims its URLs before that mapping, so even such paths get
# its 404.
MAP_LIMIT = 4094
B = "/api/v1"

# httpd's own error-log lines for requests it refuses (not crashes).
HTTPD_REFUSALS = [r"AH10244: invalid URI path"]

# Statuses after which httpd closes the connection (ap_status_drops_connection).
DROPS = {400, 408, 411, 413, 414, 500, 501, 503}

LANG_HEADERS = [  # (Accept-Language or None, language served)
    (None, "en"), ("en", "en"), ("es", "es"), ("ES", "es"),
    ("es-MX,es;q=0.9,en;q=0.5", "es"), ("en-GB,en;q=0.9", "en"),
    ("de, *;q=0.5", "en"), ("en;q=0, *", "es"), ("fr", "en"),
    ("es;q=0, en;q=0", "en"),
]

FILTERS = {"/skills": "q", "/experience": "company",
           "/case-studies": "organization"}


# ---------------------------------------------------------------- server
@pytest.fixture(scope="module")
def hostile(make_httpd, data_files):
    big = h.free_port()
    body = ("Timeout %d\nListen 127.0.0.1:%d\n"
            "<VirtualHost 127.0.0.1:%d>\n    ServerName big.test\n"
            "    LimitRequestLine %d\n    LimitRequestFieldSize %d\n"
            "</VirtualHost>\n"
            % (SERVER_TIMEOUT, big, big, BIG_LIMIT, BIG_LIMIT)
            + h.location(B, data_files["main"]))
    server = make_httpd("hostile", body)
    cp = server.start()
    assert cp.returncode == 0, cp.stderr
    server.big_port = big
    yield server
    server.stop()


# ---------------------------------------------------------------- oracle
class Oracle:
    """Expected bodies (CONTRACT §2, §8.5) and the server's ETags of every
    unfiltered representation, checked against the oracle once."""

    def __init__(self, data, server):
        self.data = data
        self.routes = h.all_routes(data)
        self.verified = {}          # key -> body bytes already judged
        self.lock = threading.Lock()
        self.etags = {}
        for route in self.routes:
            for lang in ("en", "es"):
                r = server.get(B + route, {"Accept-Language": lang})
                assert r.status == 200 and self.body_ok(
                    (route, lang, None), r.body), (route, lang, r)
                self.etags[(route, lang)] = r.etag

    def expected(self, key):
        route, lang, filt = key
        if filt is None:
            return h.expected(self.data, route, lang)
        return h.expected_filtered(self.data, route, filt[0], filt[1], lang)

    def body_ok(self, key, body):
        with self.lock:
            seen = self.verified.get(key)
        if seen is not None:
            return seen == body
        try:
            ok = json.loads(body.decode("utf-8"),
                            object_pairs_hook=list) == self.expected(key)
        except ValueError:
            return False
        if ok:
            with self.lock:
                self.verified[key] = body
        return ok


@pytest.fixture(scope="module")
def oracle(hostile, sample):
    return Oracle(sample, hostile)


# ---------------------------------------------------------------- cases
class Want:
    """One expected answer.  src: "module", "core", "http09" or "none"
    (closed without an answer)."""

    def __init__(self, src, status=None, route=None, lang="en", filt=None,
                 method="GET", ctype="application/json", etag_of=None,
                 either_304=False):
        self.src = src
        self.status = status
        self.route = route
        self.lang = lang
        self.filt = filt            # (param, decoded value) or None
        self.method = method
        self.ctype = ctype          # of module 4xx bodies
        self.etag_of = etag_of      # (route, lang) whose ETag a 304 has
        self.either_304 = either_304  # 200 or 304 both right (httpd quirk)


class Case:
    def __init__(self, cat, data, wants, port="main", chunks=None,
                 stall=False, abort=False, shut=False):
        self.cat = cat
        self.data = data            # bytes sent
        self.wants = wants          # answers expected, in order
        self.port = port
        self.chunks = chunks        # [(bytes, delay before)] for slow sends
        self.stall = stall          # send, then wait for the server
        self.abort = abort          # send, then close without reading
        self.shut = shut            # send, then half-close

    @property
    def count(self):
        return max(1, len(self.wants))


def _b(x):
    return x if isinstance(x, bytes) else x.encode("utf-8")


def header_block(headers=(), close=True, host=True):
    """The header lines and the empty line that ends them."""
    out = b""
    if host:
        out += b"Host: 127.0.0.1\r\n"
    for k, v in headers:
        out += _b(k) + b": " + _b(v) + b"\r\n"
    if close:
        out += b"Connection: close\r\n"
    return out + b"\r\n"


def req(method, target, headers=(), version=b"HTTP/1.1", close=True,
        host=True):
    """Raw request bytes; `target` and header values may be bytes."""
    return _b(method) + b" " + _b(target) + b" " + version + b"\r\n" \
        + header_block(headers, close, host)


def enc(s, plus=False):
    q = urllib.parse.quote_plus if plus else urllib.parse.quote
    return q(s, safe="")


class Gen:
    """The case generators.  Each returns one Case; `good()` is a valid
    request whose answer is exact."""

    def __init__(self, rng, oracle, docroot):
        self.r = rng
        self.o = oracle
        self.docroot = docroot
        self.routes = oracle.routes
        self.data = oracle.data

    # -- helpers -------------------------------------------------------
    def lang_header(self):
        al, lang = self.r.choice(LANG_HEADERS)
        return ([] if al is None else [("Accept-Language", al)]), lang

    def filter_value(self, route, lang):
        """A valid filter value (1-100 code points, no controls): a
        substring of a matching field, sometimes changed in case, or a
        string that matches nothing."""
        r = self.r
        if r.random() < 0.2:
            return r.choice(["zzz-nothing", "Ωμέγα", "ingenieria", "x y"])
        if route == "/skills":
            g = r.choice(self.data["skills"])
            pool = [g["title"]] + g["skills"]
        elif route == "/experience":
            pool = [x["company"] for x in self.data["experience"]]
        else:
            pool = [x["organization"] for x in self.data["caseStudies"]]
        v = r.choice(pool)
        v = v if isinstance(v, str) else v[lang]
        i = r.randrange(len(v))
        j = r.randrange(i + 1, len(v) + 1)
        s = v[i:j]
        if not s.strip(" \t\r\n\f\v"):
            s = v
        if r.random() < 0.3:
            s = s.upper()
        return s[:100]

    def module(self, status, lang, **kw):
        return Want("module", status, lang=lang, **kw)

    # -- valid requests ------------------------------------------------
    def good_parts(self, close=True):
        """(bytes, Want) of a valid request."""
        r = self.r
        hdrs, lang = self.lang_header()
        route = r.choice(self.routes)
        x = r.random()
        if x < 0.15:
            return (req("HEAD", B + route, hdrs, close=close),
                    Want("module", 200, route, lang, method="HEAD"))
        if x < 0.25:
            return (req("OPTIONS", B + route, hdrs, close=close),
                    Want("module", 200, route, lang, method="OPTIONS"))
        if x < 0.45:
            etag = self.o.etags[(route, lang)]
            return (req("GET", B + route, hdrs + [("If-None-Match", etag)],
                        close=close),
                    Want("module", 304, route, lang,
                         etag_of=(route, lang)))
        if x < 0.7 and route in FILTERS:
            param = FILTERS[route]
            value = self.filter_value(route, lang)
            target = "%s%s?%s=%s" % (B, route, param,
                                     enc(value, r.random() < 0.5))
            return (req("GET", target, hdrs, close=close),
                    Want("module", 200, route, lang, filt=(param, value)))
        return (req("GET", B + route, hdrs, close=close),
                Want("module", 200, route, lang))

    def good(self):
        data, want = self.good_parts()
        return Case("valid", data, [want])

    # -- request lines -------------------------------------------------
    BAD_VERSIONS = [b"HTTP/1", b"HTTP/1.1.1", b"HTTPS/1.1", b"HTTP/x.y",
                    b"HTTP/01.1", b"HTTP/1.10", b"http/1.1", b"HTTP/11",
                    b"HTTP/0.9", b"HTTP/1.1 ", b"HTTP/1.1\t", b" HTTP/1.1",
                    b"HTTP /1.1", b"HTTP/1.0\x00", b"HTTP/\xff.1", b"HTTP/",
                    b"HTTP/1.1x", b"\xff\xfe", b"HTTP/1.1\x0b"]
    # Versions httpd reads as HTTP/1.x and serves.
    ODD_VERSIONS = [b"HTTP/2.0", b"HTTP/3.1", b"HTTP/9.9", b"HTTP/1.2"]
    BAD_METHODS = [b"G\xc3\xa9T", b"GE(T", b"GET/", b"GE\x00T", b"G\tET",
                   b"GET:", b"\"GET\"", b"CONNECT"]

    def request_line(self):
        r = self.r
        route = r.choice(self.routes)
        target = (B + route).encode()
        hdrs, lang = self.lang_header()
        k = r.randrange(9)
        if k == 0:
            return Case("request line", req("GET", target, hdrs,
                                            version=r.choice(
                                                self.BAD_VERSIONS)),
                        [Want("core", 400)])
        if k == 1:
            return Case("request line", req("GET", target, hdrs,
                                            version=r.choice(
                                                self.ODD_VERSIONS)),
                        [Want("module", 200, route, lang)])
        if k == 2:
            line = r.choice([b"GET " + target + b" HTTP/1.1 extra",
                             b"GET  " + target + b" HTTP/1.1",
                             b"GET\t" + target + b"\tHTTP/1.1",
                             b"GET  HTTP/1.1", b"GET", b"GET ",
                             b"GET " + target[1:] + b" HTTP/1.1",
                             b"GET * HTTP/1.1",
                             b"GET " + target + b"#frag HTTP/1.1",
                             b"GET /../../etc/passwd HTTP/1.1",
                             b"GET ftp://x" + target + b" HTTP/1.1",
                             b"GET " + target + b"?q=a b HTTP/1.1",
                             b"PRI * HTTP/2.0",
                             b" GET " + target + b" HTTP/1.1"])
            return Case("request line", line + b"\r\nHost: x\r\n\r\n",
                        [Want("core", 400)])
        if k == 3:
            return Case("request line", req(r.choice(self.BAD_METHODS),
                                            target, hdrs),
                        [Want("core", 400)])
        if k == 4:
            # Methods the module does not serve, valid tokens (httpd's
            # LenientMethods lets them through): 405 on a route.
            m = r.choice([b"PUT", b"DELETE", b"PATCH", b"POST", b"get",
                          b"head", b"BREW", b"PROPFIND", b"X" * 300,
                          bytes(r.choice(b"ABCDEFGHIJKLMNOPQRSUVWXYZ!#$%&'*+-.^_`|~")
                                for _ in range(r.randrange(1, 12)))])
            if m in (b"GET", b"HEAD", b"OPTIONS", b"TRACE", b"CONNECT"):
                m = b"BREW"
            return Case("method", req(m, target, hdrs),
                        [self.module(405, lang)])
        if k == 5:
            # The module claims its URLs before httpd's TRACE handling
            # (a map_to_storage hook): its own 405, whatever TraceEnable.
            return Case("method", req("TRACE", target, hdrs),
                        [self.module(405, lang)])
        if k == 6:
            # No version: HTTP/0.9, answered with the bare body.
            return Case("http/0.9", b"GET " + target + b"\r\n",
                        [Want("http09", 200, route, "en")])
        if k == 7:
            # Absolute form: the path counts, the host is ignored.
            return Case("request line",
                        req("GET", b"http://evil.example" + target, hdrs),
                        [Want("module", 200, route, lang)])
        # Leading empty lines are allowed before a request.
        return Case("request line", b"\r\n" * r.randrange(1, 3)
                    + req("GET", target, hdrs),
                    [Want("module", 200, route, lang)])

    # -- percent-encodings ---------------------------------------------
    # Invalid wherever they stand (the character after them is no hex
    # digit either); "%" and "%2" are invalid only at the end.
    INVALID_PCT = ["%zz", "%g0", "%%", "%-1", "%2G", "%G2", "%2%", "%2-",
                   "%%41", "%2z", "%\xff"]
    INVALID_PCT_END = ["%", "%2", "%a"]
    # Decode to bytes that are not UTF-8 (overlong, surrogate, beyond
    # U+10FFFF, lone continuation, truncated, invalid lead).
    BAD_UTF8 = ["%C0%AF", "%E0%80%AF", "%F0%80%80%AF", "%ED%A0%80",
                "%ED%BF%BF", "%F4%90%80%80", "%F8%88%80%80%80", "%80",
                "%BF", "%C3", "%C3%28", "%E2%82", "%FF", "%FE%FF",
                "%C1%81", "%E2%28%A1"]

    def percent(self):
        r = self.r
        hdrs, lang = self.lang_header()
        k = r.randrange(8)
        if k == 0:
            # Invalid % in the path: httpd answers 400.
            route = r.choice(self.routes).encode()
            if r.random() < 0.3:
                bad = r.choice(self.INVALID_PCT_END).encode("latin-1")
                i = len(route)
            else:
                bad = r.choice(self.INVALID_PCT).encode("latin-1")
                i = r.randrange(len(route) + 1)
            target = B.encode() + route[:i] + bad + route[i:]
            return Case("percent path", req("GET", target, hdrs),
                        [Want("core", 400)])
        if k == 1:
            # %00 in the path: httpd answers 404 (AllowEncodedSlashes
            # NoDecode lets %2F through to the module, which has no such
            # path).
            coll = r.choice(["/experience/", "/case-studies/", "/"])
            x = r.choice(["%00", "a%00b", "%2F", "a%2Fb", "%2f"])
            if "%00" in x:
                return Case("percent path", req("GET", B + coll + x, hdrs),
                            [Want("core", 404)])
            return Case("percent path", req("GET", B + coll + x, hdrs),
                        [self.module(404, lang)])
        if k == 2:
            # Bad UTF-8 or control characters in an id: no such record.
            coll = r.choice(["/experience/", "/case-studies/"])
            rec = r.choice(self.data["experience"] if coll == "/experience/"
                           else self.data["caseStudies"])["id"]
            bad = r.choice(self.BAD_UTF8 + ["%01", "%1F", "%7F", "%0A",
                                            "%0D", "%09", "%20", "%C2%A0"])
            i = r.randrange(len(rec) + 1)
            return Case("percent path",
                        req("GET", B + coll + rec[:i] + bad + rec[i:], hdrs),
                        [self.module(404, lang)])
        if k == 3:
            # An id with unreserved characters percent-encoded is the id.
            coll = r.choice(["/experience", "/case-studies"])
            rec = r.choice(self.data["experience"] if coll == "/experience"
                           else self.data["caseStudies"])["id"]
            target = "".join("%%%02X" % ord(c) if r.random() < 0.4 else c
                             for c in rec)
            return Case("percent path",
                        req("GET", B + coll + "/" + target, hdrs),
                        [Want("module", 200, coll + "/" + rec, lang)])
        route = r.choice(list(FILTERS))
        param = FILTERS[route]
        if k == 4:
            # Invalid % sequence in a query name or value: 400.
            bad = r.choice(self.INVALID_PCT[:-1])
            end = r.choice(self.INVALID_PCT_END)
            q = r.choice(["%s=a%sx" % (param, bad), "%s=%s" % (param, bad),
                          "%s%s=a" % (param, bad), "%s=%s" % (param, end),
                          "%s=x&y%s=1" % (param, bad)])
            return Case("percent query", req("GET", B + route + "?" + q,
                                             hdrs),
                        [self.module(400, lang)])
        if k == 5:
            # Percent-decoded bytes that are not UTF-8: 400.
            bad = r.choice(self.BAD_UTF8)
            q = r.choice(["%s=%s" % (param, bad), "%s=a%s" % (param, bad),
                          "%s%s=a" % (param, bad)])
            return Case("percent query", req("GET", B + route + "?" + q,
                                             hdrs),
                        [self.module(400, lang)])
        if k == 6:
            # A control character inside a value (after trimming): 400.
            c = r.choice(["%00", "%01", "%08", "%09", "%0A", "%0D", "%1B",
                          "%1F", "%7F"])
            return Case("percent query",
                        req("GET", "%s%s?%s=a%sb" % (B, route, param, c),
                            hdrs),
                        [self.module(400, lang)])
        # Double encoding is one decoding: "%2541" is the text "%41".
        return Case("percent query",
                    req("GET", "%s%s?%s=%%2541" % (B, route, param), hdrs),
                    [Want("module", 200, route, lang, filt=(param, "%41"))])

    # -- raw control bytes and NUL -------------------------------------
    CONTROLS = [bytes([c]) for c in list(range(0, 9)) + list(range(11, 32))
                + [127]]

    def controls(self):
        r = self.r
        route = r.choice(self.routes)
        hdrs, lang = self.lang_header()
        c = r.choice(self.CONTROLS + [b"\t"])
        k = r.randrange(4)
        if k == 0:
            # Raw in the path or query: the request line is malformed.
            t = (B + route).encode() + r.choice([b"", b"?q=a"])
            i = r.randrange(1, len(t) + 1)
            return Case("raw control",
                        req("GET", t[:i] + c + t[i:], hdrs),
                        [Want("core", 400)])
        if k == 1:
            if c == b"\t":
                c = b"\x00"
            # In a header value (a tab is allowed there).
            v = b"abc" + c + b"def"
            name = r.choice([b"Accept-Language", b"If-None-Match",
                             b"User-Agent", b"X-Anything", b"Origin"])
            return Case("raw control",
                        req("GET", B + route, hdrs + [(name, v)]),
                        [Want("core", 400)])
        if k == 2:
            if c == b"\t":
                c = b"\x01"
            return Case("raw control",
                        req("GET", B + route,
                            hdrs + [(b"X-A" + c + b"b", b"1")]),
                        [Want("core", 400)])
        # A tab inside a header value is allowed.
        return Case("raw control",
                    req("GET", B + route, hdrs + [("X-Tab", "a\tb")]),
                    [Want("module", 200, route, lang)])

    # -- invalid UTF-8 -------------------------------------------------
    RAW_BAD = [b"\xff", b"\xfe\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\x80",
               b"\xc3\x28", b"\xf4\x90\x80\x80", b"\xe2\x82"]

    def utf8(self):
        r = self.r
        hdrs, lang = self.lang_header()
        bad = r.choice(self.RAW_BAD)
        k = r.randrange(5)
        if k == 0:
            coll = r.choice(["/experience/", "/case-studies/", "/pro",
                             "/"])
            return Case("utf-8", req("GET", B.encode() + coll.encode() + bad,
                                     hdrs),
                        [self.module(404, lang)])
        if k == 1:
            route = r.choice(list(FILTERS))
            return Case("utf-8",
                        req("GET", (B + route + "?" + FILTERS[route]
                                    + "=a").encode() + bad, hdrs),
                        [self.module(400, lang)])
        if k == 2:
            # Raw UTF-8 (not percent-encoded) in a query is decoded bytes.
            route = r.choice(list(FILTERS))
            value = self.filter_value(route, lang)
            raw = "".join(c if ord(c) > 127 or c.isalnum() or c in "-._~"
                          else "%%%02X" % ord(c) for c in value)
            return Case("utf-8",
                        req("GET", "%s%s?%s=%s" % (B, route, FILTERS[route],
                                                   raw), hdrs),
                        [Want("module", 200, route, lang,
                              filt=(FILTERS[route], value))])
        route = r.choice(self.routes)
        if k == 3:
            # In Accept-Language: the malformed range is skipped.
            al = r.choice([b"es;q=0.5, " + bad, bad + b", es;q=0.5",
                           b"es" + bad + b", es;q=0.5", bad])
            lang = "en" if al == bad else "es"
            return Case("utf-8",
                        req("GET", B + route, [("Accept-Language", al)]),
                        [self.module(200, lang, route=route)])
        name = r.choice([b"User-Agent", b"Referer", b"Origin", b"X-Junk",
                         b"Cookie", b"If-Modified-Since"])
        return Case("utf-8", req("GET", B + route, hdrs + [(name, bad)]),
                    [self.module(200, lang, route=route)])

    # -- repeated parameters -------------------------------------------
    def repeated(self):
        """1,000 parameters: on the main port when the request line fits
        LimitRequestLine, else on the big port."""
        case = self._repeated()
        if case.data.index(b"\r\n") > LIMIT_LINE:
            case.port = "big"
        return case

    def _repeated(self):
        r = self.r
        hdrs, lang = self.lang_header()
        route = r.choice(list(FILTERS))
        param = FILTERS[route]
        n = 1000
        k = r.randrange(5)
        if k == 0:
            v = r.choice(["a", "kube", ""])
            q = "&".join("%s=%s" % (param, v) for _ in range(n))
            return Case("repeated", req("GET", B + route + "?" + q, hdrs),
                        [self.module(400, lang)])
        if k == 1:
            q = "&".join("p%d=1" % i for i in range(n))
            return Case("repeated", req("GET", B + route + "?" + q, hdrs),
                        [self.module(400, lang)])
        if k == 2:
            q = "&".join("%s=a" % param if i == 0 else "x=%d" % i
                         for i in range(n))
            return Case("repeated", req("GET", B + route + "?" + q, hdrs),
                        [self.module(400, lang)])
        if k == 3:
            other = r.choice(["/profile", "/metrics", "/contact"])
            q = "&".join("q=x" for _ in range(n))
            return Case("repeated", req("GET", B + other + "?" + q, hdrs),
                        [self.module(400, lang)])
        # 999 empty pieces and one parameter: the parameter alone.
        value = self.filter_value(route, lang)
        pieces = [""] * (n - 1)
        pieces.insert(r.randrange(n), "%s=%s" % (param, enc(value)))
        return Case("repeated",
                    req("GET", B + route + "?" + "&".join(pieces), hdrs),
                    [Want("module", 200, route, lang, filt=(param, value))])

    # -- length limits -------------------------------------------------
    def limits(self):
        r = self.r
        hdrs, lang = self.lang_header()
        k = r.randrange(5)
        if k < 3:
            # A request line of a given length: up to LIMIT_LINE it reaches
            # the module, longer is httpd's 414.
            length = r.choice([LIMIT_LINE, LIMIT_LINE + 1,
                               r.randrange(LIMIT_LINE - 40, LIMIT_LINE + 40)])
            route = r.choice(list(FILTERS))
            param = FILTERS[route]
            head = ("GET %s%s?" % (B, route)).encode()
            tail = b" HTTP/1.1"
            room = length - len(head) - len(tail)
            if k == 0:          # padding of empty pieces: valid
                value = self.filter_value(route, lang)
                p = ("%s=%s" % (param, enc(value))).encode()
                q = b"&" * (room - len(p)) + p
                want = Want("module", 200, route, lang, filt=(param, value))
            elif k == 1:        # one long value: over 100 characters
                q = ("%s=" % param).encode()
                q += (b"%C3%A9" * room)[:room - len(q)]
                q = q[:len(q) - (len(q) - len(param) - 1) % 6]
                q += b"&" * (room - len(q))
                want = self.module(400, lang)
            else:               # a long id path instead of a query
                head = ("GET %s/experience/" % B).encode()
                room = length - len(head) - len(tail)
                q = b"x" * room
                want = self.module(404, lang)
            line = head + q + tail
            assert len(line) == length, (len(line), length)
            if length > LIMIT_LINE:
                want = Want("core", 414)
            return Case("limit line", line + b"\r\n" + header_block(hdrs),
                        [want])
        route = r.choice(self.routes)
        if k == 3 and r.random() < 0.4:
            # An id of a length around what httpd can map to a file name.
            n = MAP_LIMIT - len(self.docroot) - len(B + "/experience/") \
                + r.randrange(-3, 3)
            path = (B + "/experience/").encode() + b"i" * n
            want = self.module(404, lang)
            return Case("limit path", req("GET", path, hdrs), [want])
        if k == 3:
            # One header line at and around LimitRequestFieldSize.
            length = r.choice([LIMIT_FIELD, LIMIT_FIELD + 1,
                               r.randrange(LIMIT_FIELD - 40,
                                           LIMIT_FIELD + 40)])
            name = b"X-Pad: "
            line = name + b"a" * (length - len(name))
            want = Want("module", 200, route, lang) \
                if length <= LIMIT_FIELD else Want("core", 400)
            return Case("limit header", req("GET", B + route, hdrs + [
                (line.split(b": ")[0], line.split(b": ")[1])]), [want])
        if r.random() < 0.5:
            # Lines of one header joined: the value's limit.
            length = r.choice([LIMIT_MERGED, LIMIT_MERGED + 1,
                               r.randrange(LIMIT_MERGED - 40,
                                           LIMIT_MERGED + 40)])
            n = r.randrange(2, 20)
            sizes = [length // n] * n
            sizes[-1] += length - sum(sizes) - 2 * (n - 1)
            lines = [("X-Merged", "m" * z) for z in sizes]
            want = Want("module", 200, route, lang) \
                if length <= LIMIT_MERGED else Want("core", 400)
            return Case("limit header", req("GET", B + route, hdrs + lines),
                        [want])
        # LimitRequestFields 100: Host and Connection count.
        n = r.choice([98 - len(hdrs), 99 - len(hdrs)])
        extra = [("X-F%d" % i, "1") for i in range(n)]
        total = 2 + len(hdrs) + n
        want = Want("module", 200, route, lang) if total <= 100 \
            else Want("core", 400)
        return Case("limit header", req("GET", B + route, hdrs + extra),
                    [want])

    # -- Accept-Language: huge, thousands of ranges, absurd weights ----
    JUNK_TAGS = ["de", "fr", "it", "pt", "nl", "zh-Hant", "x-klingon", "ja",
                 "ru", "e", "s", "enx", "esp", "ens", "i-default", "*", "",
                 "en_US", "es_ES", "12", "e-s", "-en", "-"]
    SHORT_TAGS = ["de", "fr", "it", "pt", "nl", "ja", "ru", "e", "s", "*",
                  "", "-", "x"]
    ABSURD_Q = ["1e3", "NaN", "inf", "-1", "-0", "1.5", "1.0001", "2",
                "0.1234", "0.0000000000000000001", "99999999999999999999",
                ".5", "+0.5", "0x1", "abc", "", "0.5;q=0.9", "1 1",
                "\xe9"]

    def al_ranges(self, size):
        """A header value of about `size` bytes (a range for about every 5
        bytes: 2,000 in 10 KB) whose ranges name neither en nor es validly,
        but for the two that decide; returns it and the language chosen."""
        r = self.r
        target, other = r.choice([("en", "es"), ("es", "en")])
        parts = []
        n = 0
        while n < size:
            x = r.random()
            if x < 0.75:
                p = r.choice(self.SHORT_TAGS)
            elif x < 0.87:
                p = "%s;q=%s" % (r.choice(self.JUNK_TAGS),
                                 r.choice(["0", "0.5", "1", "0.999", "0.001",
                                           "1.000"]))
            else:
                # en or es with a weight that is malformed: skipped.
                p = "%s;q=%s" % (r.choice(["en", "es", "EN", "Es"]),
                                 r.choice(self.ABSURD_Q))
            parts.append(p)
            n += len(p) + 1
        parts.insert(r.randrange(len(parts)), "%s;q=0.9" % target)
        parts.insert(r.randrange(len(parts)), "%s;q=0.8" % other)
        return ",".join(parts), target

    def accept_language(self):
        r = self.r
        route = r.choice(self.routes)
        k = r.randrange(4)
        if k == 0:
            # 10 KB in one line on the main port: over
            # LimitRequestFieldSize, httpd answers 400.
            al, _ = self.al_ranges(10240)
            return Case("accept-language", req("GET", B + route,
                                               [("Accept-Language", al)]),
                        [Want("core", 400)])
        if k == 1:
            # The same on the big port reaches the module.
            al, lang = self.al_ranges(10240)
            return Case("accept-language", req("GET", B + route,
                                               [("Accept-Language", al)]),
                        [Want("module", 200, route, lang)], port="big")
        if k == 2:
            # Many lines (httpd joins them with commas).
            al, lang = self.al_ranges(r.randrange(3000, 7000))
            parts = al.split(",")
            step = max(1, len(parts) // r.randrange(10, 60))
            lines = [("Accept-Language", ",".join(parts[i:i + step]))
                     for i in range(0, len(parts), step)]
            return Case("accept-language", req("GET", B + route, lines),
                        [Want("module", 200, route, lang)])
        # Absurd weights in a short header.
        q = r.choice(self.ABSURD_Q)
        return Case("q-values",
                    req("GET", B + route,
                        [("Accept-Language", "es;q=%s, en;q=0.5" % q)]),
                    [Want("module", 200, route, "en")])

    def accept(self):
        """Absurd weights for application/problem+json (error bodies)."""
        r = self.r
        hdrs, lang = self.lang_header()
        q, ctype = r.choice([
            ("1", "application/problem+json"),
            ("0.001", "application/problem+json"),
            ("0", "application/json"),
            ("9999999999999999999999", "application/json"),
            ("abc", "application/json"), ("-1", "application/json"),
            ("0.0001", "application/json"), ("NaN", "application/json")])
        return Case("q-values",
                    req("GET", B + "/nope", hdrs + [
                        ("Accept", "application/problem+json;q=%s" % q)]),
                    [self.module(404, lang, ctype=ctype)])

    # -- If-None-Match with thousands of entries -----------------------
    def fake_etag(self):
        return '"p1-%016x"' % self.r.getrandbits(64)

    def if_none_match(self):
        r = self.r
        route = r.choice(self.routes)
        hdrs, lang = self.lang_header()
        right = self.o.etags[(route, lang)]
        other = self.o.etags[(route, "es" if lang == "en" else "en")]
        k = r.randrange(5)
        if k < 3:
            # Up to 2,800 entries in one line (big port).
            tags = [self.fake_etag() for _ in range(r.randrange(1000, 2800))]
            if k == 0:
                tags.insert(r.randrange(len(tags) + 1), right)
                want = Want("module", 304, route, lang,
                            etag_of=(route, lang))
            elif k == 1:
                tags.insert(r.randrange(len(tags) + 1), "W/" + right)
                want = Want("module", 304, route, lang,
                            etag_of=(route, lang))
            else:
                if other != right:
                    tags.insert(r.randrange(len(tags) + 1), other)
                want = Want("module", 200, route, lang)
            return Case("if-none-match",
                        req("GET", B + route,
                            hdrs + [("If-None-Match", ", ".join(tags))]),
                        [want], port="big")
        if k == 3:
            # Thousands of entries over many lines (httpd joins them): on
            # the big port, or on the main port within LimitRequestField-
            # Size for the joined value.
            big = r.random() < 0.5
            nlines = r.randrange(20, 90)
            per = (60000 if big else 7000) // 12 // nlines
            lines = [", ".join('"x%d"' % r.getrandbits(20)
                               for _ in range(r.randrange(1, per + 1)))
                     for _ in range(nlines)]
            i = r.randrange(nlines)
            lines[i] += ", " + right
            return Case("if-none-match",
                        req("GET", B + route, hdrs + [
                            ("If-None-Match", ln) for ln in lines]),
                        [Want("module", 304, route, lang,
                              etag_of=(route, lang))],
                        port="big" if big else "main")
        # Malformed entries: httpd's list parser may stop at them, so a
        # right ETag after garbage gives 200 or 304; either must be right.
        junk = r.choice(["a", "\xff\xfe", '"unterminated', "W/", "W/x",
                         '""', "*x", ",,,", '"a" "b"', "\x7e" * 500])
        tags = [self.fake_etag() for _ in range(r.randrange(1, 300))]
        tags.insert(r.randrange(len(tags) + 1), junk)
        tags.append(right)
        return Case("if-none-match",
                    req("GET", B + route,
                        hdrs + [("If-None-Match", ", ".join(tags))]),
                    [Want("module", 304, route, lang, etag_of=(route, lang),
                          either_304=True)])

    # -- other header trouble ------------------------------------------
    def headers(self):
        r = self.r
        route = r.choice(self.routes)
        t = (B + route).encode()
        hdrs, lang = self.lang_header()
        bad = [
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\n: empty-name\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nA b: c\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nFoo : bar\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nF\xffo: bar\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\nX: y\n\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: a b\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost:\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: \xff\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nContent-Length: -1"
            b"\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nContent-Length: abc"
            b"\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
            b"Content-Length: 2\r\n\r\nab",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nContent-Length: "
            b"99999999999999999999999\r\n\r\n",
            b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
            b"gzip\r\n\r\n",
        ]
        k = r.randrange(4)
        if k < 2:
            return Case("headers", r.choice(bad), [Want("core", 400)])
        if k == 2:
            return Case("headers", req("GET", t, hdrs + [("Expect", "foo")]),
                        [Want("core", 417)])
        ok = [
            req("GET", t, hdrs, version=b"HTTP/1.0", host=False),
            req("GET", t, hdrs + [("Content-Length", "5")]) + b"hello",
            req("GET", t, hdrs + [("Expect", "100-continue"),
                                  ("Content-Length", "3")]) + b"abc",
            req("GET", t, hdrs + [("Transfer-Encoding", "chunked")])
            + b"3\r\nabc\r\n0\r\n\r\n",
            req("GET", t, hdrs + [("X-Long-" + "n" * 4000, "v")]),
        ]
        return Case("headers", r.choice(ok),
                    [Want("module", 200, route, lang)])

    # -- pipelines -----------------------------------------------------
    def pipeline(self):
        """2-8 requests on one connection, good and bad mixed.  Answers
        stop after the first that closes the connection (httpd closes
        after a 400, its own or the module's); the last asks to close."""
        r = self.r
        data = b""
        wants = []
        n = r.randrange(2, 9)
        closed = False
        for i in range(n):
            last = i == n - 1
            x = r.random()
            hdrs, lang = self.lang_header()
            if x < 0.5:
                d, w = self.good_parts(close=last)
            elif x < 0.65:
                d = req("GET", B + "/nope/" + str(i), hdrs, close=last)
                w = self.module(404, lang)
            elif x < 0.75:
                d = req("DELETE", B + "/metrics", hdrs, close=last)
                w = self.module(405, lang)
            elif x < 0.88:
                d = req("GET", B + "/skills?q=%zz", hdrs, close=last)
                w = self.module(400, lang)
            else:
                d = b"GET " + (B + "/profile").encode() + b" HTTP/1.1 x\r\n" \
                    b"Host: x\r\n\r\n"
                w = Want("core", 400)
            data += d
            if not closed:
                wants.append(w)
                closed = w.status in DROPS
        return Case("pipeline", data, wants)

    # -- slow clients --------------------------------------------------
    def slow(self):
        r = self.r
        k = r.randrange(6)
        if k < 3:
            # Dribbled: a valid request in small pieces with pauses (well
            # under the server's Timeout between two pieces).
            data, want = self.good_parts()
            chunks = []
            i = 0
            while i < len(data):
                j = min(len(data), i + r.randrange(1, 24))
                chunks.append((data[i:j], r.choice([0, 0.001, 0.01, 0.05])))
                i = j
            return Case("slow", data, [want], chunks=chunks)
        data, _ = self.good_parts()
        cut = r.randrange(1, len(data) - 4)
        part = data[:cut]
        if k == 3:
            # Stops mid-request and waits: after Timeout httpd answers 408
            # once the request line is complete, else closes silently.  (A
            # client that sends nothing at all is held by the kernel, not
            # httpd: Linux's TCP_DEFER_ACCEPT, httpd's default.)
            want = Want("core", 408) if b"\r\n" in part else Want("none")
            return Case("stalled", part, [want], stall=True)
        if k == 4:
            # Stops mid-request and goes away.
            return Case("abandoned", part, [], abort=True)
        # Stops mid-request and half-closes: httpd answers 400 once a
        # request line has begun... and header lines are incomplete;
        # nothing when the request line itself is incomplete.
        line_end = data.index(b"\r\n")
        if cut <= line_end + 1:
            return Case("half-closed", part, [Want("none")], shut=True)
        return Case("half-closed", part, [Want("core", 400)], shut=True)


# ---------------------------------------------------------------- sending
def _send(case, port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if case.chunks:
            for piece, delay in case.chunks:
                if delay:
                    time.sleep(delay)
                s.sendall(piece)
        else:
            s.sendall(case.data)
        if case.abort:
            return None
        if case.shut:
            s.shutdown(socket.SHUT_WR)
        s.settimeout(SERVER_TIMEOUT + 10 if case.stall else 10)
        chunks = []
        started = time.monotonic()
        while True:
            try:
                b = s.recv(65536)
            except ConnectionResetError:
                chunks.append(b"<RST>")
                break
            except socket.timeout:
                chunks.append(b"<TIMEOUT after %.1fs>"
                              % (time.monotonic() - started))
                break
            if not b:
                break
            chunks.append(b)
        return b"".join(chunks)
    finally:
        s.close()


def _split(raw, wants):
    """Cuts the answers to `wants` out of `raw`: [(Response|None, error)]."""
    out = []
    rest = raw
    for w in wants:
        if w.src == "none" and rest == b"":
            out.append((None, None))
            continue
        if w.src == "http09":
            out.append((rest, None))
            rest = b""
            continue
        head, sep, after = rest.partition(b"\r\n\r\n")
        if not sep:
            out.append((None, "no complete answer in %r" % rest[:200]))
            return out, b""
        try:
            resp = h.parse_response(head + sep, dechunk=False)
        except (AssertionError, ValueError) as e:
            out.append((None, "unparsable answer %r: %s" % (head[:200], e)))
            return out, b""
        if w.method == "HEAD" or resp.status in (204, 304):
            n = 0
        elif resp.has("Content-Length"):
            n = int(resp.header("Content-Length"))
        else:
            n = len(after)
        resp.body = after[:n]
        rest = after[n:]
        out.append((resp, None))
    return out, rest


def _check(resp, w, oracle):
    """None when `resp` is the answer `w` describes, else why not."""
    if w.src == "http09":
        key = (w.route, "en", None)
        return None if oracle.body_ok(key, resp) else \
            "HTTP/0.9 body %r" % resp[:200]
    if w.src == "none":
        return "expected no answer, got %r" % (resp.raw[:200],)
    if resp.status >= 500:
        return "5xx: %r" % (resp,)
    mod = resp.header("X-Content-Type-Options") == "nosniff"
    if w.src == "core":
        if mod:
            return "expected httpd's own answer, the module answered %r" \
                % (resp,)
        if resp.status != w.status:
            return "expected httpd's %d, got %r" % (w.status, resp)
        return None
    # The module.
    if not mod:
        return "expected the module's answer, got httpd's %r" % (resp,)
    if resp.header("Content-Language") != w.lang:
        return "Content-Language %r, expected %r: %r" % (
            resp.header("Content-Language"), w.lang, resp)
    status = w.status
    if w.either_304 and resp.status == 200:
        status = 200
    if resp.status != status:
        return "status %d, expected %d: %r" % (resp.status, status, resp)
    if status == 304:
        want = oracle.etags[w.etag_of]
        if resp.etag != want or resp.body:
            return "304 with ETag %r (expected %r) or a body" % (resp.etag,
                                                                want)
        return None
    if status == 200 and w.method == "OPTIONS":
        if resp.body or resp.header("Content-Length") != "0" \
                or not resp.has("Allow"):
            return "OPTIONS answer %r" % (resp,)
        return None
    if status == 200:
        if resp.header("Content-Type") != "application/json":
            return "Content-Type %r" % resp.header("Content-Type")
        if w.method == "HEAD":
            if resp.body or resp.etag != oracle.etags[(w.route, w.lang)]:
                return "HEAD answer %r" % (resp,)
            return None
        if w.filt is None and resp.etag != oracle.etags[(w.route, w.lang)]:
            return "ETag %r, expected %r" % (resp.etag,
                                             oracle.etags[(w.route,
                                                           w.lang)])
        if not oracle.body_ok((w.route, w.lang, w.filt), resp.body):
            return "body is not the expected one for %r: %r" % (
                (w.route, w.lang, w.filt), resp.body[:300])
        return None
    # 4xx problem.
    if resp.header("Content-Type") != w.ctype:
        return "Content-Type %r, expected %r" % (
            resp.header("Content-Type"), w.ctype)
    try:
        p = json.loads(resp.body.decode("utf-8"))
    except ValueError:
        return "problem body is not JSON: %r" % resp.body[:300]
    if p.get("status") != status or not p.get("title"):
        return "problem body %r" % p
    if status == 400 and not (1 <= len(p.get("invalid-params", [])) <= 20):
        return "invalid-params %r" % p.get("invalid-params")
    return None


def _run(case, ports, oracle):
    """Sends one case; returns ([(label, error)], requests sent)."""
    raw = _send(case, ports[case.port])
    if case.abort:
        return [("abandoned", None)], 1
    parts, rest = _split(raw, case.wants)
    results = []
    for (resp, err), w in zip(parts, case.wants):
        if err is None and resp is None:
            label = "closed, no answer"         # as expected
        elif err is None:
            err = _check(resp, w, oracle)
            if w.src == "http09":
                label = "HTTP/0.9 body"
            else:
                label = "%s %d" % ("module" if w.src == "module" else
                                   "httpd", resp.status)
        results.append(("MISMATCH" if err else label, err))
    if not case.wants and raw:
        results.append(("MISMATCH", "expected nothing, got %r" % raw[:200]))
    elif rest and not rest.startswith(b"<"):
        results.append(("MISMATCH", "unexpected bytes after the answers: "
                        "%r" % rest[:200]))
    elif rest:
        results.append(("MISMATCH", "connection ended with %r" % rest))
    return results, case.count


# ---------------------------------------------------------------- tests
CATEGORIES = [  # (generator, weight)
    ("good", 22), ("request_line", 10), ("percent", 12), ("controls", 7),
    ("utf8", 8), ("repeated", 3), ("limits", 6), ("accept_language", 5),
    ("accept", 2), ("if_none_match", 5), ("headers", 6), ("pipeline", 8),
]


@pytest.mark.allow_log(*HTTPD_REFUSALS)
def test_hostile_requests(hostile, oracle):
    """At least TOTAL hostile requests (valid ones among them): every
    answer is the one its case states, never a 5xx, no child crashes."""
    rng = random.Random(SEED)
    gen = Gen(rng, oracle, os.path.join(hostile.root, "htdocs"))
    names = [n for n, _ in CATEGORIES]
    weights = [w for _, w in CATEGORIES]
    cases = []
    n = 0
    while n < TOTAL - 60:
        case = getattr(gen, rng.choices(names, weights)[0])()
        cases.append(case)
        n += case.count
    slow = [gen.slow() for _ in range(60)]
    ports = {"main": hostile.port, "big": hostile.big_port}
    pid = hostile.pid
    log_start = pu.log_size(hostile)

    counts = collections.Counter()
    by_cat = collections.defaultdict(collections.Counter)
    failures = []
    sent = 0
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(8) as pool, \
            concurrent.futures.ThreadPoolExecutor(16) as slow_pool:
        slow_futs = {slow_pool.submit(_run, c, ports, oracle): c
                     for c in slow}
        futs = {pool.submit(_run, c, ports, oracle): c for c in cases}
        for fut in concurrent.futures.as_completed(list(futs)
                                                   + list(slow_futs)):
            case = futs.get(fut) or slow_futs[fut]
            results, count = fut.result()
            sent += count
            for label, err in results:
                counts[label] += 1
                by_cat[case.cat][label] += 1
                if err is not None:
                    failures.append("%s: %s\n    sent %r" % (
                        case.cat, err, case.data[:300]))
    elapsed = time.monotonic() - t0

    print("\nhostile requests: seed %d, %d requests in %d cases, %.1f s"
          % (SEED, sent, len(cases) + len(slow), elapsed))
    for label, c in sorted(counts.items()):
        print("  %-18s %6d" % (label, c))
    for cat in sorted(by_cat):
        print("  %-18s %s" % (cat, dict(sorted(by_cat[cat].items()))))

    assert not failures, "%d wrong answers (seed %d); first ones:\n%s" % (
        len(failures), SEED, "\n".join(failures[:25]))
    assert sent >= TOTAL
    assert not any(label.split()[-1].startswith("5") for label in counts)
    assert counts["module 200"] > 1000 and counts["module 304"] > 100
    log = pu.log_since(hostile, log_start)
    pu.assert_no_crash(hostile, log)
    assert hostile.running() and hostile.pid == pid


def test_crash_detector_sees_a_crashed_child(hostile):
    """The check above can fail: a child killed by SIGSEGV shows in the
    error log the way test_hostile_requests looks for."""
    start = pu.log_size(hostile)
    kids = pu.children(hostile.pid)
    assert kids
    os.kill(kids[0], 11)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and \
            not pu.crash_lines(pu.log_since(hostile, start)):
        time.sleep(0.05)
    assert pu.crash_lines(pu.log_since(hostile, start))
    assert hostile.get(B + "/profile").status == 200

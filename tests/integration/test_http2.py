# SPDX-License-Identifier: Apache-2.0
"""HTTP/2 (mod_http2): h2c with prior knowledge, h2c by Upgrade from
HTTP/1.1, and h2 over TLS (ALPN, a self-signed certificate made here) give
every request the same status, header fields and body as HTTP/1.1
(docs/ecosystem.md).  curl is the client for all four, so only the
protocol differs."""
import os
import shutil
import subprocess

import pytest

import httpd_harness as h

CURL = shutil.which("curl")
OPENSSL = shutil.which("openssl")
pytestmark = pytest.mark.skipif(
    not CURL or not OPENSSL, reason="curl and openssl are needed "
    "(scripts/install-deps installs them)")

B = "/api/v1"
CORS_B = "/cors/api/v1"
# Fields that belong to the connection or the moment, not to the answer.
IGNORED = {"date", "expires", "server", "connection", "keep-alive",
           "transfer-encoding",
           "upgrade"}
# Lists whose order carries no meaning.
AS_SETS = {"allow", "vary", "access-control-allow-methods",
           "access-control-allow-headers", "access-control-expose-headers"}


def make_certificate(d):
    key, cert = os.path.join(d, "key.pem"), os.path.join(d, "cert.pem")
    subprocess.run([OPENSSL, "req", "-x509", "-newkey", "ec",
                    "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "2",
                    "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                    "-addext", "basicConstraints=critical,CA:FALSE"],
                   check=True, capture_output=True, timeout=60)
    return key, cert


@pytest.fixture(scope="module")
def h2(make_httpd, data_files, workdir):
    certdir = os.path.join(workdir, "h2-tls")
    os.makedirs(certdir)
    key, cert = make_certificate(certdir)
    tls_port = h.free_port()
    body = (h.load_modules("http2", "socache_shmcb", "ssl")
            + "Protocols h2c http/1.1\nH2Direct on\n"
            + "SSLSessionCache shmcb:logs/ssl_scache(65536)\n"
            + h.location(B, data_files["main"])
            + h.location(CORS_B, data_files["main"],
                         "    ProfileCORSOrigins https://a.example\n")
            + """Listen 127.0.0.1:{port}
<VirtualHost 127.0.0.1:{port}>
    ServerName 127.0.0.1:{port}
    Protocols h2 http/1.1
    SSLEngine on
    SSLCertificateFile "{cert}"
    SSLCertificateKeyFile "{key}"
</VirtualHost>
""".format(port=tls_port, cert=cert, key=key))
    server = make_httpd("h2", body)
    server.tls_port = tls_port
    yield server.start_checked()
    server.stop()


class Answer:
    def __init__(self, version, status, fields, body):
        self.version = version
        self.status = status
        self.fields = fields        # {name: normalized value}
        self.body = body

    def __repr__(self):
        return "<HTTP/%s %d %r %r>" % (self.version, self.status,
                                       self.fields, self.body[:200])


def normalized(name, values):
    if name in AS_SETS:
        return sorted({t.strip().lower() for v in values
                       for t in v.split(",") if t.strip()})
    return ", ".join(values)


def curl(server, transport, method, target, headers, tmp):
    """One request with curl; transport is http1.1, h2c-prior, h2c-upgrade,
    h2-tls or h1-tls."""
    head, body = os.path.join(tmp, "head"), os.path.join(tmp, "body")
    args = [CURL, "-sS", "--max-time", "20", "-D", head, "-o", body,
            "-w", "%{http_version}"]
    if method == "HEAD":
        args.append("--head")
    elif method != "GET":
        args += ["-X", method]
    for k, v in headers.items():
        args += ["-H", "%s: %s" % (k, v)]
    url = "http://127.0.0.1:%d%s" % (server.port, target)
    if transport == "http1.1":
        args.append("--http1.1")
    elif transport == "h2c-prior":
        args.append("--http2-prior-knowledge")
    elif transport == "h2c-upgrade":
        args.append("--http2")
    elif transport in ("h2-tls", "h1-tls"):
        args += ["--http2" if transport == "h2-tls" else "--http1.1", "-k"]
        url = "https://127.0.0.1:%d%s" % (server.tls_port, target)
    cp = subprocess.run(args + [url], capture_output=True, text=True,
                        timeout=30)
    assert cp.returncode == 0, cp.stderr
    with open(head, encoding="iso-8859-1", newline="") as f:
        blocks = f.read().strip().split("\r\n\r\n")
    # An Upgrade shows "101 Switching Protocols" before the answer.
    lines = blocks[-1].split("\r\n")
    status = int(lines[0].split()[1])
    raw = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        raw.setdefault(k.strip().lower(), []).append(v.strip())
    fields = {k: normalized(k, v) for k, v in raw.items()
              if k not in IGNORED}
    data = b""
    if method != "HEAD":            # --head writes the fields to -o
        with open(body, "rb") as f:
            data = f.read()
    return Answer(cp.stdout.strip(), status, fields, data)


def cases(sample, etag_en, etag_es):
    """(name, method, target, request headers): every route in both
    languages and each kind of answer the API gives."""
    out = []
    for route in h.all_routes(sample):
        for lang in ("en", "es"):
            out.append(("GET %s %s" % (route, lang), "GET", B + route,
                        {"Accept-Language": lang}))
    out += [
        ("HEAD", "HEAD", B + "/experience", {"Accept-Language": "es"}),
        ("304 If-None-Match", "GET", B + "/profile",
         {"If-None-Match": etag_en}),
        ("304 es", "GET", B + "/profile",
         {"Accept-Language": "es", "If-None-Match": etag_es}),
        ("304 If-Modified-Since", "GET", B + "/profile",
         {"If-Modified-Since": "Sat, 01 Jan 2050 00:00:00 GMT"}),
        ("304 HEAD", "HEAD", B + "/profile", {"If-None-Match": etag_en}),
        ("200 other ETag", "GET", B + "/profile",
         {"If-None-Match": '"p1-0000000000000000"'}),
        ("filter", "GET", B + "/skills?q=test", {"Accept-Language": "es"}),
        ("404 path", "GET", B + "/nope", {"Accept-Language": "es"}),
        ("404 id", "GET", B + "/experience/nope", {}),
        ("404 problem+json", "GET", B + "/nope",
         {"Accept": "application/problem+json"}),
        ("400", "GET", B + "/skills?q=&x=1", {"Accept-Language": "es"}),
        ("405", "DELETE", B + "/profile", {}),
        ("OPTIONS", "OPTIONS", B + "/profile", {}),
        ("preflight", "OPTIONS", B + "/experience",
         {"Origin": "https://app.example",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "if-none-match"}),
        ("preflight listed origin", "OPTIONS", CORS_B + "/profile",
         {"Origin": "https://a.example",
          "Access-Control-Request-Method": "GET"}),
        ("listed origin", "GET", CORS_B + "/profile",
         {"Origin": "https://a.example"}),
        ("other origin", "GET", CORS_B + "/profile",
         {"Origin": "https://evil.example"}),
    ]
    for enc in ("gzip", "br"):
        out.append(("Accept-Encoding " + enc, "GET", B + "/case-studies",
                    {"Accept-Encoding": enc}))
    return out


@pytest.mark.parametrize("transport, version", [
    ("h2c-prior", "2"), ("h2c-upgrade", "2"), ("h2-tls", "2"),
    # The TLS virtual host over HTTP/1.1 too: same API as cleartext.
    ("h1-tls", "1.1")])
def test_same_answers_as_http1(h2, sample, transport, version, tmp_path):
    en = h2.get(B + "/profile", {"Accept-Language": "en"}).etag
    es = h2.get(B + "/profile", {"Accept-Language": "es"}).etag
    seen = set()
    for name, method, target, hdrs in cases(sample, en, es):
        want = curl(h2, "http1.1", method, target, hdrs, str(tmp_path))
        got = curl(h2, transport, method, target, hdrs, str(tmp_path))
        assert want.version == "1.1"
        assert got.version == version, (name, got)
        assert (got.status, got.fields, got.body) == \
            (want.status, want.fields, want.body), name
        seen.add(got.status)
    # The cases did reach each kind of answer.
    assert seen == {200, 304, 400, 404, 405}


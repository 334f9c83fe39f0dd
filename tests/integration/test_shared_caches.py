# SPDX-License-Identifier: Apache-2.0
"""Real shared caches in front of the API: Varnish, nginx and Apache
Traffic Server, each with the configuration shipped in contrib/caches/
(Accept-Language and Accept-Encoding normalized to what the module
negotiates) and, to compare, with a stock configuration that keys on the
raw fields (docs/caching.md, issue 14).

One httpd with the module is behind all of them; each cache reaches it on
a port of its own, so its access log tells which cache asked what.  For
each cache:

* exactness: every answer through the normalizing cache has the status,
  Content-Language, Content-Encoding, ETag and bytes the module gives the
  client's own fields directly -- for a corpus of real-world
  Accept-Language fields, the unit tests' edge cases and generated
  malformed ones, and the Accept-Encoding fields browsers, tools and edge
  cases send;
* a client's conditional request gets 304 from the cache, a Spanish ETag
  sent by an English client gets the English 200;
* CORS headers pass, and a list of origins is never crossed;
* after max-age the cache revalidates with the module (a conditional
  request, answered 304) and, after a data change, serves the new data at
  the first request;
* the hit ratio of a replay of the corpus (2,000 requests, 662 distinct
  Accept-Language fields, a mix of Accept-Encoding fields, four routes),
  after a warm-up, with and without normalization: >= 99 % with it.

CACHE_HIT_RATIOS=path.json writes the measured ratios there
(scripts/plot-cache-hit-ratios draws docs/img/cache-hit-ratios.png).
"""
import atexit
import json
import os
import random
import re
import shutil
import signal
import subprocess
import time

import pytest

import httpd_harness as h
import proc_util
from conftest import changed_variant

pytest.importorskip("brotli", reason="python3-brotli is not installed "
                    "(scripts/install-deps installs it)")

CONTRIB = os.path.join(h.SRCDIR, "contrib", "caches")
MAKE_VCL = os.path.join(CONTRIB, "varnish", "make-vcl")
# A data file with three languages, the default not English.
TRI_LANGS = ["es", "en", "fr"]
CORPUS = os.path.join(h.TEST_DATA, "accept-language-corpus.txt")
KINDS = ["varnish", "nginx", "trafficserver"]
NEEDS = {
    "varnish": ["/usr/sbin/varnishd"],
    "nginx": ["/usr/sbin/nginx",
              "/usr/lib/nginx/modules/ngx_http_js_module.so"],
    "trafficserver": ["/usr/bin/traffic_server",
                      "/usr/lib/trafficserver/modules/tslua.so"],
}
PACKAGES = {"varnish": "varnish", "nginx": "nginx, libnginx-mod-http-js",
            "trafficserver": "trafficserver"}
ROUTES = ["/profile", "/skills", "/experience", "/metrics"]
CORS_ORIGIN = "https://a.example"

# What clients send as Accept-Encoding, with how often (per mille).
AE_MIX = [("gzip, deflate, br, zstd", 450),   # Chromium 123+, Firefox 126+
          ("gzip, deflate, br", 330),         # Safari, older browsers
          ("gzip, deflate", 90),              # python-requests, bots
          (None, 50),                         # curl, wget
          ("gzip", 50),                       # Go's net/http
          ("deflate, gzip, br, zstd", 10),    # curl --compressed
          ("br;q=1.0, gzip;q=0.8, *;q=0.1", 10),
          ("identity", 10)]

# Accept-Language edge cases: the unit tests' (tests/unit/test_lang.c)
# and more.  Each is compared with the module's own answer.
EDGE_LANG = [
    None, "es;q=0, es-MX, en;q=0.1", "es-MX, es;q=0, en;q=0.1",
    "es;q=0.2, es-MX;q=0.9, en;q=0.5", "en-GB;q=0, en;q=0.5, es;q=0.4",
    "es-MX;q=0.3, en;q=0.5, es-AR;q=0.8", "en;q=0, *", "de, *;q=0.5",
    "es;q=0, en;q=0", "es-MX", "es-419", "ES", "Es-mX", "EN-gb",
    "es-Latn-MX", "esx, en;q=0.5", "esx", "e, en;q=0.5", "de",
    "fr-CA, de;q=0.5", "", " ", " , ,", "*", "en;q=0.5, es;q=0.8",
    "es;q=0.5, en", "es;q=0.5, en;q=0.501", "en-US;q=0.4, es-ES;q=0.6",
    "es;q=0.999, en", "en;q=0.999, es", "es;q=0.8, en;q=0.8", "es, en",
    "en, es", "en;q=1, es;q=1.000", "es;q=0.5, *;q=0.5",
    "*;q=0.5, es;q=0.5", "*;q=0.9, es;q=0.5", "en;q=0.1, *;q=0.2",
    "es;q=0, *;q=0.1", "en;q=0, es;q=0.001", "es-MX;q=0, en;q=0.1",
    "*;q=0, es", "*;q=0", "es;q=0", "en;q=0", "de;q=1, fr;q=0.5",
    "es;q=abc, en;q=0.5", "es;q=abc", "es;q=1.5, en;q=0.5",
    "es;q=1.001, en;q=0.5", "es;q=0.1234, en;q=0.1", "es;q=, en;q=0.5",
    "es;q=.5, en;q=0.5", "es;q=-1, en;q=0.5", "en;q=x, es;q=0.5",
    "*;q=abc, es;q=0.5", "e$s, es;q=0.5", "es$, en;q=0.5",
    "es_MX, en;q=0.5", "es-, en;q=0.5", "en-, es-MX;q=0.5",
    "-es, en;q=0.5", "es--MX, en;q=0.5", "es-abcdefghi, en;q=0.5",
    "abcdefghi, es;q=0.5, en;q=0.4", "es;x=1, en;q=0.5",
    "es;q=abc, e$s, es-, es;q=0.2", "es ; q=0.9, en;q=0.5",
    "es\t;\tq=0.9, en;q=0.5", "es ;q=0.9 , en;q=0.5",
    "  en;q=0.9  ,  es;q=0.5  ", "es;Q=0.9, en;q=0.5", "en;Q=0, *",
    ",,es,,", ", ,en;q=0.5,",
    # Weights and parameters.
    "es;q=1., en", "en;q=0., es", "es;q=0.5;q=0.9, en;q=0.6",
    'es;q="0.9", en;q=0.5', 'en;x="a,b", es;q=0.5', 'en;x="a;q=0", es',
    'en;x="unterminated, es', 'es;x="a\\"b,c", en;q=0.5',
    "es;;q=1, en;q=0.5", "es;, en;q=0.5", "es;=1, en;q=0.5",
    "es;q =0.9, en;q=0.5", "es;q= 0.9, en;q=0.5", "es;q=0.9 x, en;q=0.5",
    "es q=0.9, en;q=0.5", "es x, en;q=0.5", 'e"s, es;q=0.1',
    'en;q=0, e"x,y", es;q=0.5', "es-MX-x-private, en;q=0.9",
    "es-12345678, en;q=0.9", "es-123456789, en;q=0.9", "12, es",
    "ESx-MX, es;q=0.5", "es-mx;q=0.8, ES;q=0.8, en;q=0.8",
    "en-US,en;q=0.9,es;q=0.9", "es-ES,es;q=0.9,en-US;q=0.9,en;q=0.9",
    "*, es;q=0", "*;q=0.5, en;q=0.5, es;q=0.6", "es;q=0.000, en;q=0.001",
    "*;q=0.5, es;q=0.5, *;q=0.5", "*;q=0.4, es;q=0.5, *;q=0.5",
    "en-GB;q=0.5, es;q=0.5, en-US;q=0.5", "en-GB;q=0.4, es;q=0.5, en-US",
    "x-klingon, *;q=0.001", "i-default, es;q=0.2",
    "en-US,en;q=0.9,es-ES;q=0.8,es;q=0.7,fr;q=0.6,de;q=0.5,it;q=0.4,"
    "pt;q=0.3,nl;q=0.2,pl;q=0.1,ru;q=0.1,ja;q=0.1,zh;q=0.1,ko;q=0.1",
    ", ".join("x%s;q=0.9" % c for c in "abcdefghijklmnopqrstuvwxyz")
    + ", es;q=0.1",
]

EDGE_ENC = [
    None, "", "gzip", "br", "identity", "*", "gzip, br", "br, gzip",
    "gzip;q=1, br;q=0.5", "gzip;q=0.5, br;q=1", "gzip;q=0.5, br;q=0.5",
    "br;q=0, gzip", "gzip;q=0, br", "gzip;q=0, br;q=0", "*;q=0",
    "identity;q=0", "identity;q=0, *;q=0", "*;q=0.5, gzip;q=0.4",
    "*;q=0.5, identity;q=0.6", "identity;q=0.6, br;q=0.5, gzip;q=0.5",
    "identity;q=0.5, br;q=0.5", "identity, br;q=0.999", "x-gzip",
    "X-GZIP;Q=0.9, br;q=0.8", "GZIP", "Br", "compress", "deflate",
    "zstd", "gzip, deflate, br, zstd", "gzip;q=abc, br;q=0.1",
    "br;q=1.5, gzip;q=0.5", "br;level=5, gzip;q=0.1", 'br;x="a,b", gzip',
    'br;x="a;q=0", gzip;q=0.5', 'br;x="unterminated, gzip',
    "br;q=0.5;q=1, gzip;q=0.6", "br ; q=0.9 , gzip;q=0.8", "br;;q=1",
    "br;q=0.5 x, gzip;q=0.4", "gzip, *;q=0", "*, gzip;q=0",
    "*;q=0.2, br;q=0.1", "identity;q=0.3, *;q=0.2",
    "br;q=0.001, identity;q=0.001", ",,br,,", "br;Q=0, gzip",
    "gzip;q=0.9, gzip;q=0.1", "br;q=0, br;q=0.5",
]


# ------------------------------------------------------------ requests
def fields(al, ae, extra=None):
    hd = {"Accept-Language": al, "Accept-Encoding": ae}
    hd.update(extra or {})
    return hd


def generated_lang_fields(n, seed=14):
    """Random fields from the pieces the tokenizer treats specially:
    commas, semicolons, quotes, backslashes, spaces, tabs, weights good
    and bad, ranges good and bad."""
    rng = random.Random(seed)
    atoms = ["es", "en", "ES", "en-GB", "es-419", "*", "de", "es-", "e s",
             "", " ", "\t", ",", ";", ";q=0", ";q=1", ";q=0.5", ";q=0.50",
             ";q=1.0001", ";q=x", ";Q=0.9", ";a=b", ';a="x,y"', '"', "\\",
             "=", ";q=0.5;q=0.5", ";q=", "es-MX-1234", "x"]
    out = []
    for _ in range(n):
        out.append("".join(rng.choice(atoms)
                           for _ in range(rng.randint(1, 9))))
    return out


def read_corpus():
    """[(field, count)] of the corpus file."""
    out = []
    with open(CORPUS, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            count, field = line.rstrip("\n").split("\t", 1)
            out.append((field, int(count)))
    return out


def replay_requests():
    """The hit-ratio replay: every corpus field as often as its count, in
    a fixed random order, each with a route and an Accept-Encoding drawn
    from AE_MIX."""
    rng = random.Random(1414)
    reqs = []
    ae_values = [v for v, _ in AE_MIX]
    ae_weights = [w for _, w in AE_MIX]
    for field, count in read_corpus():
        for _ in range(count):
            reqs.append((rng.choice(ROUTES), field,
                         rng.choices(ae_values, ae_weights)[0]))
    rng.shuffle(reqs)
    return reqs


# ------------------------------------------------------------- caches
def cache_env():
    """The environment for a cache process: ours, without names that
    differ from another only in case.  njs 0.7.9 (Debian 12's
    libnginx-mod-http-js) makes nginx crash at start-up (SIGSEGV) when
    the environment holds two such names, and `make check` exports
    `srcdir` beside the harness's `SRCDIR`."""
    seen = {}
    for k in sorted(os.environ):
        seen.setdefault(k.upper(), []).append(k)
    return {k: v for k, v in os.environ.items() if len(seen[k.upper()]) == 1}


def wait_port(port, timeout=30, proc=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            r = h.request(port, "GET", "/api/v1/profile", timeout=5)
            if r.status == 200:
                return True
        except (OSError, AssertionError):
            pass
        time.sleep(0.1)
    return False


def substitute(text, pattern, repl, count=1):
    """re.sub that must match `count` times: a test that silently stopped
    using the shipped file would prove nothing."""
    new, n = re.subn(pattern, repl, text)
    assert n == count, "%r matched %d times, not %d" % (pattern, n, count)
    return new


class Cache:
    """One cache process (`name`, as in the backend's access log) in
    front of the backend's port `upstream`, on a free port, in its own
    directory."""

    def __init__(self, name, kind, normalized, root, upstream,
                 languages=None):
        self.name = name
        self.kind = kind
        self.normalized = normalized
        # None: the shipped files as they are (en es); else the data
        # file's languages, set the way docs/caching.md says.
        self.languages = languages
        self.root = root
        self.upstream = upstream
        self.port = h.free_port()
        self.proc = None
        os.makedirs(root, exist_ok=True)
        os.chmod(root, 0o755)
        self.log = os.path.join(root, "output.log")

    # The shipped files, adapted: backend port, listening port, and the
    # whole server as the API (the backend has several bases).
    def configure(self):
        getattr(self, "configure_" + self.kind)()

    def configure_varnish(self):
        if self.normalized:
            for f in ("profile.vcl", "profile-negotiate.vcl"):
                shutil.copy(os.path.join(CONTRIB, "varnish", f), self.root)
            if self.languages:
                with open(os.path.join(self.root, "profile-negotiate.vcl"),
                          "w") as f:
                    subprocess.run([MAKE_VCL] + self.languages, stdout=f,
                                   check=True)
            path = os.path.join(self.root, "profile.vcl")
            with open(path) as f:
                vcl = f.read()
            vcl = substitute(vcl, r'\.port = "8081";',
                             '.port = "%d";' % self.upstream)
            vcl = substitute(vcl, re.escape(r'"^/api/v1(/|\?|$)"'),
                             '"^/"', count=2)
        else:
            path = os.path.join(self.root, "stock.vcl")
            vcl = ('vcl 4.1;\nbackend default {\n    .host = "127.0.0.1";\n'
                   '    .port = "%d";\n}\n' % self.upstream)
        with open(path, "w") as f:
            f.write(vcl)
        self.argv = ["/usr/sbin/varnishd", "-F", "-n",
                     os.path.join(self.root, "instance"),
                     "-a", "127.0.0.1:%d" % self.port, "-f", path,
                     "-p", "vcl_path=%s" % self.root, "-s", "malloc,64m",
                     "-T", "127.0.0.1:0", "-p", "thread_pools=1",
                     "-p", "thread_pool_min=5"]

    def configure_nginx(self):
        cache_dir = os.path.join(self.root, "cache")
        if self.normalized:
            shutil.copy(os.path.join(CONTRIB, "nginx", "profile_negotiate.js"),
                        self.root)
            with open(os.path.join(CONTRIB, "nginx",
                                   "profile-cache.conf")) as f:
                site = f.read()
            site = substitute(site, r"/var/cache/nginx/profile", cache_dir)
            site = substitute(site, r"server 127\.0\.0\.1:8081;",
                              "server 127.0.0.1:%d;" % self.upstream)
            site = substitute(site, r"listen 80;",
                              "listen 127.0.0.1:%d;" % self.port)
            site = substitute(site, r"location /api/v1/ \{", "location / {")
            if self.languages:
                site = substitute(site, r'set \$profile_languages "en es";',
                                  'set $profile_languages "%s";'
                                  % " ".join(self.languages))
        else:
            site = """\
proxy_cache_path {cache} levels=1:2 keys_zone=profile:10m max_size=256m
                 inactive=1d use_temp_path=off;
server {{
    listen 127.0.0.1:{port};
    location / {{
        proxy_pass http://127.0.0.1:{up};
        proxy_set_header Host $host;
        proxy_cache profile;
        proxy_cache_revalidate on;
    }}
}}
""".format(cache=cache_dir, port=self.port, up=self.upstream)
        conf = """\
user root;
daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
load_module /usr/lib/nginx/modules/ngx_http_js_module.so;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {root}/client_temp;
    proxy_temp_path {root}/proxy_temp;
    fastcgi_temp_path {root}/fastcgi_temp;
    uwsgi_temp_path {root}/uwsgi_temp;
    scgi_temp_path {root}/scgi_temp;
{site}
}}
""".format(root=self.root, site=site)
        path = os.path.join(self.root, "nginx.conf")
        with open(path, "w") as f:
            f.write(conf)
        self.argv = ["/usr/sbin/nginx", "-p", self.root, "-c", path]

    def configure_trafficserver(self):
        etc = os.path.join(self.root, "etc")
        var = os.path.join(self.root, "var")
        for d in (etc, var, os.path.join(var, "log"),
                  os.path.join(var, "run"), os.path.join(var, "cache")):
            os.makedirs(d, exist_ok=True)
        shutil.copytree("/etc/trafficserver/body_factory",
                        os.path.join(etc, "body_factory"),
                        dirs_exist_ok=True)
        with open(os.path.join(self.root, "runroot.yaml"), "w") as f:
            f.write("prefix: {r}\nexec_prefix: /usr\nbindir: /usr/bin\n"
                    "sbindir: /usr/sbin\nsysconfdir: {etc}\ndatadir: {var}\n"
                    "includedir: /usr/include\n"
                    "libdir: /usr/lib/trafficserver\n"
                    "libexecdir: /usr/lib/trafficserver/modules\n"
                    "localstatedir: {var}\nruntimedir: {var}/run\n"
                    "logdir: {var}/log\ncachedir: {var}/cache\n"
                    .format(r=self.root, etc=etc, var=var))
        records = """\
CONFIG proxy.config.http.server_ports STRING {port}
CONFIG proxy.config.admin.user_id STRING #-1
CONFIG proxy.config.crash_log_helper STRING /bin/true
CONFIG proxy.config.exec_thread.autoconfig INT 0
CONFIG proxy.config.exec_thread.limit INT 1
CONFIG proxy.config.accept_threads INT 1
CONFIG proxy.config.task_threads INT 1
CONFIG proxy.config.cache.threads_per_disk INT 2
CONFIG proxy.config.url_remap.remap_required INT 1
CONFIG proxy.config.log.logging_enabled INT 0
CONFIG proxy.config.http.insert_response_via_str INT 0
""".format(port=self.port)
        lua = os.path.join(self.root, "profile_negotiate.lua")
        if self.normalized:
            with open(os.path.join(CONTRIB, "trafficserver",
                                   "records.config")) as f:
                records += f.read()
            with open(os.path.join(CONTRIB, "trafficserver",
                                   "remap.config")) as f:
                remap = f.read()
            shutil.copy(os.path.join(CONTRIB, "trafficserver",
                                     "profile_negotiate.lua"), lua)
            remap = substitute(remap, r"http://cache\.example/api/v1/",
                               "http://127.0.0.1:%d/" % self.port)
            remap = substitute(remap, r"http://127\.0\.0\.1:8081/api/v1/",
                               "http://127.0.0.1:%d/" % self.upstream)
            remap = substitute(remap, r"/etc/trafficserver/"
                               r"profile_negotiate\.lua", lua)
            if self.languages:
                remap = substitute(remap, r"@pparam=en @pparam=es",
                                   " ".join("@pparam=" + x
                                            for x in self.languages))
        else:
            remap = "map http://127.0.0.1:%d/ http://127.0.0.1:%d/\n" % (
                self.port, self.upstream)
        files = {"records.config": records, "remap.config": remap,
                 "storage.config": "%s/cache 64M\n" % var,
                 "plugin.config": "", "hosting.config": "",
                 "volume.config": "", "cache.config": "",
                 "parent.config": "", "socks.config": "",
                 "splitdns.config": "", "ssl_multicert.config": "",
                 "sni.yaml": "", "strategies.yaml": "",
                 "logging.yaml": "", "ip_allow.yaml":
                 "ip_allow:\n  - apply: in\n    ip_addrs: 127.0.0.1\n"
                 "    action: allow\n  - apply: out\n"
                 "    ip_addrs: 127.0.0.1\n    action: allow\n"}
        for name, text in files.items():
            with open(os.path.join(etc, name), "w") as f:
                f.write(text)
        self.argv = ["/usr/bin/traffic_server",
                     "--run-root=%s" % os.path.join(self.root,
                                                    "runroot.yaml")]

    def start(self):
        tries = []
        for attempt in range(3):
            self.configure()
            out = open(self.log, "ab")
            self.proc = subprocess.Popen(self.argv, stdout=out,
                                         stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL,
                                         start_new_session=True,
                                         env=cache_env())
            out.close()
            if wait_port(self.port, proc=self.proc):
                return self
            tries.append("port %d: %s" % (
                self.port, "exited with status %s" % self.proc.returncode
                if self.proc.poll() is not None else "no answer in 30 s"))
            self.stop()
            self.port = h.free_port()
        raise AssertionError("%s did not start (%s); its output:\n%s"
                             % (self.name, "; ".join(tries), self.output()))

    def output(self):
        """What the cache printed, its exit status, and its own error
        log (nginx writes start-up errors there once it read its
        configuration)."""
        text = ""
        for path in (self.log, os.path.join(self.root, "error.log")):
            try:
                with open(path, errors="replace") as f:
                    text += "--- %s\n%s" % (path, f.read()[-4000:])
            except OSError:
                pass
        return text

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            # Our own process group only (start_new_session).
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except OSError:
                pass
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(15)
        self.proc = None

    def get(self, target, headers=None, method="GET"):
        return h.request(self.port, method, target, headers)


# ------------------------------------------------------------ fixtures
class Backend:
    """The module, with one listening port per cache (the access log
    names the port) plus the harness's own."""

    def __init__(self, server, ports, access_log, fresh):
        self.server = server
        self.ports = ports
        self.access_log = access_log
        self.fresh = fresh

    def get(self, target, headers=None):
        return self.server.get(target, headers)

    def log_lines(self, name):
        """Access-log lines of the requests cache `name` sent:
        [(method, target, status, if_none_match)]."""
        out = []
        port = str(self.ports[name])
        try:
            with open(self.access_log, encoding="utf-8",
                      errors="replace") as f:
                for line in f:
                    parts = line.rstrip("\n").split("\t")
                    if parts[0] == port:
                        # httpd escapes quotes in logged header values.
                        out.append((parts[1], parts[2], parts[3],
                                    parts[4].replace('\\"', '"')))
        except FileNotFoundError:
            pass
        return out


def three_languages(data):
    """The sample data declaring TRI_LANGS, French texts made from the
    Spanish ones."""
    def walk(v):
        if isinstance(v, dict):
            if set(v) == {"en", "es"}:
                return {"es": v["es"], "en": v["en"], "fr": "fr: " + v["es"]}
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v
    d = walk(data)
    d["languages"] = list(TRI_LANGS)
    return d


def cache_names():
    return ["%s-%s" % (k, m) for k in KINDS
            for m in ("normalized", "raw", "tri")]


@pytest.fixture(scope="module")
def backend(make_httpd, workdir, sample):
    d = os.path.join(workdir, "shared-caches")
    os.makedirs(d)
    os.chmod(d, 0o755)
    main = h.copy_data(h.SAMPLE_DATA, os.path.join(d, "profile.json"))
    ports = {n: h.free_port() for n in cache_names()}
    fresh = {k: h.copy_data(h.SAMPLE_DATA,
                            os.path.join(d, "fresh-%s.json" % k))
             for k in KINDS}
    access_log = os.path.join(d, "access.log")
    body = "".join("Listen 127.0.0.1:%d\n" % p for p in ports.values())
    body += ('LogFormat "%{local}p\\t%m\\t%U%q\\t%>s\\t%{If-None-Match}i" '
             "backend\n")
    body += 'CustomLog "%s" backend\n' % access_log
    body += h.location("/api/v1", main)
    body += h.location("/replay/api/v1", main)
    body += h.location("/tri/api/v1", h.write_json(
        os.path.join(d, "tri.json"), three_languages(sample)))
    body += h.location("/cors/api/v1", main,
                       "    ProfileCORSOrigins %s\n" % CORS_ORIGIN)
    for k in KINDS:
        body += h.location("/fresh-%s/api/v1" % k, fresh[k],
                           "    ProfileMaxAge 2\n")
    server = make_httpd("caches-backend", body)
    server.start_checked()
    yield Backend(server, ports, access_log, fresh)
    server.stop()


_caches = {}


@atexit.register
def _stop_leftovers():
    """Should the session end without the fixture's teardown."""
    for c in _caches.values():
        c.stop()


@pytest.fixture(scope="module")
def caches(backend, workdir):
    """get(kind, normalized, languages=None) -> a started Cache (or a
    skip); `languages`: set up for the tri-lingual data file."""
    def get(kind, normalized, languages=None):
        missing = [p for p in NEEDS[kind] if not os.path.exists(p)]
        if missing:
            pytest.skip("%s is not installed (%s; scripts/install-deps "
                        "installs %s)" % (kind, ", ".join(missing),
                                          PACKAGES[kind]))
        name = "%s-%s" % (kind, "tri" if languages else
                          "normalized" if normalized else "raw")
        if name not in _caches:
            _caches[name] = Cache(name, kind, normalized,
                                  os.path.join(workdir, "cache-" + name),
                                  backend.ports[name], languages).start()
        return _caches[name]
    yield get
    for c in _caches.values():
        c.stop()
    _caches.clear()


class Oracle:
    """The module's own answers, asked directly: the language it picks
    for an Accept-Language field, the coding for an Accept-Encoding field
    and route, and the representation of (route, language, coding)."""

    def __init__(self, backend, sample, base="/api/v1"):
        self.backend = backend
        self.sample = sample
        self.base = base
        self.langs = {}
        self.encs = {}
        self.reps = {}

    def lang(self, al):
        if al not in self.langs:
            r = self.backend.get(self.base + "/profile",
                                 fields(al, "identity"))
            assert r.status == 200
            self.langs[al] = r.header("Content-Language")
        return self.langs[al]

    def enc(self, route, lang, ae):
        # A representation has a gzip or br form only where it is
        # smaller: the coding may depend on the language too.
        if (route, lang, ae) not in self.encs:
            r = self.backend.get(self.base + route, fields(lang, ae))
            assert r.status == 200
            self.encs[route, lang, ae] = r.header("Content-Encoding")
        return self.encs[route, lang, ae]

    def rep(self, route, lang, enc):
        key = (route, lang, enc)
        if key not in self.reps:
            r = self.backend.get(self.base + route,
                                 fields(lang, enc or "identity"))
            assert r.status == 200
            assert r.header("Content-Encoding") == enc
            self.reps[key] = r
        return self.reps[key]


@pytest.fixture(scope="module")
def oracle(backend, sample):
    return Oracle(backend, sample)


def check_exact(r, oracle, route, al, ae, what):
    """`r` is what the module answers these fields directly: status,
    language, coding, ETag, bytes."""
    lang = oracle.lang(al)
    enc = oracle.enc(route, lang, ae)
    want = oracle.rep(route, lang, enc)
    assert r.status == 200, (what, route, al, ae, r)
    assert r.header("Content-Language") == lang, (what, route, al, ae, r)
    assert r.header("Content-Encoding") == enc, (what, route, al, ae, r)
    assert r.etag == want.etag, (what, route, al, ae)
    assert r.body == want.body, (what, route, al, ae)


def check_language(r, sample, route, lang, ae, what):
    """`r` holds `lang`'s answer in a coding the client accepts."""
    assert r.status == 200, (what, route, r)
    assert r.header("Content-Language") == lang, (what, route, r)
    enc = r.header("Content-Encoding")
    assert enc is None or enc in (ae or ""), (what, route, ae, enc)
    body = h.decompress(r.body, enc)
    assert json.loads(body, object_pairs_hook=list) == \
        h.expected(sample, route, lang), (what, route, lang)


# -------------------------------------------------------------- tests
@pytest.mark.parametrize("kind", KINDS)
def test_normalized_answers_are_the_modules_own(caches, oracle, kind):
    """Every Accept-Language and Accept-Encoding field gets, through the
    normalizing cache (twice: the second time from the cache), the very
    answer the module gives that field directly."""
    cache = caches(kind, True)
    lang_fields = EDGE_LANG + generated_lang_fields(150) + \
        [f for f, _ in read_corpus()[:120]]
    for i, al in enumerate(lang_fields):
        route = ROUTES[i % len(ROUTES)]
        for _ in range(2):
            r = cache.get("/api/v1" + route, fields(al, "gzip, br"))
            check_exact(r, oracle, route, al, "gzip, br", cache.name)
    for route in ROUTES:
        for ae in EDGE_ENC:
            for al in ("es-MX,es;q=0.9", "en-US,en;q=0.9"):
                for _ in range(2):
                    r = cache.get("/api/v1" + route, fields(al, ae))
                    check_exact(r, oracle, route, al, ae, cache.name)


@pytest.mark.parametrize("kind", KINDS)
def test_several_field_lines_are_one_list(caches, oracle, kind):
    """Two Accept-Language lines are one list to httpd; the cache reads
    them the same way."""
    cache = caches(kind, True)
    for lines, want in ((["de;q=0.9", "es;q=0.5"], "es"),
                        (["es;q=0.4", "en;q=0.6"], "en"),
                        (["en;q=0", "*"], "es")):
        hdrs = [("Accept-Language", v) for v in lines]
        r = cache.get("/api/v1/profile", hdrs)
        assert r.status == 200
        assert r.header("Content-Language") == want, (lines, r)
        direct = h.request(cache.upstream, "GET", "/api/v1/profile", hdrs)
        assert direct.header("Content-Language") == want


def replay(cache, backend, oracle, sample, warmup=100):
    """Replays the corpus through `cache` under /replay/api/v1 (the
    sample data again, a base no other test uses); returns (hit ratio,
    requests, misses) after the first `warmup` requests.  A hit is an
    answer given without a request to the module.  Every answer is
    checked."""
    reqs = replay_requests()
    measured_from = None
    for i, (route, al, ae) in enumerate(reqs):
        if i == warmup:
            time.sleep(0.3)             # the last log lines are written
            measured_from = len(backend.log_lines(cache.name))
        r = cache.get("/replay/api/v1" + route, fields(al, ae))
        if cache.normalized:
            check_exact(r, oracle, route, al, ae, cache.name)
        else:
            check_language(r, oracle.sample, route, oracle.lang(al), ae,
                           cache.name)
    time.sleep(0.3)
    misses = len(backend.log_lines(cache.name)) - measured_from
    total = len(reqs) - warmup
    return (total - misses) / total, total, misses


_ratios = {}


@pytest.mark.parametrize("kind", KINDS)
def test_hit_ratio(caches, backend, oracle, kind):
    """The corpus replayed after a warm-up: with normalization at least
    99 % of the answers come from the cache; without it, every distinct
    field is an entry of its own, and the ratio is far lower."""
    raw = replay(caches(kind, False), backend, oracle, oracle.sample)
    norm = replay(caches(kind, True), backend, oracle, oracle.sample)
    _ratios[kind] = {"normalized": norm[0], "raw": raw[0],
                     "requests": norm[1], "misses_normalized": norm[2],
                     "misses_raw": raw[2]}
    out = os.environ.get("CACHE_HIT_RATIOS")
    if out:
        with open(out, "w") as f:
            json.dump({"corpus": os.path.relpath(CORPUS, h.SRCDIR),
                       "distinct_accept_language": len(read_corpus()),
                       "requests_after_warmup": norm[1],
                       "warmup": len(replay_requests()) - norm[1],
                       "caches": _ratios}, f, indent=2, sort_keys=True)
            f.write("\n")
    print("%s: hit ratio %.4f normalized (%d misses), %.4f raw (%d misses)"
          " of %d requests" % (kind, norm[0], norm[2], raw[0], raw[2],
                               norm[1]))
    assert norm[0] >= 0.99, _ratios[kind]
    assert raw[0] < norm[0] - 0.1, _ratios[kind]


@pytest.mark.parametrize("normalized", [True, False],
                         ids=["normalized", "raw"])
@pytest.mark.parametrize("kind", KINDS)
def test_client_revalidation_gets_304(caches, oracle, kind, normalized):
    """A client's If-None-Match through the cache: 304 with the ETag,
    CORS and Vary headers; the Spanish ETag from an English client is not
    a match, and gets the English 200."""
    cache = caches(kind, normalized)
    for route in ("/skills", "/contact"):
        url = "/api/v1" + route
        for al, ae in (("es-MX,es;q=0.9,en;q=0.8", "gzip, deflate, br"),
                       ("en-US,en;q=0.9", "gzip, deflate"),
                       ("es", None)):
            first = cache.get(url, fields(al, ae))
            assert first.status == 200
            for _ in range(2):
                r = cache.get(url, fields(al, ae,
                                          {"If-None-Match": first.etag}))
                assert r.status == 304, (cache.name, route, al, ae, r)
                assert r.body == b""
                assert r.etag == first.etag
                assert r.header("Cache-Control") == "public, max-age=300"
                assert "accept-language" in r.tokens("Vary")
                if normalized:
                    # What the module's own 304 carries (a stock ATS
                    # drops these; the shipped Lua script puts them back).
                    assert r.header("Access-Control-Allow-Origin") == "*"
                    assert r.header("Content-Language") == \
                        first.header("Content-Language")
                    # nginx leaves Content-Encoding out of its 304s: the
                    # client keeps the stored one (RFC 9111 §4.3.4).
                    assert r.header("Content-Encoding") in (
                        None, first.header("Content-Encoding"))
        es = cache.get(url, fields("es-ES,es;q=0.9", "gzip, deflate, br"))
        r = cache.get(url, fields("en-US,en;q=0.9", "gzip, deflate, br",
                                  {"If-None-Match": es.etag}))
        assert r.status == 200 and r.header("Content-Language") == "en"
        assert r.etag != es.etag
        if normalized:
            check_exact(r, oracle, route, "en-US,en;q=0.9",
                        "gzip, deflate, br", cache.name)


@pytest.mark.parametrize("kind", KINDS)
def test_cors_headers_pass(caches, kind):
    """The module's CORS headers reach the browser, from the cache too;
    a preflight is answered by the module; a list of origins is never
    crossed (Vary: Origin)."""
    cache = caches(kind, True)
    for _ in range(2):
        r = cache.get("/api/v1/metrics", {"Origin": "https://x.example",
                                          "Accept-Language": "es"})
        assert r.status == 200
        assert r.header("Access-Control-Allow-Origin") == "*"
        assert r.header("Access-Control-Expose-Headers") == "ETag"
        assert {"accept-language", "accept-encoding"} <= r.tokens("Vary")
    pre = cache.get("/api/v1/metrics", {
        "Origin": "https://x.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match"}, method="OPTIONS")
    assert pre.status == 200, pre
    assert pre.header("Access-Control-Allow-Origin") == "*"
    assert pre.header("Access-Control-Max-Age") == "7200"
    assert set(pre.header("Access-Control-Allow-Methods").split(", ")) == \
        {"GET", "HEAD", "OPTIONS"}
    for origin, acao in [(CORS_ORIGIN, CORS_ORIGIN),
                         ("https://evil.example", None),
                         (CORS_ORIGIN, CORS_ORIGIN), (None, None),
                         ("https://evil.example", None),
                         (CORS_ORIGIN, CORS_ORIGIN)]:
        r = cache.get("/cors/api/v1/profile",
                      {"Origin": origin, "Accept-Language": "es-AR"})
        assert r.status == 200
        assert r.header("Access-Control-Allow-Origin") == acao, \
            (cache.name, origin, r)
        assert "origin" in r.tokens("Vary")


@pytest.mark.parametrize("kind", KINDS)
def test_after_max_age_revalidates_then_serves_new_data(
        caches, backend, oracle, sample, kind):
    """ProfileMaxAge 2: within it the cache answers alone; after it the
    cache asks the module with If-None-Match (304: same answer); after a
    data change, the first request once max-age has passed gets the new
    data and its ETag, and the old ETag no longer gives 304."""
    cache = caches(kind, True)
    url = "/fresh-%s/api/v1/experience" % kind
    hdrs = fields("en-GB,en;q=0.9", "gzip, deflate, br")
    first = cache.get(url, hdrs)
    assert first.status == 200
    assert first.header("Cache-Control") == "public, max-age=2"
    time.sleep(0.3)                 # httpd logs after it answered
    n = len(backend.log_lines(cache.name))
    again = cache.get(url, hdrs)
    assert again.body == first.body
    assert len(backend.log_lines(cache.name)) == n, "not from the cache"
    time.sleep(3.2)
    r = cache.get(url, hdrs)
    assert r.status == 200 and r.body == first.body
    assert r.etag == first.etag
    time.sleep(0.2)
    asked = backend.log_lines(cache.name)[n:]
    assert [(m, s, inm) for m, _, s, inm in asked] == \
        [("GET", "304", first.etag)], asked
    # The data changes (its English text), httpd reloads.
    h.write_json(backend.fresh[kind], changed_variant(sample),
                 mtime=h.DATA_MTIME + 7200)
    proc_util.restart(backend.server, "graceful")
    new = backend.get("/fresh-%s/api/v1/experience" % kind, hdrs)
    assert new.etag != first.etag
    time.sleep(3.2)
    r = cache.get(url, hdrs)
    assert r.status == 200
    assert r.etag == new.etag and r.body == new.body
    r = cache.get(url, fields("en-GB,en;q=0.9", "gzip, deflate, br",
                              {"If-None-Match": first.etag}))
    assert r.status == 200 and r.etag == new.etag
    r = cache.get(url, fields("en-GB,en;q=0.9", "gzip, deflate, br",
                              {"If-None-Match": new.etag}))
    assert r.status == 304 and r.etag == new.etag


def test_shipped_vcl_is_make_vcls_output():
    """profile-negotiate.vcl is what make-vcl writes for en es: the file
    and its generator cannot drift apart."""
    cp = subprocess.run([MAKE_VCL, "en", "es"], capture_output=True,
                        text=True, check=True)
    with open(os.path.join(CONTRIB, "varnish",
                           "profile-negotiate.vcl")) as f:
        assert f.read() == cp.stdout


@pytest.mark.parametrize("kind", KINDS)
def test_other_languages_as_documented(caches, backend, sample, kind):
    """A data file declaring es, en, fr (default es), and each cache set
    up for it as docs/caching.md says (make-vcl es en fr; $profile_languages;
    the Lua script's parameters): the module's own answers, French
    included."""
    cache = caches(kind, True, TRI_LANGS)
    oracle = Oracle(backend, sample, "/tri/api/v1")
    values = EDGE_LANG[:60] + [
        "fr", "fr-CA", "fr-FR,fr;q=0.9,en;q=0.8", "de, *", "*",
        "en;q=0, es;q=0, *", "en;q=0.5, fr;q=0.5", "fr;q=0.5, en;q=0.5",
        "es;q=0, *;q=0.5, en;q=0.5", "de", "", "fr;q=0, *"]
    seen = set()
    for i, al in enumerate(values):
        route = ROUTES[i % len(ROUTES)]
        for _ in range(2):
            r = cache.get("/tri/api/v1" + route, fields(al, "br"))
            check_exact(r, oracle, route, al, "br", cache.name)
        seen.add(r.header("Content-Language"))
    assert seen == set(TRI_LANGS)


@pytest.mark.parametrize("kind", KINDS)
def test_filters_errors_and_head(caches, backend, kind):
    """Filtered collections (identity only), problem answers (no-store:
    never from the cache) and HEAD, through the normalizing cache: what
    the module answers the client's own fields."""
    cache = caches(kind, True)
    for al, ae in (("es-AR,es;q=0.9,en;q=0.8", "gzip, deflate, br, zstd"),
                   ("en-US,en;q=0.9", "gzip, deflate"), ("fr, *;q=0.1", None)):
        for target in ("/api/v1/skills?q=cloud", "/api/v1/experience?"
                       "company=INGENIER%C3%8DA", "/api/v1/skills?q=zzz"):
            direct = backend.get(target, fields(al, ae))
            for _ in range(2):
                r = cache.get(target, fields(al, ae))
                assert r.status == direct.status == 200
                for name in ("Content-Language", "Content-Encoding",
                             "ETag"):
                    assert r.header(name) == direct.header(name), \
                        (target, al, name)
                assert r.body == direct.body
        for target in ("/api/v1/nope", "/api/v1/skills?q=",
                       "/api/v1/experience/nobody"):
            direct = backend.get(target, fields(al, ae))
            n = len(backend.log_lines(cache.name))
            for _ in range(2):
                r = cache.get(target, fields(al, ae))
                assert r.status == direct.status and r.status in (400, 404)
                assert r.header("Content-Language") == \
                    direct.header("Content-Language")
                assert r.header("Cache-Control") == "no-store"
                assert r.header("Access-Control-Allow-Origin") == "*"
                assert h.decompress(r.body, r.header("Content-Encoding")) \
                    == direct.body
            time.sleep(0.3)
            assert len(backend.log_lines(cache.name)) == n + 2, \
                "a no-store answer came from the cache"
        get = cache.get("/api/v1/profile", fields(al, ae))
        head = cache.get("/api/v1/profile", fields(al, ae), method="HEAD")
        assert head.status == 200 and head.body == b""
        assert head.etag == get.etag
        assert head.header("Content-Language") == \
            get.header("Content-Language")


@pytest.mark.parametrize("kind", KINDS)
def test_a_cookie_does_not_prevent_caching(caches, backend, kind):
    """A browser on the API's own site sends the site's cookies; the API
    reads none, and its answers are still served from the cache."""
    cache = caches(kind, True)
    hdrs = fields("es-CL,es;q=0.9", "gzip, deflate, br",
                  {"Cookie": "session=abc; theme=dark"})
    first = cache.get("/api/v1/education", hdrs)
    assert first.status == 200
    time.sleep(0.3)
    n = len(backend.log_lines(cache.name))
    for _ in range(3):
        r = cache.get("/api/v1/education", hdrs)
        assert r.status == 200 and r.etag == first.etag
    time.sleep(0.3)
    assert len(backend.log_lines(cache.name)) == n


def test_varnish_passes_fields_longer_than_its_steps(caches, backend,
                                                     oracle):
    """The VCL reads 32 Accept-Language elements: a longer field goes to
    the module as it came, uncached -- still the module's answer."""
    cache = caches("varnish", True)
    al = ",".join("x%d;q=0.9" % i for i in range(40)) + ",es;q=0.5"
    for _ in range(2):
        r = cache.get("/api/v1/profile", fields(al, "gzip"))
        check_exact(r, oracle, "/profile", al, "gzip", cache.name)
        assert r.header("Content-Language") == "es"
    time.sleep(0.3)
    n = len(backend.log_lines(cache.name))
    cache.get("/api/v1/profile", fields(al, "gzip"))
    time.sleep(0.3)
    assert len(backend.log_lines(cache.name)) == n + 1, "cached"

# SPDX-License-Identifier: Apache-2.0
"""Harness for the mod_profile integration tests: a private Apache httpd
instance per configuration, a raw-socket HTTP/1.1 client, and an oracle
that renders the bodies CONTRACT §2 expects from a data file.

Python standard library only.
"""
import calendar
import email.utils
import gzip
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import time
import unicodedata

HTTPD = os.environ.get("HTTPD") or "/usr/sbin/apache2"
SRCDIR = os.environ.get("SRCDIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
BUILDDIR = os.environ.get("BUILDDIR") or SRCDIR
MODULE = os.environ.get("MODULE") or os.path.join(
    BUILDDIR, "mod_profile", ".libs", "mod_profile.so")
MODULES_DIR = "/usr/lib/apache2/modules"
MODS_AVAILABLE = "/etc/apache2/mods-available"
SAMPLE_DATA = os.path.join(SRCDIR, "data", "profile.json")
HERE = os.path.dirname(os.path.abspath(__file__))
TEST_DATA = os.path.join(HERE, "data")

# A known past modification time for the data files (2021-03-04 05:06:07Z).
DATA_MTIME = calendar.timegm((2021, 3, 4, 5, 6, 7))

ALLOW_SET = {"GET", "HEAD", "OPTIONS"}

# ---------------------------------------------------------------- routes
# Every route of CONTRACT §2, with the sample data's ids.
COLLECTION_ROUTES = ["/skills", "/experience", "/education",
                     "/case-studies", "/metrics"]
OBJECT_ROUTES = ["/profile", "/contact"]


def all_routes(data):
    routes = ["/profile", "/skills", "/experience"]
    routes += ["/experience/" + r["id"] for r in data["experience"]]
    routes += ["/education", "/contact", "/case-studies"]
    routes += ["/case-studies/" + r["id"] for r in data["caseStudies"]]
    routes += ["/metrics"]
    return routes


# Field order of the specification's §2 tables.
FIELDS = {
    "profile": ["name", "headline", "summary"],
    "skill": ["title", "summary", "skills"],
    "experience": ["id", "role", "company", "companyUrl", "context",
                   "period", "highlights"],
    "education": ["degree", "credential", "institution", "institutionUrl"],
    "contact": ["contacts", "links"],
    "contact_entry": ["kind", "label", "text", "url"],
    "link_entry": ["kind", "text", "url"],
    "case_study": ["id", "title", "mobileTitle", "summary", "organization",
                   "context", "problem", "intervention", "result",
                   "resultItems"],
    "metric": ["id", "value", "label", "summary"],
}
LIST_FIELDS = {"skills", "highlights", "resultItems"}
PLAIN_FIELDS = {"id", "url", "companyUrl", "institutionUrl", "kind"}


def load_data(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _text(value, lang):
    return value if isinstance(value, str) else value[lang]


def _list(value, lang):
    """A list of text values in `lang` (CONTRACT §9): an array of text
    values, or an object with that language's own array."""
    items = value[lang] if isinstance(value, dict) else value
    return [_text(x, lang) for x in items]


def _record(rec, fields, lang):
    out = []
    for name in fields:
        v = rec[name]
        if name in LIST_FIELDS:
            out.append((name, _list(v, lang)))
        elif name in PLAIN_FIELDS:
            out.append((name, v))
        else:
            out.append((name, _text(v, lang)))
    return out


def expected(data, route, lang):
    """The body CONTRACT §2 expects, as ordered pairs (what
    Response.pairs() returns): objects are lists of (key, value)."""
    if route == "/profile":
        return _record(data["profile"], FIELDS["profile"], lang)
    if route == "/skills":
        return [_record(g, FIELDS["skill"], lang) for g in data["skills"]]
    if route == "/experience":
        return [_record(r, FIELDS["experience"], lang)
                for r in data["experience"]]
    if route.startswith("/experience/"):
        rid = route.split("/", 2)[2]
        rec, = [r for r in data["experience"] if r["id"] == rid]
        return _record(rec, FIELDS["experience"], lang)
    if route == "/education":
        return [_record(r, FIELDS["education"], lang)
                for r in data["education"]]
    if route == "/contact":
        c = data["contact"]
        return [("contacts", [_record(e, FIELDS["contact_entry"], lang)
                              for e in c["contacts"]]),
                ("links", [_record(e, FIELDS["link_entry"], lang)
                           for e in c["links"]])]
    if route == "/case-studies":
        return [_record(r, FIELDS["case_study"], lang)
                for r in data["caseStudies"]]
    if route.startswith("/case-studies/"):
        rid = route.split("/", 2)[2]
        rec, = [r for r in data["caseStudies"] if r["id"] == rid]
        return _record(rec, FIELDS["case_study"], lang)
    if route == "/metrics":
        return [_record(r, FIELDS["metric"], lang) for r in data["metrics"]]
    raise KeyError(route)


def fold(s):
    """CONTRACT §8.5: NFC, then full case folding."""
    return unicodedata.normalize("NFC", s).casefold()


def expected_filtered(data, route, param, value, lang):
    """The oracle for a filtered collection (CONTRACT §8.5)."""
    needle = fold(value.strip(" \t\r\n\f\v"))
    if route == "/skills":
        assert param == "q"
        return [_record(g, FIELDS["skill"], lang) for g in data["skills"]
                if needle in fold(_text(g["title"], lang))
                or any(needle in fold(s) for s in _list(g["skills"], lang))]
    if route == "/experience":
        assert param == "company"
        return [_record(r, FIELDS["experience"], lang)
                for r in data["experience"]
                if needle in fold(_text(r["company"], lang))]
    if route == "/case-studies":
        assert param == "organization"
        return [_record(r, FIELDS["case_study"], lang)
                for r in data["caseStudies"]
                if needle in fold(_text(r["organization"], lang))]
    raise KeyError(route)


# ---------------------------------------------------------------- client
class Response:
    def __init__(self, status, reason, headers, body, raw):
        self.status = status
        self.reason = reason
        self.headers = headers          # [(name, value)] as received
        self.body = body                # bytes after the header block
        self.raw = raw

    def header_all(self, name):
        n = name.lower()
        return [v for k, v in self.headers if k.lower() == n]

    def header(self, name):
        vals = self.header_all(name)
        return ", ".join(vals) if vals else None

    def has(self, name):
        return bool(self.header_all(name))

    def tokens(self, name):
        """Comma-separated tokens of every field `name`, lower-cased."""
        out = set()
        for v in self.header_all(name):
            out.update(t.strip().lower() for t in v.split(",") if t.strip())
        return out

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def pairs(self):
        """The body parsed with objects as ordered (key, value) lists."""
        return json.loads(self.body.decode("utf-8"), object_pairs_hook=list)

    @property
    def etag(self):
        return self.header("ETag")

    def __repr__(self):
        return "<Response %d %r %r>" % (self.status, self.headers,
                                        self.body[:300])


def _read_all(sock, timeout):
    sock.settimeout(timeout)
    chunks = []
    while True:
        try:
            b = sock.recv(65536)
        except socket.timeout:
            raise AssertionError("server did not close the connection "
                                 "within %ss; got %r" %
                                 (timeout, b"".join(chunks)[:500]))
        if not b:
            break
        chunks.append(b)
    return b"".join(chunks)


def _dechunk(body):
    out = b""
    while True:
        line, _, rest = body.partition(b"\r\n")
        size = int(line.split(b";")[0], 16)
        if size == 0:
            return out
        out += rest[:size]
        body = rest[size + 2:]


def parse_response(raw, dechunk=True):
    head, sep, body = raw.partition(b"\r\n\r\n")
    assert sep, "no complete header block in %r" % raw[:500]
    lines = head.decode("iso-8859-1").split("\r\n")
    version, status, reason = (lines[0].split(" ", 2) + [""])[:3]
    assert version.startswith("HTTP/1."), lines[0]
    headers = []
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers.append((k.strip(), v.strip()))
    resp = Response(int(status), reason, headers, body, raw)
    if dechunk and "chunked" in resp.tokens("Transfer-Encoding"):
        resp.body = _dechunk(body)
    return resp


def raw_exchange(port, data, timeout=10):
    """Sends raw bytes, reads until the server closes, returns bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        return _read_all(s, timeout)


def request(port, method, target, headers=None, body=None, timeout=10):
    """One HTTP/1.1 request on a fresh connection (Connection: close).

    `target` is sent verbatim (str is encoded as UTF-8, bytes as is), so
    raw query bytes reach the server untouched.  `headers` is a dict or a
    list of pairs; a value of None drops a default header.  The body of
    the answer is whatever follows the header block until the server
    closes: for HEAD and 304 it must be empty."""
    if isinstance(target, str):
        target = target.encode("utf-8")
    hdrs = [("Host", "127.0.0.1:%d" % port), ("Connection", "close")]
    extra = list(headers.items()) if isinstance(headers, dict) else \
        list(headers or [])
    names = {k.lower() for k, _ in extra}
    hdrs = [(k, v) for k, v in hdrs if k.lower() not in names]
    hdrs += [(k, v) for k, v in extra if v is not None]
    if body is not None:
        if isinstance(body, str):
            body = body.encode("utf-8")
        if "content-length" not in names:
            hdrs.append(("Content-Length", str(len(body))))
    req = method.encode("ascii") + b" " + target + b" HTTP/1.1\r\n"
    for k, v in hdrs:
        if isinstance(v, str):
            v = v.encode("utf-8")
        req += k.encode("ascii") + b": " + v + b"\r\n"
    req += b"\r\n" + (body or b"")
    raw = raw_exchange(port, req, timeout)
    return parse_response(raw, dechunk=(method != "HEAD"))


def decompress(body, coding):
    """The body decoded once from its Content-Encoding (None, "gzip" or
    "br")."""
    if coding is None:
        return body
    if coding == "gzip":
        return gzip.decompress(body)
    if coding == "br":
        import brotli           # Debian's python3-brotli
        return brotli.decompress(body)
    raise AssertionError("unexpected Content-Encoding %r" % coding)


def http_date(ts):
    return email.utils.formatdate(ts, usegmt=True)


def parse_http_date(s):
    return calendar.timegm(email.utils.parsedate_to_datetime(s).utctimetuple())


def is_compact(body):
    """No white space outside JSON strings."""
    text = body.decode("utf-8")
    outside = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    return not re.search(r"\s", outside)


# ---------------------------------------------------------------- server
def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (the parent is not ours to reap) counts as gone.
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def _allow_cores():
    """In the httpd process before exec: core files up to the hard limit
    (a shell's `ulimit -c` is often 0), so a crashed child leaves a core
    that crash_triage.py reads."""
    _, hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))


def httpd_env():
    """The environment for httpd: ours, where HTTPD_ENV_NAME=value is
    passed as NAME=value (run.sh preloads the ASan runtime this way into
    a sanitized module's httpd, and into nothing else)."""
    env = {}
    for k, v in os.environ.items():
        if not k.startswith("HTTPD_ENV_"):
            env[k] = v
    for k, v in os.environ.items():
        if k.startswith("HTTPD_ENV_"):
            env[k[len("HTTPD_ENV_"):]] = v
    return env


# What ASan and UBSan print (in a sanitized build; never otherwise).
SANITIZER_REPORT = re.compile(r"==\d+==ERROR: |runtime error: |Sanitizer")
_sanitizer_output = []


def note_sanitizer_output(text):
    """Keeps sanitizer reports an httpd command printed (configuration
    is read, and data files loaded, before any error log is open)."""
    if text and SANITIZER_REPORT.search(text):
        _sanitizer_output.append(text)


def sanitizer_reports():
    """Reports httpd commands printed since the last call."""
    out = list(_sanitizer_output)
    del _sanitizer_output[:]
    return out


# ------------------------------------------------- server configurations
# Every test server is written for one configuration, chosen by the
# environment (tests/integration/matrix.sh runs test files under each;
# docs/testing.md):
#
#   PROFILE_MPM=event|worker|prefork   the MPM (default event)
#   PROFILE_MODSET=minimal|debian      minimal (default): the MPM, authz_core
#       and the module; debian: the modules a fresh `apt install apache2`
#       enables on Debian 12, plus rewrite, each with its .conf from
#       /etc/apache2/mods-available, in Debian's order (every .load, then
#       every .conf, alphabetically, as apache2.conf includes them); the
#       MPM's .conf too
#   PROFILE_PHP=1                      also Debian's mod_php (php*.load and
#       .conf from mods-available); it needs PROFILE_MPM=prefork
#
# What apache2's postinst enables on a fresh install (enable_default_mpm,
# enable_default_modules in /var/lib/dpkg/info/apache2.postinst), with the
# modules their .load files name in "# Depends:" (authn_core, authz_core).
DEBIAN_DEFAULT_MODULES = [
    "access_compat", "alias", "auth_basic", "authn_core", "authn_file",
    "authz_core", "authz_host", "authz_user", "autoindex", "deflate", "dir",
    "env", "filter", "mime", "negotiation", "reqtimeout", "setenvif",
    "status"]
DEBIAN_MODSET = sorted(DEBIAN_DEFAULT_MODULES + ["rewrite"])
MPMS = ("event", "worker", "prefork")
MODSETS = ("minimal", "debian")


class Configuration:
    """The server configuration the environment asks for."""

    def __init__(self, env=None):
        env = os.environ if env is None else env
        self.mpm = env.get("PROFILE_MPM") or "event"
        self.modset = env.get("PROFILE_MODSET") or "minimal"
        self.php = (env.get("PROFILE_PHP") or "0") not in ("0", "no", "")
        if self.mpm not in MPMS:
            raise ValueError("PROFILE_MPM=%r: one of %s"
                             % (self.mpm, ", ".join(MPMS)))
        if self.modset not in MODSETS:
            raise ValueError("PROFILE_MODSET=%r: one of %s"
                             % (self.modset, ", ".join(MODSETS)))
        if self.php and self.mpm != "prefork":
            raise ValueError("PROFILE_PHP=1 needs PROFILE_MPM=prefork "
                             "(Debian's mod_php is not thread-safe)")

    def __str__(self):
        return "mpm=%s modset=%s php=%s" % (self.mpm, self.modset,
                                            "yes" if self.php else "no")

    def debian_names(self):
        """Names of the mods-available files this configuration uses
        (empty for the minimal set without PHP)."""
        names = []
        if self.modset == "debian":
            names = ["mpm_" + self.mpm] + DEBIAN_MODSET
        if self.php:
            names.append(php_name())
        return sorted(names)

    def missing_files(self):
        """Files this configuration needs that this machine lacks."""
        out = []
        for n in self.debian_names():
            f = os.path.join(MODS_AVAILABLE, n + ".load")
            if not os.path.exists(f):
                out.append(f)
                continue
            for _, so in _load_lines(f):
                if not os.path.exists(so):
                    out.append(so)
        if self.modset == "minimal":
            for n in ("mpm_" + self.mpm, "authz_core"):
                so = os.path.join(MODULES_DIR, "mod_%s.so" % n)
                if not os.path.exists(so):
                    out.append(so)
        return out

    def prologue(self, module):
        """LoadModule lines and Includes of the configuration, the
        module's LoadModule among them; and the identifiers of the modules
        loaded (load_modules() skips them)."""
        if self.modset == "minimal":
            loads = [("mpm_%s_module" % self.mpm,
                      os.path.join(MODULES_DIR, "mod_mpm_%s.so" % self.mpm)),
                     ("authz_core_module",
                      os.path.join(MODULES_DIR, "mod_authz_core.so"))]
            if self.php:
                loads += _load_lines(os.path.join(MODS_AVAILABLE,
                                                  php_name() + ".load"))
            loads.append(("profile_module", module))
            confs = [php_name()] if self.php else []
        else:
            # profile.load sorts among the others, as after `a2enmod
            # profile` (the Debian package's file).
            loads = []
            for n in sorted(self.debian_names() + ["profile"]):
                if n == "profile":
                    loads.append(("profile_module", module))
                else:
                    loads += _load_lines(os.path.join(MODS_AVAILABLE,
                                                      n + ".load"))
            confs = self.debian_names()
        lines = ["LoadModule %s %s" % (m, so) for m, so in loads]
        for n in confs:
            f = os.path.join(MODS_AVAILABLE, n + ".conf")
            if os.path.exists(f):
                lines.append('Include "%s"' % f)
        return "\n".join(lines) + "\n", {m for m, _ in loads}


def _load_lines(path):
    """(identifier, file) of each LoadModule line of a Debian .load file."""
    out = []
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) == 3 and words[0] == "LoadModule":
                out.append((words[1], words[2]))
    return out


def php_name():
    """The name of Debian's mod_php in mods-available (php8.2 on Debian
    12); "php" when none is installed."""
    try:
        names = sorted(n[:-len(".load")] for n in os.listdir(MODS_AVAILABLE)
                       if re.match(r"php[0-9.]+\.load$", n))
    except OSError:
        names = []
    return names[-1] if names else "php"


CONFIGURATION = Configuration()


LOG_PROBLEM = re.compile(r":(warn|error|crit|alert|emerg)\]|"
                         + SANITIZER_REPORT.pattern)


class Httpd:
    """A private Apache httpd: its own ServerRoot under `root`, config,
    port, error log and pid file.  `body` is the part of the config after
    the common prologue (the <Location> blocks)."""

    def __init__(self, root, body, name="httpd"):
        self.root = root
        self.name = name
        self.port = free_port()
        self.body = body
        self.conf = os.path.join(root, "httpd.conf")
        self.error_log = os.path.join(root, "logs", "error.log")
        self.pid_file = os.path.join(root, "logs", "httpd.pid")
        # Where a crashing process leaves its core under a relative
        # kernel.core_pattern ("core", "core.%e.%p": a file in its cwd,
        # which httpd sets to CoreDumpDirectory; httpd also makes children
        # that changed User dumpable again).  crash_triage.py follows any
        # other pattern.  Written by the children's user: world-writable.
        self.core_dir = os.path.join(root, "cores")
        self.log_checked = 0        # bytes of the error log already judged
        self.pid = None
        self.module = MODULE        # the .so its LoadModule names
        os.makedirs(os.path.join(root, "logs"), exist_ok=True)
        os.makedirs(os.path.join(root, "htdocs"), exist_ok=True)
        os.makedirs(self.core_dir, exist_ok=True)
        for d in (root, os.path.join(root, "htdocs")):
            os.chmod(d, 0o755)
        os.chmod(self.core_dir, 0o1777)
        self.write_conf()

    def write_conf(self, body=None):
        if body is not None:
            self.body = body
        user = ""
        if os.geteuid() == 0:
            user = "User www-data\nGroup www-data\n"
        conf = """\
ServerRoot "{root}"
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile logs/httpd.pid
ErrorLog logs/error.log
CoreDumpDirectory "{core_dir}"
LogLevel warn
{modules}{user}TraceEnable off
AllowEncodedSlashes NoDecode
DocumentRoot "{root}/htdocs"
<Directory />
    Require all denied
</Directory>

{body}
""".format(root=self.root, port=self.port, core_dir=self.core_dir,
           modules=CONFIGURATION.prologue(self.module)[0], user=user,
           body=self.body)
        with open(self.conf, "w") as f:
            f.write(conf)

    # -- control ------------------------------------------------------
    def ctl(self, *args, timeout=60):
        """Runs the httpd binary with this server's -d/-f."""
        cp = subprocess.run([HTTPD, "-d", self.root, "-f", self.conf]
                            + list(args), capture_output=True,
                            text=True, timeout=timeout, env=httpd_env(),
                            preexec_fn=_allow_cores)
        note_sanitizer_output(cp.stdout)
        note_sanitizer_output(cp.stderr)
        return cp

    def configtest(self):
        return self.ctl("-t")

    def start_checked(self):
        """start(), asserting that it worked and logged nothing at [warn]
        or worse (the per-test guard judges only later lines)."""
        cp = self.start()
        assert cp.returncode == 0, cp.stderr
        lines = self.new_problem_lines()
        assert not lines, "%s logged at start-up:\n%s" % (
            self.name, "\n".join(lines))
        return self

    def start(self, wait=True):
        """`httpd -k start`; then polls until the server answers.  A port
        taken since free_port() fails the start (or, should the parent
        have detached already, shows in the error log): retry elsewhere."""
        for attempt in range(3):
            if os.path.exists(self.pid_file):
                os.unlink(self.pid_file)
            log_start = os.path.getsize(self.error_log) \
                if os.path.exists(self.error_log) else 0
            cp = self.ctl("-k", "start")
            if cp.returncode != 0 and "could not bind" in cp.stderr \
                    and attempt < 2:
                self.port = free_port()
                self.write_conf()
                continue
            if cp.returncode != 0 or not wait:
                return cp
            if self._wait_up(log_start):
                return cp
            self.stop()
            self.port = free_port()
            self.write_conf()
        raise AssertionError("%s did not come up on port %d; error log:\n%s"
                             % (self.name, self.port, self.read_log()))

    def _wait_up(self, log_start):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.pid is None and os.path.exists(self.pid_file):
                try:
                    with open(self.pid_file) as f:
                        self.pid = int(f.read().strip())
                except ValueError:
                    pass
            if self.pid is not None and self.answers():
                return True
            try:
                with open(self.error_log, "rb") as f:
                    f.seek(log_start)
                    failed = b"could not bind" in f.read()
            except FileNotFoundError:
                failed = False
            if failed:
                time.sleep(0.2)
                # Not this suite's doing: keep the guard from judging it.
                self.log_checked = os.path.getsize(self.error_log)
                return False
            time.sleep(0.05)
        return False

    def answers(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port),
                                          timeout=1) as s:
                s.sendall(b"OPTIONS * HTTP/1.1\r\nHost: x\r\n"
                          b"Connection: close\r\n\r\n")
                return _read_all(s, 5).startswith(b"HTTP/1.1 200")
        except (OSError, AssertionError):
            return False

    def running(self):
        return self.pid is not None and _alive(self.pid)

    def graceful(self):
        return self.ctl("-k", "graceful")

    def stop(self):
        if self.pid is None:
            return
        pid = self.pid
        if _alive(pid):
            if self.ctl("-k", "stop").returncode != 0:
                # `-k stop` reads the configuration first: with a
                # configuration a test left broken it refuses.  Send what it
                # would send.
                try:
                    os.kill(pid, signal.SIGTERM)
                except OSError:
                    pass
            deadline = time.monotonic() + 20
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _alive(pid):
                # Last resort, our own server only: its process group
                # (httpd -k start makes the parent a session leader).
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
        self.pid = None

    # -- requests -----------------------------------------------------
    def get(self, target, headers=None, **kw):
        return request(self.port, "GET", target, headers, **kw)

    def request(self, method, target, headers=None, body=None, **kw):
        return request(self.port, method, target, headers, body, **kw)

    # -- error log ----------------------------------------------------
    def read_log(self):
        try:
            with open(self.error_log, encoding="utf-8",
                      errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def new_problem_lines(self):
        """[warn] and worse lines logged since the last call."""
        try:
            with open(self.error_log, "rb") as f:
                f.seek(self.log_checked)
                new = f.read()
        except FileNotFoundError:
            return []
        self.log_checked += len(new)
        return [ln for ln in new.decode("utf-8", "replace").splitlines()
                if LOG_PROBLEM.search(ln)]


def wait_for(predicate, timeout=15):
    """Polls `predicate` until it holds or `timeout` seconds pass; returns
    its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def write_json(path, data, mtime=DATA_MTIME):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
        f.write("\n")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def copy_data(src, dst, mtime=DATA_MTIME):
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o644)
    if mtime is not None:
        os.utime(dst, (mtime, mtime))
    return dst


# CONTRACT §9: a bad data file fails the configuration only with this
# (the default is bad=keep): the server's default for every ProfileData
# line that does not say (CONTRACT §1).
REFUSE = "ProfileBadData refuse\n"


def location(path, data, extra="", opts=""):
    """A <Location> serving `data`; `opts` are the ProfileData line's
    options ("bad=refuse compress=off")."""
    return """<Location {path}>
    Require all granted
    SetHandler profile
    ProfileData "{data}"{opts}
{extra}</Location>
""".format(path=path, data=data, extra=extra,
           opts=" " + opts if opts else "")


def load_modules(*names):
    """LoadModule lines for modules of the httpd installation, by short
    name: load_modules("filter", "deflate") loads filter_module from
    mod_filter.so and deflate_module from mod_deflate.so.  Modules the
    configuration loads already (PROFILE_MODSET=debian) are skipped:
    httpd warns about a module loaded twice."""
    loaded = CONFIGURATION.prologue(MODULE)[1]
    return "".join("LoadModule %s_module %s/mod_%s.so\n" % (n, MODULES_DIR, n)
                   for n in names if "%s_module" % n not in loaded)


def module_loaded(name):
    """Whether the configuration loads module `name` (short name) by
    itself."""
    return "%s_module" % name in CONFIGURATION.prologue(MODULE)[1]

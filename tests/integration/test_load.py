# SPDX-License-Identifier: Apache-2.0
"""Load and reloads under load, with wrk (tests/integration/load.lua).

* test_load_at_full_rate: 64 connections for PROFILE_LOAD_SECONDS (10 by
  default; `make loadtest` runs 60) at full rate over every route, both
  languages, filters, conditional requests (304), preflights and errors.
  Every response must be exactly the one its request must get (status,
  ETag, Last-Modified, Content-Language, body); no socket error; the
  memory of the httpd processes flat (RSS summed at start and end).
* test_reloads_under_load: the same load while, every second, the data
  file is replaced atomically (rename) by the other of two valid versions
  and the server reloaded gracefully (`apache2 -k graceful` and SIGUSR1
  by turns).  Every response must be exactly one version's answer to its
  request, headers and body together: nothing torn, nothing mixed.

The expected answers are fetched before the load from servers started on
each version, checked against the oracle of httpd_harness (bodies) and
the contract (statuses), and written into a Lua table for the script.
"""
import copy
import json
import os
import signal
import subprocess
import time
import urllib.parse

import pytest

import httpd_harness as h
import proc_util as pu

B = "/api/v1"
# httpd hands a directive at most 64 arguments (see test_cors.py), so the
# kinds are spread over <Location>s of the same data, 60 origins each.
BASES = ["/api/v1", "/mirror/api/v1", "/third/api/v1"]
PER_BASE = 60
SECONDS = int(os.environ.get("PROFILE_LOAD_SECONDS", "10"))
CONNECTIONS = 64
THREADS = 2
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "load.lua")

# Enough worker threads for every connection: with fewer, the event MPM
# closes idle keep-alive connections whenever a process's workers are all
# busy, which wrk counts as read errors (a property of httpd's overload
# policy, not of the module).  A fixed number of processes also makes
# their summed memory comparable; ServerLimit leaves room for a graceful
# restart's new generation beside the old one.
MPM = """StartServers 2
ServerLimit 4
ThreadsPerChild 64
MaxRequestWorkers 128
MinSpareThreads 1
MaxSpareThreads 128
MaxConnectionsPerChild 0
"""

# Under the sanitized build (tests/sanitize/run.sh) httpd runs with the
# ASan runtime, whose quarantine keeps freed memory for a while by design:
# memory is not expected to stay flat there, so it is reported, not judged.
SANITIZED = bool(os.environ.get("HTTPD_ENV_LD_PRELOAD"))

LANGS = [("en", "en-GB,en;q=0.9"), ("es", "es-MX,es;q=0.9,en;q=0.5")]
FILTERS = [("/skills", "q", "kube"), ("/skills", "q", "C"),
           ("/skills", "q", "zzz-none"),
           ("/experience", "company", "STRASSE"),
           ("/experience", "company", "norteverde"),
           ("/case-studies", "organization", "ingenier\u00eda"),
           ("/case-studies", "organization", "x-none")]


def _wrk():
    wrk = pu.wrk_binary()
    if wrk is None:
        if os.environ.get("CI"):
            pytest.fail("wrk is missing (scripts/install-deps installs it)")
        pytest.skip("wrk is not installed (scripts/install-deps)")
    return wrk


# ---------------------------------------------------------------- kinds
class Kind:
    def __init__(self, method, target, lang, al, status=None,
                 oracle=None, cond=None, extra=()):
        self.method = method
        self.target = target
        self.lang = lang
        self.headers = [("Accept-Language", al)] + list(extra)
        self.status = status        # the contract's status, or None when
                                    # it depends on the version (cond)
        self.oracle = oracle        # (route, lang, filt) of a 200 body
        self.cond = cond            # ("inm"|"ims", kind index, version)
        self.cond_headers = []      # its If-None-Match/If-Modified-Since


def kinds_for(data, versions=(1, 2), closing=True):
    """The request kinds: every route in both languages, plain and
    conditional (If-None-Match with the ETag of each version, and
    If-Modified-Since), filters, 404s, 405s, preflights and, when
    `closing`, 400s (after which httpd closes the connection)."""
    out = []
    for route in h.all_routes(data):
        for lang, al in LANGS:
            out.append(Kind("GET", B + route, lang, al, 200,
                            (route, lang, None)))
            base = len(out) - 1
            for v in versions:
                out.append(Kind("GET", B + route, lang, al,
                                cond=("inm", base, v)))
            out.append(Kind("GET", B + route, lang, al,
                            cond=("ims", base, 1)))
    for route, param, value in FILTERS:
        for lang, al in LANGS:
            target = "%s%s?%s=%s" % (B, route, param,
                                     urllib.parse.quote(value, safe=""))
            out.append(Kind("GET", target, lang, al, 200,
                            (route, lang, (param, value))))
            base = len(out) - 1
            out.append(Kind("GET", target, lang, al, cond=("inm", base, 1)))
    for lang, al in LANGS:
        out += [
            Kind("GET", B + "/nope", lang, al, 404),
            Kind("GET", B + "/experience/nope", lang, al, 404),
            Kind("POST", B + "/metrics", lang, al, 405),
            Kind("DELETE", B + "/experience", lang, al, 405),
            Kind("OPTIONS", B + "/skills", lang, al, 200,
                 extra=[("Access-Control-Request-Method", "GET")]),
        ]
        if closing:
            out += [Kind("GET", B + "/skills?q=", lang, al, 400),
                    Kind("GET", B + "/profile?x=1", lang, al, 400)]
    return out


def origin(i):
    return "http://k%d.load.test" % i


def target(i, kind):
    """Kind i's request target: its path below the base of its group."""
    return BASES[i // PER_BASE] + kind.target[len(B):]


def location(data_path, n_kinds):
    assert n_kinds <= PER_BASE * len(BASES)
    return "".join(h.location(base, data_path, "    ProfileCORSOrigins %s\n"
                              % " ".join(origin(i) for i in range(
                                  g * PER_BASE, min(n_kinds,
                                                    (g + 1) * PER_BASE))))
                   for g, base in enumerate(BASES) if g * PER_BASE < n_kinds)


# ---------------------------------------------------------------- answers
def fetch(server, kind, i, cond_headers=()):
    return server.request(kind.method, target(i, kind),
                          kind.headers + list(cond_headers)
                          + [("Origin", origin(i))])


def answers(servers, datas, kinds):
    """{version: [answer per kind]} fetched from one server per version,
    checked against the contract and the oracle.  Conditional kinds come
    last: they need the ETags and dates of every version."""
    out = {v: [None] * len(kinds) for v in servers}
    for conditional in (False, True):
        for v, server in servers.items():
            for i, k in enumerate(kinds):
                if bool(k.cond) != conditional:
                    continue
                extra = []
                status = k.status
                if k.cond:
                    how, base, cv = k.cond
                    ref, mine = out[cv][base], out[v][base]
                    lm = ref.header("Last-Modified")
                    if how == "inm":
                        extra = [("If-None-Match", ref.etag)]
                        status = 304 if ref.etag == mine.etag else 200
                    else:
                        extra = [("If-Modified-Since", lm)]
                        status = 304 if h.parse_http_date(lm) >= \
                            h.parse_http_date(mine.header("Last-Modified")) \
                            else 200
                k.cond_headers = extra      # the same for every version
                r = fetch(server, k, i, extra)
                assert r.status == status, (v, k.method, k.target, extra, r)
                assert r.header("Access-Control-Allow-Origin") == \
                    origin(i), r
                assert r.header("Content-Language") == k.lang, r
                if k.cond and r.status == 304:
                    assert r.body == b"" and r.etag == out[v][base].etag, r
                if k.cond and r.status == 200:
                    assert (r.etag, r.body) == (mine.etag, mine.body), r
                if k.oracle:
                    route, lang, filt = k.oracle
                    want = h.expected(datas[v], route, lang) \
                        if filt is None else h.expected_filtered(
                            datas[v], route, filt[0], filt[1], lang)
                    assert r.pairs() == want, (v, k.target)
                if r.status >= 400:
                    assert r.json()["status"] == r.status, r
                out[v][i] = r
    return out


def _lua_str(b):
    if isinstance(b, str):
        b = b.encode("utf-8")
    out = []
    for c in b:
        if c in (0x22, 0x5c) or c < 0x20 or c >= 0x7f:
            out.append("\\%03d" % c)
        else:
            out.append(chr(c))
    return '"' + "".join(out) + '"'


def write_cases(path, kinds, by_version, extra_headers=()):
    """The Lua table load.lua reads: for each kind, its request and the
    distinct answers of the versions (v = 1, 2, or 0 when both versions
    answer the same)."""
    lines = ["return {"]
    for i, k in enumerate(kinds):
        hdrs = ", ".join("[%s] = %s" % (_lua_str(n), _lua_str(v))
                         for n, v in list(k.headers) + k.cond_headers
                         + list(extra_headers))
        alts = []
        for v, rows in sorted(by_version.items()):
            r = rows[i]
            alt = {"status": str(r.status),
                   "lang": _lua_str(r.header("Content-Language"))}
            if r.etag is not None:
                alt["etag"] = _lua_str(r.etag)
            if r.has("Last-Modified"):
                alt["lm"] = _lua_str(r.header("Last-Modified"))
            alt["body"] = _lua_str(r.body)
            alts.append((v, alt))
        if len(alts) == 2 and alts[0][1] == alts[1][1]:
            alts = [(0, alts[0][1])]
        exp = ", ".join("{%s, v = %d}" % (", ".join(
            "%s = %s" % kv for kv in sorted(a.items())), v) for v, a in alts)
        lines.append("  {method = %s, path = %s, origin = %s, headers = {%s},"
                     " expect = {%s}}," % (_lua_str(k.method),
                                          _lua_str(target(i, k)),
                                          _lua_str(origin(i)), hdrs, exp))
    lines.append("}")
    with open(path, "w", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------- wrk
def wrk_cmd(port, seconds, cases):
    return ["nice", "-n", "5", _wrk(), "-t%d" % THREADS,
            "-c%d" % CONNECTIONS, "-d%ds" % seconds, "--timeout", "10s",
            "-s", SCRIPT, "http://127.0.0.1:%d/" % port, "--", cases]


def parse_result(cp_stdout, stderr=""):
    result = None
    samples = []
    for line in cp_stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[len("RESULT "):])
        elif line.startswith("SAMPLE ") or samples:
            samples.append(line)
    assert result is not None, (cp_stdout, stderr)
    return result, "\n".join(samples)


def check_result(res, samples, out):
    assert res["connect"] == res["read"] == res["write"] == \
        res["timeout"] == 0, ("socket errors", res, out)
    assert res["mismatches"] == 0 and res["unidentified"] == 0, \
        (res, samples)
    assert res["responses"] == res["requests"] > 0, res
    assert res["st500"] == res["st_other"] == res["st412"] == 0, res


def report(title, res, extra):
    print("\n%s" % title)
    print("  requests %d in %.1f s (%.0f/s), %d bytes; socket errors: "
          "connect %d, read %d, write %d, timeout %d"
          % (res["requests"], res["duration_us"] / 1e6,
             res["requests"] / (res["duration_us"] / 1e6), res["bytes"],
             res["connect"], res["read"], res["write"], res["timeout"]))
    print("  statuses: 200 %d, 304 %d, 400 %d, 404 %d, 405 %d, other %d; "
          "wrong answers %d, unidentified %d"
          % (res["st200"], res["st304"], res["st400"], res["st404"],
             res["st405"], res["st412"] + res["st500"] + res["st_other"],
             res["mismatches"], res["unidentified"]))
    print("  latency p50 %.1f ms, p99 %.1f ms, max %.1f ms"
          % (res["latency_p50_us"] / 1e3, res["latency_p99_us"] / 1e3,
             res["latency_max_us"] / 1e3))
    for line in extra:
        print("  " + line)


def rss_line(label, rss):
    return "%s: %d KiB in %d processes (parent %d KiB)" % (
        label, rss["total"], rss["processes"], rss["parent"])


# ---------------------------------------------------------------- tests
def _data_copy(workdir, name, data=None, mtime=h.DATA_MTIME):
    d = os.path.join(workdir, "load-" + name)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = os.path.join(d, "profile.json")
    if data is None:
        h.copy_data(h.SAMPLE_DATA, path, mtime=mtime)
    else:
        h.write_json(path, data, mtime=mtime)
    os.chmod(path, 0o644)
    return path


def test_load_at_full_rate(make_httpd, workdir, sample):
    _wrk()
    # No 400s here: a response after which httpd closes the connection,
    # mixed into keep-alive load, makes the event MPM now and then close
    # other clients' idle keep-alive connections (seen without mod_profile
    # too, with httpd's own 404s and 400s), and wrk counts each as a read
    # error.  The reload test, one connection per request, has them.
    kinds = kinds_for(sample, versions=(1,), closing=False)
    path = _data_copy(workdir, "full")
    server = make_httpd("load", MPM + location(path, len(kinds)))
    assert server.start().returncode == 0
    try:
        by_version = answers({1: server}, {1: sample}, kinds)
        cases = os.path.join(workdir, "load-full", "cases.lua")
        write_cases(cases, kinds, by_version)
        # A warm-up as long as the measured run (its answers are checked
        # too): httpd's memory grows while its worker threads first meet
        # the mix, then levels off (about 26 MB summed after 75 s here).
        pid = server.pid
        rss_fresh = pu.server_rss(pid)
        warm = subprocess.run(wrk_cmd(server.port, SECONDS, cases),
                              capture_output=True, text=True,
                              timeout=SECONDS + 60)
        wres, wsamples = parse_result(warm.stdout, warm.stderr)
        check_result(wres, wsamples, warm.stdout + warm.stderr)
        rss0 = pu.server_rss(pid)
        cp = subprocess.run(wrk_cmd(server.port, SECONDS, cases),
                            capture_output=True, text=True,
                            timeout=SECONDS + 60)
        rss1 = pu.server_rss(pid)
        res, samples = parse_result(cp.stdout, cp.stderr)
        report("load: %d s (after a warm-up of %d s, %d requests), %d "
               "connections, %d request kinds"
               % (SECONDS, SECONDS, wres["requests"], CONNECTIONS,
                  len(kinds)), res,
               [rss_line("RSS before the warm-up", rss_fresh),
                rss_line("RSS at start", rss0), rss_line("RSS at end", rss1)])
        check_result(res, samples, cp.stdout + cp.stderr)
        assert res["st304"] > 0 and res["st200"] > 0 and res["st404"] > 0
        assert server.running() and server.pid == pid
        pu.assert_no_crash(server, server.read_log())
        # Memory flat: the same processes, and growth within allocator
        # noise (a leak of 20 bytes a request would exceed it).
        assert rss1["processes"] == rss0["processes"], (rss0, rss1)
        if not SANITIZED:
            assert rss1["total"] <= rss0["total"] * 1.10 + 1024, (rss0, rss1)
            assert rss1["parent"] <= rss0["parent"] + 256, (rss0, rss1)
    finally:
        server.stop()


def version_b(sample):
    """The second valid version: changed texts in several collections, so
    that some representations change and others keep their ETags."""
    d = copy.deepcopy(sample)
    d["profile"]["headline"]["en"] = "Principal Platform Engineer"
    d["profile"]["headline"]["es"] = "Ingeniera principal de plataforma"
    d["skills"][0]["title"]["en"] = "Platform, infrastructure & more"
    d["experience"][1]["period"]["es"] = "mar 2017 – jun 2021"
    d["caseStudies"][0]["title"]["en"] = "Moving telemetry to Kubernetes"
    d["metrics"][0]["value"] = "99.99%"
    return d


def _swap(path, src, mtime):
    """Replaces `path` by a copy of `src` atomically (write, rename)."""
    tmp = path + ".new"
    with open(src, "rb") as f, open(tmp, "wb") as g:
        g.write(f.read())
    os.chmod(tmp, 0o644)
    os.utime(tmp, (mtime, mtime))
    os.rename(tmp, path)


# On a busy machine a graceful restart can find every worker of both
# generations busy for a moment; httpd says so once (requests wait, none
# fail: the test counts them).
@pytest.mark.allow_log(r"AH00484: server reached MaxRequestWorkers")
def test_reloads_under_load(make_httpd, workdir, sample):
    _wrk()
    kinds = kinds_for(sample)
    data_b = version_b(sample)
    mt = {1: h.DATA_MTIME, 2: h.DATA_MTIME + 86400}
    files = {1: _data_copy(workdir, "v1", mtime=mt[1]),
             2: _data_copy(workdir, "v2", data_b, mtime=mt[2])}
    servers = {}
    try:
        for v in (1, 2):
            servers[v] = make_httpd("load-v%d" % v,
                                    MPM + location(files[v], len(kinds)))
            assert servers[v].start().returncode == 0
        by_version = answers(servers, {1: sample, 2: data_b}, kinds)
    finally:
        for s in servers.values():
            s.stop()
    changed = sum(1 for a, b in zip(by_version[1], by_version[2])
                  if a.body != b.body or a.etag != b.etag)
    assert changed >= 10, changed

    live = _data_copy(workdir, "live", mtime=mt[1])
    server = make_httpd("reload", MPM + location(live, len(kinds)))
    assert server.start().returncode == 0
    cases = os.path.join(workdir, "load-live", "cases.lua")
    # Every request on a connection of its own: a graceful restart closes
    # idle keep-alive connections, and a request racing that close is one
    # an HTTP client retries (RFC 9112 §9.3.1) but wrk counts as an error.
    write_cases(cases, kinds, by_version, [("Connection", "close")])
    probe = kinds[0]
    probe_etag = {v: by_version[v][0].etag for v in (1, 2)}
    assert probe_etag[1] != probe_etag[2]
    try:
        pid = server.pid
        # httpd's parent grows once, at its first restart, by some 350 KiB
        # (with or without mod_profile), then stays flat: measure after a
        # first round of both versions.
        rss_fresh = pu.server_rss(pid)
        for v in (2, 1):
            _swap(live, files[v], mt[v])
            pu.restart(server, "USR1")
        rss0 = pu.server_rss(pid)
        log_start = pu.log_size(server)
        proc = subprocess.Popen(wrk_cmd(server.port, SECONDS, cases),
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        reloads = {"graceful": 0, "USR1": 0}
        seen = 0
        delays = []
        current = 1
        t0 = time.monotonic()
        next_at = t0 + 1
        while time.monotonic() < t0 + SECONDS - 1.5:
            time.sleep(max(0, next_at - time.monotonic()))
            next_at += 1
            current = 3 - current
            t_swap = time.monotonic()
            _swap(live, files[current], mt[current])
            how = "graceful" if (reloads["graceful"] + reloads["USR1"]) \
                % 2 == 0 else "USR1"
            if how == "graceful":
                cp = server.graceful()
                assert cp.returncode == 0, cp.stderr
            else:
                os.kill(pid, signal.SIGUSR1)
            reloads[how] += 1
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                r = fetch(server, probe, 0)
                if r.etag == probe_etag[current]:
                    seen += 1
                    delays.append(time.monotonic() - t_swap)
                    break
                time.sleep(0.02)
        out, err = proc.communicate(timeout=SECONDS + 60)
        rss1 = pu.server_rss(pid)
        res, samples = parse_result(out, err)
        n = reloads["graceful"] + reloads["USR1"]
        report("reloads under load: %d s, %d connections (one request "
               "each), %d request kinds" % (SECONDS, CONNECTIONS,
                                            len(kinds)), res,
               ["reloads: %d (%d apache2 -k graceful, %d SIGUSR1), %d seen "
                "taking effect, after %.2f s at most (median %.2f s)"
                % (n, reloads["graceful"], reloads["USR1"], seen,
                   max(delays or [0]), sorted(delays or [0])[len(delays) // 2]),
                "answers of version 1: %d, version 2: %d, the same in both:"
                " %d" % (res["v1"], res["v2"], res["vboth"]),
                rss_line("RSS before the first reload", rss_fresh),
                rss_line("RSS at start", rss0), rss_line("RSS at end", rss1)])
        check_result(res, samples, out + err)
        # A reload a second, or as soon as the previous one took effect
        # (about a second under this load; slower machines take longer).
        assert n >= max(2, SECONDS // 4) and seen == n, (reloads, seen)
        assert res["v1"] > 0 and res["v2"] > 0, res
        assert server.running() and server.pid == pid
        log = pu.log_since(server, log_start)
        pu.assert_no_crash(server, log)
        assert not pu.module_messages(log), log
        # The parent holds the data: flat over every reload.  Its
        # anonymous memory, that is: the pages of the libraries the
        # module links (brotli, libm, utf8proc) leave its RSS with each
        # restart, which unloads the .so, and come back only when a
        # restart renders a file rather than maps its compiled form
        # (about 0.6 MB either way).
        if not SANITIZED:
            assert rss1["parent_anon"] <= rss0["parent_anon"] + 256, \
                (rss0, rss1)
    finally:
        server.stop()

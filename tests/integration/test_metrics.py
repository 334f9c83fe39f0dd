# SPDX-License-Identifier: Apache-2.0
"""The Prometheus metrics of `SetHandler profile-metrics` (CONTRACT §10,
docs/operations.md "Prometheus"):

* the text exposition format 0.0.4, never cached, GET and HEAD only;
* per data file: stale and unavailable gauges, the time and duration of
  the load served, records per collection, untranslated texts per
  language; the module's version as
  profile_build_info; all agreeing with the JSON status in every state
  (fresh, kept unchanged, stale after a bad reload, never loaded);
* `promtool check metrics` accepts every state, and the shipped alerting
  rules pass `promtool check rules` and fire as documented
  (`promtool test rules`);
* a real Prometheus server scraping the module sees profile_data_stale go
  to 1 after a bad reload and back to 0 after a good one.

The promtool and Prometheus tests need Debian's `prometheus` package
(scripts/install-deps); without it they are skipped, saying so.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

import pytest

import httpd_harness as h
import proc_util as pu
from test_datafile import MINIMAL_FILE
from test_status import STATUS, module_version, status_json, _dir, _put

METRICS = """<Location /profile-metrics>
    SetHandler profile-metrics
    Require all granted
</Location>
"""
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
RULES = os.path.join(h.SRCDIR, "contrib", "monitoring", "profile-alerts.yml")
COLLECTIONS = ["skills", "experience", "education", "caseStudies",
               "metrics"]
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def need(tool):
    path = shutil.which(tool)
    if path is None:
        pytest.skip("%s is not installed (Debian's prometheus package, "
                    "scripts/install-deps)" % tool)
    return path


def unescape(v):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n"
                  else m.group(1), v)


def parse(text):
    """{(name, ((label, value), ...)): float} of the samples of `text`,
    checking that every family has its HELP and TYPE lines first."""
    samples, typed = {}, set()
    for ln in text.splitlines():
        if ln.startswith("# TYPE "):
            name, kind = ln.split()[2:4]
            assert kind == "gauge", ln
            typed.add(name)
            continue
        if ln.startswith("# HELP "):
            continue
        m = SAMPLE.match(ln)
        assert m, "not a sample line: %r" % ln
        assert m.group(1) in typed, "no TYPE before %r" % ln
        assert m.group(1).startswith("profile_"), ln
        labels = tuple(sorted((k, unescape(v))
                              for k, v in LABEL.findall(m.group(2) or "")))
        key = (m.group(1), labels)
        assert key not in samples, "duplicate sample %r" % ln
        samples[key] = float(m.group(3))
    return samples


def metrics(server):
    r = server.get("/profile-metrics")
    assert r.status == 200, r
    assert r.header("Content-Type") == CONTENT_TYPE
    assert r.header("Cache-Control") == "no-store"
    text = r.body.decode("utf-8")
    assert text.endswith("\n")
    return text


def expected(st):
    """The samples the metrics must carry for JSON status `st`."""
    out = {("profile_build_info", (("version", st["version"]),)): 1.0}
    for f in st["data"]:
        lab = (("file", f["path"]),)
        out[("profile_data_stale", lab)] = float(f["state"] == "stale")
        out[("profile_data_unavailable", lab)] = \
            float(f["state"] == "unavailable")
        if f["state"] == "unavailable":
            continue
        out[("profile_data_load_duration_seconds", lab)] = f["loadSeconds"]
        for c in COLLECTIONS:
            out[("profile_data_records", (("collection", c),) + lab)] = \
                float(f["records"][c])
        for lang, n in f["untranslated"].items():
            out[("profile_data_untranslated_texts", lab
                 + (("language", lang),))] = float(n)
    return out


def check_agrees(server):
    """The metrics say what the JSON status says; returns their text."""
    text = metrics(server)
    st = status_json(server)
    got = parse(text)
    stamps = {k: v for k, v in got.items()
              if k[0] == "profile_data_last_load_timestamp_seconds"}
    rest = {k: v for k, v in got.items() if k not in stamps}
    want = expected(st)
    assert rest.keys() == want.keys()
    for k, v in want.items():
        assert abs(rest[k] - v) < 1e-6, (k, rest[k], v)
    loaded = {f["path"]: f["loadedAt"] for f in st["data"]
              if f["state"] != "unavailable"}
    assert {dict(k[1])["file"] for k in stamps} == set(loaded)
    for k, v in stamps.items():
        assert time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(v))) \
            == loaded[dict(k[1])["file"]]
    return text


# ------------------------------------------------ the states, one walk
@pytest.fixture(scope="module")
def states(make_httpd, workdir):
    """The metrics text of a file fresh, kept unchanged by a restart,
    stale after a bad reload, fresh again; and of one never loaded."""
    texts = {}
    path = os.path.join(_dir(workdir, "metrics-states"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("metrics-states", "")
    server.write_conf(h.load_modules("status") + STATUS + METRICS
                      + h.location("/api/v1", path))
    server.start_checked()
    try:
        texts["fresh"] = check_agrees(server)
        os.utime(path, (h.DATA_MTIME + 5, h.DATA_MTIME + 5))
        pu.restart(server, "USR1")
        assert status_json(server)["data"][0]["keptUnchanged"] is True
        texts["kept"] = check_agrees(server)
        with open(path, "w") as f:
            f.write('{"languages": ["en", "es"],\n')
        pu.restart(server, "USR1")
        texts["stale"] = check_agrees(server)
        assert parse(texts["stale"])[("profile_data_stale",
                                      (("file", path),))] == 1.0
        _put(path, h.load_data(MINIMAL_FILE), h.DATA_MTIME + 100)
        pu.restart(server, "USR1")
        texts["fresh again"] = check_agrees(server)
        server.new_problem_lines()      # the PROFILE0003 above
    finally:
        server.stop()

    bad = os.path.join(_dir(workdir, "metrics-never"), "profile.json")
    with open(bad, "w") as f:
        f.write("{")
    server = make_httpd("metrics-never", "")
    server.write_conf(METRICS + h.load_modules("status") + STATUS
                      + h.location("/api/v1", bad))
    try:
        assert server.start().returncode == 0
        assert server.get("/api/v1/profile").status == 503
        texts["unavailable"] = check_agrees(server)
        assert parse(texts["unavailable"])[
            ("profile_data_unavailable", (("file", bad),))] == 1.0
        server.new_problem_lines()      # its PROFILE0005
    finally:
        server.stop()
    return texts


def test_metrics_follow_the_status_in_every_state(states):
    assert set(states) == {"fresh", "kept", "stale", "fresh again",
                           "unavailable"}
    for name, text in states.items():
        s = parse(text)
        stale = [v for k, v in s.items() if k[0] == "profile_data_stale"]
        unav = [v for k, v in s.items() if k[0] == "profile_data_unavailable"]
        assert (stale, unav) == {"stale": ([1.0], [0.0]),
                                 "unavailable": ([0.0], [1.0])}.get(
                                     name, ([0.0], [0.0])), name
    # A restart that kept the unchanged data keeps its load time.
    def stamp(t):
        return [v for k, v in parse(t).items()
                if k[0] == "profile_data_last_load_timestamp_seconds"]
    assert stamp(states["kept"]) == stamp(states["fresh"])
    assert stamp(states["stale"]) == stamp(states["fresh"])
    assert stamp(states["fresh again"]) > stamp(states["fresh"])
    assert stamp(states["unavailable"]) == []


def test_promtool_accepts_the_metrics_in_every_state(states):
    promtool = need("promtool")
    for name, text in states.items():
        cp = subprocess.run([promtool, "check", "metrics"], input=text,
                            capture_output=True, text=True, timeout=60)
        assert cp.returncode == 0, (name, cp.stdout, cp.stderr, text)
        # promtool's linter prints problems even where it exits 0.
        assert cp.stdout.strip() == "" and cp.stderr.strip() == "", \
            (name, cp.stdout, cp.stderr)


def test_build_info_names_configures_version(states):
    for text in states.values():
        assert 'profile_build_info{version="%s"} 1\n' % module_version() \
            in text


# ------------------------------------------------ the handler itself
@pytest.fixture(scope="module")
def site(make_httpd, workdir):
    """Two data files, one in a directory whose name needs escaping in a
    label value (a double quote and a backslash)."""
    d = _dir(workdir, 'metrics-q"b\\s')
    a = h.copy_data(h.SAMPLE_DATA, os.path.join(d, "profile.json"))
    b = h.copy_data(MINIMAL_FILE, os.path.join(_dir(workdir, "metrics-b"),
                                               "profile.json"))
    server = make_httpd("metrics-site", "")
    server.write_conf(h.load_modules("status") + STATUS + METRICS
                      + h.location("/api/v1", a.replace("\\", "\\\\")
                                   .replace('"', '\\"'))
                      + h.location("/b/api/v1", b))
    server.start_checked()
    server.files = (a, b)
    yield server
    server.stop()


def test_metrics_answer_get_and_head_only_never_cached(site):
    text = metrics(site)
    r = site.request("HEAD", "/profile-metrics")
    assert r.status == 200 and r.body == b""
    assert r.header("Content-Type") == CONTENT_TYPE
    assert r.header("Cache-Control") == "no-store"
    assert int(r.header("Content-Length")) == len(text.encode("utf-8"))
    for method in ("POST", "PUT", "DELETE", "OPTIONS"):
        r = site.request(method, "/profile-metrics", body="x")
        assert r.status == 405, (method, r)
        assert r.tokens("Allow") == {"get", "head"}


def test_metrics_label_each_file_escaped(site):
    text = check_agrees(site)
    a, b = site.files
    assert '\\"' in text and '\\\\' in text
    got = parse(text)
    for path, n in ((a, 6), (b, 1)):
        assert got[("profile_data_records",
                    (("collection", "skills"), ("file", path)))] == n
        assert got[("profile_data_stale", (("file", path),))] == 0


def test_promtool_accepts_escaped_labels(site):
    promtool = need("promtool")
    cp = subprocess.run([promtool, "check", "metrics"], input=metrics(site),
                        capture_output=True, text=True, timeout=60)
    assert cp.returncode == 0 and not cp.stdout.strip(), cp


def test_shipped_profile_metrics_block_works_uncommented(make_httpd,
                                                         workdir):
    """httpd-conf/profile.conf ships <Location /profile-metrics> commented
    out; uncommented, it answers the metrics to a local client."""
    with open(os.path.join(h.SRCDIR, "httpd-conf", "profile.conf")) as f:
        text = f.read()
    block = re.search(r"^ *# <Location /profile-metrics>\n.*?"
                      r"^ *# </Location>\n", text, re.S | re.M)
    assert block, "no commented <Location /profile-metrics> in profile.conf"
    conf = re.sub(r"^( *)# ?", r"\1", block.group(0), flags=re.M)
    assert "SetHandler profile-metrics" in conf and "Require local" in conf
    path = os.path.join(_dir(workdir, "metrics-shipped"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("metrics-shipped", "")
    server.write_conf(h.load_modules("authz_host")
                      + "<IfModule profile_module>\n" + conf
                      + "</IfModule>\n" + h.location("/api/v1", path))
    try:
        server.start_checked()
        assert parse(metrics(server))[("profile_data_stale",
                                       (("file", path),))] == 0
    finally:
        server.stop()


# ------------------------------------------------ the alerting rules
def test_shipped_alert_rules_pass_promtool_check_rules():
    promtool = need("promtool")
    cp = subprocess.run([promtool, "check", "rules", RULES],
                        capture_output=True, text=True, timeout=60)
    assert cp.returncode == 0, (cp.stdout, cp.stderr)
    assert "SUCCESS" in cp.stdout


RULE_TEST = """rule_files:
  - {rules}
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'profile_data_stale{{file="/srv/a.json", instance="web1:80", job="profile"}}'
        values: '0 0 1x30 0x10'
      - series: 'profile_data_unavailable{{file="/srv/a.json", instance="web1:80", job="profile"}}'
        values: '0x30 1x10'
    alert_rule_test:
      - eval_time: 5m
        alertname: ProfileDataStale
        exp_alerts: []
      - eval_time: 25m
        alertname: ProfileDataStale
        exp_alerts:
          - exp_labels:
              severity: warning
              file: /srv/a.json
              instance: web1:80
              job: profile
            exp_annotations:
              summary: "mod_profile serves stale data of /srv/a.json on web1:80"
              description: "A reload failed to load /srv/a.json; web1:80 still serves the last good data. Its error: /profile-status (.error), or PROFILE0003 in the error log."
      - eval_time: 40m
        alertname: ProfileDataStale
        exp_alerts: []
      - eval_time: 31m
        alertname: ProfileDataUnavailable
        exp_alerts: []
      - eval_time: 35m
        alertname: ProfileDataUnavailable
        exp_alerts:
          - exp_labels:
              severity: critical
              file: /srv/a.json
              instance: web1:80
              job: profile
            exp_annotations:
              summary: "mod_profile answers 503 for /srv/a.json on web1:80"
              description: "No good data of /srv/a.json is loaded on web1:80: its APIs answer 503. Its error: /profile-status (.error), or PROFILE0005 in the error log."
"""


def test_alert_rules_fire_as_documented(tmp_path):
    """ProfileDataStale fires once a file has been stale for 15 minutes
    and stops when it is fresh; ProfileDataUnavailable after 2 minutes."""
    promtool = need("promtool")
    t = tmp_path / "profile-alerts-test.yml"
    t.write_text(RULE_TEST.format(rules=RULES))
    cp = subprocess.run([promtool, "test", "rules", str(t)],
                        capture_output=True, text=True, timeout=60)
    assert cp.returncode == 0, (cp.stdout, cp.stderr)


# ------------------------------------------------ a real Prometheus
def prom_query(port, expr):
    url = "http://127.0.0.1:%d/api/v1/query?%s" % (
        port, urllib.parse.urlencode({"query": expr}))
    with urllib.request.urlopen(url, timeout=5) as r:
        body = json.load(r)
    assert body["status"] == "success", body
    return body["data"]["result"]


def wait_value(port, expr, value, timeout=30):
    """Waits until query `expr` gives one sample equal to `value`."""
    last = None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            last = prom_query(port, expr)
        except OSError as e:
            last = e
        if isinstance(last, list) and len(last) == 1 \
                and float(last[0]["value"][1]) == value:
            return last[0]
        time.sleep(0.5)
    raise AssertionError("%s never became %s: %r" % (expr, value, last))


@pytest.fixture
def prometheus(workdir):
    """start(target_port) -> the port of a Prometheus server of our own
    scraping http://127.0.0.1:target_port/profile-metrics every second,
    storage in a temporary directory; stopped at the end."""
    binary = need("prometheus")
    procs = []

    def start(target):
        d = tempfile.mkdtemp(prefix="prometheus-", dir=workdir)
        port = h.free_port()
        conf = os.path.join(d, "prometheus.yml")
        with open(conf, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n"
                    "  evaluation_interval: 1s\n"
                    "rule_files:\n  - %s\n"
                    "scrape_configs:\n  - job_name: profile\n"
                    "    metrics_path: /profile-metrics\n"
                    "    static_configs:\n"
                    "      - targets: ['127.0.0.1:%d']\n" % (RULES, target))
        log = open(os.path.join(d, "prometheus.log"), "w")
        p = subprocess.Popen([binary, "--config.file=" + conf,
                              "--storage.tsdb.path=" + os.path.join(d, "db"),
                              "--web.listen-address=127.0.0.1:%d" % port],
                             stdout=log, stderr=subprocess.STDOUT)
        procs.append((p, log, d))
        return port

    yield start
    for p, log, d in procs:
        p.terminate()
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        log.close()
        shutil.rmtree(d, ignore_errors=True)


@pytest.mark.allow_log(r"PROFILE0003: ProfileData: .*/metrics-prom/")
def test_prometheus_sees_stale_data_after_a_bad_reload(prometheus, make_httpd,
                                                       workdir):
    path = os.path.join(_dir(workdir, "metrics-prom"), "profile.json")
    h.copy_data(MINIMAL_FILE, path)
    server = make_httpd("metrics-prom", "")
    server.write_conf(METRICS + h.location("/api/v1", path))
    server.start_checked()
    try:
        port = prometheus(server.port)
        up = wait_value(port, 'up{job="profile"}', 1)
        assert up["metric"]["instance"] == "127.0.0.1:%d" % server.port
        got = wait_value(port, 'profile_data_stale{job="profile"}', 0)
        assert got["metric"]["file"] == path
        wait_value(port, 'profile_build_info{job="profile",version="%s"}'
                   % module_version(), 1)

        with open(path, "w") as f:
            f.write("{")
        pu.restart(server, "USR1")
        wait_value(port, 'profile_data_stale{file="%s"}' % path, 1)
        wait_value(port, 'profile_data_unavailable{file="%s"}' % path, 0)

        _put(path, h.load_data(MINIMAL_FILE), h.DATA_MTIME + 100)
        pu.restart(server, "USR1")
        wait_value(port, 'profile_data_stale{file="%s"}' % path, 0)
        wait_value(port, 'profile_data_records{file="%s",'
                   'collection="skills"}' % path, 1)
    finally:
        server.stop()

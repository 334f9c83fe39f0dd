# SPDX-License-Identifier: Apache-2.0
"""The owner's preview (docs/page.md; owner-day F11): `make serve` run
from the owner's own folder finds a relative DATA= there, and
`make serve-reload` makes the running preview serve the edited file;
without a running preview it says so and fails."""
import json
import os
import shutil
import signal
import subprocess

import pytest

import httpd_harness as h

pytestmark = [
    pytest.mark.skipif(
        not shutil.which("make")
        or not os.path.exists(os.path.join(h.BUILDDIR, "Makefile")),
        reason="no make, or no configured build tree"),
    # make serve starts httpd as an owner does, without the sanitizer
    # runtime run.sh preloads into a sanitized module's httpd: the
    # Makefile's preview is tested by the plain build's make check.
    pytest.mark.skipif(any(k.startswith("HTTPD_ENV_") for k in os.environ),
                       reason="a sanitized build: httpd needs HTTPD_ENV_*"),
]


def _env(cwd):
    """The environment a shell in cwd gives make (its PWD)."""
    return dict(os.environ, PWD=cwd)


def _make(*args, cwd, **kw):
    return subprocess.run(["make", "-s", "-C", h.BUILDDIR] + list(args),
                          cwd=cwd, env=_env(cwd), capture_output=True,
                          text=True, **kw)


def _stop(proc):
    """Stops make serve; its output."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    return proc.communicate(timeout=30)[0]


def test_a_relative_data_file_from_the_owners_folder_and_reload(tmp_path):
    owner = tmp_path / "owner"
    owner.mkdir()
    data = h.load_data(h.SAMPLE_DATA)
    mine = owner / "mine.json"
    mine.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    port, serve_dir = h.free_port(), str(tmp_path / "serve")
    args = ["SERVE_PORT=%d" % port, "SERVE_DIR=%s" % serve_dir]
    proc = subprocess.Popen(["make", "-s", "-C", h.BUILDDIR, "serve",
                             "DATA=mine.json"] + args, cwd=str(owner),
                            env=_env(str(owner)), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        def name():
            try:
                r = h.request(port, "GET", "/api/v1/profile")
            except OSError:
                return None
            return r.json()["name"] if r.status == 200 else None
        assert h.wait_for(lambda: name() == data["profile"]["name"]), \
            _stop(proc)
        data["profile"]["name"] = "Ana Editada"
        mine.write_text(json.dumps(data, ensure_ascii=False),
                        encoding="utf-8")
        cp = _make("serve-reload", *args, cwd=str(owner))
        assert cp.returncode == 0, cp.stderr
        assert "reloads its data file" in cp.stdout
        assert h.wait_for(lambda: name() == "Ana Editada")
    finally:
        out = _stop(proc)
    assert "make serve-reload" in out      # the banner says how
    cp = _make("serve-reload", *args, cwd=str(owner))
    assert cp.returncode != 0
    assert "no server of make serve runs" in cp.stderr


def test_a_missing_data_file_is_named(tmp_path):
    cp = _make("serve", "DATA=nowhere.json", "SERVE_DIR=%s" % tmp_path,
               cwd=str(tmp_path), timeout=60)
    assert cp.returncode != 0
    assert "DATA=" in cp.stderr and "nowhere.json: no such readable file" \
        in cp.stderr

"""``docorbit dashboard`` as a user starts it: a subprocess on a free loopback port serving the
dashboard, the REST API, /mcp and /health; Ctrl-C (SIGINT) stops it."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time

import httpx

from tests.support.dashboard import dashboard_home


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_docorbit_dashboard_serves_pages_api_and_health_until_interrupted(tmp_path_factory):
    home = dashboard_home(tmp_path_factory)
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "docorbit_serve", "--home", str(home.path), "dashboard",
         "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"{base}/health", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.2)
        assert health.json()["status"] == "ok"
        assert "Published documentation" in httpx.get(f"{base}/", timeout=30).text
        assert httpx.get(f"{base}/api/v1/sources", timeout=30).json()["sources"]
        assert httpx.get(f"{base}/", headers={"Host": "evil.example"}).status_code == 403
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert out == b""  # stdout stays empty: diagnostics go to stderr
    assert b"docorbit dashboard:" in err

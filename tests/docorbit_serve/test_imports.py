"""The serving package never loads Dagster or the pipeline (DESIGN.md §1), checked in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
from docorbit_serve.home import resolve_home
import docorbit_serve, docorbit_serve.cli, docorbit_serve.mcp_server, docorbit_serve.reader
docorbit_serve.mcp_server.build_server(resolve_home(home=sys.argv[1], env={}))
from docorbit_serve.cli import main
codes = [main(["--home", sys.argv[1], "list", "--json"]), main(["--home", sys.argv[1], "search", "x", "--json"])]
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("dagster", "docorbit_assets"))
print(json.dumps({"heavy": heavy, "codes": codes, "loaded": "docorbit_serve.mcp_server" in sys.modules}))
"""


def test_serving_modules_import_and_run_without_dagster_or_the_pipeline(tmp_path):
    r = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "home")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout.splitlines()[-1])
    assert result["loaded"] is True
    assert result["codes"] == [0, 3]  # list works, search reports nothing published
    assert result["heavy"] == []

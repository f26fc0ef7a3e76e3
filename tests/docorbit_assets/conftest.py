"""Shared fixtures for the pipeline-stage tests.

- ``--update-goldens`` and the ``update_goldens`` fixture live in the root ``tests/conftest.py``
  (so the option works from the repository root); ``DOCORBIT_UPDATE_GOLDENS=1`` works too.
- ``big_cases``: the folder of generated ``--big`` bad inputs (once per session).
- ``real_doc_sets``: the fastapi, pydantic and httpx doc folders of the shared real data, read
  into a ``FETCHES`` table the way the fetch stage does for local sources, normalized and sliced
  once per session; skipped (one line) when the full kit is not beside the checkout.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pytest

from docorbit_assets.lib.normalize import normalize
from docorbit_assets.lib.slice import slice_pages
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS

REPO = Path(__file__).resolve().parents[2]
KIT = REPO / "fixtures" / "kit"  # the kit's parts copied into the repo (tests.support.paths)
GOLDEN = REPO / "fixtures" / "golden"
DOC_SETS = {
    "fastapi": "docs/fastapi/docs/en/docs",
    "pydantic": "docs/pydantic/docs",
    "httpx": "docs/httpx/docs",
}


def fetches_from_folder(source: str, folder: Path, pattern: str = "*.md") -> pa.Table:
    """A ``FETCHES`` table of every file under ``folder`` (``file://`` URLs, mtime as time)."""
    rows = []
    for f in sorted(folder.resolve().rglob(pattern)):
        body = f.read_bytes()
        mtime = datetime.fromtimestamp(f.stat().st_mtime, UTC)
        rows.append(
            {
                "source": source,
                "url": "file://" + f.as_posix(),
                "final_url": "file://" + f.as_posix(),
                "status": 0,
                "ok": True,
                "content_type": "text/markdown",
                "bytes": len(body),
                "content_hash": "",
                "etag": "",
                "last_modified": "",
                "error_code": "",
                "error_message": "",
                "fetched_at": mtime.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "body": body,
            }
        )
    return pa.Table.from_pylist(rows, schema=SCHEMAS["fetches"])


@pytest.fixture
def make_fetches():
    return fetches_from_folder


@dataclass(frozen=True)
class DocSet:
    cfg: SourceConfig
    folder: Path
    fetches: pa.Table
    pages: pa.Table
    chunks: pa.Table


@pytest.fixture(scope="session")
def real_doc_sets() -> dict[str, DocSet]:
    out = {}
    from tests.support.paths import shared_data

    for lib, rel in DOC_SETS.items():
        # httpx is copied into fixtures/kit; fastapi and pydantic are whole doc sets (~3 MB):
        # the tests on all three are optional evaluations, skipped when the kit is absent.
        folder = (KIT / rel if (KIT / rel).is_dir() else shared_data(rel)).resolve()
        cfg = SourceConfig(name=lib, kind="local", location=str(folder), library=lib)
        fetches = fetches_from_folder(lib, folder)
        pages = normalize(cfg, fetches)
        out[lib] = DocSet(cfg, folder, fetches, pages, slice_pages(pages))
    return out


@pytest.fixture(scope="session")
def big_cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit's generated ``--big`` Markdown/HTML cases at ``--scale 0.05`` (~3 MB in all)."""
    out = tmp_path_factory.mktemp("big")
    script = KIT / "badinputs" / "make_badinputs.py"
    subprocess.run(
        [sys.executable, str(script), "--big", str(out), "--scale", "0.05"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out / "markdown_html"

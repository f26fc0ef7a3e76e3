"""Local folders hold more than Markdown (issue 13, item 2).

HTML pages of a MkDocs build go through the web pages' HTML normalizer, reStructuredText becomes
sections and fenced code, ``.txt`` is read when an include glob names it and reported otherwise,
and a file that is not text is refused with a typed ``fetches`` record instead of becoming
hundreds of garbage chunks (a 200 KB random ``x.md`` gave 316 before).
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from docorbit_assets.lib.discover import discover
from docorbit_assets.lib.fetch import fetch_source
from docorbit_assets.lib.local_files import NotText, decode_text, fetch_warnings, rst_to_markdown
from docorbit_assets.lib.normalize import normalize
from docorbit_assets.lib.slice import slice_pages
from docorbit_serve.registry import SourceConfig

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures" / "local_formats"


def _cfg(**kw) -> SourceConfig:
    return SourceConfig(name="d", kind="local", location="docs", library="d", **kw)


def _ingest(root: Path, cfg: SourceConfig | None = None) -> tuple[pa.Table, pa.Table]:
    cfg = cfg or _cfg()
    fetches = fetch_source(cfg, discover(cfg, root), root)
    return fetches, normalize(cfg, fetches, root)


def test_a_mkdocs_build_folder_is_read_through_the_html_normalizer(tmp_path: Path):
    shutil.copytree(FIXTURES / "site", tmp_path / "docs")
    fetches, pages = _ingest(tmp_path)
    paths = sorted(p["path"] for p in pages.to_pylist())
    # 404.html and the search page are build artifacts, not documentation
    assert paths == ["advanced/timeouts/index.html", "exceptions/index.html"]
    timeouts = next(p for p in pages.to_pylist() if p["path"].startswith("advanced"))
    assert timeouts["title"] == "Timeouts"
    anchors = [h["anchor"] for h in timeouts["headings"]]
    assert "setting-and-disabling-timeouts" in anchors
    assert "<div" not in timeouts["markdown"] and "httpx.Timeout" in timeouts["markdown"]
    assert {r["content_type"] for r in fetches.to_pylist()} == {"text/html"}


def test_rst_becomes_sections_and_fenced_code(tmp_path: Path):
    shutil.copytree(FIXTURES / "rst", tmp_path / "docs")
    _, pages = _ingest(tmp_path)
    (page,) = pages.to_pylist()
    assert [(h["level"], h["text"]) for h in page["headings"]] == [
        (1, "Acme guide"),
        (2, "Installation"),
        (2, "Configuration"),
        (3, "Timeouts"),
        (2, "Errors"),
    ]
    assert [c["language"] for c in page["code_examples"]] == ["", "python"]
    assert "# this comment is code, not a section" in page["code_examples"][0]["code"]
    assert "[reference](https://acme.example/reference)" in page["markdown"]
    chunks = slice_pages(pages).to_pylist()
    assert {c["heading"] for c in chunks} >= {"Installation", "Configuration", "Timeouts"}


def test_rst_converter_keeps_every_line_of_text():
    text = (FIXTURES / "rst" / "guide.rst").read_text(encoding="utf-8")
    md = rst_to_markdown(text)
    for word in ("Acme talks", "pip install acme", "client = acme.connect", "five seconds"):
        assert word in md


def test_a_random_binary_file_named_md_is_refused_not_chunked(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "x.md").write_bytes(random.Random(13).randbytes(200_000))
    noisy = bytes(random.Random(7).choice(range(1, 9)) for _ in range(5000))
    (docs / "controls.md").write_bytes(noisy + b"# Title\n")
    no_nul = bytes(b for b in random.Random(3).randbytes(50_000) if b)
    (docs / "nonul.md").write_bytes(no_nul)
    (docs / "ok.md").write_text("# Fine\n\nText.\n", encoding="utf-8")
    fetches, pages = _ingest(tmp_path)
    by_name = {r["url"].rsplit("/", 1)[1]: r for r in fetches.to_pylist()}
    assert (by_name["x.md"]["ok"], by_name["x.md"]["error_code"]) == (False, "binary_file")
    assert by_name["controls.md"]["error_code"] == "control_characters"
    assert by_name["nonul.md"]["error_code"] == "not_utf8"
    assert all(by_name[n]["body"] == b"" for n in ("x.md", "controls.md", "nonul.md"))
    assert [p["path"] for p in pages.to_pylist()] == ["ok.md"]


def test_usual_encodings_are_decoded(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bom8.md").write_bytes("\ufeff# Café\n".encode())
    (docs / "utf16.md").write_bytes("# Ünïcode\n\nTexte.\n".encode("utf-16"))
    (docs / "win.md").write_bytes("# Résumé – “quotes”\n".encode("cp1252"))
    _, pages = _ingest(tmp_path)
    titles = {p["path"]: p["title"] for p in pages.to_pylist()}
    assert titles == {"bom8.md": "Café", "utf16.md": "Ünïcode", "win.md": "Résumé – “quotes”"}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\x00\x01binary" * 20, "binary_file"),
        (b"\xff\xfe\x00\xd8", "not_utf8"),
        (b"\x81\x8d text", "not_utf8"),
        (b"\x01" * 40, "control_characters"),
    ],
)
def test_decode_text_refusals_have_stable_codes(body: bytes, code: str):
    with pytest.raises(NotText) as err:
        decode_text(body)
    assert err.value.code == code


def test_txt_is_reported_unless_an_include_glob_names_it(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n", encoding="utf-8")
    (docs / "notes.txt").write_text("Plain notes.\n", encoding="utf-8")
    fetches, pages = _ingest(tmp_path)
    assert [p["path"] for p in pages.to_pylist()] == ["a.md"]
    (skipped,) = [r for r in fetches.to_pylist() if not r["ok"]]
    assert skipped["error_code"] == "skipped_text" and "include" in skipped["error_message"]
    _, pages = _ingest(tmp_path, _cfg(include=["*.md", "*.txt"]))
    assert sorted(p["path"] for p in pages.to_pylist()) == ["a.md", "notes.txt"]


def test_a_stray_nul_or_escape_in_a_text_file_is_kept():
    kit_case = b"# NUL\x00 and controls\x01\x07\x1b[31m red\x1b[0m\r\rline\n\nAFTER-MARKER-7f3a\n"
    assert "AFTER-MARKER-7f3a" in decode_text(kit_case)


def test_refused_and_skipped_files_become_report_warnings(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "x.md").write_bytes(os.urandom(1000) + b"\x00" * 20)
    (docs / "n.txt").write_text("notes", encoding="utf-8")
    (docs / "ok.md").write_text("# OK\n", encoding="utf-8")
    fetches, _ = _ingest(tmp_path)
    path = tmp_path / "fetches.parquet"
    pq.write_table(fetches, path)
    warnings = fetch_warnings(path)
    assert [(w["code"], w["url"].rsplit("/", 1)[1]) for w in warnings] == [
        ("skipped_text", "n.txt"),
        ("binary_file", "x.md"),
    ]
    assert fetch_warnings(tmp_path / "missing.parquet") == []


@pytest.mark.slow
def test_ingest_report_warns_about_a_refused_file_and_publishes_the_rest(tmp_path: Path):
    from docorbit_assets.ingest import run_ingest
    from docorbit_serve.home import Home
    from docorbit_serve.registry import Registry, save_registry

    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "rst", docs)
    (docs / "x.md").write_bytes(random.Random(13).randbytes(200_000))
    home = Home(tmp_path / ".docorbit", tmp_path)
    save_registry(Registry(home.config_path, [_cfg()]))
    report = run_ingest(home)
    assert report["ok"], report
    entry = report["sources"]["d"]
    assert [(w["code"], w["url"].rsplit("/", 1)[1]) for w in entry["warnings"]] == [
        ("binary_file", "x.md")
    ]
    assert entry["rows"]["pages"] == 1  # guide.rst only; the random file gave no chunk
    assert 0 < entry["rows"]["chunks"] < 20

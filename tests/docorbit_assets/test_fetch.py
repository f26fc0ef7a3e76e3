import gzip
import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from docorbit_assets.lib.discover import discover
from docorbit_assets.lib.fetch import fetch_source
from docorbit_assets.lib.secure_fetch import FetchPolicy, http_get
from docorbit_serve.errors import BlockedURL, FetchError
from docorbit_serve.registry import SourceConfig
from docorbit_serve.schemas import SCHEMAS
from tests.support.http import (
    FAST_LIMITS,
    Route,
    allowance,
    serve_directory,
    serve_routes,
    web_source,
)
from tests.support.paths import FIXTURE_SITE

MD = "text/markdown; charset=utf-8"


def _local(location: str = "docs", **kw) -> SourceConfig:
    return SourceConfig(name="d", kind="local", location=location, library="d", **kw)


def _web(url: str, **kw) -> SourceConfig:
    return web_source(url, name="w", **kw)


def _fetch(cfg: SourceConfig, root: Path = Path(".")):
    return fetch_source(cfg, discover(cfg, root), root)


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def test_local_fetch_reads_every_markdown_file_sorted_with_mtime_as_fetched_at(tmp_path: Path):
    _tree(
        tmp_path / "docs",
        {"b.md": "# B\n", "a/c.mdx": "# C\n", ".hidden/x.md": "# X\n", "n.txt": "no"},
    )
    os.utime(tmp_path / "docs" / "b.md", (0, 1_700_000_000))
    table = _fetch(_local(), tmp_path)
    assert table.schema.equals(SCHEMAS["fetches"])
    rows = table.to_pylist()
    root = (tmp_path / "docs").resolve()
    assert [r["url"] for r in rows] == [
        f"file://{root}/a/c.mdx",
        f"file://{root}/b.md",
        f"file://{root}/n.txt",
    ]
    # a .txt file no include glob names is reported, not read (issue 13 item 2)
    assert (rows[2]["ok"], rows[2]["error_code"], rows[2]["body"]) == (False, "skipped_text", b"")
    b = rows[1]
    assert (b["status"], b["ok"], b["content_type"], b["etag"], b["last_modified"]) == (
        0,
        True,
        "text/markdown",
        "",
        "",
    )
    assert b["body"] == b"# B\n" and b["bytes"] == 4
    assert b["content_hash"] == hashlib.sha256(b"# B\n").hexdigest()
    assert b["fetched_at"] == datetime.fromtimestamp(1_700_000_000, UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )


def test_local_fetch_is_deterministic(tmp_path: Path):
    _tree(tmp_path / "docs", {f"p{i}.md": f"# {i}\n" for i in range(5)})
    assert _fetch(_local(), tmp_path).equals(_fetch(_local(), tmp_path))


def test_local_fetch_respects_include_and_exclude_globs(tmp_path: Path):
    _tree(tmp_path / "docs", {"guide/a.md": "a", "guide/old/b.md": "b", "api/c.md": "c"})
    cfg = _local(include=("guide/**",), exclude=("guide/old/**",))
    urls = [r["url"].rsplit("/docs/", 1)[1] for r in _fetch(cfg, tmp_path).to_pylist()]
    assert urls == ["guide/a.md"]


def test_unreadable_local_file_is_a_failed_row_not_a_crash(tmp_path: Path):
    _tree(tmp_path / "docs", {"good.md": "# ok\n"})
    (tmp_path / "docs" / "broken.md").symlink_to(tmp_path / "docs" / "gone.md")
    rows = {r["url"].rsplit("/", 1)[1]: r for r in _fetch(_local(), tmp_path).to_pylist()}
    assert rows["good.md"]["ok"] is True
    assert rows["broken.md"]["ok"] is False
    assert rows["broken.md"]["error_code"] == "read_error"
    assert rows["broken.md"]["body"] == b""


def test_missing_local_folder_raises_fetch_error_with_the_discovery_reason(tmp_path: Path):
    with pytest.raises(FetchError, match="does not exist"):
        _fetch(_local("missing"), tmp_path)


def test_llms_txt_fetch_gets_the_index_and_every_same_host_markdown_entry():
    with serve_directory(FIXTURE_SITE) as base:
        table = _fetch(_web(base))
    rows = table.to_pylist()
    assert [r["url"] for r in rows] == [
        base + "docs/api.md",
        base + "docs/configuration.md",
        base + "docs/install.md",
        base + "docs/quickstart.md",
        base + "docs/troubleshooting.md",
        base + "llms.txt",
    ]
    assert all(r["ok"] and r["status"] == 200 and r["error_code"] == "" for r in rows)
    install = rows[2]
    assert install["body"] == (FIXTURE_SITE / "docs" / "install.md").read_bytes()
    assert install["content_type"].startswith("text/markdown")
    assert install["fetched_at"].endswith("Z")


def test_llms_txt_entries_that_fail_are_recorded_as_rows():
    index = (
        "# demo\n\n## Docs\n\n- [A](/a.md)\n- [Gone](/gone.md)\n- [Html](/page.html)\n"
        "- [Plain](/notes)\n- [Typed](/typed)\n- [Elsewhere](https://elsewhere.example/x.md)\n"
    )
    routes = {
        "/llms.txt": index,
        "/a.md": (200, "text/plain", "# A\n"),
        "/page.html": (200, "text/html", "<html><body>x</body></html>"),
        "/notes": (200, "text/plain", "just text"),
        "/typed": (200, "text/markdown", "# Typed\n"),
    }
    seen: list[str] = []
    with serve_routes(routes, requests=seen) as base:
        rows = {r["url"][len(base) - 1 :]: r for r in _fetch(_web(base)).to_pylist()}
    assert set(rows) == {"/llms.txt", "/a.md", "/gone.md", "/page.html", "/notes", "/typed"}
    assert rows["/a.md"]["ok"] and rows["/typed"]["ok"]
    assert (rows["/gone.md"]["ok"], rows["/gone.md"]["status"], rows["/gone.md"]["error_code"]) == (
        False,
        404,
        "http_status",
    )
    assert rows["/page.html"]["error_code"] == "not_markdown"
    assert rows["/notes"]["error_code"] == "not_markdown"
    assert rows["/page.html"]["body"] == b""
    assert not any("elsewhere" in p for p in seen)


def test_entries_past_max_pages_are_recorded_as_page_limit_rows():
    index = "# demo\n\n## Docs\n\n" + "".join(f"- [P{i}](/p{i}.md)\n" for i in range(4))
    routes = {"/llms.txt": index, **{f"/p{i}.md": f"# P{i}\n" for i in range(4)}}
    seen: list[str] = []
    with serve_routes(routes, requests=seen) as base:
        rows = _fetch(_web(base, limits={"max_pages": 2})).to_pylist()
    by = {r["url"].rsplit("/", 1)[1]: r for r in rows}
    assert [by[f"p{i}.md"]["ok"] for i in range(4)] == [True, True, False, False]
    assert by["p3.md"]["error_code"] == "page_limit"
    assert "/p2.md" not in seen and "/p3.md" not in seen


def test_llms_full_txt_is_fetched_as_one_row():
    routes = {"/llms-full.txt": "# demo\n\n## All\n\nText.\n", "/llms.txt": "# d\n\n- [a](/a.md)\n"}
    with serve_routes(routes) as base:
        rows = _fetch(_web(base)).to_pylist()
    assert [r["url"] for r in rows] == [base + "llms-full.txt"]
    assert rows[0]["body"] == b"# demo\n\n## All\n\nText.\n"


def test_failed_primary_document_raises_fetch_error():
    with serve_routes({"/llms.txt": "# d\n\n- [a](/a.md)\n"}) as base:
        cfg = _web(base)
        found = discover(cfg, Path("."))
    with pytest.raises(FetchError) as err:
        fetch_source(cfg, found, Path("."))
    assert err.value.detail["error_code"] == "connect_error"


def _redirects(n: int) -> dict:
    routes: dict = {
        f"/r{i}": Route(status=302, headers={"Location": f"/r{i + 1}"}) for i in range(n)
    }
    routes[f"/r{n}"] = "done"
    return routes


def test_http_get_follows_up_to_five_redirects_and_reports_the_final_url():
    with serve_routes(_redirects(5)) as base:
        resp = _get(base, "r0")
    assert (resp.status, resp.body, resp.redirects) == (200, b"done", 5)
    assert resp.final_url == base + "r5"


def test_http_get_refuses_a_sixth_redirect():
    with serve_routes(_redirects(6)) as base, pytest.raises(FetchError) as err:
        _get(base, "r0")
    assert err.value.code == "too_many_redirects"


def test_http_get_cuts_the_body_at_the_byte_cap():
    with serve_routes({"/big": b"x" * 100_000}) as base:
        resp = _get(base, "big", max_bytes=1000)
    assert resp.truncated and resp.body == b"x" * 1000


def test_http_get_decodes_gzip_within_the_byte_cap():
    payload = gzip.compress(b"# zipped\n" * 10_000)
    route = Route(body=payload, content_type=MD, headers={"Content-Encoding": "gzip"})
    with serve_routes({"/z.md": route}) as base:
        full = _get(base, "z.md")
        cut = _get(base, "z.md", max_bytes=50)
    assert full.body == b"# zipped\n" * 10_000 and not full.truncated
    assert cut.truncated and cut.body == (b"# zipped\n" * 10)[:50]


def test_http_get_sends_the_docorbit_user_agent():
    def echo(path: str, headers: dict[str, str]) -> Route:
        return Route(body=headers.get("user-agent", "").encode())

    with serve_routes({"/ua": echo}) as base:
        assert _get(base, "ua").body == FetchPolicy.user_agent.encode()


def test_http_get_refuses_non_http_urls():
    with pytest.raises(BlockedURL) as err:
        http_get("file:///etc/passwd")
    assert (err.value.code, err.value.detail["reason"]) == ("blocked_url", "scheme")


def test_http_get_refuses_a_loopback_server_without_an_allowance_for_its_port():
    with serve_routes({"/x": "x"}) as base:
        assert _get(base, "x").body == b"x"
        with pytest.raises(BlockedURL) as err:
            http_get(base + "x", limits=FAST_LIMITS)
        other = "127.0.0.1:" + str(int(allowance(base).rsplit(":", 1)[1]) + 1)
        with pytest.raises(BlockedURL):
            http_get(base + "x", allow_hosts=(other,), limits=FAST_LIMITS)
    assert err.value.detail["reason"] == "loopback"


def _get(base: str, path: str, **kw):
    return http_get(base + path, allow_hosts=(allowance(base),), limits=FAST_LIMITS, **kw)


def test_refresh_sends_the_stored_etag_and_a_304_keeps_the_stored_row():
    seen: list[dict[str, str]] = []

    def page(path: str, headers: dict[str, str]) -> Route:
        seen.append(headers)
        if headers.get("if-none-match") == '"v1"':
            return Route(status=304, headers={"ETag": '"v1"'})
        return Route(body=b"# Full\n\nbody\n", content_type=MD, headers={"ETag": '"v1"'})

    with serve_routes({"/llms-full.txt": page}) as base:
        cfg = _web(base)
        found = discover(cfg, Path("."))
        first = fetch_source(cfg, found, Path("."))
        again = fetch_source(cfg, found, Path("."), previous=first)
    (a,), (b,) = first.to_pylist(), again.to_pylist()
    assert seen[-1].get("if-none-match") == '"v1"'
    assert b["body"] == a["body"] == b"# Full\n\nbody\n"
    assert {k: v for k, v in b.items() if k != "fetched_at"} == {
        k: v for k, v in a.items() if k != "fetched_at"
    }


def test_a_source_on_a_refused_host_fails_with_blocked_url_not_fetch_error():
    with serve_routes({"/llms.txt": "# d\n\n- [a](/a.md)\n"}) as base:
        cfg = SourceConfig(name="w", kind="web", location=base, library="w", limits=FAST_LIMITS)
        found = discover(cfg, Path("."))
        with pytest.raises(BlockedURL) as err:
            fetch_source(cfg, found, Path("."))
        allowed = discover(cfg, Path("."), allow_hosts=(allowance(base),))
        rows = fetch_source(cfg, allowed, Path("."), allow_hosts=(allowance(base),)).to_pylist()
    assert [r["url"].rsplit("/", 1)[1] for r in rows] == ["a.md", "llms.txt"]
    assert {r["status"] for r in found.to_pylist()} == {"invalid"}
    assert all("blocked_url" in r["metadata_json"] for r in found.to_pylist())
    assert err.value.exit_code == 5

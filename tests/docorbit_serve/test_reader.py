"""reader.get_doc / list_sources over the real httpx docs published by the pipeline."""

from __future__ import annotations

import json

import pytest

from docorbit_serve.catalog import Catalog
from docorbit_serve.errors import InputError, NotFound, NotPublished
from docorbit_serve.reader import get_doc, list_sources
from docorbit_serve.tokens import count_tokens

PAGE = "advanced/transports.md"


@pytest.fixture(scope="module")
def catalog(published_home):
    cat = Catalog(published_home)
    yield cat
    cat.close()


def _chunks(catalog, path):
    """The page's chunks in reading order, straight from the index."""
    cur = catalog.cursor()
    try:
        res = cur.execute(
            "SELECT id, page_id, level, anchor, heading, text FROM chunks WHERE path = $p "
            "ORDER BY line_start",
            {"p": path},
        )
        names = [d[0] for d in res.description]
        return [dict(zip(names, r, strict=True)) for r in res.fetchall()]
    finally:
        cur.close()


def _by_anchor(rows, anchor):
    return next(r for r in rows if r["anchor"] == anchor)


def test_chunk_mode_returns_the_chunk_text_with_provenance_and_untrusted_flag(catalog):
    rows = _chunks(catalog, PAGE)
    row = _by_anchor(rows, "wsgi-transport")
    doc = get_doc(catalog, chunk_id=row["id"])
    assert doc["content"] == row["text"]
    assert doc["untrusted"] is True
    assert doc["security_annotations"] == []
    assert (doc["library"], doc["version"], doc["source"]) == ("httpx", "0.28", "httpx")
    assert doc["path"] == PAGE and doc["url"].endswith("#wsgi-transport")
    assert doc["snapshot"].startswith("s_") and doc["publish_id"].startswith("u_")
    assert doc["truncated"] is False and doc["next_cursor"] is None
    assert [c["chunk_id"] for c in doc["chunks"]] == [row["id"]]


def test_section_mode_includes_subsections_and_names_neighbours(catalog):
    rows = _chunks(catalog, PAGE)
    i = rows.index(_by_anchor(rows, "wsgi-transport"))
    doc = get_doc(catalog, chunk_id=rows[i]["id"], mode="section")
    # WSGI Transport (h2) holds Example and Configuration (h3), then ASGI Transport (h2) follows
    assert [c["anchor"] for c in doc["chunks"]] == ["wsgi-transport", "example", "configuration"]
    assert doc["content"] == "\n\n".join(r["text"] for r in rows[i : i + 3])
    assert doc["neighbours"]["prev"]["chunk_id"] == rows[i - 1]["id"]
    assert doc["neighbours"]["next"]["anchor"] == "asgi-transport"


def test_section_of_a_subsection_names_its_parent(catalog):
    rows = _chunks(catalog, PAGE)
    doc = get_doc(catalog, chunk_id=_by_anchor(rows, "configuration")["id"], mode="section")
    assert doc["neighbours"]["parent"]["anchor"] == "wsgi-transport"
    assert [c["anchor"] for c in doc["chunks"]] == ["configuration"]


def test_page_mode_from_a_chunk_id_assembles_the_whole_page_in_order(catalog):
    rows = _chunks(catalog, PAGE)
    doc = get_doc(catalog, chunk_id=rows[5]["id"], mode="page", max_tokens=20000)
    assert doc["page_id"] == rows[0]["page_id"] and doc["chunk_id"] == ""
    assert doc["content"] == "\n\n".join(r["text"] for r in rows)
    assert len(doc["chunks"]) == len(rows)


def test_page_id_reads_the_page(catalog):
    rows = _chunks(catalog, PAGE)
    by_page = get_doc(catalog, page_id=rows[0]["page_id"], max_tokens=500)
    by_chunk = get_doc(catalog, chunk_id=rows[0]["id"], mode="page", max_tokens=500)
    assert by_page["mode"] == "page"
    assert by_page["content"] == by_chunk["content"]


def test_cursor_pages_through_a_document_without_gaps_or_overlap(catalog):
    rows = _chunks(catalog, PAGE)
    full = "\n\n".join(r["text"] for r in rows)
    parts, doc, calls = [], get_doc(catalog, chunk_id=rows[0]["id"], mode="page", max_tokens=120), 1
    while True:
        assert count_tokens(doc["content"]) <= 120
        assert doc["tokens"] == count_tokens(doc["content"])
        parts.append(doc["content"])
        if not doc["next_cursor"]:
            break
        assert doc["truncated"] is True
        doc = get_doc(catalog, cursor=doc["next_cursor"], max_tokens=120)
        calls += 1
        assert calls < 200
    assert "".join(parts) == full
    assert calls > 5


def test_a_tiny_budget_still_makes_progress(catalog):
    rows = _chunks(catalog, PAGE)
    first = get_doc(catalog, chunk_id=rows[1]["id"], max_tokens=1)
    second = get_doc(catalog, cursor=first["next_cursor"], max_tokens=1)
    assert first["content"] and second["content"]
    assert second["offset"] == len(first["content"])


def test_unknown_chunk_id_is_not_found_with_a_hint(catalog):
    with pytest.raises(NotFound, match="search"):
        get_doc(catalog, chunk_id="c_00000000000000000000")
    with pytest.raises(NotFound):
        get_doc(catalog, page_id="p_00000000000000000000")


@pytest.mark.parametrize("cursor", ["not-a-cursor", "eyJ2IjoyfQ", ""])
def test_garbled_cursor_is_bad_input(catalog, cursor):
    rows = _chunks(catalog, PAGE)
    if cursor == "":
        with pytest.raises(InputError, match="chunk_id"):
            get_doc(catalog)
        return
    with pytest.raises(InputError, match="cursor"):
        get_doc(catalog, chunk_id=rows[0]["id"] if cursor == "eyJ2IjoyfQ" else None, cursor=cursor)


def test_cursor_of_another_document_is_refused(catalog):
    rows = _chunks(catalog, PAGE)
    doc = get_doc(catalog, chunk_id=rows[0]["id"], mode="page", max_tokens=50)
    with pytest.raises(InputError, match="another document"):
        get_doc(catalog, chunk_id=rows[3]["id"], cursor=doc["next_cursor"])


def test_bad_mode_and_budget_are_bad_input(catalog):
    rows = _chunks(catalog, PAGE)
    with pytest.raises(InputError, match="mode"):
        get_doc(catalog, chunk_id=rows[0]["id"], mode="book")
    with pytest.raises(InputError, match="max_tokens"):
        get_doc(catalog, chunk_id=rows[0]["id"], max_tokens=0)


def test_list_sources_reports_snapshot_and_counts(catalog, httpx_docs):
    (src,) = list_sources(catalog)
    manifest = catalog.manifest()
    assert src["name"] == "httpx" and src["library"] == "httpx" and src["version"] == "0.28"
    assert src["kind"] == "local" and src["location"] == str(httpx_docs)
    assert src["snapshot"] == manifest["sources"]["httpx"]["snapshot"]
    assert src["pages"] == len(list(httpx_docs.rglob("*.md")))
    assert src["chunks"] > src["pages"]


def test_reading_an_unpublished_home_raises_not_published(tmp_path, home_factory):
    cat = Catalog(home_factory(tmp_path / "empty"))
    with pytest.raises(NotPublished):
        list_sources(cat)
    with pytest.raises(NotPublished):
        get_doc(cat, chunk_id="c_00000000000000000000")


def test_readers_in_threads_see_whole_publications_while_a_new_one_is_swapped_in(
    published_home, tmp_path, ingest_home
):
    """8 threads search + read through one Catalog while the main thread publishes B: every
    answer belongs to A or to B as a whole (never A's publish_id with B's snapshot), and the
    threads see B without a new Catalog."""
    import shutil
    import threading

    from docorbit_serve.home import resolve_home
    from docorbit_serve.registry import SourceConfig, load_registry, save_registry
    from docorbit_serve.search import search

    root = tmp_path / "proj"
    shutil.copytree(published_home.project_root, root)
    docs = root / "docs"
    shutil.copytree(load_registry(published_home.config_path).get("httpx").location, docs)
    home = resolve_home(home=root / ".docorbit", env={})
    reg = load_registry(home.config_path)
    reg.add(
        SourceConfig(name="httpx", kind="local", location="docs", library="httpx", version="0.28"),
        replace=True,
    )
    save_registry(reg)
    (docs / "quickstart.md").write_text(
        (docs / "quickstart.md").read_text(encoding="utf-8") + "\n\n## Swapped\n\nNew text.\n",
        encoding="utf-8",
    )
    a = json.loads(home.published_path.read_text())
    cat = Catalog(home)
    seen: list[tuple[str, str, frozenset[str]]] = []
    errors: list[BaseException] = []
    published = threading.Event()

    def reader(n: int) -> None:
        after = 0
        while after < 3:  # keep reading until three answers came after B was published
            done = published.is_set()
            try:
                res = search(cat, ["timeout", "proxy", "cookies", "redirects"][n % 4], limit=5)
                doc = get_doc(cat, chunk_id=res.hits[0].chunk_id)
            except BaseException as e:  # noqa: BLE001 - collected and asserted below
                errors.append(e)
                return
            seen.append(
                (doc["publish_id"], doc["snapshot"], frozenset(h.snapshot for h in res.hits))
            )
            after += done

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    try:
        ingest_home(home, ["httpx"])
    finally:
        published.set()
        for t in threads:
            t.join(timeout=120)
        cat.close()
    b = json.loads(home.published_path.read_text())
    pairs = {
        a["publish_id"]: a["sources"]["httpx"]["snapshot"],
        b["publish_id"]: b["sources"]["httpx"]["snapshot"],
    }
    assert not errors, errors
    assert len(set(pairs.values())) == 2
    for publish_id, snapshot, hit_snapshots in seen:
        assert pairs.get(publish_id) == snapshot
        assert len(hit_snapshots) == 1 and hit_snapshots <= set(pairs.values())
    assert b["publish_id"] in {p for p, _s, _h in seen}

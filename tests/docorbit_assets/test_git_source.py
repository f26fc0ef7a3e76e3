"""``kind = "git"`` sources: the documents of a real repository's tree at a ref (made here with
dulwich: commits, an annotated tag, a symlink), read from the object store — never the working
tree — with the local reader's rules, typed errors, and a real ingest through the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from dulwich import porcelain

from docorbit_assets.lib.git_tree import read_tree
from docorbit_serve.cli import cli
from docorbit_serve.errors import FetchError

_WHO = b"Doc Writer <docs@example.org>"


def _commit(repo: Path, files: dict[str, str], message: str, when: int) -> str:
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    porcelain.add(str(repo), paths=[str(repo / rel) for rel in files])
    sha = porcelain.commit(str(repo), message=message, author=_WHO, committer=_WHO,
                           author_timestamp=when, commit_timestamp=when, author_timezone=0,
                           commit_timezone=0)  # fmt: skip
    return sha.decode()


@pytest.fixture
def repo(tmp_path: Path) -> dict[str, object]:
    root = tmp_path / "orbit"
    root.mkdir()
    porcelain.init(str(root))
    v1 = _commit(
        root,
        {
            "README.md": "# Orbit\n\nThe repository readme.\n",
            "docs/index.md": "# Orbit guide\n\nOrbit version one keeps a flat timeout.\n",
            "docs/setup.rst": "Setup\n=====\n\nRun ``orbit init``.\n",
            "docs/notes.txt": "plain notes\n",
            "docs/_build/search.html": "<html><body>search</body></html>",
            "docs/.hidden.md": "# Hidden\n",
            "src/orbit.py": "print('code')\n",
        },
        "v1 docs",
        1_700_000_000,
    )
    porcelain.tag_create(str(root), b"v1", author=_WHO, message=b"one", annotated=True)
    os.symlink("/etc/passwd", root / "docs" / "leak.md")
    porcelain.add(str(root), paths=[str(root / "docs" / "leak.md")])
    v2 = _commit(
        root,
        {"docs/index.md": "# Orbit guide\n\nOrbit version two adds retry budgets.\n"},
        "v2 docs",
        1_700_086_400,
    )
    return {"root": root, "v1": v1, "v2": v2}


def test_a_tag_reads_its_tree_with_the_local_readers_rules(repo):
    tree = read_tree(str(repo["root"] / "docs"), "v1", max_bytes=1 << 20)
    assert tree.commit == repo["v1"] and tree.committed_at == "2023-11-14T22:13:20Z"
    assert [f.rel for f in tree.files] == ["index.md", "setup.rst"]  # no artifact, hidden, code
    assert tree.skipped_text == ["notes.txt"]
    assert b"version one" in tree.files[0].body
    listing = read_tree(str(repo["root"] / "docs"), "v1")  # discovery's call: no blob read
    assert [f.rel for f in listing.files] == ["index.md", "setup.rst"]
    assert all(f.body == b"" for f in listing.files) and listing.commit == tree.commit


def test_head_is_the_default_and_the_working_tree_is_never_read(repo):
    (repo["root"] / "docs" / "index.md").write_text("# Orbit guide\n\nUNCOMMITTED EDIT\n")
    (repo["root"] / "docs" / "draft.md").write_text("# Draft\n")  # untracked
    tree = read_tree(str(repo["root"] / "docs"), "", max_bytes=1 << 20)
    assert tree.commit == repo["v2"]
    by_rel = {f.rel: f.body for f in tree.files}
    assert b"version two" in by_rel["index.md"] and "draft.md" not in by_rel
    assert "leak.md" not in by_rel  # a symbolic link is not followed out of the repository


def test_a_short_commit_id_an_include_glob_and_the_byte_cap(repo):
    tree = read_tree(str(repo["root"]), repo["v1"][:10], include=["docs/*.txt", "docs/*.md"],
                     max_bytes=12)  # fmt: skip
    assert [f.rel for f in tree.files] == ["docs/index.md", "docs/notes.txt"]
    assert all(len(f.body) <= 12 for f in tree.files) and tree.files[0].truncated


@pytest.mark.parametrize(
    ("where", "ref", "code"),
    [
        ("nowhere", "", "not_a_repository"),
        ("docs", "no-such-branch", "unknown_ref"),
        ("https://github.com/example/orbit.git", "", "remote_git"),
        ("git@github.com:example/orbit.git", "", "remote_git"),
    ],
)
def test_what_cannot_be_read_is_a_typed_error(repo, tmp_path, where, ref, code):
    location = (
        where
        if ":" in where
        else str((tmp_path / where) if where == "nowhere" else repo["root"] / where)
    )
    if where == "nowhere":
        (tmp_path / where).mkdir()
    with pytest.raises(FetchError) as e:
        read_tree(location, ref, max_bytes=100)
    assert e.value.code == code


def test_a_folder_added_after_the_ref_is_not_in_its_tree(repo):
    (repo["root"] / "guide").mkdir()
    _commit(repo["root"], {"guide/new.md": "# New\n"}, "guide", 1_700_100_000)
    with pytest.raises(FetchError) as e:
        read_tree(str(repo["root"] / "guide"), "v1", max_bytes=100)
    assert e.value.code == "not_in_tree"
    assert [f.rel for f in read_tree(str(repo["root"] / "guide"), "", max_bytes=100).files] == [
        "new.md"
    ]


def _cli(project: Path, *args: str):
    return CliRunner().invoke(cli, ["-p", str(project), "--json", *args])


@pytest.mark.slow
def test_git_sources_ingest_each_ref_as_its_own_version_and_search_serves_both(repo, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    assert _cli(project, "init").exit_code == 0
    docs = str(repo["root"] / "docs")
    for ref, version in (("v1", "1"), ("master", "2")):
        res = _cli(project, "add", docs, "--kind", "git", "--ref", ref, "--library", "orbit",
                   "--version", version)  # fmt: skip
        assert res.exit_code == 0, res.output
    text = (project / "docorbit.toml").read_text()
    assert 'ref = "v1"' in text and 'kind = "git"' in text
    (repo["root"] / "docs" / "index.md").write_text("# Orbit guide\n\nUNCOMMITTED EDIT\n")
    res = _cli(project, "ingest")
    assert res.exit_code == 0, res.output
    one = json.loads(
        _cli(project, "search", "timeout", "--library", "orbit", "--version", "1").stdout
    )
    two = json.loads(_cli(project, "search", "retry budgets", "--library", "orbit",
                          "--version", "2").stdout)  # fmt: skip
    assert "version one" in one["hits"][0]["content"] and one["hits"][0]["path"] == "index.md"
    assert "version two" in two["hits"][0]["content"]
    missing = json.loads(_cli(project, "search", "UNCOMMITTED", "--library", "orbit").stdout)
    assert not any("UNCOMMITTED" in h["content"] for h in missing["hits"])
    report = json.loads(_cli(project, "refresh").stdout)  # same commits: nothing changes
    assert all(s.get("unchanged") for s in report["sources"].values()), report


def test_add_refuses_a_git_url_and_a_ref_on_another_kind(tmp_path, repo):
    project = tmp_path / "project"
    project.mkdir()
    _cli(project, "init")
    url = _cli(project, "add", "https://github.com/example/orbit.git", "--kind", "git",
               "--library", "orbit")  # fmt: skip
    assert url.exit_code == 2 and "clone" in json.loads(url.stdout)["error"]["message"]
    other = _cli(project, "add", str(repo["root"] / "docs"), "--ref", "v1", "--library", "orbit")
    assert other.exit_code == 2 and "--ref" in json.loads(other.stdout)["error"]["message"]
    assert 'library = "orbit"' not in (project / "docorbit.toml").read_text()

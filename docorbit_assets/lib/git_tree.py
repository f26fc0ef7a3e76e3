"""``kind = "git"`` sources: the documents of a repository's tree at a ref.

Contract:
- ``read_tree(location, ref="", *, include=(), exclude=(), max_bytes=None) -> GitTree``: the
  repository containing ``location`` (a folder path: the repository root or a folder inside
  it, whose subtree is then read), the commit ``ref`` names (a branch, tag, full or short
  commit id; empty: ``HEAD``), and the documents of that commit's tree below ``location``
  chosen by the local reader's rules (``local_files.select_documents``: Markdown, HTML, rST;
  ``.txt`` when an include glob names it; build artifacts and hidden names left out;
  symbolic links and submodules skipped). Each file's bytes are cut at ``max_bytes``
  (``GitFile.truncated``); with ``max_bytes=None`` no blob is read (``body`` empty): the
  listing discovery needs. The tree is read from the object store with dulwich: no git
  executable, no hooks, no repository configuration, and the working tree (uncommitted
  edits included) is never read — the same ref gives the same files.
- ``GitTree``: ``root`` (the resolved ``location``), ``commit`` (40 hex), ``committed_at``
  (UTC ``YYYY-MM-DDTHH:MM:SSZ``, the commit's committer time), ``files`` (``GitFile(rel,
  body, truncated)``, sorted by ``rel``), ``skipped_text`` (``.txt`` paths not read).
- Failures are ``FetchError`` with a stable code: ``not_a_repository`` (no repository
  contains the folder), ``unknown_ref`` (the ref names no commit), ``not_in_tree`` (the folder
  is not in that commit's tree), ``remote_git`` (an ``http(s)``/``ssh``/``git`` URL: clone it
  and point ``location`` at the clone — DocOrbit fetches from the network only through its
  SSRF-guarded fetcher, which does not speak the git protocols).

No Dagster import (``lib/`` rule).
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from docorbit_assets.lib.local_files import select_documents
from docorbit_serve.errors import FetchError

__all__ = ["GitFile", "GitTree", "read_tree"]

_REMOTE = ("http://", "https://", "ssh://", "git://", "git@", "file://")


@dataclass(frozen=True)
class GitFile:
    rel: str
    body: bytes
    truncated: bool = False


@dataclass(frozen=True)
class GitTree:
    root: Path
    commit: str
    committed_at: str
    files: list[GitFile] = field(default_factory=list)
    skipped_text: list[str] = field(default_factory=list)


def read_tree(
    location: str,
    ref: str = "",
    *,
    include: tuple[str, ...] | list[str] = (),
    exclude: tuple[str, ...] | list[str] = (),
    max_bytes: int | None = None,
) -> GitTree:
    """The documents of the tree at ``ref`` below ``location`` (module docstring)."""
    from dulwich.errors import NotGitRepository

    if location.lower().startswith(_REMOTE):
        raise FetchError(
            f"{location}: a remote git repository is not fetched; clone it and set location to "
            'the clone\'s folder (kind = "git" reads a local repository at a ref)',
            code="remote_git",
            detail={"location": location},
        )
    root = Path(location).expanduser().resolve()
    try:
        repo = _open(root)
    except NotGitRepository as e:
        raise FetchError(
            f"{root}: no git repository contains this folder",
            code="not_a_repository",
            detail={"location": str(root)},
        ) from e
    with repo:
        return _read(repo, root, ref, tuple(include), tuple(exclude), max_bytes)


def _open(root: Path) -> Any:
    from dulwich.repo import Repo

    if not root.is_dir():
        from dulwich.errors import NotGitRepository

        raise NotGitRepository(str(root))
    return Repo.discover(str(root))


def _read(
    repo: Any,
    root: Path,
    ref: str,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    max_bytes: int | None,
) -> GitTree:
    from dulwich.object_store import iter_tree_contents, tree_lookup_path

    commit = _commit(repo, ref or "HEAD")
    sub = root.relative_to(Path(repo.path).resolve()).as_posix()
    tree = commit.tree
    if sub not in ("", "."):
        try:
            mode, tree = tree_lookup_path(repo.object_store.__getitem__, tree, sub.encode())
        except KeyError:
            mode = 0
        if not stat.S_ISDIR(mode):
            raise FetchError(
                f"{sub}/ is not a folder in the tree of {ref or 'HEAD'} ({commit.id.decode()[:12]})",
                code="not_in_tree",
                detail={"location": str(root), "ref": ref, "path": sub},
            )
    blobs: dict[str, bytes] = {}
    for entry in iter_tree_contents(repo.object_store, tree):
        if entry.path is None or entry.mode is None or entry.sha is None:
            continue
        if stat.S_ISREG(entry.mode):  # links and submodules (gitlinks) are not read
            blobs[entry.path.decode("utf-8", "surrogateescape")] = entry.sha
    docs, skipped = select_documents(blobs, include, exclude)
    files = []
    for rel in docs:
        if max_bytes is None:
            files.append(GitFile(rel, b""))
            continue
        body = repo.object_store[blobs[rel]].as_raw_string()
        files.append(GitFile(rel, body[:max_bytes], len(body) > max_bytes))
    when = datetime.fromtimestamp(commit.commit_time, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return GitTree(root, commit.id.decode(), when, files, skipped)


def _commit(repo: Any, ref: str) -> Any:
    from dulwich.objectspec import parse_commit

    try:
        return parse_commit(repo, ref.encode())
    except (KeyError, ValueError, TypeError) as e:
        raise FetchError(
            f"{ref!r} names no commit of the repository at {repo.path} (a branch, tag or commit id)",
            code="unknown_ref",
            detail={"ref": ref, "repository": str(repo.path)},
        ) from e

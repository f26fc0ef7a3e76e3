"""``published.json`` read and written through one model (``models.core.Manifest``).

Contract:
- ``check_manifest(data)``: ``data`` checked against ``Manifest`` (``publish_id`` and
  ``index`` non-empty strings, ``schema_version`` a string or int, every source a table naming
  its ``snapshot``, ``vectors`` absent or a table naming its ``path``; other keys are kept).
  Returns ``data`` itself as a plain dict, so readers and writers see exactly the keys and
  bytes they always did. Raises ``BadManifest`` naming the first problem and where it is.
- ``read_manifest(path)``: the checked manifest in ``path``; ``None`` when the file does not
  exist; ``BadManifest`` when it cannot be read, is not JSON or fails the check.
- ``published_manifest(path)``: the lenient reading for views that work without a publication:
  the checked manifest, or ``{}`` when the file is absent or bad.

The catalog turns ``BadManifest`` into ``NotPublished``; ``lib/publish`` checks a manifest
before it writes it (``IngestError``), so a bad one never replaces a good publication.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from docorbit_serve.models.core import Manifest

__all__ = ["BadManifest", "check_manifest", "published_manifest", "read_manifest"]


_UNION_TAGS = frozenset({"str", "int"})


class BadManifest(ValueError):
    """``published.json`` (or a manifest about to be written) is unreadable or malformed."""


def _first_problem(e: ValidationError) -> str:
    err = e.errors()[0]
    loc = list(err["loc"])
    if len(loc) > 1 and loc[-1] in _UNION_TAGS:  # ('schema_version', 'str'): the union's branch
        loc.pop()
    where = ".".join(str(p) for p in loc) or "the top level"
    return f"{where}: {err['msg']}"


def check_manifest(data: Any) -> dict[str, Any]:
    """``data`` if it is a valid manifest (see module docstring), else ``BadManifest``."""
    if not isinstance(data, dict):
        raise BadManifest(f"published.json is not a manifest: a {type(data).__name__}, not a table")
    try:
        Manifest.model_validate(data)
    except ValidationError as e:
        raise BadManifest(f"published.json is not a valid manifest ({_first_problem(e)})") from e
    return data


def read_manifest(path: Path) -> dict[str, Any] | None:
    """The checked manifest in ``path``; ``None`` when there is no such file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise BadManifest(f"published.json is unreadable: {e}") from e
    try:
        data = json.loads(text)
    except ValueError as e:
        raise BadManifest(f"published.json is unreadable: {e}") from e
    return check_manifest(data)


def published_manifest(path: Path) -> dict[str, Any]:
    """The checked manifest in ``path``, or ``{}`` when it is absent or bad."""
    try:
        return read_manifest(path) or {}
    except BadManifest:
        return {}

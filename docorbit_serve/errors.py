"""The one error hierarchy of DocOrbit, with stable codes and CLI exit codes.

    DocOrbitError                      code            exit
    ├── UsageError                     usage             2
    ├── ConfigError                    config            1
    ├── NotPublished                   not_published     3
    ├── NotFound                       not_found         3
    │   ├── SourceNotFound             source_not_found  3
    │   └── UnknownLibrary             unknown_library   3
    ├── BlockedURL                     blocked_url       5
    ├── FetchError                     fetch_error       6
    ├── InputError                     bad_input         7
    ├── IngestError                    ingest_failed     8
    └── SearchError                    search_error      1

Every error carries ``code`` (stable, machine-readable), a message that suggests the fix, and a
``detail`` dict. ``to_json()`` is the ``{"error": {...}}`` object the CLI prints in ``--json``
mode. Third-party errors are wrapped at the boundary with ``raise X(...) from e``.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BlockedURL",
    "ConfigError",
    "DocOrbitError",
    "FetchError",
    "IngestError",
    "InputError",
    "NotFound",
    "NotPublished",
    "SearchError",
    "SourceNotFound",
    "UnknownLibrary",
    "UsageError",
]


class DocOrbitError(Exception):
    code = "error"
    exit_code = 1

    def __init__(
        self, message: str, *, detail: dict[str, Any] | None = None, code: str | None = None
    ):
        super().__init__(message)
        self.message = message
        self.detail = detail or {}
        if code:
            self.code = code

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "detail": self.detail}}


class UsageError(DocOrbitError):
    code = "usage"
    exit_code = 2


class ConfigError(DocOrbitError):
    code = "config"


class NotPublished(DocOrbitError):
    code = "not_published"
    exit_code = 3


class NotFound(DocOrbitError):
    code = "not_found"
    exit_code = 3


class SourceNotFound(NotFound):
    code = "source_not_found"


class UnknownLibrary(NotFound):
    code = "unknown_library"


class BlockedURL(DocOrbitError):
    code = "blocked_url"
    exit_code = 5


class FetchError(DocOrbitError):
    code = "fetch_error"
    exit_code = 6


class InputError(DocOrbitError):
    code = "bad_input"
    exit_code = 7


class IngestError(DocOrbitError):
    code = "ingest_failed"
    exit_code = 8


class SearchError(DocOrbitError):
    code = "search_error"

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

Exit codes are members of ``ExitCode`` (the one enum; the CLI's help lists them).
Every error carries ``code`` (stable, machine-readable), a message that suggests the fix, and a
``detail`` dict. ``to_json()`` is the ``{"error": {...}}`` object the CLI prints in ``--json``
mode. Third-party errors are wrapped at the boundary with ``raise X(...) from e``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

__all__ = [
    "BlockedURL",
    "ConfigError",
    "DocOrbitError",
    "ExitCode",
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


class ExitCode(IntEnum):
    """The CLI's exit codes: one enum, used by every error class and the CLI's help text."""

    OK = 0
    ERROR = 1
    USAGE = 2
    NOT_FOUND = 3
    MISMATCH = 4
    BLOCKED_URL = 5
    FETCH_ERROR = 6
    BAD_INPUT = 7
    INGEST_FAILED = 8
    INTERRUPTED = 130


class DocOrbitError(Exception):
    code = "error"
    exit_code: int = ExitCode.ERROR

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
    exit_code = ExitCode.USAGE


class ConfigError(DocOrbitError):
    code = "config"


class NotPublished(DocOrbitError):
    code = "not_published"
    exit_code = ExitCode.NOT_FOUND


class NotFound(DocOrbitError):
    code = "not_found"
    exit_code = ExitCode.NOT_FOUND


class SourceNotFound(NotFound):
    code = "source_not_found"


class UnknownLibrary(NotFound):
    code = "unknown_library"


class BlockedURL(DocOrbitError):
    code = "blocked_url"
    exit_code = ExitCode.BLOCKED_URL


class FetchError(DocOrbitError):
    code = "fetch_error"
    exit_code = ExitCode.FETCH_ERROR


class InputError(DocOrbitError):
    code = "bad_input"
    exit_code = ExitCode.BAD_INPUT


class IngestError(DocOrbitError):
    code = "ingest_failed"
    exit_code = ExitCode.INGEST_FAILED


class SearchError(DocOrbitError):
    code = "search_error"

"""The injection classifier's data files — its two readers and the memory of labelled
passages — read from this package and checked against their SHA-256 (``checked_bytes``); a
missing or altered file raises ``InjectionClassifierError`` (``DocOrbitError``, code
``injection_model_unavailable``). One module below ``injection_classifier`` and
``injection_memory``, which both read through it."""

from __future__ import annotations

from pathlib import Path

from docorbit_serve.errors import DocOrbitError

__all__ = ["InjectionClassifierError", "checked_bytes"]


class InjectionClassifierError(DocOrbitError):
    """The injection classifier's model or tokenizer is missing, altered or cannot run."""

    code = "injection_model_unavailable"


def checked_bytes(path: Path, sha256: str) -> bytes:
    """A data file of this package, read and checked against its SHA-256."""
    from docorbit_serve.search.dense import pinned_bytes  # the one checked read of model files

    return pinned_bytes(path, sha256, InjectionClassifierError)

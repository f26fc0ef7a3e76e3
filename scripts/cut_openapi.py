"""Cut a real OpenAPI / Swagger spec down to a few paths for the test fixtures.

    python scripts/cut_openapi.py SPEC OUT --path REGEX [--path REGEX ...] [--webhooks N]

Keeps the chosen paths (regular expressions matched against the path template), the first N
webhooks, the document's info/servers/security/tags, and every component (OpenAPI 3
``components/*``, Swagger 2 ``definitions``/``parameters``/``responses``/``securityDefinitions``)
the kept parts reach through internal ``$ref``s, transitively. The output keeps the input's
format (JSON or YAML by file suffix). Used once to make ``fixtures/apiintel/*``; the
provenance of each cut is in ``fixtures/apiintel/PROVENANCE.md``.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import yaml


def _refs(node: Any) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            r = n.get("$ref")
            if isinstance(r, str) and r.startswith("#/"):
                out.add(r)
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return out


def _lookup(doc: Any, ref: str) -> tuple[list[str], Any]:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/")]
    node = doc
    for p in parts:
        node = node[p]
    return parts, node


def cut(doc: dict[str, Any], patterns: list[str], webhooks: int) -> dict[str, Any]:
    keep_paths = {
        p: item
        for p, item in doc.get("paths", {}).items()
        if any(re.search(x, p) for x in patterns)
    }
    out: dict[str, Any] = {
        k: v for k, v in doc.items() if k not in ("paths", "webhooks", "components", "definitions")
    }
    for k in ("parameters", "responses", "securityDefinitions"):
        out.pop(k, None)
    out["paths"] = keep_paths
    if webhooks and doc.get("webhooks"):
        out["webhooks"] = dict(list(doc["webhooks"].items())[:webhooks])
    if "securityDefinitions" in doc:
        out["securityDefinitions"] = doc["securityDefinitions"]
    if "components" in doc and "securitySchemes" in doc["components"]:
        out["components"] = {"securitySchemes": doc["components"]["securitySchemes"]}
    todo = list(_refs(out))
    done: set[str] = set()
    while todo:
        ref = todo.pop()
        if ref in done:
            continue
        done.add(ref)
        parts, node = _lookup(doc, ref)
        tgt = out
        for p in parts[:-1]:
            tgt = tgt.setdefault(p, {})
        tgt[parts[-1]] = node
        todo.extend(_refs(node) - done)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("spec", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--path", action="append", default=[])
    ap.add_argument("--webhooks", type=int, default=0)
    a = ap.parse_args()
    text = a.spec.read_text(encoding="utf-8")
    is_json = a.spec.suffix == ".json"
    doc = json.loads(text) if is_json else yaml.safe_load(text)
    res = cut(doc, a.path, a.webhooks)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    if is_json:
        a.out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    else:
        a.out.write_text(
            yaml.safe_dump(res, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
        )


if __name__ == "__main__":
    main()

"""Maven: pom.xml, parsed with lxml with entities, DTDs and network access off.

Maven has no lockfile; versions come from the pom: ``${property}`` references are filled from
``<properties>`` (and ``project.version`` / ``project.parent.version``), a dependency without a
version takes it from this pom's ``<dependencyManagement>``, and otherwise, when it shares the
parent's groupId (the Spring Boot starters under ``spring-boot-starter-parent``), the parent's
version, which is what the parent's bill of materials manages for its own group. The parent
itself and imported BOMs are dependencies too (the framework whose docs matter). Names are
``groupId:artifactId``; ``test``-scoped dependencies are dev.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from docorbit_serve.workspace.model import Dependency
from docorbit_serve.workspace.ranges import exact_pin, scheme
from docorbit_serve.workspace.scan_context import ScanContext, Unreadable

__all__ = ["read"]

_PROP = re.compile(r"\$\{([^}]+)\}")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        dtd_validation=False,
    )


def _local(tag: object) -> str:
    return tag.split("}", 1)[-1] if isinstance(tag, str) else ""


def _child(el, name: str):
    for c in el:
        if _local(c.tag) == name:
            return c
    return None


def _text(el, name: str) -> str | None:
    c = _child(el, name)
    return c.text.strip() if c is not None and c.text and c.text.strip() else None


def read(ctx: ScanContext, folder: Path, names: frozenset[str]) -> list[Dependency]:
    if "pom.xml" not in names:
        return []
    manifest = folder / "pom.xml"
    try:
        raw = ctx.read_text(manifest).encode("utf-8")
    except Unreadable:
        return []
    try:
        root = etree.fromstring(raw, _parser())
    except etree.XMLSyntaxError as e:
        ctx.warn("parse_error", manifest, f"xml: {' '.join(str(e).split())[:200]}")
        return []
    if _local(root.tag) != "project":
        ctx.warn("parse_error", manifest, "root element is not <project>")
        return []
    props: dict[str, str] = {}
    p = _child(root, "properties")
    for c in p if p is not None else []:
        if isinstance(c.tag, str) and c.text:
            props[_local(c.tag)] = c.text.strip()
    parent = _child(root, "parent")
    parent_gav = None
    if parent is not None:
        parent_gav = (
            _text(parent, "groupId"),
            _text(parent, "artifactId"),
            _text(parent, "version"),
        )
        if parent_gav[2]:
            props.setdefault("project.parent.version", parent_gav[2])
    own_version = _text(root, "version") or (parent_gav[2] if parent_gav else None)
    if own_version:
        props.setdefault("project.version", own_version)

    def fill(value: str | None, what: str) -> str | None:
        if value is None:
            return None
        for _ in range(5):  # properties may refer to properties; bounded
            new = _PROP.sub(lambda m: props.get(m.group(1), m.group(0)), value)
            if new == value:
                break
            value = new
        if _PROP.search(value):
            ctx.warn("unresolved_property", manifest, f"{what}: {value} is not defined in this pom")
            return None
        return value

    managed: dict[str, tuple[str | None, str | None]] = {}  # name -> (version, scope)
    dm = _child(root, "dependencyManagement")
    dm_deps = _child(dm, "dependencies") if dm is not None else None
    for d in dm_deps if dm_deps is not None else []:
        if _local(d.tag) != "dependency":
            continue
        name = f"{fill(_text(d, 'groupId'), 'groupId')}:{_text(d, 'artifactId')}"
        managed[name] = (fill(_text(d, "version"), name), _text(d, "scope"))

    out: list[Dependency] = []

    def add(name: str, spec: str, version: str | None, dev: bool) -> None:
        out.append(
            Dependency(
                ecosystem="maven",
                name=name,
                spec=spec,
                version=version,
                resolved_from="manifest",
                package_path=ctx.rel(folder),
                source_file=ctx.rel(manifest),
                dev=dev,
            )
        )

    if parent_gav and parent_gav[0] and parent_gav[1]:
        pv = fill(parent_gav[2], "parent")
        add(f"{parent_gav[0]}:{parent_gav[1]}", pv or "", exact_pin("maven", pv or ""), False)
    for name, (version, scope) in sorted(managed.items()):
        if scope == "import":  # an imported bill of materials: a framework version
            add(name, version or "", exact_pin("maven", version or ""), False)
    deps = _child(root, "dependencies")
    for d in deps if deps is not None else []:
        if _local(d.tag) != "dependency":
            continue
        group, artifact = fill(_text(d, "groupId"), "groupId"), _text(d, "artifactId")
        if not group or not artifact:
            ctx.warn("parse_error", manifest, "a <dependency> lacks groupId or artifactId")
            continue
        name = f"{group}:{artifact}"
        spec = fill(_text(d, "version"), name)
        if spec is None and name in managed:
            spec = managed[name][0]
        version = exact_pin("maven", spec) if spec else None
        if spec is None and parent_gav and parent_gav[0] == group and parent_gav[2]:
            version = fill(parent_gav[2], "parent")
        add(name, spec or "", version, (_text(d, "scope") or "") == "test")
    return out


# The version scheme this reader's specs and versions are read with (``ranges.SCHEMES``).
SCHEME = scheme("maven")

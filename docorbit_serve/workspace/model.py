"""The records a workspace scan produces: dependencies, typed warnings, the scan itself.

A ``Dependency`` is one direct dependency of one package of the workspace, declared in one
manifest (``source_file``), with the exact version the lockfile pins when there is one
(``resolved_from="lockfile"``) and otherwise what the manifest alone says
(``resolved_from="manifest"``; ``version`` is then set only for exact pins). Paths are relative
to the scanned root, POSIX-style, so a scan is the same on every machine. The same dependency
in two packages is two records.

A ``ScanWarning`` is a problem with one file (unparseable, too large, a manifest entry the
lockfile does not know, ...). Scanning never raises for a bad file: it warns and goes on.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

__all__ = [
    "ECOSYSTEMS",
    "WARNING_CODES",
    "Dependency",
    "ScanWarning",
    "WorkspaceScan",
]

ECOSYSTEMS = ("cargo", "composer", "go", "maven", "npm", "pub", "pypi", "rubygems")

# code -> meaning; the codes are a contract (the CLI and MCP surfaces show them).
WARNING_CODES = {
    "parse_error": "the file is not valid for its format (half-written, truncated, wrong syntax)",
    "too_large": "the file is larger than the scan's size bound and was not read",
    "unreadable": "the file could not be read or decoded",
    "unsafe_path": "the file is a link that leaves the workspace and was not read",
    "not_in_lockfile": "a manifest entry has no entry in the package's lockfile",
    "invalid_spec": "a version requirement the ecosystem's rules cannot parse",
    "unresolved_property": "a Maven ${property} the pom does not define",
    "scan_limit": "the scan stopped early at its bound on files",
}


@dataclass(frozen=True, order=True)
class Dependency:
    ecosystem: str
    name: str
    spec: str
    version: str | None
    resolved_from: Literal["lockfile", "manifest"]
    package_path: str
    source_file: str
    dev: bool = False
    lock_file: str | None = None
    direct: bool = True

    def sort_key(self) -> tuple[str, str, str, str, bool, str]:
        return (self.package_path, self.ecosystem, self.name, self.source_file, self.dev, self.spec)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, order=True)
class ScanWarning:
    code: str
    file: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass
class WorkspaceScan:
    root: str
    dependencies: list[Dependency] = field(default_factory=list)
    warnings: list[ScanWarning] = field(default_factory=list)

    def by_ecosystem(self, ecosystem: str) -> list[Dependency]:
        return [d for d in self.dependencies if d.ecosystem == ecosystem]

    def find(self, name: str, *, ecosystem: str | None = None) -> list[Dependency]:
        return [
            d
            for d in self.dependencies
            if d.name == name and (ecosystem is None or d.ecosystem == ecosystem)
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "dependencies": [d.to_dict() for d in self.dependencies],
            "warnings": [w.to_dict() for w in self.warnings],
        }

"""Server-rendered SVG plots for the dashboard (no JavaScript, no external assets).

Contract: each function returns a complete ``<svg>`` element as ``markupsafe.Markup``, with a
``<title>`` and every label escaped; sizes are fixed (``WIDTH`` x ``HEIGHT`` viewBox, the CSS
scales it). Empty data gives a plot that says "no data" rather than an empty element.

- ``bars(title, labels, series)``: grouped horizontal bars, ``series`` = ``{name: [values]}``
  aligned with ``labels`` (chunks and pages per source).
- ``lines(title, points)``: one polyline per series over an ordinal x axis, ``points`` =
  ``{series: [(x_label, y), ...]}`` (freshness over time, search latency, benchmark history).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

__all__ = ["HEIGHT", "WIDTH", "bars", "lines"]

WIDTH, HEIGHT = 640, 260
_COLOURS = ("#2b6cb0", "#dd6b20", "#2f855a", "#9b2c2c", "#6b46c1", "#4a5568")
_LEFT, _RIGHT, _TOP, _BOTTOM = 150, 20, 30, 40


def _fmt(v: float) -> str:
    return f"{v:.0f}" if abs(v) >= 10 or v == int(v) else f"{v:.2f}"


def _frame(title: str, body: list[str], kind: str) -> Markup:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="plot plot-{kind}" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>"
        f'<text x="8" y="18" class="plot-title">{escape(title)}</text>'
    )
    return Markup(head + "".join(body) + "</svg>")  # noqa: S704 - every value escaped


def _empty(title: str, kind: str) -> Markup:
    return _frame(
        title, [f'<text x="{WIDTH // 2}" y="{HEIGHT // 2}" class="plot-empty">no data</text>'], kind
    )


def bars(title: str, labels: Sequence[str], series: Mapping[str, Sequence[float]]) -> Markup:
    """Grouped horizontal bars, one group per label (see module docstring)."""
    labels = list(labels)[:20]
    if not labels or not series:
        return _empty(title, "bars")
    top = max((max(v[: len(labels)], default=0) for v in series.values()), default=0) or 1
    group_h = (HEIGHT - _TOP - _BOTTOM) / len(labels)
    bar_h = max(2.0, group_h * 0.8 / len(series))
    span = WIDTH - _LEFT - _RIGHT - 40
    body: list[str] = []
    for i, label in enumerate(labels):
        y0 = _TOP + i * group_h
        body.append(
            f'<text x="{_LEFT - 6}" y="{y0 + group_h / 2 + 4:.1f}" class="plot-label" '
            f'text-anchor="end">{escape(label[:24])}</text>'
        )
        for j, (name, values) in enumerate(series.items()):
            v = float(values[i]) if i < len(values) else 0.0
            w = span * v / top
            y = y0 + group_h * 0.1 + j * bar_h
            body.append(
                f'<rect x="{_LEFT}" y="{y:.1f}" width="{w:.1f}" height="{bar_h - 1:.1f}" '
                f'fill="{_COLOURS[j % len(_COLOURS)]}"><title>{escape(label)} {escape(name)}: '
                f"{_fmt(v)}</title></rect>"
                f'<text x="{_LEFT + w + 4:.1f}" y="{y + bar_h - 2:.1f}" class="plot-value">'
                f"{_fmt(v)}</text>"
            )
    body.extend(_legend(list(series)))
    return _frame(title, body, "bars")


def _legend(names: list[str]) -> list[str]:
    out = []
    for j, name in enumerate(names[: len(_COLOURS)]):
        x = _LEFT + j * 130
        out.append(
            f'<rect x="{x}" y="{HEIGHT - 18}" width="10" height="10" '
            f'fill="{_COLOURS[j % len(_COLOURS)]}"/>'
            f'<text x="{x + 14}" y="{HEIGHT - 9}" class="plot-legend">{escape(name[:18])}</text>'
        )
    return out


def lines(title: str, points: Mapping[str, Sequence[tuple[str, float]]], unit: str = "") -> Markup:
    """One polyline per series over an ordinal x axis (see module docstring)."""
    series = {k: list(v)[-200:] for k, v in points.items() if v}
    if not series:
        return _empty(title, "lines")
    n = max(len(v) for v in series.values())
    top = max(y for v in series.values() for _x, y in v) or 1.0
    left, span_x = 60, WIDTH - 60 - _RIGHT
    span_y = HEIGHT - _TOP - _BOTTOM

    def xy(i: int, y: float) -> tuple[float, float]:
        x = left + (span_x * i / (n - 1) if n > 1 else span_x / 2)
        return x, _TOP + span_y * (1 - y / top)

    body = [
        f'<line x1="{left}" y1="{_TOP + span_y}" x2="{WIDTH - _RIGHT}" y2="{_TOP + span_y}" '
        'class="plot-axis"/>',
        f'<text x="{left - 6}" y="{_TOP + 4}" class="plot-label" text-anchor="end">'
        f"{_fmt(top)}{escape(unit)}</text>",
        f'<text x="{left - 6}" y="{_TOP + span_y}" class="plot-label" text-anchor="end">0</text>',
    ]
    for j, (_name, pts) in enumerate(series.items()):
        colour = _COLOURS[j % len(_COLOURS)]
        coords = [xy(i, y) for i, (_x, y) in enumerate(pts)]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for (x, y), (label, value) in zip(coords, pts, strict=True):
            body.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}">'
                f"<title>{escape(label)}: {_fmt(value)}{escape(unit)}</title></circle>"
            )
    first = next(iter(series.values()))
    body.append(
        f'<text x="{left}" y="{_TOP + span_y + 14}" class="plot-label">{escape(first[0][0][:20])}</text>'
        f'<text x="{WIDTH - _RIGHT}" y="{_TOP + span_y + 14}" class="plot-label" '
        f'text-anchor="end">{escape(first[-1][0][:20])}</text>'
    )
    body.extend(_legend(list(series)))
    return _frame(title, body, "lines")

"""Charts of the report, drawn by matplotlib as SVG and shown as ``data:`` images.

A ``data:`` image keeps the page's Content-Security-Policy simple (images from ``data:`` only)
and isolates the chart's own styles from the page. Charts are reproducible: no dates in the
metadata, a fixed hash salt for ids.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping, Sequence

from harness.tournament.analysis import wilson

BLUE, ORANGE, GREY = "#2e4057", "#d1495b", "#9aa5b1"


def _figure(width: float, height: float):  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg", force=True)
    matplotlib.rcParams.update({"svg.hashsalt": "bot-harness", "svg.fonttype": "none", "font.size": 9,
                                "axes.spines.top": False, "axes.spines.right": False})
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _data_url(fig) -> str:  # type: ignore[no-untyped-def]
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "bot-harness"})
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue().encode()).decode()


def bars_with_intervals(groups: Sequence[str], series: Mapping[str, Sequence[tuple[float, int]]], *,
                        title: str, ylabel: str = "share of games won") -> str:
    """Grouped bars of proportions (successes, n) per group and series, with 95 % Wilson intervals."""
    width = max(4.0, 0.9 + 0.55 * len(groups) * max(1, len(series)))
    fig = _figure(min(width, 11.0), 3.2)
    ax = fig.add_subplot()
    colours = [BLUE, ORANGE, "#66a182", "#edae49", GREY]
    step = 0.8 / max(1, len(series))
    for k, (name, values) in enumerate(series.items()):
        xs = [i - 0.4 + step * (k + 0.5) for i in range(len(groups))]
        shares = [s / n if n else 0.0 for s, n in values]
        lows = [p - wilson(s, n)[0] for p, (s, n) in zip(shares, values)]
        highs = [wilson(s, n)[1] - p for p, (s, n) in zip(shares, values)]
        ax.bar(xs, shares, width=step * 0.9, color=colours[k % len(colours)], label=name)
        ax.errorbar(xs, shares, yerr=[lows, highs], fmt="none", ecolor="#1d2430", capsize=3, linewidth=1)
    ax.set_xticks(range(len(groups)), groups, rotation=20 if len(groups) > 4 else 0, ha="right" if len(groups) > 4 else "center")
    ax.set_ylim(0, 1)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(frameon=False, fontsize=8)
    return _data_url(fig)


def lines_over_runs(runs: Sequence[str], series: Mapping[str, Sequence[float | None]], *, title: str,
                    ylabel: str, invert: bool = False) -> str:
    """One line per bot over the runs (``None``: not ranked in that run)."""
    fig = _figure(min(11.0, max(5.0, 0.45 * len(runs) + 3)), 3.4)
    ax = fig.add_subplot()
    xs = list(range(len(runs)))
    for name, values in series.items():
        points = [(x, v) for x, v in zip(xs, values) if v is not None]
        if points:
            ax.plot([x for x, _ in points], [v for _, v in points], marker="o", markersize=3, linewidth=1.3,
                    label=name)
    ax.set_xticks(xs, runs, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if invert:
        ax.invert_yaxis()
    if series:
        ax.legend(frameon=False, fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return _data_url(fig)


__all__ = ["bars_with_intervals", "lines_over_runs"]

"""Charts of the report, drawn by matplotlib as SVG and shown as ``data:`` images.

A ``data:`` image keeps the page's Content-Security-Policy simple (images from ``data:`` only)
and isolates the chart's own styles from the page. Charts are reproducible: no dates in the
metadata, a fixed hash salt for ids.
"""

from __future__ import annotations

import base64
import io
import textwrap
from collections.abc import Mapping, Sequence

from harness.report.analysis import wilson

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
    width = max(6.0, 0.9 + 0.55 * len(groups) * max(1, len(series)))
    fig = _figure(min(width, 11.0), 3.4)
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
    ax.set_title(textwrap.fill(title, 70), fontsize=10)
    if len(series) > 1:
        ax.legend(frameon=False, fontsize=8)
    return _data_url(fig)


def paired_bars(panels: Mapping[str, Sequence[tuple[str, tuple[float, int], tuple[float, int]]]], *,
                title: str, names: tuple[str, str] = ("first player", "second player")) -> str:
    """One panel per group (e.g. a board size): for each label (e.g. a pair of strategies) two
    horizontal bars, the proportions (successes, n) of the two sides, with 95 % Wilson intervals."""
    labels = sorted({label for rows in panels.values() for label, _, _ in rows})
    fig = _figure(min(11.0, 2.2 + 2.6 * len(panels)), 0.9 + 0.32 * len(labels) * 1.4)
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    for ax, (panel, rows) in zip(axes, panels.items()):
        by_label = {label: (a, b) for label, a, b in rows}
        for k, (name, colour) in enumerate(zip(names, (BLUE, ORANGE))):
            ys = [i + (-0.2 if k == 0 else 0.2) for i in range(len(labels))]  # the first side on top
            values = [by_label.get(label, ((0.0, 0), (0.0, 0)))[k] for label in labels]
            shares = [s / n if n else 0.0 for s, n in values]
            lows = [p - wilson(s, n)[0] for p, (s, n) in zip(shares, values)]
            highs = [wilson(s, n)[1] - p for p, (s, n) in zip(shares, values)]
            ax.barh(ys, shares, height=0.38, color=colour, label=name)
            ax.errorbar(shares, ys, xerr=[lows, highs], fmt="none", ecolor="#1d2430", capsize=2, linewidth=0.8)
        ax.set_xlim(0, 1)
        ax.set_title(panel, fontsize=9)
        ax.set_xlabel("share of games won")
    axes[0].set_yticks(range(len(labels)), labels)
    axes[0].invert_yaxis()
    handles, names_ = axes[0].get_legend_handles_labels()
    fig.legend(handles, names_, frameon=False, fontsize=8, loc="outside lower center", ncol=2)
    fig.suptitle(textwrap.fill(title, 90), fontsize=10)
    return _data_url(fig)


def lines_over_runs(runs: Sequence[str], series: Mapping[str, Sequence[float | None]], *, title: str,
                    ylabel: str, invert: bool = False) -> str:
    """One line per bot over the runs (``None``: not ranked in that run)."""
    fig = _figure(min(11.0, max(5.0, 0.45 * len(runs) + 3)), 3.4)
    ax = fig.add_subplot()
    xs = list(range(len(runs)))
    spread = 0.3 if len(series) > 1 else 0.0  # bots tied on a value: lines side by side, not on top
    for k, (name, values) in enumerate(series.items()):
        shift = spread * (k - (len(series) - 1) / 2) / max(1, len(series) - 1)
        points = [(x, v + shift) for x, v in zip(xs, values) if v is not None]
        if points:
            ax.plot([x for x, _ in points], [v for _, v in points], marker="o", markersize=3, linewidth=1.3,
                    label=name)
    ax.set_xticks(xs, runs, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(textwrap.fill(title, 70), fontsize=10)
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if invert:
        ax.invert_yaxis()
    if series:
        ax.legend(frameon=False, fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return _data_url(fig)


__all__ = ["bars_with_intervals", "lines_over_runs", "paired_bars"]

"""How well ``harness similarity``'s code channels find disguised copies, on a held-out population,
against copydetect on the same files.

The population: 20 independent Blokovanie bots (the 18 of ``bench/similarity_population/``, each
written in a style of its own for this benchmark, and the two sample submissions
``submissions/blokovanie/*``), none of them used to choose the channels' parameters; plus 12
disguised copies made by ``tests/report/copier.py`` with every rewrite of issue 33 at once
(renamed, reordered, comments and docstrings stripped, comparisons flipped, ``+=`` expanded,
``for`` as ``while``, if/else negated, independent statements swapped, dead code, an unused
parameter on every helper, a method moved out of its class):

* 9 copies of 9 different bots;
* 1 copy that also changes one tuning constant;
* 1 copy of 45 % of a bot, the rest the copier's own code (``similarity_population/filler/``);
* 1 bot merged from half of each of two classmates' bots (two true pairs).

So 32 submissions, 496 pairs: 13 true pairs, 483 independent ones. Which bots are copied is drawn
from ``--seed``; the table gives every seed asked for (default 1 to 5). A pair is flagged by the
harness as ``harness similarity`` flags it (``compare``: both code channels, the tree channel's
cut learned from these 496 pairs); copydetect 0.5.0 (``pip install copydetect``; not a dependency
of the harness) with its defaults (k = 25 characters of tokens, window 1) flags a pair when either
file's share found in the other reaches its report's threshold, 0.33. The ranking columns say
how many true pairs are among the 13 highest-scoring pairs.

    python bench/bench_similarity_quality.py            # seeds 1-5
    python bench/bench_similarity_quality.py --seeds 1 2 --verbose
"""

from __future__ import annotations

import argparse
import ast
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.games import get_game  # noqa: E402
from harness.report.similarity import compare, given_code  # noqa: E402
from tests.report.copier import forget_dead_code, rewrite, splice  # noqa: E402

POPULATION = ROOT / "bench" / "similarity_population"
SAMPLES = ROOT / "submissions" / "blokovanie"


def originals() -> dict[str, str]:
    """The 20 independent bots, by name."""
    bots = {p.stem: p.read_text() for p in sorted(POPULATION.glob("*.py"))}
    bots.update({f"sample_{p.name}": (p / "player.py").read_text() for p in sorted(SAMPLES.iterdir())})
    assert len(bots) == 20, sorted(bots)
    return bots


def change_a_constant(source: str, rng: random.Random) -> str | None:
    """``source`` with one named numeric constant (``NAME = 3``, ``BUDGET = 0.35``) changed, or None."""
    tree = ast.parse(source)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and n.targets[0].id.isupper()
             and isinstance(n.value, ast.Constant) and isinstance(n.value.value, (int, float))
             and not isinstance(n.value.value, bool)]
    if not found:
        return None
    node = rng.choice(found)
    assert isinstance(node.value, ast.Constant)
    value = node.value.value
    node.value.value = value * 2 if isinstance(value, int) else round(value * 1.3, 3)
    return ast.unparse(tree)


def population(seed: int) -> tuple[dict[str, str], set[frozenset[str]], dict[str, str]]:
    """(name -> source, the true pairs, name -> how it was made) for one draw."""
    rng = random.Random(seed)
    forget_dead_code()  # each draw the same whichever draws ran before it
    bots = originals()
    names = sorted(bots)
    order = names[:]
    rng.shuffle(order)
    out = dict(bots)
    how = {n: "independent" for n in names}
    true: set[frozenset[str]] = set()
    with_constant = [n for n in order if change_a_constant(bots[n], random.Random(0)) is not None]
    constant = with_constant[0]
    rest = [n for n in order if n != constant]
    plain, partial, (merge_a, merge_b) = rest[:9], rest[9], rest[10:12]
    for n, name in enumerate(plain):
        out[f"copy{n}"] = rewrite(bots[name], salt=f"c{seed}x{n}")
        how[f"copy{n}"] = f"rewrite of {name}"
        true.add(frozenset((name, f"copy{n}")))
    changed = change_a_constant(bots[constant], rng)
    assert changed is not None
    out["copy9"] = rewrite(changed, salt=f"k{seed}")
    how["copy9"] = f"rewrite of {constant}, one constant changed"
    true.add(frozenset((constant, "copy9")))
    own = (POPULATION / "filler" / "own_a.py").read_text()
    out["copy10"] = rewrite(splice([(bots[partial], 0.45), (own, 1.0)]), salt=f"p{seed}")
    how["copy10"] = f"45 % of {partial}, the rest own code"
    true.add(frozenset((partial, "copy10")))
    out["copy11"] = rewrite(splice([(bots[merge_a], 0.5), (bots[merge_b], 0.5)]), salt=f"m{seed}")
    how["copy11"] = f"merge of {merge_a} and {merge_b}"
    true |= {frozenset((merge_a, "copy11")), frozenset((merge_b, "copy11"))}
    return out, true, how


def harness_scores(bots: dict[str, str]) -> tuple[dict[frozenset[str], tuple[float, bool]], str]:
    """Each pair's code score and whether ``harness similarity`` flags it; and the learned cut."""
    game = get_game("blokovanie")
    sources = {name: [("player.py", text.encode())] for name, text in bots.items()}
    references = {name: [("player.py", path.read_bytes())] for name, path in game.reference_players.items()}
    result = compare(sources, given_code(game), references=references)
    flagged_refs = [p for p in result.pairs if p.reference is not None and p.suspicious]
    assert not flagged_refs, flagged_refs  # no bot here copies a shipped player
    return ({frozenset((p.a, p.b)): (p.code, p.code_flag) for p in result.pairs if p.reference is None},
            result.cut.describe())


def copydetect_scores(bots: dict[str, str]) -> dict[frozenset[str], float] | None:
    """Each pair's copydetect similarity (the larger of the two shares), or None without it."""
    try:
        from copydetect import CodeFingerprint, compare_files
    except ImportError:
        return None
    out: dict[frozenset[str], float] = {}
    with tempfile.TemporaryDirectory() as folder:
        prints = {}
        for name, text in bots.items():
            path = Path(folder) / f"{name}.py"
            path.write_text(text)
            prints[name] = CodeFingerprint(str(path), k=25, win_size=1)
        names = sorted(bots)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                _overlap, (sim_a, sim_b), _slices = compare_files(prints[a], prints[b])
                out[frozenset((a, b))] = max(sim_a, sim_b)
    return out


def top_hits(scores: dict[frozenset[str], float], true: set[frozenset[str]]) -> int:
    ranked = sorted(scores, key=lambda k: -scores[k])[:len(true)]
    return sum(1 for k in ranked if k in true)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--verbose", action="store_true", help="every true pair's scores and the highest false ones")
    args = parser.parse_args()
    print(f"{'seed':>4} | {'harness: copies':>15} {'false':>5} {'top13':>5} | {'copydetect: copies':>18} {'false':>5} "
          f"{'top13':>5} | time")
    totals = [0, 0, 0, 0]
    for seed in args.seeds:
        bots, true, how = population(seed)
        started = time.perf_counter()
        ours, cut = harness_scores(bots)
        took = time.perf_counter() - started
        theirs = copydetect_scores(bots)
        assert len(ours) == 496 and len(true) == 13
        hits = sum(1 for k in true if ours[k][1])
        false = sum(1 for k, (_, flag) in ours.items() if flag and k not in true)
        totals[0] += hits
        totals[1] += false
        row = f"{seed:>4} | {hits:>12}/13 {false:>5} {top_hits({k: v[0] for k, v in ours.items()}, true):>5} | "
        if theirs is not None:
            c_hits = sum(1 for k in true if theirs[k] >= 0.33)
            c_false = sum(1 for k, v in theirs.items() if v >= 0.33 and k not in true)
            totals[2] += c_hits
            totals[3] += c_false
            row += f"{c_hits:>15}/13 {c_false:>5} {top_hits(theirs, true):>5} | "
        else:
            row += f"{'(not installed)':>30} | "
        print(row + f"{took:.1f} s")
        if args.verbose:
            print(f"     cut: {cut}")
            for k in sorted(true, key=sorted):
                a, b = sorted(k)
                made = how[a] if a.startswith("copy") else how[b]
                other = f", copydetect {theirs[k]:.2f}" if theirs is not None else ""
                print(f"     {'FLAG' if ours[k][1] else 'miss'} {a:<22} {b:<22} code {ours[k][0]:.2f}{other}  ({made})")
            worst = sorted((k for k in ours if k not in true), key=lambda k: -ours[k][0])[:3]
            for k in worst:
                a, b = sorted(k)
                print(f"     independent {a:<22} {b:<22} code {ours[k][0]:.2f}{' FLAGGED' if ours[k][1] else ''}")
    n = len(args.seeds)
    print(f"all  | {totals[0]:>12}/{13 * n} {totals[1]:>5}       | "
          + (f"{totals[2]:>15}/{13 * n} {totals[3]:>5}" if totals[2] or totals[3] else "") + f"   ({483 * n} independent pairs)")


if __name__ == "__main__":
    main()

"""``harness similarity``'s code channel on many synthetic submissions: all pairs, timed.

Each synthetic submission is the Štreky course template (given code, left out) plus functions of
its own drawn from a small grammar of loops, conditions and arithmetic (about 150 lines); ``--copies``
of them are disguised copies of another (every identifier renamed, definitions reordered,
comments and docstrings stripped, an unused function added: tests/report/copier.py). It times
fingerprinting, the inverted index and the scores of every pair (what ``harness similarity``
does before the behaviour channel), and checks that the planted copies, and only they, are flagged.

    python bench/bench_similarity.py                  # 300 submissions: 44,850 pairs
    python bench/bench_similarity.py --subs 600 --copies 20
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.report.similarity import compare, given_code  # noqa: E402
from tests.report.copier import disguise  # noqa: E402

TEMPLATE = (Path(__file__).resolve().parents[1] / "harness/games/streky/template/player.py").read_text()
OPS = ["+", "-", "*", "//", "%"]
CMP = ["<", ">", "<=", ">=", "==", "!="]


def expression(rng: random.Random, names: list[str]) -> str:
    parts = [rng.choice(names) if rng.random() < 0.7 else str(rng.randint(0, 9)) for _ in range(rng.randint(1, 4))]
    return f" {rng.choice(OPS)} ".join(parts)


def block(rng: random.Random, names: list[str], depth: int, indent: str) -> list[str]:
    lines = []
    for _ in range(rng.randint(2, 5)):
        kind = rng.random()
        if kind < 0.45 or depth > 2:
            target = rng.choice(names)
            lines.append(f"{indent}{target} = {expression(rng, names)}")
        elif kind < 0.65:
            var = f"i{depth}"
            lines.append(f"{indent}for {var} in range({rng.choice(names)} % {rng.randint(2, 9)}):")
            lines += block(rng, names + [var], depth + 1, indent + "    ")
        elif kind < 0.85:
            lines.append(f"{indent}if {rng.choice(names)} {rng.choice(CMP)} {expression(rng, names)}:")
            lines += block(rng, names, depth + 1, indent + "    ")
            if rng.random() < 0.5:
                lines.append(f"{indent}else:")
                lines += block(rng, names, depth + 1, indent + "    ")
        else:
            lines.append(f"{indent}{rng.choice(names)} = [{expression(rng, names)} for k in range({rng.randint(2, 9)})]"
                         f"[{rng.randint(0, 1)}]")
    return lines


def submission(rng: random.Random, functions: int = 8, head: str = TEMPLATE) -> str:
    """``head`` (the course template) plus ``functions`` functions of the student's own."""
    out = [head]
    for f in range(functions):
        names = [f"v{rng.randint(0, 99)}" for _ in range(rng.randint(2, 4))]
        out.append(f"\n\ndef helper_{f}_{rng.randint(0, 999)}({', '.join(dict.fromkeys(names))}):")
        out += block(rng, list(dict.fromkeys(names)), 0, "    ")
        out.append(f"    return {expression(rng, names)}")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subs", type=int, default=300)
    parser.add_argument("--copies", type=int, default=10, help="how many submissions are disguised copies")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts = {f"s{i:04d}": submission(rng) for i in range(args.subs - args.copies)}
    originals = rng.sample(sorted(texts), args.copies)
    planted = set()
    for n, original in enumerate(originals):
        name = f"copy{n:03d}"
        texts[name] = disguise(texts[original], salt=f"z{n}")
        planted.add(tuple(sorted((original, name))))
    sources = {name: [("player.py", text.encode())] for name, text in texts.items()}
    lines = sum(t.count("\n") for t in texts.values()) / len(texts)
    start = time.perf_counter()
    given = given_code(get_game("streky"))
    result = compare(sources, given)
    took = time.perf_counter() - start
    flagged = {(p.a, p.b) for p in result.suspicious}
    print(f"{len(texts)} submissions ({lines:.0f} lines each, the template's included), {len(result.pairs)} pairs: "
          f"{took:.2f} s (fingerprints, index and every pair's score)")
    print(f"planted copies flagged: {len(planted & flagged)} of {len(planted)}; other pairs flagged: "
          f"{len(flagged - planted)}")


if __name__ == "__main__":
    main()

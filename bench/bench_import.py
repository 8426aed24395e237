"""``harness import`` of a large bulk download: how long a course's Moodle zip takes to import.

Builds a Moodle "Download all submissions" zip of ``--students`` students (each a ``player.py``
of about ``--kib`` KiB and an online text) with a roster naming them with diacritics, then times
:func:`harness.intake.importer.import_download` into an empty folder, and again (the same
download: nothing new, nothing installed).

    python bench/bench_import.py --students 1000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import zipfile
from datetime import timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.intake.importer import import_download  # noqa: E402
from harness.roster import Person  # noqa: E402

GIVEN = ["Jan", "Šárka", "Ľubomír", "Petr", "Zuzana", "Jiří", "Anežka", "Tomáš"]
FAMILY = ["Novák", "Svobodová", "Dvořák", "Černý", "Procházka", "Kučerová", "Horák", "Němec"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--students", type=int, default=1000)
    p.add_argument("--kib", type=int, default=8)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        people = []
        with zipfile.ZipFile(folder / "download.zip", "w", zipfile.ZIP_DEFLATED) as z:
            for i in range(args.students):
                name = f"{GIVEN[i % 8]} {FAMILY[(i // 8) % 8]} {i}"
                people.append(Person(f"s{i:05d}", name))
                body = (f"# {i}\n" + "x = 1\n" * (args.kib * 170)).encode()
                z.writestr(zipfile.ZipInfo(f"{name}_{4000 + i}_assignsubmission_file_/player.py",
                                           (2026, 11, 17, 10, 0, 0)), body)
                z.writestr(zipfile.ZipInfo(f"{name}_{4000 + i}_assignsubmission_onlinetext_/onlinetext.html",
                                           (2026, 11, 17, 10, 0, 0)), b"<p>hi</p>")
        size = (folder / "download.zip").stat().st_size
        for label in ("first import", "same download again"):
            start = time.perf_counter()
            report = import_download(folder / "download.zip", folder / "subs", people, zone=timezone.utc)
            took = time.perf_counter() - start
            print(f"{label}: {args.students} students ({size / 1e6:.1f} MB zip): {took:.2f} s, "
                  f"{report.attempts_new} new attempts, {report.installed} installed, {len(report.unmapped)} unmapped")


if __name__ == "__main__":
    main()

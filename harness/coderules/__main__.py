"""The child of :func:`harness.coderules.check_code`: a JSON request on stdin, findings on stdout.

Input: ``{"rules": [{"name", "accessors"}], "files": [[name, text], ...]}``. Output: one list per
rule of ``[file, line, column, text]`` findings.
"""

from __future__ import annotations

import json
import sys

from harness.coderules.checkers import encapsulation, pep8


def main() -> None:
    request = json.loads(sys.stdin.read())
    out = []
    for rule in request["rules"]:
        found = []
        for name, text in request["files"]:
            if rule["name"] == "pep8":
                found += pep8(name, text)
            elif rule["name"] == "encapsulation":
                found += encapsulation(name, text, rule.get("accessors") or {})
        out.append([[f.file, f.line, f.column, f.text] for f in found])
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The public headers say what the code does with drawn noise.

Noise once drawn is consumed: a release that refuses after a draw (an OLS-JL test that fails, an
exact release whose plan passed) has advanced its generator, and a retry draws afresh and spends
privacy again (tests/unit: capi_jl ARetriedRefusalSharesNoDrawWithTheFirstCall). A header that
promised a refusal leaves the generator as it was, or that a retry gives the same answer, would
invite exactly the retry-until-accepted loop that leaks. And a plan's receipt differs from a
release's in every field only a release can know, `generator` included, not in `seed_fixed`
alone. (Post-processing simulations, which draw on a copy of the generator and keep it only on
success, may say their generator is untouched on error: that is true of them.) Prints each false statement found with its file and line; exits 1 if there is any.
Usage: check_generator_statements.py ROOT
"""
import pathlib
import re
import sys

FALSE = [
    (re.compile(r"retry(?:ing)?\s+(?:\S+\s+){0,3}gives?\s+the\s+same\s+answer", re.I),
     "a retry after a refusal draws afresh; it does not give the same answer"),
    (re.compile(r"generator\s+(?:is\s+)?left\s+unchanged", re.I),
     "a refusal after a draw has advanced the generator"),
    (re.compile(r"advanced\s+on\s+success,?\s+(?:and\s+)?unchanged\s+on\s+failure", re.I),
     "a failure after the first draw leaves the generator advanced"),
    (re.compile(r"except\s+`?seed_fixed`?\s*[,.]", re.I),
     "a plan's receipt also lacks `generator` (and the release-only fields)"),
]


def main(root):
    found = 0
    for header in sorted(pathlib.Path(root, "capi", "include", "dpcov").glob("*.h")):
        # Doxygen text spans lines: join each comment's lines before matching.
        flat = re.sub(r"\n\s*\*\s*", " ", header.read_text())
        for pattern, why in FALSE:
            for match in pattern.finditer(flat):
                print(f"{header.relative_to(root)}: \"{match.group(0)}\": {why}")
                found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

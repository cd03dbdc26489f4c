"""Checks the budget ledger's advanced-composition constants (proofs/ledger.md, "Advanced
accounting"; core/privacy/advanced_composition.hpp) against mpmath at 50 digits over random
parameter points:
- drv_epsilon(k, eps, delta') = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1) (Dwork and Roth
  2014, Thm 3.20) is >= the exact value and within 16 ulps of it;
- advanced_composition_max_releases K fits exactly (basic composition or Thm 3.20 at the slack
  delta_cap - K delta_each), and K + 1 does not, unless K + 1 is within 1e-12 relative of the cap
  (where rounding to the safe side may refuse it).

Usage: advanced_composition.py VALUES (the tests/proofs/advanced_composition_values program)."""

import random
import subprocess
import sys

import mpmath

mpmath.mp.dps = 50


def drv(k, eps, slack):
    k, eps, slack = mpmath.mpf(k), mpmath.mpf(eps), mpmath.mpf(slack)
    return mpmath.sqrt(2 * k * mpmath.log(1 / slack)) * eps + k * eps * mpmath.expm1(eps)


def margin(k, eps_cap, delta_cap, eps_each, delta_each):
    """max over the two bounds of (cap - epsilon) / cap where the delta also fits; < 0: no fit."""
    k, ec, dc, ee, de = (mpmath.mpf(v) for v in (k, eps_cap, delta_cap, eps_each, delta_each))
    best = mpmath.mpf(-1)
    if k * de <= dc:
        best = max(best, (ec - k * ee) / ec)
    slack = dc - k * de
    if slack > 0:
        best = max(best, (ec - drv(k, ee, slack)) / ec)
    return best


def main():
    rng = random.Random(20261124)
    cases = []
    for _ in range(2000):
        eps_cap = 10 ** rng.uniform(-2, 1.5)
        delta_cap = 0.0 if rng.random() < 0.1 else 10 ** rng.uniform(-12, -1.5)
        eps_each = eps_cap * 10 ** rng.uniform(-4, 0.3)
        delta_each = 0.0 if rng.random() < 0.5 else delta_cap * 10 ** rng.uniform(-6, 0)
        cases.append((rng.randrange(0, 10 ** rng.randint(1, 9)), 10 ** rng.uniform(-4, 1.5),
                      10 ** rng.uniform(-15, -0.5), eps_cap, delta_cap, eps_each, delta_each))
    text = "".join(" ".join(repr(x) for x in c) + "\n" for c in cases)
    out = subprocess.run([sys.argv[1]], input=text, capture_output=True, text=True, check=True)
    lines = [line for line in out.stdout.split("\n") if line]
    assert len(lines) == len(cases), (len(lines), len(cases))
    failures = 0
    for case, line in zip(cases, lines):
        value_hex, k_text = line.split()
        value, releases = mpmath.mpf(float.fromhex(value_hex)), int(k_text)
        k, eps, slack, eps_cap, delta_cap, eps_each, delta_each = case
        truth = drv(k, eps, slack)
        if not (value >= truth and abs(value - truth) <= 16 * mpmath.mpf(2) ** -52 * abs(truth)):
            failures += 1
            print(f"drv_epsilon{case[:3]}: {float(value)!r} vs exact {mpmath.nstr(truth, 20)}")
        caps = (eps_cap, delta_cap, eps_each, delta_each)
        fits = margin(releases, *caps) >= 0
        next_margin = margin(releases + 1, *caps)
        if not fits or next_margin > mpmath.mpf(1e-12):
            failures += 1
            print(f"max_releases{caps}: {releases}, fits {fits}, "
                  f"K + 1 margin {mpmath.nstr(next_margin, 5)}")
    print(f"{len(cases)} cases, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

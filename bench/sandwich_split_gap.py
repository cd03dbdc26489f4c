"""What the robust intervals' budget split leaves unspent (proofs/sandwich.md, "The split").

Both releases are Gaussian mechanisms calibrated by the analytic Gaussian (Balle and Wang 2018,
Thm 8) at their shares of (eps, delta): mu is the root of
delta(eps; mu) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2). The fit's continuous noise is then
exactly mu-GDP (Dong, Roth, Su 2022); the meat's discrete Gaussian (exact numerics) is
mu^2/2-zCDP, with a privacy curve of its own. The split composes them by basic composition:
(0.8 eps, 0.8 delta) + (0.2 eps, 0.2 delta). This script prints, per epsilon at delta = 1e-6:

- mu of the whole budget, of the fit's share and of the meat's share;
- the delta of the pair at eps by zCDP composition (rho adds; Canonne, Kamath, Steinke 2020,
  Cor. 13 converts rho to (eps, delta)), which holds for the pair as released, and by GDP
  composition (mu^2 adds, adaptive: Dong, Roth, Su 2022, Cor. 3.3), which would hold were both
  continuous: against the delta the pair is charged;
- the noise factors a split of the whole budget in mu^2 (0.8 and 0.2) would give the fit and the
  meat at the same (eps, delta): their noise divided by these factors, in GDP and in zCDP.

All in mpmath at 40 digits. Usage: /usr/bin/python3 bench/sandwich_split_gap.py [--eps 0.5,1,2,4]
"""

from __future__ import annotations

import argparse

from mpmath import mp, mpf, ncdf, exp, log, sqrt, findroot

mp.dps = 40
MEAT_SHARE = mpf("0.2")


def gdp_delta(eps, mu):
    """delta(eps) of a mu-GDP mechanism (Balle and Wang 2018, Thm 8)."""
    return ncdf(-eps / mu + mu / 2) - exp(eps) * ncdf(-eps / mu - mu / 2)


def largest_below(delta_of, delta, lo, hi):
    """The largest parameter in [lo, hi] whose delta_of(parameter) is below delta (delta_of grows
    with it): bisection in log scale."""
    for _ in range(200):
        mid = sqrt(lo * hi)
        lo, hi = (mid, hi) if delta_of(mid) < delta else (lo, mid)
    return lo


def gdp_mu(eps, delta):
    """The mu whose delta(eps) is delta."""
    return largest_below(lambda mu: gdp_delta(eps, mu), delta, mpf("1e-6"), mpf(100))


def zcdp_delta(eps, rho):
    """The smallest delta(eps) of rho-zCDP over the Renyi orders (Canonne, Kamath, Steinke 2020,
    Cor. 13): exp((a - 1)(a rho - eps)) / (a - 1) (1 - 1/a)^a, minimised over a > 1 at the root
    of its log's derivative."""
    f = lambda a: (a - 1) * (a * rho - eps) - log(a - 1) + a * log(1 - 1 / a)  # noqa: E731
    df = lambda a: (2 * a - 1) * rho - eps + log(1 - 1 / a)  # noqa: E731
    a = findroot(df, (1 + 1e-9, mpf(10) ** 6), solver="bisect") if df(mpf(10) ** 6) > 0 \
        else mpf(10) ** 6
    return exp(f(a))


def zcdp_rho(eps, delta):
    """The rho whose zCDP delta(eps) is delta."""
    return largest_below(lambda rho: zcdp_delta(eps, rho), delta, mpf("1e-12"), mpf(50))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eps", default="0.5,1,2,4")
    ap.add_argument("--delta", default="1e-6")
    args = ap.parse_args(argv)
    delta = mpf(args.delta)
    print("| epsilon | mu whole | mu fit (0.8) | mu meat (0.2) | delta of the pair (zCDP) | "
          "(GDP) | GDP split: fit noise / | meat noise / | zCDP split: fit noise / | "
          "meat noise / |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for e in (mpf(v) for v in args.eps.split(",")):
        whole = gdp_mu(e, delta)
        fit = gdp_mu((1 - MEAT_SHARE) * e, (1 - MEAT_SHARE) * delta)
        meat = gdp_mu(MEAT_SHARE * e, MEAT_SHARE * delta)
        spent = gdp_delta(e, sqrt(fit ** 2 + meat ** 2))
        spent_zcdp = zcdp_delta(e, (fit ** 2 + meat ** 2) / 2)
        two_rho = 2 * zcdp_rho(e, delta)
        print(f"| {float(e):g} | {float(whole):.4f} | {float(fit):.4f} | {float(meat):.4f} | "
              f"{float(spent_zcdp):.2e} | {float(spent):.2e} | {float(sqrt(1 - MEAT_SHARE) * whole / fit):.3f} | "
              f"{float(sqrt(MEAT_SHARE) * whole / meat):.3f} | "
              f"{float(sqrt((1 - MEAT_SHARE) * two_rho) / fit):.3f} | "
              f"{float(sqrt(MEAT_SHARE * two_rho) / meat):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

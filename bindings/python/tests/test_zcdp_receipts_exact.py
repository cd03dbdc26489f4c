"""An outside check of the zCDP receipts against exact rational arithmetic, over random points of
the whole double range (subnormal rho and radii down to 2^-960 included): every noise scale a
receipt states is at least the exact value its share of rho needs for its sensitivity, and the
shares add up to at most rho. Dong-Liang-Yi: Gauss at rho and Separate's halves at rho / 2 for
sqrt(2) r^2 / n; Adaptive's release at rho_c (Gauss: the average of two halves, sigma / sqrt 2;
Separate: each half at rho_c / 2) at the chosen radius r~, its trace (r^2 / n) and histogram
(sqrt 2) looks, AdaptivePaper's trace and sparse vector epsilon; CoinPress covariance
(sqrt(2) gamma^2 / n per step) and mean (2 R_i / n per step), and the centring split. Both tests
fail with zcdp_gaussian_sigma computed in round-to-nearest (sensitivity / sqrt(2 rho)), which
leaves about one noise scale in eleven one ulp below its exact value."""

import math
import random
import struct
from fractions import Fraction as F

import numpy as np

import dpcov
from dpcov.coinpress import coinpress_centring_split, coinpress_mean_plan, coinpress_plan
from dpcov.dong_liang_yi import dly_plan, dly_release


def _any_double(gen):
    while True:
        x = struct.unpack("<d", struct.pack("<Q", gen.getrandbits(63)))[0]
        if 0.0 < x < math.inf:
            return x


def _at_least(sigma, sensitivity_squared, rho):
    """sigma >= sensitivity / sqrt(2 rho), exactly."""
    return F(sigma) ** 2 * 2 * F(rho) >= sensitivity_squared


def test_dong_liang_yi_receipts_are_never_below_their_exact_noise():
    gen = random.Random(20261124)
    checked = 0
    for case in range(600):
        variant = ("gauss", "separate", "adaptive", "adaptive_paper")[case % 4]
        # Up to e^27 < 2^40: a rho whose epsilon is above DPCOV_MAX_EPSILON plans nothing.
        rho = _any_double(gen) if gen.random() < 0.3 else math.exp(gen.uniform(-700, 27))
        r = 2.0 ** gen.uniform(-959, 511)
        d = gen.randint(1, 4)
        try:
            if variant.startswith("adaptive"):
                rows = (np.random.default_rng(case).standard_normal((gen.choice([1, 5, 40]), d))
                        * r / math.sqrt(d) * gen.choice([0.01, 0.3, 1.0, 3.0]))
                n = rows.shape[0]
                rec = dly_release(rows, dpcov.Rng.seeded(case), variant, rho=rho,
                                  radius=r).receipt
            else:
                n = gen.choice([1, 3, 1000, 2**40 + 1])
                rec = dly_plan(n, d, variant, rho=rho, radius=r)
        except dpcov.DpcovError:
            continue  # refused before any noise
        checked += 1
        rho_f, n_f = F(rho), F(n)
        where = (variant, rho, r, n, d)
        if variant == "gauss":
            assert _at_least(rec["sigma_matrix"], 2 * F(r) ** 4 / n_f ** 2, rho_f), where
            continue
        if variant == "separate":
            for sigma in (rec["sigma_matrix"], rec["sigma_eigenvalues"]):
                assert _at_least(sigma, 2 * F(r) ** 4 / n_f ** 2, rho_f / 2), where
            continue
        rho_c = F(rec["rho_covariance"])
        release = 2 * F(rec["clip_radius"]) ** 4 / n_f ** 2
        if rec["branch"] == "gauss":
            assert _at_least(rec["sigma_matrix"], release, rho_c), where
        else:
            for sigma in (rec["sigma_matrix"], rec["sigma_eigenvalues"]):
                assert _at_least(sigma, release, rho_c / 2), where
        spent = rho_c
        trace = F(r) ** 4 / n_f ** 2
        if variant == "adaptive_paper":
            assert _at_least(rec["trace_sigma"], trace, rho_f / 8), where
            assert F(rec["svt_epsilon"]) ** 2 / 2 <= rho_f / 8, where
            spent += rho_f / 4
        else:
            assert _at_least(rec["first_look_sigma"], 2, rho_f / 512), where
            spent += rho_f / 512
            if rec["first_look_settled"] is False:
                assert _at_least(rec["histogram_sigma"], 2, rho_f * 15 / 512), where
                assert _at_least(rec["trace_sigma"], trace, rho_f / 128), where
                spent += rho_f * 15 / 512 + rho_f / 128
        assert spent <= rho_f, where
    assert checked > 300


def test_coinpress_receipts_are_never_below_their_exact_noise():
    gen = random.Random(20261125)
    checked = 0
    for _ in range(600):
        rho = _any_double(gen) if gen.random() < 0.5 else math.exp(gen.uniform(-20, 20))
        n, d, t = gen.choice([1, 3, 1000, 2**40 + 1]), gen.randint(1, 5), gen.randint(1, 16)
        try:
            rec = coinpress_plan(n, d, gen.choice([1.0, 4.0, _any_double(gen) + 1.0]), rho=rho,
                                 steps=t)
            gamma4 = F(rec["clip_radius"]) ** 4
            assert sum(F(x) for x in rec["step_rho"]) <= F(rho)
            for share, sigma in zip(rec["step_rho"], rec["step_sigma"]):
                assert _at_least(sigma, 2 * gamma4 / F(n) ** 2, share), (rho, n, d, t)
            checked += 1
        except dpcov.DpcovError:
            pass
        try:
            rec = coinpress_mean_plan(n, d, gen.choice([0.0, 1.0, _any_double(gen)]), rho=rho,
                                      scale=gen.choice([1.0, _any_double(gen)]), steps=t)
            assert sum(F(x) for x in rec["step_rho"]) <= F(rho)
            for share, radius, sigma in zip(rec["step_rho"], rec["step_clip_radius"],
                                            rec["step_sigma"]):
                assert _at_least(sigma, 4 * F(radius) ** 2 / F(n) ** 2, share), (rho, n, d, t)
            checked += 1
        except dpcov.DpcovError:
            pass
        try:
            mean_share, covariance_share = coinpress_centring_split(rho)
            assert F(mean_share) + F(covariance_share) <= F(rho)
        except dpcov.DpcovError:
            pass
    assert checked > 300

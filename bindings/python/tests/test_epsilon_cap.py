"""Epsilon above DPCOV_MAX_EPSILON = 2^40 (docs/epsilon-cap.md) is refused with the library's
message by every Python surface, before any draw; 2^40 itself is accepted. At epsilon = 1e20 a
release was its statistic to the last bit."""

import numpy as np
import pytest

import dpcov

CAP = 2.0 ** 40
ABOVE = float(np.nextafter(CAP, np.inf))


def test_plan_accepts_the_cap_and_refuses_above():
    assert dpcov.plan("analyze_gauss", 4, 100, 1.0, CAP, 1e-6).epsilon == CAP
    for eps in (ABOVE, 1e20):
        with pytest.raises(dpcov.InvalidArgumentError, match="DPCOV_MAX_EPSILON"):
            dpcov.plan("analyze_gauss", 4, 100, 1.0, eps, 1e-6)


def test_release_above_the_cap_draws_nothing_and_writes_nothing(spd):
    out = np.full((4, 4), 7.0)
    with dpcov.Rng(1) as rng:
        before = rng.save_state()
        with pytest.raises(dpcov.InvalidArgumentError, match="DPCOV_MAX_EPSILON"):
            dpcov.release("laplace_sym", spd, n=100, bound=10.0, epsilon=1e20, delta=0.0,
                          rng=rng, out=out)
        assert rng.save_state() == before
    assert np.all(out == 7.0)


def test_estimator_above_the_cap_is_refused(data):
    with pytest.raises(dpcov.InvalidArgumentError, match="DPCOV_MAX_EPSILON"):
        dpcov.PrivateCovariance(epsilon=1e20, delta=1e-6, bound=10.0, random_state=1).fit(data)

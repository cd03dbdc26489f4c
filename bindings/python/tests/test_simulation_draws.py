"""The simulations that post-process a release take at most ``DPCOV_MAX_SIMULATION_DRAWS``
(10^7) worlds: above it, up to the largest int64_t, the OLS and AdaSSP bootstrap intervals and
both PCA subspace error bounds raise :class:`dpcov.InvalidArgumentError` at once, naming the
maximum, with the generator unmoved. The bootstrap ran for effectively unbounded time, kept every
world's coefficients (p doubles each) and formed ``num_bootstrap + 1``, a signed overflow at
INT64_MAX."""

import numpy as np
import pytest

import dpcov

TOO_MANY = [10 ** 7 + 1, 2 ** 62, 2 ** 63 - 1]


def gram(n, gen):
    X = gen.normal(scale=0.08, size=(n, 3))
    y = X @ [0.5, -0.5, 0.0] + gen.normal(scale=0.08, size=n)
    A = np.column_stack([X, y])
    return A.T @ A


def refused(call, rng):
    before = rng.save_state()
    with pytest.raises(dpcov.InvalidArgumentError) as raised:
        call()
    assert "DPCOV_MAX_SIMULATION_DRAWS" in raised.value.message
    assert rng.save_state() == before


@pytest.mark.parametrize("count", TOO_MANY)
def test_simulations_above_the_maximum_are_refused_before_a_draw(count):
    gen = np.random.default_rng(11)
    n = 100000
    with dpcov.Rng(12) as rng:
        released, receipt = dpcov.release("laplace_sym", gram(n, gen), n, 1.0, 1.0, 1e-6, rng)
        refused(lambda: dpcov.ols_bootstrap_intervals(released, receipt, label=3,
                                                      features=[0, 1, 2], rng=rng,
                                                      num_bootstrap=count), rng)
        refused(lambda: dpcov.pca_subspace_error_bound(released, receipt, 1, rng,
                                                       num_draws=count), rng)
        refused(lambda: dpcov.pca_centred_subspace_error_bound(released, receipt, 1, rng,
                                                               constant_column=3, n=n,
                                                               num_draws=count), rng)
        fit = dpcov.adassp_fit(gram(20000, gen), 3, [0, 1, 2], 1.0, 1.0, 1e4, 1e-6, rng,
                               release_label_square=True)
        refused(lambda: dpcov.adassp_bootstrap_intervals(fit, 20000, rng,
                                                         num_bootstrap=count), rng)

"""An audit's ``trials`` is at most ``dpcov.audit.AUDIT_MAX_TRIALS`` (10^7,
``DPCOV_AUDIT_MAX_TRIALS``): above it, and beyond what a C ``int64_t`` holds, every audit function
raises :class:`dpcov.InvalidArgumentError` at once (before anything is drawn). ctypes passes a
Python int reduced modulo 2^64, so ``trials=2**64 + 5`` reached C as 5 and ran an audit at 5
trials; now it is refused."""

import pytest

import dpcov
from dpcov.audit import AUDIT_MAX_TRIALS

TOO_MANY = [AUDIT_MAX_TRIALS + 1, 2 ** 62, 2 ** 63 - 1, 2 ** 63, 2 ** 64 + 5, 2 ** 70]
# 2 ** 64 + 2000 wraps to the default 2000, which C would accept.
WRAPPING = [2 ** 64 + 2000, -(2 ** 64) + 2000]


def audits(trials):
    """Every audit entry point at ``trials``, on small valid settings."""
    return [
        lambda: dpcov.audit_run("analyze_gauss", 3, 20, 1.0, 1.0, 1e-6, trials=trials),
        lambda: dpcov.audit_run_pair("analyze_gauss", [[1.0, 0.0], [0.0, 1.0]],
                                     [[1.0, 0.0], [0.6, 0.8]], 1.0, 1.0, 1e-6, trials=trials),
        lambda: dpcov.audit_rows_black_box("dly_gauss", 3, 20, 0.1, 1e-6, 1.0, trials=trials),
        lambda: dpcov.audit_coinpress_mean(3, 20, 5.0, trials=trials),
        lambda: dpcov.audit_rows_exact("dly_gauss", 0.5, trials=trials),
        lambda: dpcov.audit_rows_exact("coinpress", 0.5, steps=3, trials=trials),
        lambda: dpcov.audit_rows_exact_pairs("dly_gauss", 0.5, trials=trials, pairs=64),
    ]


@pytest.mark.parametrize("trials", TOO_MANY + WRAPPING)
def test_trials_beyond_the_maximum_are_refused(trials):
    for call in audits(trials):
        with pytest.raises(dpcov.InvalidArgumentError) as raised:
            call()
        message = raised.value.message
        assert str(trials) in message
        assert "DPCOV_AUDIT_MAX_TRIALS" in message or "must fit int64_t" in message


@pytest.mark.parametrize("value", TOO_MANY + WRAPPING)
def test_a_first_checkpoint_that_does_not_fit_is_refused(value):
    # Above trials (C's check) or beyond int64_t (the binding's): never wrapped into range.
    with pytest.raises(dpcov.InvalidArgumentError) as raised:
        dpcov.audit_run("analyze_gauss", 3, 20, 1.0, 1.0, 1e-6, first_checkpoint=value)
    assert "first_checkpoint" in raised.value.message


def test_the_maximum_is_the_c_header_s():
    assert AUDIT_MAX_TRIALS == 10_000_000

"""GramAccumulator.to_bytes / from_bytes (dpcov_gram_export_state / dpcov_gram_import_state):
exact states of partitions, shipped as bytes and merged, release exactly what one accumulator of
all the rows releases; pickling goes through the same bytes; the drop policy and the spec survive;
bytes that are not an intact state of this version are refused."""
import pickle
import warnings

import numpy as np
import pytest

import dpcov
from dpcov.learn import ClippingWarning, SeededNoiseWarning


def quiet(fit):
    with warnings.catch_warnings():
        for category in (SeededNoiseWarning, ClippingWarning, UserWarning):
            warnings.simplefilter("ignore", category)
        return fit()


@pytest.fixture(scope="module")
def x():
    return np.random.default_rng(34).normal(size=(500, 3)) * 0.5


@pytest.mark.parametrize("mechanism", ("analyze_gauss", "laplace_sym"))
def test_merged_states_release_byte_for_byte_as_one_accumulator(x, mechanism):
    def make():
        return dpcov.GramAccumulator.bounded(3, mechanism=mechanism)
    whole = make().add_raw_rows(x)
    order = np.random.default_rng(1).permutation(len(x))
    states = [make().add_raw_rows(x[part]).to_bytes()
              for part in np.array_split(order, 5)]
    merged = dpcov.GramAccumulator.from_bytes(states[3])
    for k in (0, 4, 1, 2):
        merged.merge(pickle.loads(pickle.dumps(dpcov.GramAccumulator.from_bytes(states[k]))))
    assert merged.to_bytes() == whole.to_bytes()
    with dpcov.Rng(5) as r1, dpcov.Rng(5) as r2:
        a, ra = quiet(lambda: whole.release(mechanism, 1.0, 1e-6, r1))
        b, rb = quiet(lambda: merged.release(mechanism, 1.0, 1e-6, r2))
    assert a.tobytes() == b.tobytes()
    assert ra.n == rb.n and ra.sigma == rb.sigma and ra.scale == rb.scale
    assert ra.numerics == rb.numerics == 1


def test_the_drop_policy_survives_pickling(x):
    gram = dpcov.GramAccumulator.bounded(3, bound=10.0, policy="drop", neighbour="add_remove",
                                         numerics="idealized").add_raw_rows(x)
    assert gram.info().dropped == 0
    clone = pickle.loads(pickle.dumps(gram))
    assert clone.to_bytes() == gram.to_bytes()
    with dpcov.Rng(1) as rng, pytest.raises(dpcov.errors.UnmetPreconditionError):
        quiet(lambda: clone.release("analyze_gauss", 1.0, 1e-6, rng))


def test_bytes_that_are_not_an_intact_state_are_refused(x):
    data = dpcov.GramAccumulator.bounded(3, mechanism="analyze_gauss").add_raw_rows(x).to_bytes()
    with pytest.raises(dpcov.errors.InvalidArgumentError, match="magic"):
        dpcov.GramAccumulator.from_bytes(b"X" + data[1:])
    with pytest.raises(dpcov.errors.InvalidArgumentError, match="truncated"):
        dpcov.GramAccumulator.from_bytes(data[:-1])
    with pytest.raises(dpcov.errors.InvalidArgumentError, match="corrupted"):
        dpcov.GramAccumulator.from_bytes(data[:40] + bytes([data[40] ^ 1]) + data[41:])
    with pytest.raises(dpcov.errors.IncompatibleError, match="format version"):
        dpcov.GramAccumulator.from_bytes(data[:8] + b"\x02" + data[9:])
    other = dpcov.GramAccumulator.bounded(4, mechanism="analyze_gauss").to_bytes()
    with pytest.raises(dpcov.errors.IncompatibleError):
        dpcov.GramAccumulator.from_bytes(data).merge(dpcov.GramAccumulator.from_bytes(other))

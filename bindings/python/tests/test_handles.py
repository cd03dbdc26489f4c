"""Handles: context managers, close(), use after close, generator state, merges and sketches."""

import pickle

import numpy as np
import pytest

import dpcov


def test_context_managers_close_their_handles(data):
    with dpcov.GramAccumulator(4) as gram:
        gram.add_rows(data, 2.0)
        assert not gram.closed
    assert gram.closed
    gram.close()  # a second close is a no-op
    with pytest.raises(dpcov.NullPointerError, match="NULL"):
        gram.add_rows(data, 2.0)


def test_a_closed_generator_is_refused_by_the_library():
    rng = dpcov.Rng(5)
    rng.close()
    with pytest.raises(dpcov.NullPointerError):
        rng.next_u64()


def test_seeded_generators_are_reproducible_and_marked():
    with dpcov.Rng(42, stream=3) as a, dpcov.Rng(42, stream=3) as b, dpcov.Rng(42, 4) as c:
        xa, xb, xc = a.standard_normal(5), b.standard_normal(5), c.standard_normal(5)
        assert np.array_equal(xa, xb) and not np.array_equal(xa, xc)
        assert a.seed_fixed
    with dpcov.Rng() as entropy:
        assert not entropy.seed_fixed


def test_saved_state_and_pickle_continue_the_same_sequence():
    with dpcov.Rng(9) as rng:
        rng.uniform01(3)
        state = rng.save_state()
        assert len(state) == dpcov.state_size() == dpcov.Rng.STATE_SIZE
        clone = pickle.loads(pickle.dumps(rng))
        expected = rng.standard_normal(4)
        assert np.array_equal(clone.standard_normal(4), expected)
        rng.restore_state(state)
        assert np.array_equal(rng.standard_normal(4), expected)
        with pytest.raises(dpcov.BufferTooSmallError):
            rng.restore_state(state[:10])
        clone.close()


def test_substreams_depend_only_on_the_key_and_the_index():
    with dpcov.Rng(11) as parent:
        first = parent.substream(7)
        parent.next_u64()
        second = parent.substream(7)
        assert first.next_u64() == second.next_u64()
        assert first.seed_fixed
        first.close()
        second.close()


def test_merged_partial_accumulators_equal_one_accumulator(data):
    with dpcov.GramAccumulator(4) as whole, dpcov.GramAccumulator(4) as a, \
            dpcov.GramAccumulator(4) as b:
        whole.add_rows(data, 2.0)
        a.add_rows(data[:25], 2.0)
        b.add_rows(data[25:], 2.0)
        a.merge(b)
        assert a.info() == whole.info()
        np.testing.assert_allclose(a.matrix(), whole.matrix(), rtol=1e-14, atol=1e-14)
        assert whole.info().clipped > 0


def test_an_accumulator_rebuilt_from_its_state_releases_the_same(data):
    with dpcov.GramAccumulator(4) as gram:
        gram.add_rows(data, 2.0)
        state = gram.state()
        rebuilt = dpcov.GramAccumulator.from_state(**state)
        pickled = pickle.loads(pickle.dumps(gram))
        for other in (rebuilt, pickled):
            assert other.info() == gram.info()
            with dpcov.Rng(1) as r1, dpcov.Rng(1) as r2:
                a = gram.release("analyze_gauss", 1.0, 1e-6, r1).matrix
                b = other.release("analyze_gauss", 1.0, 1e-6, r2).matrix
            assert np.array_equal(a, b)
            other.close()


def test_from_state_refuses_a_trace_above_the_bound(spd):
    with pytest.raises(dpcov.NormBoundError):
        dpcov.GramAccumulator.from_state(spd, rows=1, bound=1.0)


def test_sketches_do_not_depend_on_how_rows_are_split(data):
    with dpcov.Rng(21) as key:
        with dpcov.Sketch(4, 6, key) as whole, whole.partial() as a, whole.partial() as b:
            whole.add_rows(data, first_index=0, bound=2.0)
            a.add_rows(data[:31], first_index=0, bound=2.0)
            b.add_rows(data[31:], first_index=31, bound=2.0)
            a.merge(b)
            np.testing.assert_allclose(a.get(0.0), whole.get(0.0), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(a.gram_matrix(), whole.gram_matrix(), rtol=1e-13)
            with pytest.raises(dpcov.InvalidArgumentError, match="index"):
                a.add_rows(data[:1], first_index=3, bound=2.0)


def test_two_sketches_of_one_generator_never_share_their_weights(data):
    """Each sketch draws its key from the generator: releases of neighbouring data sets made
    with one generator do not differ by the added row's sketch alone."""
    with dpcov.Rng(23) as key, dpcov.Sketch(4, 6, key) as first, \
            dpcov.Sketch(4, 6, key) as second:
        first.add_rows(data, 0, 2.0)
        second.add_rows(data, 0, 2.0)
        assert not np.any(first.get(0.0) == second.get(0.0))
        with pytest.raises(dpcov.IncompatibleError):
            first.merge(second.partial())


def test_a_sketch_rebuilt_from_summed_state_releases_like_the_merged_one(data):
    with dpcov.Rng(22) as key, dpcov.Sketch(4, 8, key) as a, a.partial() as b:
        a.add_rows(data[:30], 0, 2.0)
        b.add_rows(data[30:], 30, 2.0)
        summed_sketch = a.get(0.0) + b.get(0.0)
        a.merge(b)
        # The w I block of both from a key drawn from generators of one seed.
        with dpcov.GramAccumulator.from_state(a.gram_matrix(), 60, 2.0, a.info().clipped) as g, \
                dpcov.Rng(7) as k1, dpcov.Rng(7) as k2:
            summed = dpcov.Sketch.from_state(k1, 8, g, summed_sketch)
            whole = dpcov.Sketch.from_state(k2, 8, g, a.get(0.0))
        with dpcov.Rng(5) as r1, dpcov.Rng(5) as r2:
            merged = whole.release("jl_ridge", 1.0, 1e-6, r1, want_sketch=True)
            rebuilt = summed.release("jl_ridge", 1.0, 1e-6, r2)
        summed.close()
        whole.close()
        np.testing.assert_allclose(rebuilt.matrix, merged.matrix, rtol=1e-12)
        assert merged.sketch.shape == (8, 4)
        assert merged.receipt.projection_rows == 8

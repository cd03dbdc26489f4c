"""The Dask example: partial Gram matrices per partition, Dask's tree-sum, one release; on a local
cluster it equals the single-process release with the same generator, to rounding."""

import dask
import dask.array as da
import numpy as np
import pytest

import dpcov
import dpcov.dask as dask_release
from dask_fixtures import DIM, ROWS, client, rows  # noqa: F401 (fixtures)

CHUNK = 500


# Mechanisms whose release is a continuous function of G given the noise draws. (IEV and KT
# draw in G's eigenbasis, whose signs LAPACK may flip under a rounding change of G: their cluster
# release has the same law as the single-process one but is not equal to it draw by draw.)
@pytest.mark.parametrize("mechanism,params", [("analyze_gauss", {}),
                                              ("wishart_additive", {}),
                                              ("laplace_sym", {})])
def test_the_cluster_release_equals_the_single_process_release(client, rows, mechanism, params):
    epsilon = 0.9 if mechanism == "wishart_additive" else 1.0
    x = da.from_array(rows, chunks=(CHUNK, DIM))
    with dpcov.Rng(2026) as rng:
        released, receipt = dask_release.dask_release(x, 1.0, epsilon, 1e-6, rng, mechanism,
                                                      numerics="idealized", **params)
    with dpcov.GramAccumulator(DIM) as gram, dpcov.Rng(2026) as rng:
        gram.add_rows(rows, 1.0)
        expected, expected_receipt = gram.release(mechanism, epsilon, 1e-6, rng, **params)
    assert receipt == expected_receipt
    assert receipt.n == ROWS
    scale = np.abs(expected).max()
    np.testing.assert_allclose(released, expected, rtol=0, atol=1e-12 * scale)


@pytest.mark.parametrize("mechanism", dask_release.EXACT_MECHANISMS)
@pytest.mark.parametrize("neighbour", ["replace_one", "add_remove"])
def test_the_exact_cluster_release_equals_the_single_process_one_byte_for_byte(
        client, rows, mechanism, neighbour):
    # Uneven partitions: the exact states merge by integer addition, so the partition does not
    # matter at all.
    x = da.from_array(rows, chunks=((700, 1300, 500, 1500), DIM))
    with dpcov.Rng(2026) as rng:
        released, receipt = dask_release.dask_release(x, 1.0, 1.0, 1e-6, rng, mechanism,
                                                      neighbour=neighbour)
    with dpcov.GramAccumulator.bounded(DIM, 1.0, neighbour=neighbour, mechanism=mechanism,
                                       epsilon=1.0, delta=1e-6) as gram, dpcov.Rng(2026) as rng:
        gram.add_raw_rows(rows)
        expected, expected_receipt = gram.release(mechanism, 1.0, 1e-6, rng,
                                                  neighbour=neighbour)
    assert receipt.numerics == 1
    assert receipt == expected_receipt and receipt.public() == expected_receipt.public()
    assert released.tobytes() == expected.tobytes()


# Every mechanism's partitions go through the bounded accumulator that names the release: exact
# integer states for the exact mechanisms, floating-point sums otherwise (here: idealized).
IDEALIZED = {"bound": 1.0, "policy": "clip", "neighbour": "replace_one",
             "mechanism": "analyze_gauss", "epsilon": 1.0, "delta": 1e-6, "numerics": "idealized"}


def test_the_summed_state_counts_every_row_and_every_clip(client, rows):
    x = da.from_array(rows, chunks=(CHUNK, DIM))
    with dpcov.GramAccumulator.from_bytes(dask_release.exact_state(x, IDEALIZED)) as merged, \
            dpcov.GramAccumulator.bounded(DIM, **IDEALIZED) as gram:
        gram.add_raw_rows(rows)
        info, state = gram.info(), merged.info()
        assert (state.rows, state.clipped) == (ROWS, info.clipped)
        assert info.clipped > 0
        np.testing.assert_allclose(merged.matrix(), gram.matrix(), rtol=1e-13)


def test_partitions_are_summed_by_a_binary_tree(rows):
    x = da.from_array(rows, chunks=(CHUNK, DIM))
    partitions = dask.bag.from_delayed(list(x.to_delayed().ravel()))
    reduced = partitions.reduction(
        lambda block: dask_release.partition_exact_state(block, IDEALIZED),
        dask_release.merge_exact_states, split_every=2)
    aggregates = [k for k in dict(reduced.dask) if "aggregate" in str(k)]
    # 8 partitions in pairs: 4 + 2 + 1 aggregation tasks.
    assert partitions.npartitions == ROWS // CHUNK == 8
    assert len(aggregates) == 7


def test_column_chunks_are_joined_into_whole_rows(client, rows):
    x = da.from_array(rows, chunks=(CHUNK, 2))
    with dpcov.GramAccumulator.from_bytes(dask_release.exact_state(x, IDEALIZED)) as merged:
        assert merged.matrix().shape == (DIM, DIM) and merged.info().rows == ROWS


def test_a_cluster_release_without_a_seed_uses_the_cryptographic_generator(client, rows):
    x = da.from_array(rows, chunks=(CHUNK, DIM))
    with dpcov.Rng() as rng:
        _, receipt = dask_release.dask_release(x, 1.0, 1.0, 1e-6, rng)
    assert receipt.seed_fixed == 0
    assert receipt.generator_name == "chacha20"


# Dong-Liang-Yi and CoinPress as passes over the partitions (dpcov.dask.dask_zcdp_release): the
# same receipt as the single-process release with the same generator, the matrix to the rounding
# of the compensated sums. At radius 16 AdaptivePaper clips the rows (norms up to about 1.6) to
# r~ = 8, so that its second pass runs too.
@pytest.mark.parametrize("mechanism,params", [
    ("dly_gauss", {"rho": 1.0, "radius": 2.0}),
    ("dly_separate", {"rho": 1.0, "radius": 2.0}),
    ("dly_adaptive", {"rho": 1.0, "radius": 4.0}),
    ("dly_adaptive_paper", {"rho": 1.0, "radius": 16.0}),
    ("coinpress", {"rho": 1.0, "k_bound": 10.0, "steps": 3})])
def test_the_zcdp_mechanisms_on_a_cluster_equal_the_single_process_release(
        client, rows, mechanism, params):
    x = da.from_array(rows, chunks=((700, 1300, 500, 1500), DIM))
    rng = dpcov.Rng(2027)
    released, receipt = dask_release.dask_zcdp_release(x, rng, mechanism, **params)
    assert rng.closed  # the session took the generator
    with dpcov.Rng(2027) as rng:
        if mechanism == "coinpress":
            expected, expected_receipt = dpcov.coinpress_release(rows, rng=rng, **params)
        else:
            expected, expected_receipt = dpcov.dly_release(
                rows, rng, dask_release.ZCDP_MECHANISMS[mechanism], **params)
    assert receipt == expected_receipt
    if mechanism == "dly_adaptive_paper":
        assert receipt["clip_radius"] < params["radius"]
    scale = max(1.0, np.abs(expected).max())
    np.testing.assert_allclose(released, expected, rtol=0, atol=1e-10 * scale)

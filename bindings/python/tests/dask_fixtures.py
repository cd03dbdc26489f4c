"""The rows and the local cluster the Dask tests share."""

import dask.array as da
import numpy as np
import pytest
from distributed import Client, LocalCluster

ROWS, DIM = 4000, 5
CHUNKS = (700, 1300, 500, 1500)  # uneven: the partition must not matter


@pytest.fixture(scope="module")
def rows():
    """Rows of norm up to about 1.6, so that a bound of 1 clips a known number of them."""
    gen = np.random.default_rng(31)
    return gen.normal(size=(ROWS, DIM)) * np.array([0.5, 0.4, 0.3, 0.2, 0.1]) * 1.4


@pytest.fixture(scope="module")
def client():
    """A local cluster of 2 workers (threads of this process, so that their logs are here)."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as c:
        yield c


def lazy(values):
    """``values`` as a Dask array in the uneven row blocks CHUNKS."""
    return da.from_array(values, chunks=(CHUNKS,) + np.shape(values)[1:])

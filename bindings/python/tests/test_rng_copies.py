"""A generator keyed by OS entropy is never duplicated: every way Python copies it (copy.copy,
copy.deepcopy, pickle, scikit-learn's clone of an estimator holding it, and so cross-validation's
clones per fold) gives a new generator from OS entropy. The copies used to continue the same
sequence: clones of PrivateCovariance(random_state=Rng()) fitted on neighbouring datasets drew the
same noise, and the difference of their releases was the exact difference of the datasets' Gram
matrices. A seeded generator (experiments and tests, not private) still copies its state. A copy
made by fork() refuses to draw in the child."""

import copy
import os
import pickle
import warnings

import numpy as np
from sklearn.base import clone

import dpcov
from dpcov.learn import PrivateCovariance

COPIES = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda rng: pickle.loads(pickle.dumps(rng)),
}


def test_copies_of_an_entropy_generator_never_repeat_its_draws():
    for name, make in COPIES.items():
        for _ in range(20):
            with dpcov.Rng() as rng:
                rng.uniform01(int(np.random.default_rng().integers(0, 5)))
                other = make(rng)
                assert other is not rng and not other.seed_fixed, name
                assert not np.array_equal(other.standard_normal(8), rng.standard_normal(8)), name
                other.close()


def test_copies_of_a_seeded_generator_continue_its_sequence():
    for name, make in COPIES.items():
        with dpcov.Rng(11, 3) as rng:
            rng.uniform01(3)
            other = make(rng)
            assert other.seed_fixed, name
            assert np.array_equal(other.standard_normal(8), rng.standard_normal(8)), name
            other.close()


def test_clones_on_neighbouring_datasets_do_not_cancel_their_noise():
    gen = np.random.default_rng(20261124)
    for case in range(10):
        X = gen.uniform(-0.5, 0.5, (int(gen.integers(5, 60)), int(gen.integers(1, 4))))
        neighbour = X.copy()
        neighbour[0] = gen.uniform(-0.5, 0.5, X.shape[1])
        exact = X.T @ X - neighbour.T @ neighbour
        est = PrivateCovariance(epsilon=1.0, bound=1.0, assume_centered=True,
                                random_state=dpcov.Rng())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = clone(est).fit(X).second_moment_
            b = clone(est).fit(neighbour).second_moment_
        # Independent noise of scale ~B^2 / epsilon: the difference is nowhere near exact.
        assert np.max(np.abs((a - b) - exact)) > 1e-6, case


def test_an_entropy_generator_refuses_to_draw_in_a_forked_child():
    """The child of fork() holds a copy of the parent's generator, which would draw the parent's
    next noise: it refuses there; a seeded one goes on; a generator made in the child draws."""
    g = np.diag([2.0, 1.0, 1.0])
    with dpcov.Rng() as entropy, dpcov.Rng(4) as seeded:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                dpcov.release("analyze_gauss", g, 4, 1.0, 1.0, 1e-6, entropy)
                code |= 1
            except dpcov.UnmetPreconditionError:
                pass
            except BaseException:
                code |= 2
            try:
                dpcov.release("analyze_gauss", g, 4, 1.0, 1.0, 1e-6, seeded)
                with dpcov.Rng() as fresh:
                    dpcov.release("analyze_gauss", g, 4, 1.0, 1.0, 1e-6, fresh)
            except BaseException:
                code |= 4
            os.write(write_end, bytes([code]))
            os._exit(0)
        os.close(write_end)
        code = os.read(read_end, 1)
        os.close(read_end)
        os.waitpid(pid, 0)
        assert code == bytes([0]), "bits: 1 the copy drew, 2 wrong error, 4 seeded or new refused"
        dpcov.release("analyze_gauss", g, 4, 1.0, 1.0, 1e-6, entropy)  # the parent's own goes on

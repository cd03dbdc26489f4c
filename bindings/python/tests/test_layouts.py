"""Row-major, column-major and strided views of the same data give the same results, in place."""

import numpy as np
import pytest

import dpcov
from dpcov import _arrays


def variants(a):
    """The same matrix as C-ordered, Fortran-ordered, and a slice of a larger array of each."""
    big_c = np.zeros((a.shape[0] + 3, a.shape[1] + 5))
    big_c[1:1 + a.shape[0], 2:2 + a.shape[1]] = a
    big_f = np.asfortranarray(big_c)
    sl = np.s_[1:1 + a.shape[0], 2:2 + a.shape[1]]
    return {"C": np.ascontiguousarray(a), "F": np.asfortranarray(a), "C-slice": big_c[sl],
            "F-slice": big_f[sl]}


def test_layout_and_leading_dimension_are_read_from_the_strides():
    a = np.zeros((5, 7))
    assert _arrays.matrix(a, "a").layout == dpcov.Layout.ROW_MAJOR
    assert _arrays.matrix(a, "a").ld == 7
    f = np.asfortranarray(a)
    assert _arrays.matrix(f, "a").layout == dpcov.Layout.COL_MAJOR
    assert _arrays.matrix(f, "a").ld == 5
    m = _arrays.matrix(np.zeros((9, 11))[2:6, 1:4], "a")
    assert (m.layout, m.rows, m.cols, m.ld) == (dpcov.Layout.ROW_MAJOR, 4, 3, 11)


def test_the_binding_passes_array_memory_without_copying(data):
    m = _arrays.matrix(data, "a")
    assert m.array is data and m.ptr == data.ctypes.data


def test_gram_matrices_agree_for_every_layout(data):
    results = {}
    for name, a in variants(data).items():
        with dpcov.GramAccumulator(4) as gram:
            gram.add_rows(a, 2.0)
            results[name] = (gram.matrix(), gram.info())
    reference = results["C"]
    for name, (g, info) in results.items():
        np.testing.assert_allclose(g, reference[0], rtol=1e-14, atol=1e-15, err_msg=name)
        assert info == reference[1]


def test_releases_agree_for_every_layout_with_the_same_seed(spd):
    results = {}
    for name, g in variants(spd).items():
        with dpcov.Rng(77) as rng:
            rel = dpcov.release("analyze_gauss", g, n=100, bound=1.0, epsilon=1.0, delta=1e-6,
                                rng=rng)
        results[name] = rel.matrix
        assert rel.matrix.flags.f_contiguous == name.startswith("F")
    for name, m in results.items():
        assert np.array_equal(m, results["C"]), name


def test_release_into_a_caller_array_of_the_other_order(spd):
    out = np.zeros((4, 4), order="F")
    with dpcov.Rng(77) as r1, dpcov.Rng(77) as r2:
        returned = dpcov.release("analyze_gauss", spd, 100, 1.0, 1.0, 1e-6, r1, out=out).matrix
        expected = dpcov.release("analyze_gauss", spd, 100, 1.0, 1.0, 1e-6, r2).matrix
    assert returned is out
    assert np.array_equal(out, expected)


@pytest.mark.parametrize("order", ["C", "F"])
def test_samplers_do_not_depend_on_the_output_order(order, spd):
    with dpcov.Rng(5) as a, dpcov.Rng(5) as b:
        w_c = a.wishart(6.5, spd)
        w_o = b.wishart(6.5, np.asarray(spd, order=order))
        assert np.array_equal(w_c, w_o)
        s_c = a.uniform_sphere(3, 4)
        s_o = b.uniform_sphere(3, 4, order=order)
        assert np.array_equal(s_c, s_o)


def test_estimators_agree_for_every_layout(spd):
    for name, g in variants(spd).items():
        fit = dpcov.regression_fit(g, n=50, label=3, features=[0, 1, 2])
        ref = dpcov.regression_fit(spd, n=50, label=3, features=[0, 1, 2])
        assert np.array_equal(fit.coefficients, ref.coefficients), name
        pca = dpcov.pca_top_k(g, 2)
        assert np.array_equal(pca.values, dpcov.pca_top_k(spd, 2).values), name

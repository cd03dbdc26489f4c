"""The random generator handle (dpcov/rng.h) and the samplers of dpcov/sample.h as its methods."""

from __future__ import annotations

import ctypes
from ctypes import byref, c_int32, c_int64, c_uint64, c_void_p

import numpy as np

from . import _arrays
from ._handle import Handle
from ._lib import DPCOV_RNG_STATE_SIZE, C, _check

_MASK64 = (1 << 64) - 1


def state_size() -> int:
    """Bytes in a saved generator state (``dpcov_rng_state_size``; 80)."""
    return int(C.dpcov_rng_state_size())


class Rng(Handle):
    """A dpcov random generator (``dpcov_rng``): ChaCha20 keyed by 256 bits from the operating
    system, or PCG64 when seeded.

    ``Rng()`` draws its key from the operating system (``dpcov_rng_create_from_entropy``), the
    only choice for a private release. ``Rng(seed, stream)`` is reproducible
    (``dpcov_rng_create_seeded``) and for experiments and tests only: receipts of releases made
    with it record ``seed_fixed = 1``, since anyone who knows the seed can remove the noise.

    A sampler call that fails leaves the generator as it was (nothing it drew was returned); a
    mechanism's noise is consumed once drawn, even when the release then refuses. A generator
    must not be used by two threads at once; give each thread its own (e.g. :meth:`substream`).
    A seeded generator pickles (and copies) through its saved state (:meth:`save_state`), which
    reveals every future output; a copy of one keyed by OS entropy is a new generator from OS
    entropy, so that no two copies ever draw the same noise (:meth:`__reduce__`).
    An OS-entropy generator made before ``os.fork()`` (``multiprocessing``'s fork start
    method) refuses to draw in the child (:class:`~dpcov.UnmetPreconditionError`): make one in
    the child.

    Args:
        seed: None for OS entropy, else any integer taken modulo 2**64.
        stream: stream id for a seeded generator, any integer modulo 2**64.
    """

    _destroy = staticmethod(C.dpcov_rng_destroy)
    STATE_SIZE = DPCOV_RNG_STATE_SIZE

    def __init__(self, seed: int | None = None, stream: int = 0):
        """Create the generator from OS entropy or from (seed, stream)."""
        handle = c_void_p()
        if seed is None:
            if stream != 0:
                raise TypeError("stream applies to a seeded generator only")
            _check(C.dpcov_rng_create_from_entropy(byref(handle)))
        else:
            _check(C.dpcov_rng_create_seeded(byref(handle), int(seed) & _MASK64,
                                             int(stream) & _MASK64))
        super().__init__(handle)

    @classmethod
    def from_entropy(cls) -> "Rng":
        """A generator keyed by the operating system's entropy source."""
        return cls()

    @classmethod
    def seeded(cls, seed: int, stream: int = 0) -> "Rng":
        """A reproducible generator from (seed, stream); for experiments and tests only."""
        return cls(seed, stream)

    @classmethod
    def from_state(cls, state: bytes) -> "Rng":
        """A generator continuing a state saved by :meth:`save_state`."""
        rng = cls(0, 0)
        rng.restore_state(state)
        return rng

    def substream(self, index: int) -> "Rng":
        """The independent generator number ``index`` derived from this one's key
        (``dpcov_rng_substream``); this generator is not changed."""
        handle = c_void_p()
        _check(C.dpcov_rng_substream(byref(handle), self, int(index) & _MASK64))
        child = Rng.__new__(Rng)
        Handle.__init__(child, handle)
        return child

    def next_u64(self) -> int:
        """The next 64 uniformly distributed bits (``dpcov_rng_next_u64``)."""
        out = c_uint64()
        _check(C.dpcov_rng_next_u64(self, byref(out)))
        return out.value

    @property
    def seed_fixed(self) -> bool:
        """True if the generator descends from an explicit seed (``dpcov_rng_seed_fixed``)."""
        out = c_int32()
        _check(C.dpcov_rng_seed_fixed(self, byref(out)))
        return bool(out.value)

    def save_state(self) -> bytes:
        """The complete state as :data:`STATE_SIZE` portable bytes (``dpcov_rng_state_save``).
        Treat them as secret when the generator serves a release."""
        buf = ctypes.create_string_buffer(DPCOV_RNG_STATE_SIZE)
        _check(C.dpcov_rng_state_save(self, buf, DPCOV_RNG_STATE_SIZE))
        return buf.raw

    def restore_state(self, state: bytes) -> None:
        """Continue exactly from a saved state (``dpcov_rng_state_restore``); unchanged on
        failure."""
        data = bytes(state)
        _check(C.dpcov_rng_state_restore(self, data, len(data)))

    def __reduce__(self):
        """Pickling, and so ``copy.copy``, ``copy.deepcopy`` and scikit-learn's ``clone``: a
        seeded generator through its saved state (the copy continues the same sequence, for
        reproducible experiments); one keyed by OS entropy as a new generator from OS entropy.
        Two copies of a private generator draw the same noise, and the difference of two
        releases with the same noise is the exact difference of their data: clones of
        ``PrivateCovariance(random_state=Rng())`` fitted on neighbouring datasets gave the
        difference of their Gram matrices to the last digit (cross-validation clones per fold)."""
        if self.seed_fixed:
            return (Rng.from_state, (self.save_state(),))
        return (Rng, ())

    # Scalar distributions ---------------------------------------------------------------

    def _draws(self, fn, n, *params):
        """``n`` draws of the scalar sampler ``fn`` with its parameters, in a new array."""
        out = np.empty(int(n) if int(n) > 0 else 0, dtype=np.float64)
        _check(fn(self, *params, n, _arrays.ptr(out)))
        return out

    def uniform01(self, n: int) -> np.ndarray:
        """``n`` uniform draws on (0, 1), 53-bit resolution (``dpcov_sample_uniform01``)."""
        return self._draws(C.dpcov_sample_uniform01, n)

    def standard_normal(self, n: int) -> np.ndarray:
        """``n`` standard normal draws (``dpcov_sample_standard_normal``, ziggurat)."""
        return self._draws(C.dpcov_sample_standard_normal, n)

    def exponential(self, n: int) -> np.ndarray:
        """``n`` exponential draws with rate 1 (``dpcov_sample_exponential``)."""
        return self._draws(C.dpcov_sample_exponential, n)

    def laplace(self, scale: float, n: int) -> np.ndarray:
        """``n`` Laplace(scale) draws, density exp(-|x|/scale)/(2 scale)
        (``dpcov_sample_laplace``)."""
        return self._draws(C.dpcov_sample_laplace, n, float(scale))

    def gamma(self, shape: float, n: int) -> np.ndarray:
        """``n`` Gamma(shape, 1) draws (``dpcov_sample_gamma``, Marsaglia-Tsang)."""
        return self._draws(C.dpcov_sample_gamma, n, float(shape))

    def chi_square(self, dof: float, n: int) -> np.ndarray:
        """``n`` chi-square draws with real ``dof`` degrees of freedom
        (``dpcov_sample_chi_square``)."""
        return self._draws(C.dpcov_sample_chi_square, n, float(dof))

    # Matrix distributions ---------------------------------------------------------------

    def uniform_sphere(self, dim: int, n: int, order: str = "C") -> np.ndarray:
        """``n`` points uniform on the unit sphere of R^dim, one per row of an n x dim array in
        ``order`` (``dpcov_sample_uniform_sphere``)."""
        out = _arrays.empty(int(n), int(dim), _arrays.order_layout(order))
        _check(C.dpcov_sample_uniform_sphere(self, dim, n, out.layout, out.ptr, out.ld))
        return out.array

    def wishart(self, dof: float, scale) -> np.ndarray:
        """One draw W ~ W_d(dof, scale) by the Bartlett decomposition
        (``dpcov_sample_wishart``). ``scale`` is d x d, exactly symmetric, positive definite; the
        result has the storage order of ``scale``."""
        s = _arrays.square(scale, "scale")
        out = _arrays.empty(s.rows, s.rows, s.layout)
        _check(C.dpcov_sample_wishart(self, dof, s.layout, s.rows, s.ptr, s.ld, out.ptr,
                                      out.ld))
        return out.array

    def inverse_wishart(self, dof: float, psi) -> np.ndarray:
        """One draw X ~ W^{-1}_d(psi, dof), i.e. X^{-1} ~ W_d(dof, psi^{-1})
        (``dpcov_sample_inverse_wishart``). Result in the storage order of ``psi``."""
        s = _arrays.square(psi, "psi")
        out = _arrays.empty(s.rows, s.rows, s.layout)
        _check(C.dpcov_sample_inverse_wishart(self, dof, s.layout, s.rows, s.ptr, s.ld,
                                              out.ptr, out.ld))
        return out.array

    def acg(self, omega, n: int, order: str = "C") -> np.ndarray:
        """``n`` angular central Gaussian ACG(omega) draws on the unit sphere, one per row
        (``dpcov_sample_acg``)."""
        layout = _arrays.order_layout(order)
        om = _arrays.square(omega, "omega", layout)
        out = _arrays.empty(int(n), om.rows, layout)
        _check(C.dpcov_sample_acg(self, layout, om.rows, om.ptr, om.ld, n, out.ptr, out.ld))
        return out.array

    def bingham(self, a, n: int, order: str = "C") -> tuple[np.ndarray, int]:
        """``n`` Bingham draws, density proportional to exp(-x^T a x) on the unit sphere
        (``dpcov_sample_bingham``). Returns (n x q draws, total proposals used)."""
        layout = _arrays.order_layout(order)
        am = _arrays.square(a, "a", layout)
        out = _arrays.empty(int(n), am.rows, layout)
        tries = c_int64()
        _check(C.dpcov_sample_bingham(self, layout, am.rows, am.ptr, am.ld, n, out.ptr,
                                      out.ld, byref(tries)))
        return out.array, tries.value

    def symmetric_gaussian_noise(self, sigma: float, dim: int, order: str = "C") -> np.ndarray:
        """A dim x dim symmetric matrix with iid N(0, sigma^2) upper-triangle entries
        (``dpcov_sample_symmetric_gaussian_noise``)."""
        out = _arrays.empty(int(dim), int(dim), _arrays.order_layout(order))
        _check(C.dpcov_sample_symmetric_gaussian_noise(self, sigma, out.layout, dim,
                                                       out.ptr, out.ld))
        return out.array

    def symmetric_laplace_noise(self, scale: float, dim: int, order: str = "C") -> np.ndarray:
        """A dim x dim symmetric matrix with iid Laplace(scale) upper-triangle entries
        (``dpcov_sample_symmetric_laplace_noise``)."""
        out = _arrays.empty(int(dim), int(dim), _arrays.order_layout(order))
        _check(C.dpcov_sample_symmetric_laplace_noise(self, scale, out.layout, dim,
                                                      out.ptr, out.ld))
        return out.array


def as_rng(random_state) -> Rng:
    """An :class:`Rng` from None (OS entropy), an int seed (reproducible, not private), or an
    existing :class:`Rng` (used as is)."""
    if isinstance(random_state, Rng):
        return random_state
    if random_state is None:
        return Rng()
    # A bool is an int to Python, but True is no seed a caller means.
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state,
                                                                      (bool, np.bool_)):
        return Rng(int(random_state))
    raise TypeError(f"random_state must be None, an int or a dpcov.Rng, got "
                    f"{type(random_state).__name__}")

"""Plain NumPy reference of iterative eigenvector sampling (IEV), the baseline of
bench/iev_vs_reference.py.

IEV as Amin et al. state it, with the Kent-Ganeiber-Mardia sampler at its optimal envelope
(proofs/iev.md, constants.md sections 8 and 9), written the obvious way in NumPy and not tuned.
The library draws from the same law without diagonalising each step (a dense block compressed
by Householder reflections, uniform proposals or an ACG envelope at an approximate u:
proofs/iev.md, "The step sampler"), so its proposal counts differ slightly from these:
  - eigenvalues of G plus Laplace noise, the adaptive split of eps / 2 over the steps (Cor. 1,
    beta = 0.05) and the sensitivity-calibrated exponent kappa_i = eps_i / (2 B^2) (replace-one);
  - each step draws from the Bingham density exp(kappa theta^T C_i theta) in the eigenbasis of
    C_i by the Kent-Ganeiber-Mardia sampler: A = kappa (mu_max - mu), b the root of
    sum 1 / (b + 2 lambda) = 1 by Newton's method from b = 1, proposals from the ACG(I + 2 A / b)
    envelope (independent normals with standard deviations (1 + 2 lambda / b)^-1/2, normalised),
    accepted when ln U < (q/2) (log1p(delta) - delta), delta = (b + 2 t - q) / q, t = y^T A y:
    the same envelope, acceptance rule and so the same expected number of proposals;
  - C_{i+1} = C_i compressed to the complement of the draw, diagonalised again (a Householder
    basis of the complement and a dense eigen-decomposition);
  - the release sum_i clip(lambda_hat_i) theta_i theta_i^T.
The rounding directions of the privacy constants are not reproduced: they do not change the time.
"""

from __future__ import annotations

import numpy as np


def envelope_b(lam: np.ndarray) -> float:
    """Root of sum_i 1 / (b + 2 lam_i) = 1 on [1, q] by Newton's method from b = 1, as the
    library (the left side is decreasing and convex, so the steps approach the root from the
    left); one vectorised pass over the spectrum per step."""
    q, b = float(lam.size), 1.0
    while True:
        inv = 1.0 / (b + 2.0 * lam)
        h = inv.sum() - 1.0
        if not h > 0.0:
            return b
        step = min(q, b + h / (inv @ inv))
        if not step > b:
            return b
        b = step


class Bingham:
    """Density proportional to exp(-x^T diag(a) x) on the unit sphere, in the basis of diag(a)."""

    def __init__(self, a_diagonal: np.ndarray):
        self.lam = a_diagonal - a_diagonal.min()
        self.q = self.lam.size
        self.b = envelope_b(self.lam)
        self.sd = 1.0 / np.sqrt(1.0 + 2.0 * self.lam / self.b)

    def propose(self, rng: np.random.Generator) -> tuple[np.ndarray, float]:
        while True:
            z = self.sd * rng.standard_normal(self.q)
            norm2 = z @ z
            if norm2 > 0.0 and np.isfinite(norm2):
                return z / np.sqrt(norm2), (self.lam @ (z * z)) / norm2

    def log_accept_ratio(self, t: float) -> float:
        delta = (self.b + 2.0 * t - self.q) / self.q
        return 0.5 * self.q * (np.log1p(delta) - delta)

    def sample(self, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        tries = 0
        while True:
            tries += 1
            y, t = self.propose(rng)
            if np.log(rng.random()) < self.log_accept_ratio(t):
                return y, tries


def compress(mu: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """diag(mu) compressed to y's complement: descending eigenvalues and their vectors (q x q-1)."""
    q = y.size
    # Householder reflection H with H e_0 = +-y: its other columns span y's complement.
    w = y.copy()
    w[0] += 1.0 if y[0] >= 0.0 else -1.0
    h = np.eye(q) - 2.0 * np.outer(w, w) / (w @ w)
    complement = h[:, 1:]
    values, vectors = np.linalg.eigh(complement.T @ (mu[:, None] * complement))
    return values[::-1], complement @ vectors[:, ::-1]


def iev_release(gram: np.ndarray, n: int, bound: float, eps: float,
                rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """The full-rank IEV release of the Gram matrix of n rows of norm <= bound (replace-one);
    returns the released matrix and the total number of Bingham proposals."""
    d = gram.shape[0]
    values, vectors = np.linalg.eigh(gram)
    mu, basis = values[::-1].copy(), vectors[:, ::-1].copy()
    scale = 2.0 * bound**2 / (eps / 2.0)
    lambda_hat = mu + rng.laplace(0.0, scale, d)
    tau = scale * (np.log(2.0 * d) - np.log(0.05))
    weights = np.sqrt(np.maximum(0.0, lambda_hat + tau))
    if weights.sum() > 0:
        step_eps = (eps / 2.0) * weights / weights.sum()
    else:
        step_eps = np.full(d, eps / (2 * d))
    kappas = step_eps / (2.0 * bound**2)
    thetas = np.empty((d, d))
    proposals = 0
    for i in range(d):
        y, tries = Bingham(-kappas[i] * mu).sample(rng)
        proposals += tries
        thetas[:, i] = basis @ y
        if i + 1 < d:
            mu, rotation = compress(mu, y)
            basis = basis @ rotation
    weights = np.clip(lambda_hat, 0.0, n * bound**2)
    return (thetas * weights) @ thetas.T, proposals

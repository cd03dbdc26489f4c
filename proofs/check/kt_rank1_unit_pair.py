"""The loss of the rows-only kt_rank1 (rows bounded by B, units not) on the unit audit's replace pair
(core/audit/unit_audit.cpp, aligned_unit_pair), from its transcript's exact density.

Usage: kt_rank1_unit_pair.py K D EPSILON DRAWS old|new
- old: the pair before the spectral base (a unit of K rows B e_1 replaced by K rows B e_2 over
  the six small units of the base, in the span of e_2..e_D); new: the base also holds a unit of
  K rows B e_2, and its six small units lie in the span of e_3..e_D (D >= 3).
- Prints both spectra, their l1 distance and the eigenvalue step's loss eps_0 l1 / (2 B^2);
  the transcript's delta(EPSILON) = E[(1 - e^{EPSILON - L})_+] in both directions (Monte Carlo
  over DRAWS transcripts, L exact); and the largest delta(EPSILON) of a tail event of the
  release's top eigenvalue (what the black-box audit tests; point estimate over the same draws).
The transcript (lambda_hat, theta_1..theta_d) has the density prod Laplace(lambda_hat_i;
lambda_i(G), b) prod exp(kappa theta_i^T C_i theta_i) / Z(kappa C_i), C_1 = G, C_{i+1} = C_i -
lambda_hat_i theta_i theta_i^T (proofs/kt_rank1.md), with Z(A) / |S^{d-1}| = 1F1(1/2; d/2; A),
summed here as sum_m c_m / (d/2)_m, c_m the t^m coefficient of prod_j (1 - a_j t)^{-1/2}
(a_j the eigenvalues of A, centred). Constants of the row-level replace-one plan at B = 1:
b = 2 / (EPSILON / 2), kappa = EPSILON / (2 D) / 4 (uniform split, published exponent).
Measured (K = 60, D = 4, EPSILON = 0.5, 3000 draws): old pair l1 7.83, eigenvalue step 0.98,
transcript delta(0.5) 0.246 +- 0.006 and 0.251 +- 0.006, top-eigenvalue event 0.0003; new pair
l1 120 (2 K), eigenvalue step 15.0, transcript delta(0.5) 0.997 and 0.995, top-eigenvalue event
0.73 (1000 draws). New pair at K = 10 / 5: transcript delta(0.5) 0.44 / 0.18, top-eigenvalue event
0.013 / 0.003: the transcript exceeds its claim where no event of the top eigenvalue shows it.
"""
import bisect
import math
import random
import sys


def jacobi(a):
    """Eigenvalues of the symmetric matrix a (cyclic Jacobi)."""
    n = len(a)
    a = [r[:] for r in a]
    for _ in range(100):
        if sum(a[i][j] ** 2 for i in range(n) for j in range(n) if i != j) < 1e-22:
            break
        for p in range(n):
            for q in range(p + 1, n):
                if abs(a[p][q]) < 1e-300:
                    continue
                th = (a[q][q] - a[p][p]) / (2 * a[p][q])
                t = (1 if th >= 0 else -1) / (abs(th) + math.sqrt(th * th + 1))
                c = 1 / math.sqrt(t * t + 1)
                s = t * c
                for k in range(n):
                    a[k][p], a[k][q] = c * a[k][p] - s * a[k][q], s * a[k][p] + c * a[k][q]
                for k in range(n):
                    a[p][k], a[q][k] = c * a[p][k] - s * a[q][k], s * a[p][k] + c * a[q][k]
    return sorted((a[i][i] for i in range(n)), reverse=True)


def log_normaliser(a, d, terms=60):
    """ln E_uniform[exp(sum_j a_j u_j^2)] over the unit sphere of R^d."""
    centre = (max(a) + min(a)) / 2
    poly = [1.0] + [0.0] * terms
    for b in (x - centre for x in a):
        series = [1.0] + [0.0] * terms
        for m in range(1, terms + 1):
            series[m] = series[m - 1] * (m - 0.5) / m * b
        poly = [sum(poly[i] * series[m - i] for i in range(m + 1)) for m in range(terms + 1)]
    total, pochhammer = 0.0, 1.0
    for m in range(terms + 1):
        total += poly[m] / pochhammer
        pochhammer *= d / 2 + m
    return centre + math.log(total)


def gram(units, d):
    g = [[0.0] * d for _ in range(d)]
    for rows, v in units:
        norm = math.sqrt(sum(x * x for x in v))
        for i in range(d):
            for j in range(d):
                g[i][j] += rows * v[i] * v[j] / (norm * norm)
    return g


def axis(d, j):
    return [1.0 if i == j else 0.0 for i in range(d)]


def quadratic(c, x):
    return sum(x[i] * c[i][j] * x[j] for i in range(len(x)) for j in range(len(x)))


def deflate(c, lam, theta):
    return [[c[i][j] - lam * theta[i] * theta[j] for j in range(len(c))] for i in range(len(c))]


def bingham(c, kappa, rng, d):
    """theta with density proportional to exp(kappa theta^T c theta), by rejection from uniform."""
    top = jacobi(c)[0]
    while True:
        x = [rng.gauss(0, 1) for _ in range(d)]
        norm = math.sqrt(sum(t * t for t in x))
        x = [t / norm for t in x]
        if rng.random() < math.exp(kappa * (quadratic(c, x) - top)):
            return x


def log_density(g, lam, thetas, b, kappa, d):
    s = sum(-abs(l - m) / b - math.log(2 * b) for l, m in zip(lam, jacobi(g)))
    c = g
    for i in range(d):
        s += kappa * quadratic(c, thetas[i]) - log_normaliser([kappa * x for x in jacobi(c)], d)
        c = deflate(c, lam[i], thetas[i])
    return s


def transcript(g, b, kappa, rng, d):
    lam = [m + rng.expovariate(1 / b) * rng.choice((-1, 1)) for m in jacobi(g)]
    c, thetas = g, []
    for i in range(d):
        thetas.append(bingham(c, kappa, rng, d))
        c = deflate(c, lam[i], thetas[-1])
    return lam, thetas


def top_eigenvalue(lam, thetas, upper, d):
    m = [[sum(l * t[a] * t[c] for l, t in zip(lam, thetas)) for c in range(d)] for a in range(d)]
    return min(max(jacobi(m)[0], 0.0), upper)


def main():
    k, d, eps, draws = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    new = sys.argv[5] == "new"
    first = 2 if new and d >= 3 else 1
    base = [(1 + u % 3, [0.0] * first + [0.3 + 0.1 * ((u + j) % 5) for j in range(first, d)])
            for u in range(6)]
    if new:
        base.append((k, axis(d, 1)))
    g, g_prime = gram(base + [(k, axis(d, 0))], d), gram(base + [(k, axis(d, 1))], d)
    rows = sum(r for r, _ in base) + k
    b, kappa = 2.0 / (eps / 2), eps / (2 * d) / 4
    l1 = sum(abs(x - y) for x, y in zip(jacobi(g), jacobi(g_prime)))
    print(f"spectra {[round(x, 2) for x in jacobi(g)]} and {[round(x, 2) for x in jacobi(g_prime)]}:"
          f" l1 {l1:.2f}, eigenvalue step's loss {l1 / b:.3f} (claim {eps})")
    rng = random.Random(1)
    tops = []
    for name, (ga, gb) in (("D vs D'", (g, g_prime)), ("D' vs D", (g_prime, g))):
        losses, top = [], []
        for _ in range(draws):
            lam, thetas = transcript(ga, b, kappa, rng, d)
            top.append(top_eigenvalue(lam, thetas, rows, d))
            losses.append(log_density(ga, lam, thetas, b, kappa, d) -
                          log_density(gb, lam, thetas, b, kappa, d))
        values = [max(0.0, 1 - math.exp(eps - x)) for x in losses]
        mean = sum(values) / draws
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (draws - 1) / draws)
        print(f"{name}: transcript delta({eps}) = {mean:.4f} +- {sd:.4f}")
        tops.append(sorted(top))
    a, c = tops
    best = 0.0
    for t in sorted(a + c)[::max(1, draws // 200)]:
        pa, pc = 1 - bisect.bisect_right(a, t) / draws, 1 - bisect.bisect_right(c, t) / draws
        best = max(best, pa - math.exp(eps) * pc, pc - math.exp(eps) * pa,
                   (1 - pa) - math.exp(eps) * (1 - pc), (1 - pc) - math.exp(eps) * (1 - pa))
    print(f"release's top eigenvalue: largest tail-event delta({eps}) = {best:.4f}")


if __name__ == "__main__":
    main()

"""Checks the IEV constants (proofs/iev.md) against the library.

Usage: iev.py <plan_receipts program> <iev_split program>
- receipts of dpcov_mechanism_plan(): eps0 = eps/2 and eps_i = eps/(2k) never above the exact
  values, b = Delta/eps0 never below, Delta = 2B^2 (replace) / B^2 (add/remove), tau = b ln(2k/beta),
  exponent factor 1/4 (published) or 1/2 / 1 (sensitivity), clip n B^2 / infinity, rank k;
  the worked values of constants.md section 8;
- the adaptive split (iev_split, core/privacy/iev_budget.cpp) against mpmath: each share within
  1e-14 (relative) of the exact one and the exact sum of the shares never above eps/2;
- the two sensitivities the proof uses, by exact eigen-decompositions (mpmath): the eigenvalue
  vector of G moves by at most 2B^2 (replace) / B^2 (add/remove) in L1, attained; the score
  theta^T G theta by at most B^2;
- the exponential-mechanism bound on S^1 with exact normalisers (Z = e^{kappa tr/2} I_0(kappa gap/2)):
  the privacy loss of a step with kappa = c eps_i / B^2 stays below 2 kappa B^2 (replace) and
  kappa B^2 (add/remove), so the sensitivity-calibrated c is eps_i-DP and the published c spends
  eps_i/2 (replace) / eps_i/4 (add/remove).
"""
import random
import subprocess
import sys

from mpmath import besseli, exp, log, matrix, mp, mpf, eigsy, sqrt

from receipts import Checker, plan

MECHANISM = "iev"


def run_split(program, cases):
    text = "\n".join(" ".join(repr(float(x)) for x in [tau, eps] + list(lam))
                     for tau, eps, lam in cases) + "\n"
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True)
    return [[float(x) for x in line.split()] for line in out.stdout.strip().split("\n")]


def exact_split(lam, tau, eps_v):
    w = [sqrt(max(mpf(0), mpf(l) + mpf(tau))) for l in lam]
    total = sum(w)
    if total == 0:
        return [mpf(eps_v) / len(lam)] * len(lam)
    return [mpf(eps_v) * x / total for x in w]


def explicit(option):
    """The option string with the paper's split and exponent named where it leaves them to the
    mechanism's default (IEV's default is the adaptive split with the sensitivity exponent, KT's
    the paper's; check_defaults checks both)."""
    if "split=" not in option:
        option += " split=uniform"
    if "calibration=" not in option:
        option += " calibration=bingham_published"
    return option


def check_defaults(c, program):
    iev, kt = plan(program, ["iev 10 1000 1 1 0", "kt_rank1 10 1000 1 1 0"])
    c.ok(iev["budget_split"] == 2 and iev["exponent_factor"] == 0.5 and iev["beta"] == 0.05,
         "IEV's default: adaptive split, sensitivity exponent")
    c.ok(kt["budget_split"] == 1 and kt["exponent_factor"] == 0.25, "KT's default: the paper's")


def check_receipts(c, program, mechanism):
    cases, requests = [], []
    for d in (1, 2, 10, 100):
        for bound in ("1", "0.3", "7"):
            for eps in ("0.1", "0.7", "1", "3"):
                for option in ("neighbour=replace", "neighbour=add_remove",
                               "calibration=bingham_sensitivity",
                               "calibration=bingham_sensitivity neighbour=add_remove",
                               "split=adaptive", "split=adaptive beta=0.01", f"rank={max(1, d // 3)}"):
                    cases.append((d, bound, eps, option))
                    requests.append(f"{mechanism} {d} 1000 {bound} {eps} 0 {explicit(option)}")
    for (d, bound, eps, option), r in zip(cases, plan(program, requests)):
        what = f"{mechanism} d={d} B={bound} eps={eps} {option}"
        c.status(r, "DPCOV_OK", what)
        e = mpf(r["epsilon"])
        b2 = mpf(r["bound"]) ** 2
        replace = "add_remove" not in option
        k = int(option.split("rank=")[1]) if "rank=" in option else d
        c.ok(r["rank"] == k, "rank " + what)
        sens = 2 * b2 if replace else b2
        c.close(r["sensitivity"], sens, 2.3e-16, "sensitivity " + what)
        c.not_below(r["sensitivity"], sens, "sensitivity " + what)
        c.ok(mpf(r["epsilon_eigenvalues"]) <= e / 2, "eps0 <= eps/2 " + what)
        c.close(r["epsilon_eigenvalues"], e / 2, 2.3e-16, "eps0 " + what)
        exact_b = mpf(r["sensitivity"]) / mpf(r["epsilon_eigenvalues"])
        c.close(r["scale"], exact_b, 4.5e-16, "scale " + what)
        c.not_below(r["scale"], exact_b, "scale " + what)
        adaptive = "split=adaptive" in option
        if adaptive:
            beta = mpf(option.split("beta=")[1]) if "beta=" in option else mpf("0.05")
            c.close(r["beta"], beta, 1e-16, "beta " + what)
            c.close(r["tau"], mpf(r["scale"]) * log(2 * k / mpf(r["beta"])), 1e-15, "tau " + what)
            c.ok(r["epsilon_step"] == 0.0 and r["budget_split"] == 2, "adaptive " + what)
        else:
            c.ok(mpf(r["epsilon_step"]) <= e / (2 * k), "eps_i <= eps/(2k) " + what)
            c.close(r["epsilon_step"], e / (2 * k), 2.3e-16, "eps_i " + what)
            c.ok(r["tau"] == 0.0 and r["beta"] == 0.0 and r["budget_split"] == 1, "uniform " + what)
        factor = mpf(1) / 4
        if "bingham_sensitivity" in option:
            factor = mpf(1) / 2 if replace else mpf(1)
        c.ok(mpf(r["exponent_factor"]) == factor, "exponent factor " + what)
        if replace:
            c.close(r["clip_upper"], 1000 * b2, 1e-15, "clip " + what)
        else:
            c.ok(r["clip_upper"] == float("inf"), "no upper clip under add/remove " + what)
        c.ok(r["delta"] == 0.0 and r["sigma"] == 0.0 and r["dof"] == 0.0, "pure " + what)
        c.ok(f"proofs/{mechanism}.md" in r["theorem"], "theorem names the proof " + what)

    worked = plan(program, [f"{mechanism} 10 10000 1 1 0 {explicit('')}",
                            f"{mechanism} 10 10000 1 1 0 {explicit('split=adaptive')}"])
    c.ok(worked[0]["epsilon_eigenvalues"] == 0.5 and worked[0]["scale"] == 4.0, "worked eps0, b")
    c.close(worked[0]["epsilon_step"], "0.05", 2.3e-16, "worked uniform eps_i = 0.05")
    c.ok(abs(worked[1]["tau"] - 23.965858) < 5e-7, "worked tau = 23.965858")
    bad = plan(program, [f"{mechanism} 10 100 1 1 0 rank=11",
                         f"{mechanism} 10 100 1 1 0 split=uniform beta=0.1",
                         f"{mechanism} 10 100 1 1 0 split=adaptive beta=1",
                         f"{mechanism} 10 100 1 0 0"])
    for r, what in zip(bad, ("rank > d", "beta with uniform split", "beta = 1", "eps = 0")):
        c.status(r, "DPCOV_E_INVALID_ARGUMENT", "refuses " + what)


def check_split(c, split_program):
    rng = random.Random(4)
    cases = [(4 * float(log(400)), 0.5, [500, 200, 100, 50, 20, 10, 5, 2, 1, 0.5])]
    for _ in range(200):
        k = rng.randint(1, 30)
        cases.append((rng.choice([0.0, rng.uniform(0, 50)]), rng.choice([0.5, 1 / 3, 0.05]),
                      [rng.gauss(0, 100) for _ in range(k)]))
    cases.append((0.0, 0.5, [-1.0, -2.0, -3.0]))
    results = run_split(split_program, cases)
    for (tau, eps_v, lam), shares in zip(cases, results):
        exact = exact_split(lam, tau, eps_v)
        for s, x in zip(shares, exact):
            # The weights' sum accumulates k roundings: k eps relative, k <= 31 here.
            c.ok(abs(mpf(s) - x) <= mpf("1e-14") * max(x, mpf(eps_v) / 1e6) + mpf("1e-300"),
                 f"share {s!r} vs exact {mp.nstr(x, 20)}")
        c.ok(sum(mpf(s) for s in shares) <= mpf(eps_v), f"exact sum of shares <= {eps_v}")
    pinned = [0.126509, 0.082710, 0.061535, 0.047532, 0.036646, 0.032210, 0.029745, 0.028162,
              0.027615, 0.027337]
    c.ok(all(abs(s - p) < 5e-7 for s, p in zip(results[0], pinned)), "worked adaptive split")


def eig(m):
    return sorted(eigsy(matrix(m))[0], reverse=True)


def outer(v):
    return [[v[i] * v[j] for j in range(len(v))] for i in range(len(v))]


def check_sensitivities(c):
    rng = random.Random(5)
    for trial in range(60):
        d = rng.randint(1, 5)
        rows = [[mpf(rng.gauss(0, 1)) for _ in range(d)] for _ in range(rng.randint(1, 6))]
        rows = [[x / sqrt(sum(t * t for t in r)) * mpf(rng.uniform(0, 1)) for x in r] for r in rows]
        v = [mpf(rng.gauss(0, 1)) for _ in range(d)]
        v = [x / sqrt(sum(t * t for t in v)) for x in v]
        g = [[sum(r[i] * r[j] for r in rows) for j in range(d)] for i in range(d)]
        g_add = [[g[i][j] + v[i] * v[j] for j in range(d)] for i in range(d)]
        g_rep = [[g_add[i][j] - rows[0][i] * rows[0][j] for j in range(d)] for i in range(d)]
        base = eig(g)
        l1_add = sum(abs(a - b) for a, b in zip(base, eig(g_add)))
        l1_rep = sum(abs(a - b) for a, b in zip(base, eig(g_rep)))
        c.ok(l1_add <= 1 + mpf("1e-40"), f"eigenvalue L1 add/remove {mp.nstr(l1_add, 10)} <= B^2")
        c.ok(l1_rep <= 2 + mpf("1e-40"), f"eigenvalue L1 replace {mp.nstr(l1_rep, 10)} <= 2 B^2")
        diff = [[g_rep[i][j] - g[i][j] for j in range(d)] for i in range(d)]
        score = max(abs(x) for x in eig(diff))
        c.ok(score <= 1 + mpf("1e-40"), f"score sensitivity {mp.nstr(score, 10)} <= B^2")
    # Attained: rows (e1, e1) with one replaced by e2 move the spectrum (2, 0) to (1, 1): L1 = 2.
    c.ok(abs(sum(abs(a - b) for a, b in zip(eig([[2, 0], [0, 0]]), eig([[1, 0], [0, 1]]))) - 2)
         < mpf("1e-40"), "replace bound 2 B^2 attained")


def log_normaliser(kappa, g):
    """ln E_uniform[exp(kappa theta^T g theta)] on S^1, exact: e^{kappa tr/2} I_0(kappa gap/2)."""
    l1, l2 = eig(g)
    return kappa * (l1 + l2) / 2 + log(besseli(0, kappa * (l1 - l2) / 2))


def privacy_loss(kappa, g, g2, grid=720):
    """sup over theta on S^1 of |ln p_g(theta) - ln p_g2(theta)|, on a fine grid (the score part
    is a trigonometric polynomial of degree 2, so the grid misses its maximum by < 1e-4)."""
    from mpmath import cos, pi, sin
    z = log_normaliser(kappa, g) - log_normaliser(kappa, g2)
    best = mpf(0)
    for t in range(grid):
        a = 2 * pi * t / grid
        th = (cos(a), sin(a))
        s = sum(th[i] * (g[i][j] - g2[i][j]) * th[j] for i in range(2) for j in range(2))
        best = max(best, abs(kappa * s - z))
    return best


def check_exponential_mechanism(c):
    rng = random.Random(6)
    for trial in range(40):
        rows = []
        for _ in range(rng.randint(1, 4)):
            a = rng.uniform(0, 6.3)
            r = rng.uniform(0, 1)
            rows.append((mpf(r) * mp.cos(a), mpf(r) * mp.sin(a)))
        a = rng.uniform(0, 6.3)
        v = (mp.cos(a), mp.sin(a))
        g = [[sum(x[i] * x[j] for x in rows) for j in range(2)] for i in range(2)]
        g_add = [[g[i][j] + v[i] * v[j] for j in range(2)] for i in range(2)]
        g_rep = [[g_add[i][j] - rows[0][i] * rows[0][j] for j in range(2)] for i in range(2)]
        eps_i = mpf(rng.choice([0.1, 1, 5]))
        for factor, relation, g2 in ((mpf(1) / 2, "replace", g_rep), (mpf(1), "add/remove", g_add)):
            kappa = factor * eps_i
            loss = privacy_loss(kappa, g, g2)
            c.ok(loss <= eps_i * (1 + mpf("1e-12")),
                 f"{relation}: loss {mp.nstr(loss, 8)} <= eps_i {eps_i} at the sensitivity kappa")
            published = privacy_loss(eps_i / 4, g, g2)
            bound = eps_i / 2 if relation == "replace" else eps_i / 4
            c.ok(published <= bound * (1 + mpf("1e-12")),
                 f"{relation}: published loss {mp.nstr(published, 8)} <= {mp.nstr(bound, 4)}")


def main(program, split_program):
    c = Checker(MECHANISM)
    check_receipts(c, program, MECHANISM)
    check_defaults(c, program)
    check_split(c, split_program)
    check_sensitivities(c)
    check_exponential_mechanism(c)
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

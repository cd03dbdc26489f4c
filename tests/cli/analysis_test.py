"""End-to-end tests of the dpcov commands that compute from a released matrix (regress, pca,
glasso), of `dpcov mechanisms` and `dpcov compare`, and golden-output tests: fixed-seed releases
of the embedded diabetes data and what is computed from them, compared with tests/cli/golden/.

Golden numbers are compared to a relative tolerance of 1e-9 (entrywise, against the largest
magnitude of the quantity), which survives BLAS and compiler differences in the last bits; the
receipt's constants are compared exactly. After an intended change of the outputs, regenerate
with DPCOV_REGENERATE_GOLDEN=1 and review the diff.

Run by meson as: /usr/bin/python3 analysis_test.py DPCOV_EXECUTABLE SOURCE_ROOT
"""
import json
import os
import sys
import unittest

import numpy as np
from scipy import stats

from cli_case import EXIT_INPUT, EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, EXIT_IO, DpcovCase

ROOT = None
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
REGENERATE = os.environ.get("DPCOV_REGENERATE_GOLDEN") == "1"

GOLDEN_TOLERANCE = 1e-9
# Receipt entries that depend on where and with which build the test runs.
VOLATILE_KEYS = {"library_version", "input", "output"}
# Raw diabetes rows have norm below 600 (progression <= 346, s1 <= 301, s2 <= 242.4, ...).
DIABETES_BOUND = "600"
NEW_COMMANDS = ["mechanisms", "regress", "pca", "glasso", "compare"]


def numbers_close(actual, expected, path="", scale=None):
    """Yields a message for every number of `actual` not within the tolerance of `expected`; the
    structures (keys, lengths, strings, booleans) must match exactly."""
    if isinstance(expected, dict):
        if set(actual) != set(expected):
            yield f"{path}: keys {sorted(actual)} != {sorted(expected)}"
            return
        for key in expected:
            yield from numbers_close(actual[key], expected[key], f"{path}.{key}", scale)
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            yield f"{path}: {actual!r} != {expected!r}"
            return
        flat = [x for x in expected if isinstance(x, (int, float)) and not isinstance(x, bool)]
        local = max((abs(x) for x in flat), default=0.0) if len(flat) == len(expected) else None
        for i, (a, e) in enumerate(zip(actual, expected)):
            yield from numbers_close(a, e, f"{path}[{i}]", local if local else scale)
    elif isinstance(expected, float) and not isinstance(expected, bool):
        reference = max(abs(expected), scale or 0.0)
        if not isinstance(actual, (int, float)) or abs(actual - expected) > GOLDEN_TOLERANCE * reference:
            yield f"{path}: {actual!r} != {expected!r}"
    elif actual != expected:
        yield f"{path}: {actual!r} != {expected!r}"


class CliCase(DpcovCase):
    def ok(self, args, stdin=None):
        result = self.run_dpcov(args, stdin)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return result.stdout.decode()

    def json_of(self, args, stdin=None):
        return json.loads(self.ok(args + ["--json"], stdin))

    def assert_fails(self, args, code, pattern, stdin=None):
        result = self.run_dpcov(args, stdin)
        message = result.stderr.decode()
        self.assertEqual(result.returncode, code, message)
        self.assertRegex(message, pattern)
        return message

    def save_gram(self, a, name="g.csv", rows=None):
        """Writes the exact Gram of `a` through `dpcov gram` (so that it carries a receipt)."""
        data = self.path(name + ".data.npy")
        np.save(data, a)
        bound = repr(float(np.max(np.linalg.norm(a, axis=1))) * 2)
        self.ok(["gram", data, "--bound", bound, "-o", self.path(name), "--quiet"])
        return self.path(name)

    def check_golden(self, name, actual, exact_keys=(), below_tol=()):
        """Compares `actual` (JSON-like) with golden/NAME; entries named in `exact_keys` exactly,
        those in `below_tol` (convergence residuals, at rounding level and so not reproducible
        across summation orders) only as <= actual["tol"]."""
        path = os.path.join(GOLDEN, name)
        if REGENERATE:
            with open(path, "w") as f:
                json.dump(actual, f, indent=2)
                f.write("\n")
        with open(path) as f:
            expected = json.load(f)
        for key in exact_keys:
            self.assertEqual(actual[key], expected[key], f"{name}: {key}")
        actual, expected = dict(actual), dict(expected)
        for key in below_tol:
            self.assertLessEqual(actual.pop(key), actual["tol"], f"{name}: {key}")
            expected.pop(key)
        problems = list(numbers_close(actual, expected))
        self.assertEqual(problems, [], f"{name} differs from the golden output")


class HelpAndMechanisms(CliCase):
    def test_every_new_command_has_help_with_the_exit_codes(self):
        for command in NEW_COMMANDS:
            with self.subTest(command=command):
                text = self.ok([command, "--help"])
                self.assertIn("Exit codes", text)
                self.assertIn(command, text)
        self.assertIn("regress", self.ok(["--help"]))

    def test_mechanisms_lists_every_library_mechanism_with_its_privacy_type(self):
        listed = self.json_of(["mechanisms"])
        ids = [m["id"] for m in listed]
        self.assertEqual(ids, list(range(1, 14)) + [20, 21, 22, 23, 24])
        by_name = {m["name"]: m for m in listed}
        self.assertEqual(len(by_name), len(listed))
        help_text = self.ok(["release", "--help"])
        for m in listed:
            if m["command"].startswith("release"):
                self.assertIn(m["name"], help_text)
            self.assertTrue(m["theorem"] and m["preconditions"] and m["output"], m)
            self.assertIn(m["proof"], m["theorem"])
        self.assertEqual(by_name["analyze_gauss"]["privacy"], "(eps, delta)")
        self.assertEqual(by_name["analyze_gauss"]["numerics"], ["idealized", "exact"])
        self.assertEqual(by_name["laplace_sym"]["privacy"], "pure eps")
        self.assertEqual(by_name["iev"]["privacy"], "pure eps")
        self.assertEqual(by_name["iev"]["numerics"], ["idealized"])
        self.assertEqual(by_name["wishart_jiang"]["privacy"], "NOT DP (audit only)")
        self.assertEqual(by_name["analyze_gauss"]["neighbours"], ["replace-one", "add-remove"])
        self.assertIn("proofs/analyze_gauss.md", by_name["analyze_gauss"]["theorem"])
        for name in ("dly", "coinpress", "coinpress_mean"):
            self.assertEqual(by_name[name]["privacy"], "(eps, delta) from rho-zCDP")
            self.assertEqual(by_name[name]["neighbours"], ["replace-one"])
        for variant in ("dly_gauss", "dly_separate", "dly_adaptive", "dly_adaptive_paper"):
            self.assertIn(variant, by_name["dly"]["command"])
            self.assertIn(variant, help_text)

    def test_receipts_carry_the_theorem_that_mechanisms_lists(self):
        by_name = {m["name"]: m for m in self.json_of(["mechanisms"])}
        sizes = ["-e", "1", "-d", "1e-6", "--dims", "3", "--rows", "3000"]
        # analyze_gauss plans with exact numerics by default, as the command releases it.
        for args, registry, key in ((["-m", "analyze_gauss", "--bound", "1"], "analyze_gauss",
                                     "exact_theorem"),
                                    (["-m", "analyze_gauss", "--bound", "1", "--numerics",
                                      "idealized"], "analyze_gauss", "theorem"),
                                    (["-m", "dly_gauss", "--bound", "1"], "dly", "theorem"),
                                    (["-m", "coinpress", "--k-bound", "100"], "coinpress",
                                     "theorem"),
                                    (["-m", "coinpress_mean", "--mean-radius", "10"],
                                     "coinpress_mean", "theorem")):
            with self.subTest(args=args):
                receipt = self.json_of(["plan"] + args + sizes)
                self.assertEqual(receipt["theorem"], by_name[registry][key])

    def test_mechanisms_text_matches_the_golden_table(self):
        text = self.ok(["mechanisms"])
        path = os.path.join(GOLDEN, "mechanisms.txt")
        if REGENERATE:
            with open(path, "w") as f:
                f.write(text)
        with open(path) as f:
            self.assertEqual(text, f.read())


class Regress(CliCase):
    def setUp(self):
        super().setUp()
        rng = np.random.default_rng(3)
        x = rng.normal(size=(200, 3))
        y = 0.5 + x @ np.array([1.0, -2.0, 0.0]) + rng.normal(size=200)
        self.a = np.column_stack([np.ones(200), x, y])
        self.gram = self.save_gram(self.a)

    def test_ols_table_matches_least_squares_with_classical_inference(self):
        out = self.json_of(["regress", self.gram, "--label", "column 5", "--intercept", "1",
                            "--level", "0.9"])
        x, y = self.a[:, :4], self.a[:, 4]
        b = np.linalg.lstsq(x, y, rcond=None)[0]
        dof = 200 - 4
        s2 = np.sum((y - x @ b) ** 2) / dof
        se = np.sqrt(s2 * np.diag(np.linalg.inv(x.T @ x)))
        t = b / se
        p = 2 * stats.t.sf(np.abs(t), dof)
        q = stats.t.ppf(0.95, dof)
        rows = out["coefficients"]
        self.assertEqual([r["term"] for r in rows], ["column 1", "column 2", "column 3", "column 4"])
        np.testing.assert_allclose([r["coef"] for r in rows], b, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose([r["std_error"] for r in rows], se, rtol=1e-9)
        np.testing.assert_allclose([r["t"] for r in rows], t, rtol=1e-8)
        np.testing.assert_allclose([r["p"] for r in rows], p, rtol=1e-6, atol=1e-300)
        np.testing.assert_allclose([r["ci_lower"] for r in rows], b - q * se, rtol=1e-9, atol=1e-12)
        self.assertEqual([r["reject"] for r in rows], list(p < 0.1))
        self.assertEqual(out["dof"], dof)
        self.assertEqual(out["n"], 200)

    def test_a_mechanism_without_noise_aware_intervals_says_so_and_judges_no_data(self):
        # No noise-aware intervals exist for these mechanisms: the output says that, not that the
        # release "cannot support a conclusion", and no coefficient is reported as inconclusive.
        rows = self.path("rows.csv")
        np.savetxt(rows, self.a[:, 1:] / 10, delimiter=",", header="a,b,c,y", comments="")
        for mechanism, extra in (("dly_gauss", ["--bound", "1", "-d", "1e-6"]),
                                 ("coinpress", ["--k-bound", "4", "-d", "1e-6"]),
                                 ("iev", ["--bound", "1"])):
            with self.subTest(mechanism=mechanism):
                out = self.path(mechanism + ".csv")
                self.ok(["release", "-m", mechanism, "-e", "1", "--seed", "1", "--quiet", rows,
                         "-o", out] + extra)
                result = self.run_dpcov(["regress", out, "--label", "y"])
                self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                text = result.stdout.decode() + result.stderr.decode()
                self.assertIn("privacy noise: not available: no noise-aware intervals for "
                              f"{mechanism} releases", text)
                self.assertNotIn("cannot support a conclusion", text)
                self.assertNotIn("names no mechanism", text)
                aware = self.json_of(["regress", out, "--label", "y"])["noise_aware"]
                self.assertFalse(aware["available"])

    def test_text_table_names_terms_and_decisions(self):
        text = self.ok(["regress", self.gram, "-y", "5", "--intercept", "1", "-x", "2,3"])
        self.assertIn("reject H0 at 5%", text)
        self.assertRegex(text, r"column 2 .* yes")
        self.assertIn("NOT private", text)

    def test_an_indefinite_feature_block_names_the_ridge_that_fixes_it(self):
        g = np.loadtxt(self.gram, delimiter=",", skiprows=1)
        g[1, 1] = -50.0
        np.savetxt(self.path("bad.csv"), g, delimiter=",")
        message = self.assert_fails(["regress", self.path("bad.csv"), "--rows", "200", "-y", "5",
                                     "--intercept", "1"], EXIT_INPUT,
                                    r"not positive definite .*ridge penalty larger than")
        ridge = float(message.split("larger than ")[1].split(",")[0])
        out = self.json_of(["regress", self.path("bad.csv"), "--rows", "200", "-y", "5",
                            "--intercept", "1", "--ridge", repr(ridge * 1.01 + 1e-9)])
        self.assertEqual(len(out["coefficients"]), 4)

    def test_an_analyze_gauss_release_gets_intervals_that_account_for_the_noise(self):
        gen = np.random.default_rng(5)
        x = gen.normal(scale=0.08, size=(100000, 3))
        y = x @ [0.5, -0.5, 0.25] + gen.normal(scale=0.08, size=100000)
        np.save(self.path("model.npy"), np.column_stack([x, y]))
        self.ok(["release", "--mechanism", "analyze_gauss", "--epsilon", "1", "--delta", "1e-6",
                 "--bound", "1", "--reject", "--seed", "3", "--quiet", self.path("model.npy"),
                 "-o", self.path("ag.csv")])
        out = self.json_of(["regress", self.path("ag.csv"), "-y", "4", "--plug-in", "--seed", "1"])
        # The intervals of a private release are for unpenalised least squares: a ridge outside
        # the plug-in table is refused, not dropped from them without a word.
        refused = self.run_dpcov(["regress", self.path("ag.csv"), "-y", "4", "--ridge", "10"])
        self.assertEqual(refused.returncode, EXIT_USAGE, refused.stderr.decode())
        self.assertIn("--ridge applies to the plug-in table only", refused.stderr.decode())
        sure = out["guaranteed"]
        self.assertTrue(0 < sure["kappa"] < 1)
        aware = out["noise_aware"]["coefficients"]
        self.assertIn("constant error variance", out["noise_aware"]["assumes"])
        # A released matrix has no rows for a meat: the output says why it is not robust.
        self.assertIn("no rows to release the meat", out["noise_aware"]["robust"])
        text = self.ok(["regress", self.path("ag.csv"), "-y", "4", "--seed", "1"])
        self.assertIn("no robust (sandwich) intervals", text)
        for plug_in, interval, boot in zip(out["plug_in"], sure["intervals"], aware):
            self.assertEqual(plug_in["term"], interval["term"])
            self.assertEqual(plug_in["basis"], "plug-in: treats the release as exact data")
            self.assertNotIn("reject", plug_in)
            # Wider than the plug-in interval around the same estimate, and than the bootstrap's.
            self.assertLess(interval["ci_lower"], boot["ci_lower"])
            self.assertGreater(interval["ci_upper"], boot["ci_upper"])
            self.assertLess(boot["ci_lower"], plug_in["ci_lower"])
            self.assertGreater(boot["ci_upper"], plug_in["ci_upper"])
        self.assertTrue(all(i["reject"] for i in sure["intervals"]))
        self.assertEqual([b["sign"] for b in aware], ["+", "-", "+"])
        # Seeded: the noise-aware table is a bootstrap, drawn from OS entropy without --seed.
        text = self.ok(["regress", self.path("ag.csv"), "-y", "4", "--seed", "1"])
        self.assertIn("account for the sampling and the privacy noise", text)
        self.assertNotIn("reject H0 at 5%\n", text.split("Guaranteed")[0])
        self.assertNotIn("plug-in (release as exact)", text)
        text = self.ok(["regress", self.path("ag.csv"), "-y", "4", "--plug-in", "--seed", "1"])
        table = [line for line in text.splitlines() if line.startswith("column ")]
        self.assertEqual(sum("plug-in (release as exact)" in line for line in table), 3)

    def test_a_release_swamped_by_noise_says_it_supports_no_conclusion(self):
        np.save(self.path("small.npy"), self.a[:40, 1:] / 4)
        self.ok(["release", "--mechanism", "laplace_sym", "--epsilon", "0.5", "--bound", "1",
                 "--clip", "--seed", "3", "--quiet", self.path("small.npy"), "-o",
                 self.path("small.csv")])
        text = self.ok(["regress", self.path("small.csv"), "-y", "4", "--seed", "1"])
        self.assertIn("cannot support a conclusion", text)
        self.assertNotIn("plug-in", text.replace("--plug-in", ""))

    def test_usage_input_and_io_errors_have_their_exit_codes(self):
        np.savetxt(self.path("plain.csv"), np.eye(3), delimiter=",")
        np.savetxt(self.path("wide.csv"), np.ones((2, 3)), delimiter=",")
        skew = np.eye(3)
        skew[0, 1] = 0.5
        np.savetxt(self.path("skew.csv"), skew, delimiter=",")
        for args, code, pattern in [
            (["regress", self.gram], EXIT_USAGE, "--label is required"),
            (["regress", self.gram, "-y", "nope"], EXIT_USAGE, "'nope' is neither a column"),
            (["regress", self.gram, "-y", "9"], EXIT_USAGE, "column 9 is out of range"),
            (["regress", self.gram, "-y", "5", "--level", "1.5"], EXIT_USAGE, "level"),
            (["regress", self.path("plain.csv"), "-y", "1"], EXIT_USAGE, "pass --rows"),
            (["regress", self.path("wide.csv"), "-y", "1", "--rows", "5"], EXIT_INPUT,
             "expected a square matrix"),
            (["regress", self.path("skew.csv"), "-y", "1", "--rows", "5"], EXIT_INPUT,
             r"not exactly symmetric at \(1, 2\)"),
            (["regress", self.path("missing.csv"), "-y", "1"], EXIT_IO, "missing.csv"),
        ]:
            with self.subTest(args=args):
                self.assert_fails(args, code, pattern)


class PcaAndGlasso(CliCase):
    def setUp(self):
        super().setUp()
        rng = np.random.default_rng(5)
        self.a = rng.normal(size=(300, 4)) @ np.diag([3.0, 2.0, 1.0, 0.5])
        self.gram = self.save_gram(self.a)
        self.g = self.a.T @ self.a

    def test_pca_gives_the_top_eigenpairs_and_explained_variance(self):
        out = self.json_of(["pca", self.gram, "-k", "2"])
        w, v = np.linalg.eigh(self.g)
        np.testing.assert_allclose(out["eigenvalues"], w[::-1][:2], rtol=1e-10)
        np.testing.assert_allclose(out["explained_ratio"], w[::-1][:2] / np.trace(self.g), rtol=1e-10)
        loadings = np.array([out["eigenvectors"][f"column {i}"] for i in range(1, 5)])
        np.testing.assert_allclose(np.abs(loadings), np.abs(v[:, ::-1][:, :2]), atol=1e-9)
        self.assertIn("PC2", self.ok(["pca", self.gram, "-k", "2"]))

    def test_pca_compare_refuses_a_centred_release_against_an_uncentred_gram(self):
        data = self.path("g.csv.data.npy")  # the rows behind self.gram
        out = self.path("with_constant.npy")
        bound = repr(float(np.max(np.linalg.norm(self.a, axis=1))) * 2)
        result = self.run_dpcov(["release", data, "-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                                 "--bound", bound, "--add-constant", "-o", out, "-q"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.assert_fails(["pca", out, "-k", "1", "--compare", self.gram], EXIT_USAGE,
                          "not comparable")

    def test_pca_compare_measures_principal_angles(self):
        out = self.json_of(["pca", self.gram, "-k", "2", "--compare", self.gram])
        self.assertLess(out["compare"]["sin_theta_spectral"], 1e-7)
        self.assert_fails(["pca", self.gram, "-k", "5"], EXIT_USAGE, r"-k must be in \[1, 4\]")
        np.savetxt(self.path("small.csv"), np.eye(2), delimiter=",")
        self.assert_fails(["pca", self.gram, "--compare", self.path("small.csv")], EXIT_INPUT,
                          "is 2 x 2")

    def test_pca_of_a_centred_release_bounds_its_subspace_error(self):
        # Rows [1, x] with a clear gap in the covariance of x (variances 0.04 > 0.005 > ...),
        # released once; --center uses column 1 (the constant) and the plug-in bound.
        gen = np.random.default_rng(7)
        x = gen.normal(size=(20000, 3)) * [0.2, 0.07, 0.05] + [0.3, -0.2, 0.1]
        np.save(self.path("c.npy"), np.column_stack([np.ones(len(x)), x]))
        self.ok(["release", "-m", "analyze_gauss", "-e", "4", "-d", "1e-6", "--bound", "2",
                 "--reject", "--seed", "3", "--quiet", self.path("c.npy"), "-o",
                 self.path("c.csv")])
        # Seeded: the bound's noise-norm quantile is simulated, from OS entropy without --seed,
        # and the checks below (a bound under 0.5, above the realised error) are on that draw.
        out = self.json_of(["pca", self.path("c.csv"), "--center", "--constant", "1", "-k", "1",
                            "--seed", "2"])
        self.assertTrue(out["centred"])
        error = out["subspace_error"]
        self.assertTrue(error["plug_in"])
        self.assertFalse(error["noise_swamps_signal"])
        self.assertTrue(0 < error["sin_theta_bound"] < 0.5, error)
        truth = np.cov(x.T, bias=True)
        released = np.array([out["eigenvectors"][f"column {i}"] for i in (2, 3, 4)])[:, 0]
        top = np.linalg.eigh(truth)[1][:, -1]
        self.assertLessEqual(np.sqrt(max(0.0, 1 - (top @ released) ** 2)),
                             error["sin_theta_bound"])
        text = self.ok(["pca", self.path("c.csv"), "--center", "--constant", "1", "-k", "1",
                        "--seed", "2"])
        self.assertIn("plug-in: the noise norm of the centring is simulated", text)
        # A release mapped to the data's units: no bound, and the output says why.
        self.ok(["release", "-m", "analyze_gauss", "-e", "4", "-d", "1e-6", "--bounds",
                 "-1:1", "--seed", "3", "--quiet", self.path("c.npy"), "-o",
                 self.path("scaled.csv")])
        out = self.json_of(["pca", self.path("scaled.csv"), "-k", "1"])
        self.assertNotIn("subspace_error", out)
        self.assertIn("per-column scaling", out["subspace_error_skipped"])
        self.assertIn("subspace error: not computed", self.ok(["pca", self.path("scaled.csv")]))

    def test_glasso_at_zero_penalty_inverts_the_covariance_and_writes_it(self):
        out = self.json_of(["glasso", self.gram, "--rho", "0", "-o", self.path("theta.npy")])
        theta = np.load(self.path("theta.npy"))
        np.testing.assert_allclose(theta, np.linalg.inv(self.g / 300), rtol=1e-5, atol=1e-8)
        self.assertEqual(out["support_edges"], 6)
        with open(self.path("theta.npy.json")) as f:
            sidecar = json.load(f)
        self.assertEqual(sidecar["command"], "glasso")
        self.assertEqual(sidecar["source_receipt"]["command"], "gram")
        self.assertLessEqual(out["kkt_residual"], 1e-6)

    def test_glasso_with_a_large_penalty_is_diagonal_and_errors_are_named(self):
        out = self.json_of(["glasso", self.gram, "--rho", "100"])
        self.assertEqual(out["support_edges"], 0)
        self.assertIn("support", self.ok(["glasso", self.gram, "--rho", "0.5"]))
        self.assert_fails(["glasso", self.gram, "--rho", "-1"], EXIT_USAGE, "--rho must be")
        self.assert_fails(["glasso", self.gram], EXIT_USAGE, "--rho is required")
        for option, value in (("--tol", "0"), ("--tol", "nan"), ("--max-iter", "0")):
            self.assert_fails(["glasso", self.gram, "--rho", "0.5", option, value], EXIT_USAGE,
                              option + " must be")
        indefinite = -np.eye(3)
        np.savetxt(self.path("neg.csv"), indefinite, delimiter=",")
        self.assert_fails(["glasso", self.path("neg.csv"), "--as-is", "--rho", "0.1",
                           "--off-diagonal-only"], EXIT_INPUT, "positive semidefinite cone")

    def test_a_bounds_release_is_centred_in_the_scaled_units(self):
        # proofs/centring.md: the mean and covariance come from the scaled second moment, where
        # the noise was added, then map to the data's units (x = mid + half z). Centred in the
        # data's units, the noise of the count multiplied each column's midpoint: the variance of
        # a column in [100, 300] read about 10% off at n = 2000, epsilon 1 (1% here).
        gen = np.random.default_rng(5)
        n = 2000
        x = np.column_stack([gen.uniform(100, 300, n), gen.uniform(-5, 15, n), gen.uniform(0, 1, n)])
        lower, upper = np.array([100.0, -5.0, 0.0]), np.array([300.0, 15.0, 1.0])
        mid, half = (lower + upper) / 2, (upper - lower) / 2
        np.savetxt(self.path("m.csv"), x, delimiter=",", header="a,b,c", comments="")
        for seed in ("1", "2"):
            out = self.path(f"m{seed}.csv")
            self.ok(["release", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                     "--bounds=100:300,-5:15,0:1", "--seed", seed, "--quiet", self.path("m.csv"),
                     "-o", out])
            pca = json.loads(self.ok(["pca", out, "-k", "3", "--seed", "1", "--json"]))
            released = np.loadtxt(out, delimiter=",", skiprows=1)
            to_user = np.eye(4)
            to_user[1:, 0], to_user[1:, 1:] = mid, np.diag(half)
            back = np.linalg.inv(to_user)
            scaled = back @ released @ back.T
            mean_z = scaled[0, 1:] / n
            covariance = (scaled[1:, 1:] / n - np.outer(mean_z, mean_z)) * np.outer(half, half)
            np.testing.assert_allclose(list(pca["mean"].values()), mid + half * mean_z,
                                       rtol=1e-12)
            np.testing.assert_allclose(pca["eigenvalues"],
                                       np.linalg.eigvalsh(covariance)[::-1], rtol=1e-9)
            self.assertAlmostEqual(pca["trace"], np.trace(covariance),
                                   delta=1e-9 * np.trace(covariance))
            # glasso centres the same way: at rho = 0 its precision is the covariance's inverse.
            glasso = json.loads(self.ok(["glasso", out, "--rho", "0", "--json"]))
            np.testing.assert_allclose(np.reshape(glasso["precision"], (3, 3)),
                                       np.linalg.inv(covariance), rtol=1e-6)

    def test_pca_reports_the_negative_eigenvalues_and_variances_behind_its_ratios(self):
        # A noisy matrix can have negative eigenvalues and a negative diagonal: the ratios' sum
        # over the positive ones is printed, and the negative ones are counted and named.
        q, _ = np.linalg.qr(np.random.default_rng(1).normal(size=(4, 4)))
        m = q @ np.diag([4.0, 1.0, -0.5, -2.0]) @ q.T
        m[3, 3] = -0.3
        np.savetxt(self.path("neg.csv"), m, delimiter=",")
        out = self.json_of(["pca", self.path("neg.csv"), "-k", "2"])
        w = np.linalg.eigvalsh(m)
        self.assertAlmostEqual(out["positive_eigenvalue_sum"], w[w > 0].sum(), delta=1e-12)
        self.assertEqual(out["negative_eigenvalues"], int((w < 0).sum()))
        self.assertAlmostEqual(out["smallest_eigenvalue"], w[0], delta=1e-12)
        self.assertEqual(out["negative_variances"],
                         [f"column {i + 1}" for i in np.flatnonzero(np.diag(m) < 0)])
        np.testing.assert_allclose(out["explained_ratio"], w[::-1][:2] / w[w > 0].sum(),
                                   rtol=1e-12)
        text = self.ok(["pca", self.path("neg.csv"), "-k", "2"])
        self.assertIn("2 of the 4 eigenvalues are negative", text)
        self.assertIn("second moment of column 3, column 4 reads negative", text)
        self.assertNotIn("warning", self.ok(["pca", self.gram, "-k", "2"]))


class Compare(CliCase):
    def setUp(self):
        super().setUp()
        self.data = os.path.join(ROOT, "data", "diabetes.csv")

    def compare(self, extra, stdin=None):
        return self.json_of(["compare", "--bound", DIABETES_BOUND, "--quiet", "--seed", "11",
                             "-r", "3"] + extra, stdin)

    def test_seeded_rows_do_not_depend_on_the_other_mechanisms_listed(self):
        both = self.compare([self.data, "-m", "laplace_sym,analyze_gauss", "-e", "1,2", "-d", "1e-6"])
        one = self.compare([self.data, "-m", "analyze_gauss", "-e", "1,2", "-d", "1e-6"])
        self.assertEqual(both["results"][2:], one["results"])
        self.assertEqual(both["n"], 442)

    def test_compare_reads_standard_input_once_and_compares_coefficients(self):
        with open(self.data, "rb") as f:
            text = f.read()
        out = self.compare(["-", "-m", "analyze_gauss", "-e", "4", "-d", "1e-6", "--label",
                            "progression", "-x", "bmi,bp,s5"], stdin=text)
        row = out["results"][0]
        self.assertEqual(row["frobenius_relative"]["count"], 3)
        self.assertEqual(len(out["regression"]["exact_coefficients"]), 3)
        table = self.ok(["compare", "--bound", DIABETES_BOUND, "--seed", "1", "-r", "2", "-m",
                         "laplace_sym", "-e", "1", "--quiet", self.data])
        self.assertIn("frobenius (rel)", table)
        self.assertIn("NOT private", table)

    def test_compare_errors_are_named_before_any_release(self):
        base = ["compare", self.data, "--bound", DIABETES_BOUND, "--quiet"]
        self.assert_fails(base + ["-m", "analyze_gauss", "-e", "1"], EXIT_USAGE, "--delta is required")
        self.assert_fails(base + ["-m", "wishart_additive", "-e", "1", "-d", "1e-6"], EXIT_PRIVACY,
                          "epsilon")
        self.assert_fails(base + ["-m", "nope", "-e", "1"], EXIT_USAGE, "unknown value 'nope'")
        self.assert_fails(base + ["-m", "laplace_sym", "-e", "0"], EXIT_USAGE, "--epsilons must be")
        self.assert_fails(base + ["-m", "inverse_gauss", "-e", "1", "-d", "1e-6"], EXIT_USAGE,
                          "lambda_min bound")
        self.assert_fails(base + ["-m", "wishart_jiang", "-e", "1", "-d", "1e-6"], EXIT_USAGE,
                          "not private")
        self.assert_fails(base + ["-m", "laplace_sym", "-e", "1", "-r", "0"], EXIT_USAGE, "--repeats")


class Golden(CliCase):
    """Fixed-seed releases of the embedded diabetes data, and what is computed from them. The raw
    columns with B = 600 make the noise large (sigma about 1.5e6 against entries up to 1e7), so
    the regression needs a large ridge and the graphical lasso a large rho: the point here is
    reproducibility, not utility (scripts/demo shows utility on the scaled columns)."""

    def setUp(self):
        super().setUp()
        self.data = os.path.join(ROOT, "data", "diabetes.csv")
        self.released = self.path("released.csv")
        # The idealized path, whose golden outputs predate exact numerics (the CLI's default for
        # analyze_gauss since); the exact path has its own tests in cli_test.py.
        self.ok(["release", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound",
                 DIABETES_BOUND, "--seed", "2026", "--numerics", "idealized", "--quiet",
                 self.data, "-o", self.released])

    def test_a_seeded_release_matches_the_golden_matrix_and_receipt(self):
        with open(self.released) as f:
            header = f.readline().strip().split(",")
        matrix = np.loadtxt(self.released, delimiter=",", skiprows=1)
        with open(self.released + ".json") as f:
            receipt = {k: v for k, v in json.load(f).items() if k not in VOLATILE_KEYS}
        actual = {"columns": header, "matrix": [list(map(float, row)) for row in matrix]}
        self.check_golden("release_analyze_gauss.json", actual)
        # Every constant of the receipt is exact: it comes from the plan, not from the data's
        # arithmetic.
        path = os.path.join(GOLDEN, "release_analyze_gauss_receipt.json")
        if REGENERATE:
            with open(path, "w") as f:
                json.dump(receipt, f, indent=2)
                f.write("\n")
        with open(path) as f:
            self.assertEqual(receipt, json.load(f))

    def test_regression_pca_and_glasso_of_the_release_match_the_golden_outputs(self):
        regress = self.json_of(["regress", self.released, "--label", "progression",
                                "--features", "bmi,bp,s5", "--ridge", "1e7", "--plug-in",
                                "--seed", "1"])
        regress.pop("matrix"), regress.pop("receipt")
        self.check_golden("regress.json", regress, exact_keys=["n", "dof", "label"])
        pca = self.json_of(["pca", self.released, "-k", "3", "--seed", "1"])
        pca.pop("matrix")
        # The subspace error bound's simulated noise-norm quantile is not in the golden file.
        error = pca.pop("subspace_error")
        self.assertTrue(0 <= error["sin_theta_bound"] <= 1)
        self.assertEqual(error["noise_swamps_signal"], error["sin_theta_bound"] == 1)
        self.check_golden("pca.json", pca, exact_keys=["k"])
        glasso = self.json_of(["glasso", self.released, "--rho", "25000"])
        glasso.pop("matrix")
        self.check_golden("glasso.json", glasso, exact_keys=["support_edges", "iterations"],
                          below_tol=["kkt_residual", "duality_gap"])

    def test_a_seeded_compare_matches_the_golden_table(self):
        out = self.json_of(["compare", self.data, "--bound", DIABETES_BOUND, "--seed", "5", "-r",
                            "4", "-m", "analyze_gauss,laplace_sym", "-e", "0.5,2", "-d", "1e-6",
                            "--label", "progression", "-x", "bmi,bp,s5", "--quiet"])
        out.pop("input")
        self.check_golden("compare.json", out)


class WishartNoiseMean(CliCase):
    def test_pca_reads_the_release_minus_its_noise_mean(self):
        # The additive Wishart adds dof * scale * I on average (here about 1300 against a trace
        # of 5000): the spectrum is read with it subtracted, and says so.
        x = np.random.default_rng(4).standard_normal((50000, 3)) / 3.0
        np.savetxt(self.path("w.csv"), x, delimiter=",", header="a,b,c", comments="")
        self.ok(["release", "-m", "wishart_additive", "-e", "0.9", "-d", "1e-6", "--bound", "2",
                 "--seed", "1", "--quiet", self.path("w.csv"), "-o", self.path("wr.csv")])
        text = self.ok(["pca", self.path("wr.csv"), "-k", "3", "--seed", "1"])
        self.assertIn("less the mean its mechanism's noise adds", text)
        out = json.loads(self.ok(["pca", self.path("wr.csv"), "-k", "3", "--seed", "1",
                                  "--json"]))
        truth = float(np.trace(x.T @ x))
        self.assertLess(abs(out["trace"] - truth), 0.05 * truth, (out["trace"], truth))

    def test_every_analysis_reads_the_releases_estimate_of_the_gram_matrix(self):
        # The JL ridge adds w^2 I on average and the inverse Wishart releases
        # (G + w^2 I) / (m - d - 1): read as drawn, pca's trace was about twice the data's and
        # a thousandth of it. regress's plug-in table and glasso read the same estimate.
        gen = np.random.default_rng(4)
        x = gen.standard_normal((20000, 3)) / 3.0
        y = np.clip(x @ np.array([0.5, -0.5, 0.25]) + 0.1 * gen.standard_normal(20000), -1, 1)
        rows = np.column_stack([x, y])
        np.savetxt(self.path("r.csv"), rows, delimiter=",", header="a,b,c,y", comments="")
        truth = rows.T @ rows
        for name, option in (("jl_ridge", ["--projection-rows", "4000"]),
                             ("inverse_wishart", ["--posterior-dof", "4000"]),
                             ("wishart_additive", [])):
            out = self.path(f"{name}.csv")
            self.ok(["release", "-m", name, "-e", "0.9", "-d", "1e-6", "--bound", "2",
                     "--seed", "1", "--quiet", self.path("r.csv"), "-o", out] + option)
            pca = json.loads(self.ok(["pca", out, "-k", "2", "--seed", "1", "--json"]))
            self.assertLess(abs(pca["trace"] - np.trace(truth)), 0.05 * np.trace(truth),
                            (name, pca["trace"], np.trace(truth)))
            fit = json.loads(self.ok(["regress", out, "--label", "y", "--plug-in", "--json"]))
            slopes = [row["coef"] for row in fit["plug_in"]]
            np.testing.assert_allclose(slopes, np.linalg.solve(truth[:3, :3], truth[:3, 3]),
                                       atol=0.1, err_msg=name)
            self.ok(["glasso", out, "--rho", "0.001", "--rows", "20000"])
        # A `release --bounds` matrix is in the data's units: the mean is removed in the scaled
        # units, where it was added (read as drawn, the smallest variance was about 50% high).
        z = gen.standard_normal((30000, 3)) * [1.0, 10.0, 100.0]
        np.savetxt(self.path("s.csv"), z, delimiter=",", header="a,b,c", comments="")
        self.ok(["release", "-m", "wishart_additive", "-e", "0.9", "-d", "1e-6",
                 "--bounds=-4:4,-40:40,-400:400", "--seed", "1", "--quiet", self.path("s.csv"),
                 "-o", self.path("sw.csv")])
        pca = json.loads(self.ok(["pca", self.path("sw.csv"), "--center", "-k", "3", "--json"]))
        truth = np.linalg.eigvalsh(np.cov(z.T))[::-1]
        released = pca["eigenvalues"]
        np.testing.assert_allclose(released, truth, rtol=0.1)
        # compare measures the same estimate: read as drawn, the relative Frobenius errors were
        # about 0.5 (wishart_additive) and above 1 (jl_ridge, inverse_wishart).
        table = json.loads(self.ok(["compare", self.path("r.csv"), "--bound", "2", "-m",
                                    "wishart_additive,jl_ridge,inverse_wishart", "-e", "0.9",
                                    "-d", "1e-6", "--projection-rows", "4000",
                                    "--posterior-dof", "4000", "-r", "3", "--seed", "1",
                                    "--quiet", "--json"]))
        for row in table["results"]:
            self.assertLess(row["frobenius_relative"]["mean"], 0.2, row["mechanism"])


if __name__ == "__main__":
    DpcovCase.dpcov, ROOT = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=2)

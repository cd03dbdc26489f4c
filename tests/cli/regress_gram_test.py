"""`dpcov regress FILE --epsilon E -m MECHANISM` with a Gram mechanism gives what Python's
PrivateLinearRegression(mechanism=MECHANISM) gives on the same rows and seed: the same budget
split, releases, generator draws and receipts, so the same coefficients and robust (sandwich)
intervals, byte for byte for every mechanism the registry marks robust_gram, with exact numerics
(the default where the mechanism has them: the Gram matrix is summed in integers) and with
idealized numerics (the floating-point sum is cut into the kernel's blocks, whatever chunks each
surface reads);
the mechanisms taken are exactly the registry's robust_gram set; --errors homoscedastic keeps the
labelled bootstrap; what the output publishes does not depend on the data; bad uses are refused
before anything is spent.

Run by meson as: /usr/bin/python3 regress_gram_test.py DPCOV SOURCE_ROOT LIBRARY
"""
import itertools
import json
import os
import sys
import unittest
import warnings

import numpy as np

from cli_case import EXIT_OK, EXIT_USAGE, DpcovCase


def python_fit(path, epsilon=4.0, **kwargs):
    """PrivateLinearRegression on the rows of the CSV at ``path`` (the label last)."""
    import dpcov
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fixed seed's and the clipping's warnings
        return dpcov.PrivateLinearRegression(
            epsilon=epsilon, delta=1e-6, bound=1.0, label_bound=1.0, n_bootstrap=199,
            random_state=7, **kwargs).fit(data[:, :-1], data[:, -1])


class GramRegression(DpcovCase):
    def write_csv(self, n=20000, seed=5, name="data.csv", change_last=False):
        gen = np.random.default_rng(seed)
        X = gen.uniform(-0.6, 0.6, size=(n, 2))  # some rows over the bound 1: clipped alike
        y = np.clip(0.1 + X @ [0.5, -0.3] + 0.6 * np.abs(X[:, 0]) * gen.standard_normal(n), -1, 1)
        if change_last:
            X[-1], y[-1] = [0.3, -0.2], 0.9
        path = self.path(name)
        np.savetxt(path, np.column_stack([X, y]), delimiter=",", header="x1,x2,y", comments="",
                   fmt="%.17g")
        return path

    def cli(self, path, *extra, expect=EXIT_OK, epsilon="4"):
        result = self.run_dpcov(["regress", path, "--label", "y", "--epsilon", epsilon, "--bound",
                                 "1", "--label-bound", "1", "--noise-seed", "7", "--quiet",
                                 "--bootstrap", "199", "--json"] + list(extra))
        self.assertEqual(result.returncode, expect, result.stderr.decode())
        return json.loads(result.stdout.decode()) if expect == EXIT_OK else result

    def assert_same_fit(self, out, fit, rtol=0.0):
        coef = [row["coef"] for row in out["coefficients"]]
        aware = [row["noise_aware"] for row in out["coefficients"]]
        cli = np.array([coef, [a["std_err"] for a in aware], [a["p"] for a in aware],
                        [a["ci_lower"] for a in aware], [a["ci_upper"] for a in aware]])
        py = np.array([fit.params_, fit.std_errors_, fit.p_values_, fit.conf_int_[:, 0],
                       fit.conf_int_[:, 1]])
        if rtol == 0.0:
            self.assertEqual(cli.tolist(), py.tolist())
        else:
            np.testing.assert_allclose(cli, py, rtol=rtol, atol=0.0)
        public = fit.receipt_.public()
        self.assertEqual(out["receipt"]["mechanism"], public.mechanism_name)
        for field in ("epsilon", "delta", "sigma"):
            self.assertEqual(out["receipt"][field], getattr(public, field), field)

    def test_every_robust_mechanism_gives_pythons_fit_byte_for_byte_in_both_numerics(self):
        import dpcov
        path = self.write_csv()  # 20000 rows: more than one block of the accumulator
        robust = [m for m in dpcov.mechanisms() if "robust_gram" in m.inference]
        self.assertEqual([m.name for m in robust],
                         ["analyze_gauss", "laplace_sym", "wishart_additive"])
        for entry, numerics in itertools.product(robust, ("default", "idealized")):
            with self.subTest(mechanism=entry.name, numerics=numerics):
                # wishart_additive's theorem needs epsilon < 1.
                out = self.cli(path, "-m", entry.name, "--numerics", numerics, epsilon="0.9")
                fit = python_fit(path, epsilon=0.9, mechanism=entry.name,
                                 numerics="exact" if numerics == "default" else numerics)
                exact = numerics == "default" and "exact" in entry.numerics
                self.assertEqual(out["receipt"]["numerics"], "exact" if exact else "idealized")
                self.assertEqual(fit.receipt_.numerics, 1 if exact else 0)
                self.assertEqual(out["noise_aware"]["errors"], "robust")
                self.assertEqual(fit.errors_, "robust")
                self.assertIn("sandwich", out["noise_aware"]["method"])
                self.assert_same_fit(out, fit)
                # The coefficients are the intervals' estimate (the Wishart noise's mean
                # subtracted first), so each lies inside its own interval.
                for row in out["coefficients"]:
                    aware = row["noise_aware"]
                    self.assertLessEqual(aware["ci_lower"], row["coef"], row["term"])
                    self.assertLessEqual(row["coef"], aware["ci_upper"], row["term"])
                meat = out["sandwich"]["meat_receipt"]
                self.assertEqual(meat["sigma"], fit.meat_receipt_.public().sigma)
                self.assertEqual(out["sandwich"]["fit_epsilon"], out["receipt"]["epsilon"])
                self.assertLessEqual(meat["epsilon"] + out["receipt"]["epsilon"], 0.9)
                self.assertLessEqual(meat["delta"] + out["receipt"]["delta"], 1e-6)

    def test_under_add_remove_n_is_the_count_of_the_estimate_as_in_python(self):
        # n is read off the constant column of the release's estimate of G: the additive
        # Wishart's noise mean dof * scale on the diagonal, read as drawn, added about 1000
        # rows to these 20000 (2.5 times n at 2000 rows of norm bound 2).
        path = self.write_csv()
        for mechanism in ("analyze_gauss", "laplace_sym", "wishart_additive"):
            with self.subTest(mechanism=mechanism):
                out = self.cli(path, "-m", mechanism, "--neighbour", "add_remove", epsilon="0.9")
                fit = python_fit(path, epsilon=0.9, mechanism=mechanism, neighbour="add_remove")
                self.assert_same_fit(out, fit)
                self.assertLess(abs(fit.n_samples_ - 20000), 500)

    def test_a_released_count_at_most_the_coefficients_is_an_output_not_an_error(self):
        # Six rows at epsilon 0.3: some seeds release a count below the 3 coefficients. The fit
        # then prints NaN and says why, exit 0.
        path = self.write_csv(n=6)
        refused = 0
        for seed in range(1, 7):
            result = self.run_dpcov(["regress", path, "-y", "y", "-m", "analyze_gauss", "-e",
                                     "0.3", "--bound", "2", "--label-bound", "1",
                                     "--neighbour", "add_remove", "--noise-seed", str(seed),
                                     "--quiet", "--json"])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            out = json.loads(result.stdout.decode())
            if "released count of rows" in result.stderr.decode():
                refused += 1
                self.assertTrue(all(row["coef"] is None for row in out["coefficients"]))
        self.assertGreater(refused, 0)

    def test_a_weak_direction_takes_only_its_coefficients_interval_as_in_python(self):
        # x2 uses 2.3% of its range: at n = 5e4, epsilon 4 its direction of X'X is about 2 noise
        # sds strong, too weak with this seed for the release to bound its slope. Its slope alone
        # is printed without an interval (null, conclusive false, a warning naming it), the
        # intercept and x1 keep theirs, and Python prints the same (dpcov_ols_intervals on both
        # surfaces).
        import dpcov
        gen = np.random.default_rng(1)
        X = np.column_stack([gen.uniform(-0.5, 0.5, 50000), gen.uniform(-0.023, 0.023, 50000)])
        y = np.clip(0.1 + X @ [0.5, 0.3] + 0.2 * gen.standard_normal(50000), -1.0, 1.0)
        path = self.path("weak.csv")
        np.savetxt(path, np.column_stack([X, y]), delimiter=",", header="x1,x2,y", comments="",
                   fmt="%.17g")
        result = self.run_dpcov(["regress", path, "--label", "y", "--epsilon", "4", "--bound",
                                 "1", "--label-bound", "1", "--noise-seed", "1", "--bootstrap",
                                 "199", "-m", "analyze_gauss", "--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.assertIn("cannot support a conclusion about x2: they lie along a direction of X'X too "
                      "weak",
                      result.stderr.decode())
        aware = [row["noise_aware"] for row in json.loads(result.stdout)["coefficients"]]
        self.assertEqual([a["conclusive"] for a in aware], [True, True, False])
        self.assertEqual([aware[2][k] for k in ("std_err", "p", "ci_lower", "ci_upper")],
                         [None] * 4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = dpcov.PrivateLinearRegression(
                epsilon=4.0, delta=1e-6, bound=1.0, label_bound=1.0, n_bootstrap=199,
                random_state=1, mechanism="analyze_gauss").fit(X, y)
        self.assertEqual(fit.conclusive_.tolist(), [True, True, False])
        self.assertEqual([[a["ci_lower"], a["ci_upper"]] for a in aware[:2]],
                         fit.conf_int_[:2].tolist())

    def test_the_mechanisms_taken_are_the_registrys_robust_gram_set(self):
        import dpcov
        path = self.write_csv(600)
        for entry in dpcov.mechanisms():
            if entry.family != "gram":
                continue
            with self.subTest(mechanism=entry.name):
                taken = "robust_gram" in entry.inference
                result = self.cli(path, "-m", entry.name, epsilon="0.9",
                                  expect=EXIT_OK if taken else EXIT_USAGE)
                if not taken:
                    self.assertIn("noise law the intervals read (analyze_gauss, laplace_sym and "
                                  "wishart_additive)", result.stderr.decode())

    def test_homoscedastic_errors_keep_the_labelled_bootstrap_at_the_whole_budget(self):
        path = self.write_csv()
        out = self.cli(path, "-m", "analyze_gauss", "--errors", "homoscedastic")
        fit = python_fit(path, mechanism="analyze_gauss", errors="homoscedastic")
        self.assertEqual(out["noise_aware"]["errors"], "homoscedastic")
        self.assertIn("constant error variance", out["noise_aware"]["assumes"])
        self.assertNotIn("sandwich", out)
        self.assertEqual(out["receipt"]["epsilon"], 4.0)
        self.assert_same_fit(out, fit)

    def test_the_ledger_is_charged_the_release_and_the_meat(self):
        path, ledger = self.write_csv(4000), self.path("budget.json")
        self.cli(path, "-m", "analyze_gauss", "--ledger", ledger, "--ledger-epsilon", "5",
                 "--ledger-delta", "1e-5")
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([c["mechanism"] for c in book["charges"]],
                         ["analyze_gauss", "analyze_gauss"])
        self.assertAlmostEqual(book["spent"]["epsilon"], 4.0)

    def test_what_is_published_does_not_depend_on_the_data(self):
        # Neighbouring inputs (the last row replaced), one seed: the receipts and the split are
        # the same bytes; under add/remove neither n nor the rows are printed.
        a, b = self.write_csv(3000, name="a.csv"), self.write_csv(3000, name="b.csv",
                                                                  change_last=True)
        for neighbour in ("replace_one", "add_remove"):
            outs = [self.cli(p, "-m", "analyze_gauss", "--neighbour", neighbour) for p in (a, b)]
            self.assertEqual(outs[0]["receipt"], outs[1]["receipt"])
            self.assertEqual(outs[0]["sandwich"], outs[1]["sandwich"])
            if neighbour == "add_remove":
                self.assertNotIn("rows", outs[0])
                self.assertNotIn("n", outs[0]["receipt"])
                self.assertNotIn("n", outs[0]["sandwich"]["meat_receipt"])

    def test_bad_uses_are_refused_before_anything_is_spent(self):
        path, ledger = self.write_csv(500), self.path("budget.json")
        cases = [(["-m", "iev"], "noise law"),
                 (["-m", "wishart_jiang"], "noise law"),
                 (["-m", "analyze_gauss", "--bounds", "-1:1,-1:1,-1:1"], "needs --mechanism adassp"),
                 (["-m", "laplace_sym", "--bound-epsilon", "0.4"], "--bound-epsilon"),
                 (["-m", "wishart_additive", "--numerics", "exact"], "--numerics exact exists"),
                 (["--numerics", "exact"], "adassp has idealized numerics only"),
                 (["-m", "analyze_gauss", "--neighbour", "add_remove", "--no-intercept"],
                  "--no-intercept")]
        for extra, message in cases:
            with self.subTest(extra=extra):
                result = self.cli(path, *extra, "--ledger", ledger, "--ledger-epsilon", "5",
                                  "--ledger-delta", "1e-5", expect=EXIT_USAGE)
                self.assertIn(message, result.stderr.decode())
                self.assertFalse(os.path.exists(ledger))


if __name__ == "__main__":
    DpcovCase.dpcov, SOURCE_ROOT, LIBRARY = sys.argv[1], sys.argv[2], sys.argv[3]
    os.environ["DPCOV_LIBRARY"] = LIBRARY
    sys.path.insert(0, os.path.join(SOURCE_ROOT, "bindings", "python"))
    unittest.main(argv=sys.argv[:1], verbosity=2)

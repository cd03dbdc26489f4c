"""`dpcov regress FILE --epsilon E --bounds RANGES` gives what Python's
PrivateLinearRegression(bounds=(lower, upper)) gives on the same rows and noise seed: the same
decision between robust and homoscedastic intervals, the same budget split and y'y, so the same
coefficients in the data's units (to 1e-12 of the largest: the surfaces' maps back to the data's
units round differently in the last bits, a different split moves them by percents). The
intervals' own draws come from the CLI's --seed, not from the release's generator as in Python,
so they are not compared. The decision reads the forecast at the fit's share of the budget on
both surfaces: at an n between the n the whole budget's forecast needs and the n the robust
fit's share needs (diabetes's 353 training rows at epsilon 4 is one), a surface that reads the
whole budget's forecast fits at the share and releases no meat.

Run by meson as: /usr/bin/python3 regress_bounds_test.py DPCOV SOURCE_ROOT LIBRARY
"""
import json
import math
import os
import sys
import unittest
import warnings

import numpy as np

from cli_case import EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, DpcovCase


class BoundsRegression(DpcovCase):
    def cli(self, path, ranges, label, epsilon, seed):
        result = self.run_dpcov(["regress", path, "--label", label, "--epsilon", f"{epsilon:g}",
                                 "--bounds", ranges, "--noise-seed", str(seed), "--seed",
                                 str(seed), "--bootstrap", "199", "--json", "--quiet"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return json.loads(result.stdout.decode())

    def python(self, rows, lower, upper, epsilon, seed):
        import dpcov
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the fixed seed's and the conclusions' warnings
            return dpcov.PrivateLinearRegression(epsilon, bounds=(lower, upper),
                                                 random_state=seed, n_bootstrap=199).fit(
                rows[:, :-1], rows[:, -1])

    def assert_same_fit(self, out, fit):
        np.testing.assert_allclose([row["coef"] for row in out["coefficients"]], fit.params_,
                                   rtol=0, atol=1e-12 * np.max(np.abs(fit.params_)))
        self.assertEqual(out["noise_aware"]["errors"], fit.errors_)
        self.assertEqual("sandwich" in out, hasattr(fit, "meat_"))
        self.assertEqual("sigma_label_square" in out["receipt"],
                         bool(fit.receipt_.label_square_released))
        self.assertEqual(out["receipt"]["epsilon"], fit.receipt_.epsilon)

    def write(self, rows, names):
        path = self.path("rows.csv")
        np.savetxt(path, rows, delimiter=",", header=",".join(names), comments="", fmt="%.17g")
        return path

    def test_diabetes_training_rows_give_pythons_fit_at_epsilon_1_and_4(self):
        # bench/diabetes_intervals.py's first split: 353 rows of data/diabetes.csv.
        data = os.path.join(SOURCE_ROOT, "data")
        with open(os.path.join(data, "diabetes.csv")) as f:
            names = f.readline().strip().split(",")
        rows = np.loadtxt(os.path.join(data, "diabetes.csv"), delimiter=",", skiprows=1)
        rows = rows[np.random.default_rng(0).permutation(len(rows))[:353]]
        ranges = np.genfromtxt(os.path.join(data, "diabetes_bounds.csv"), delimiter=",",
                               names=True, dtype=None, encoding="utf-8")
        by_name = {str(r[0]): (float(r[1]), float(r[2])) for r in ranges}
        lower, upper = (np.array([by_name[n][k] for n in names]) for k in (0, 1))
        path = self.write(rows, names)
        for epsilon in (1.0, 4.0):
            with self.subTest(epsilon=epsilon):
                self.assert_same_fit(
                    self.cli(path, os.path.join(data, "diabetes_bounds.csv"), "progression",
                             epsilon, 1000),
                    self.python(rows, lower, upper, epsilon, 1000))

    def test_between_the_whole_budgets_n_and_the_shares_both_surfaces_fit_at_the_whole_budget(self):
        import dpcov
        from dpcov import column_bounds
        p, epsilon = 2, 2.0
        bound_x = column_bounds.norm_bound(p)

        def needed(eps, delta):
            plan = dpcov.adassp_plan(p + 1, bound_x, 1.0, eps, delta, release_label_square=True)
            return dpcov.regression_forecast(plan, n=1000).rows_for_intervals

        share = dpcov.adassp.sandwich_plan(bound_x, 1.0, epsilon, 1e-6)
        low, high = needed(epsilon, 1e-6), needed(share.fit_epsilon, share.fit_delta)
        self.assertLess(math.ceil(low), math.floor(high))
        n = int((low + high) / 2)
        gen = np.random.default_rng(11)
        x = gen.uniform(-1, 1, (n, p))
        rows = np.column_stack([x, np.clip(x @ [0.5, -0.3] + 0.2 * gen.standard_normal(n),
                                           -1, 1)])
        out = self.cli(self.write(rows, ["a", "b", "y"]), "-1:1", "y", epsilon, 5)
        fit = self.python(rows, -1.0, 1.0, epsilon, 5)
        self.assertEqual(fit.errors_, "homoscedastic")
        self.assertIn("robust intervals not attempted", fit.inference_)
        self.assertIn("robust intervals not attempted", out["noise_aware"]["robust_skipped"])
        self.assert_same_fit(out, fit)
        # What the intervals assume names --bounds, not a --bound the user did not pass.
        self.assertIn("mapped to [-1, 1] by --bounds", out["noise_aware"]["assumes"])
        self.assertNotIn("--bound;", out["noise_aware"]["assumes"])

    def test_clamped_values_are_reported_and_reject_is_refused_with_bounds(self):
        gen = np.random.default_rng(3)
        rows = np.column_stack([gen.uniform(0, 10, 300), gen.uniform(-1, 1, 300),
                                gen.uniform(-1, 1, 300)])
        path = self.write(rows, ["a", "b", "y"])
        result = self.run_dpcov(["regress", path, "--label", "y", "--epsilon", "1", "--bounds",
                                 "0:1,-1:1,-1:1", "--noise-seed", "5", "--quiet"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        clamped = int(np.sum(rows[:, 0] > 1))
        self.assertIn(f"{clamped} values were outside their --bounds range",
                      result.stderr.decode())
        result = self.run_dpcov(["regress", path, "--label", "y", "--epsilon", "1", "--bounds",
                                 "0:1,-1:1,-1:1", "--reject"])
        self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
        self.assertIn("--reject does not apply to --bounds", result.stderr.decode())

    def test_a_zcdp_ledger_holds_the_fit_whichever_way_n_decides_before_anything_is_drawn(self):
        # Robust errors hold a share back for the meat until n decides; at this small n they are
        # not attempted and the fit spends the whole budget, whose rho is above the split's.
        # A cap between the two is refused before any row is read or noise drawn.
        gen = np.random.default_rng(4)
        x = gen.uniform(-1, 1, (200, 2))
        rows = np.column_stack([x, np.clip(x @ [0.5, -0.3] + 0.2 * gen.standard_normal(200),
                                           -1, 1)])
        path, ledger = self.write(rows, ["a", "b", "y"]), self.path("ledger.json")
        args = ["regress", path, "--label", "y", "--epsilon", "1", "--bound", "1.5",
                "--label-bound", "1", "--ledger", ledger, "--ledger-delta", "1e-5",
                "--accounting", "zcdp", "--quiet"]
        result = self.run_dpcov(args + ["--ledger-epsilon", "1"])
        self.assertEqual(result.returncode, EXIT_PRIVACY, result.stderr.decode())
        self.assertIn("cap would be exceeded", result.stderr.decode())
        self.assertFalse(os.path.exists(ledger))
        result = self.run_dpcov(args + ["--ledger-epsilon", "2"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(ledger) as f:
            spent = json.load(f)["spent"]
        # The fit at the whole budget: above the rho a cap of epsilon 1 holds (0.0208), so that
        # cap had to refuse, though the split it would have checked alone fits under it.
        self.assertEqual(spent["releases"], 1)
        self.assertGreater(spent["rho"], 0.0209)


if __name__ == "__main__":
    DpcovCase.dpcov, SOURCE_ROOT, LIBRARY = sys.argv[1], sys.argv[2], sys.argv[3]
    os.environ["DPCOV_LIBRARY"] = LIBRARY
    sys.path.insert(0, os.path.join(SOURCE_ROOT, "bindings", "python"))
    unittest.main(argv=sys.argv[:1], verbosity=2)

"""`dpcov regress --epsilon` with robust (sandwich) intervals, the default --errors robust: the meat
released by a second pass with its own share and charged, the output labelled, the homoscedastic
path where the forecast expects no interval, standard input spooled for the second pass, and
--errors homoscedastic as before.

Run by meson as: /usr/bin/python3 regress_robust_test.py DPCOV_EXECUTABLE
"""
import json
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, DpcovCase


class RobustRegression(DpcovCase):
    def write_csv(self, n, seed=5):
        gen = np.random.default_rng(seed)
        X = gen.uniform(-0.5, 0.5, size=(n, 2))
        y = np.clip(0.1 + X @ [0.5, -0.3] + 0.6 * np.abs(X[:, 0]) * gen.standard_normal(n), -1, 1)
        path = self.path(f"data{n}.csv")
        np.savetxt(path, np.column_stack([X, y]), delimiter=",", header="x1,x2,y", comments="")
        return path

    def run_json(self, args, stdin=None):
        result = self.run_dpcov(args + ["--json"], stdin=stdin)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return json.loads(result.stdout.decode())

    def base(self, path, epsilon="4"):
        return ["regress", path, "--label", "y", "--epsilon", epsilon, "--bound", "1",
                "--label-bound", "1", "--noise-seed", "3", "--seed", "4", "--quiet",
                "--bootstrap", "199"]

    def test_robust_is_the_default_and_its_meat_has_its_own_share(self):
        out = self.run_json(self.base(self.write_csv(20000)))
        aware = out["noise_aware"]
        self.assertEqual(aware["errors"], "robust")
        self.assertIn("sandwich", aware["method"])
        self.assertIn("heteroscedastic", aware["assumes"])
        self.assertIn("sigma_label_square", out["receipt"])  # y'y, for the posterior only
        sandwich = out["sandwich"]
        self.assertEqual(sandwich["meat_share"], 0.2)
        self.assertAlmostEqual(out["receipt"]["epsilon"], 3.2)
        self.assertEqual(out["receipt"]["epsilon"], sandwich["fit_epsilon"])
        meat = sandwich["meat_receipt"]
        self.assertEqual(meat["mechanism"], "analyze_gauss")
        self.assertLessEqual(meat["epsilon"] + out["receipt"]["epsilon"], 4.0)
        self.assertLessEqual(meat["delta"] + out["receipt"]["delta"], 1e-6)
        # The balanced rows' [1, x'] of norm sqrt(1 + d), d = 2, whatever --bound.
        self.assertAlmostEqual(sandwich["meat_row_bound"], 2 * np.sqrt(3.0))
        slope = out["coefficients"][1]["noise_aware"]
        self.assertLess(slope["ci_lower"], 0.5)
        self.assertGreater(slope["ci_upper"], 0.5)
        text = self.run_dpcov(self.base(self.write_csv(20000))).stdout.decode()
        self.assertIn("robust (sandwich)", text)
        self.assertIn("meat (errors robust): Analyze Gauss", text)

    def test_the_ledger_is_charged_the_fit_and_the_meat_and_refuses_before_drawing(self):
        path = self.write_csv(4000)
        ledger = self.path("budget.json")
        args = self.base(path, "1") + ["--ledger", ledger, "--intervals-anyway"]
        self.run_json(args + ["--ledger-epsilon", "1.5", "--ledger-delta", "1e-5"])
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([c["mechanism"].split(":")[-1] for c in book["charges"]],
                         ["adassp", "analyze_gauss"])
        self.assertAlmostEqual(book["spent"]["epsilon"], 1.0)
        with open(ledger, "rb") as f:
            before = f.read()
        refused = self.run_dpcov(args)
        self.assertEqual(refused.returncode, EXIT_PRIVACY, refused.stderr.decode())
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_where_no_interval_is_forecast_the_homoscedastic_path_runs_and_says_why(self):
        out = self.run_json(self.base(self.write_csv(50), "1"))
        self.assertNotIn("sandwich", out)
        self.assertEqual(out["noise_aware"]["errors"], "homoscedastic")
        self.assertIn("not attempted", out["noise_aware"]["refused"])

    def test_where_the_release_does_not_support_the_bootstrap_the_posterior_answers_unspent(self):
        # n = 500 at epsilon = 1: the forecast for rows on their bounds expects robust intervals,
        # the released X'X~ of these rows (a twelfth of the bound per column) does not support
        # the bootstrap. The posterior answers, labelled, and the meat is neither released nor
        # charged. An interval prints only where the release decides it (conclusive), nan with
        # the reason where it does not; a printed one has its standard error, and a standard
        # error is null only where the interval is (a prior decides it, or the chains did not
        # converge).
        path = self.write_csv(500)
        ledger = self.path("unspent.json")
        out = self.run_json(self.base(path, "1") + ["--ledger", ledger, "--ledger-epsilon", "1",
                                                    "--ledger-delta", "1e-6"])
        aware = out["noise_aware"]
        self.assertNotIn("sandwich", out)
        self.assertEqual(aware["errors"], "homoscedastic")
        self.assertIn("posterior", aware["method"])
        self.assertTrue(aware["robust_skipped"].startswith("robust intervals not given"))
        self.assertTrue(aware["assumes"].startswith("no clipping below --bound"))
        for row in out["coefficients"]:
            printed = row["noise_aware"]["ci_lower"] is not None
            self.assertEqual(printed, row["noise_aware"]["conclusive"], row)
            if row["noise_aware"]["std_err"] is None:
                self.assertFalse(printed, row)
            else:
                self.assertTrue(np.isfinite(row["noise_aware"]["std_err"]), row)
            if printed:
                self.assertIsNotNone(row["noise_aware"]["std_err"], row)
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([c["mechanism"].split(":")[-1] for c in book["charges"]], ["adassp"])
        self.assertAlmostEqual(book["spent"]["epsilon"], 0.8)
        refuse = self.run_json(self.base(path, "1") + ["--small-n", "refuse"])
        self.assertNotIn("sigma_label_square", refuse["receipt"])  # no posterior: no y'y

    def test_standard_input_is_spooled_for_the_meat_and_gives_the_files_intervals(self):
        path = self.write_csv(20000)
        with open(path, "rb") as f:
            out = self.run_json(self.base("-"), stdin=f.read())
        from_file = self.run_json(self.base(path))
        self.assertEqual(out["noise_aware"]["errors"], "robust")
        self.assertEqual(out["noise_aware"], from_file["noise_aware"])

    def test_homoscedastic_on_request_and_a_bad_value_refused(self):
        path = self.write_csv(20000)
        out = self.run_json(self.base(path) + ["--errors", "homoscedastic"])
        self.assertEqual(out["noise_aware"]["errors"], "homoscedastic")
        self.assertIn("sigma_label_square", out["receipt"])
        self.assertEqual(out["receipt"]["epsilon"], 4.0)
        self.assertEqual(self.run_dpcov(self.base(path) + ["--errors", "sandwich"]).returncode,
                         EXIT_USAGE)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

"""End-to-end tests of `dpcov regress` on raw data rows (--epsilon): AdaSSP by default, the bounds
in the user's terms, a refused row at its file line, the options' allowed values, and the
regression on a released matrix unchanged when --epsilon is absent.

Run by meson as: /usr/bin/python3 regress_raw_test.py DPCOV_EXECUTABLE
"""
import json
import os
import sys
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, DpcovCase


class RawRegression(DpcovCase):
    def write_csv(self, rows, header="x1,x2,y"):
        path = self.path("data.csv")
        np.savetxt(path, rows, delimiter=",", header=header, comments="")
        return path

    def data(self, n=20000):
        gen = np.random.default_rng(5)
        X = gen.uniform(-0.5, 0.5, size=(n, 2))
        y = np.clip(0.2 + X @ [0.6, -0.4] + gen.normal(scale=0.05, size=n), -1, 1)
        return np.column_stack([X, y])

    def run_json(self, args):
        result = self.run_dpcov(args + ["--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return json.loads(result.stdout.decode())

    def test_adassp_is_the_default_and_recovers_the_coefficients(self):
        path = self.write_csv(self.data())
        out = self.run_json(["regress", path, "--label", "y", "--epsilon", "4", "--bound", "1",
                             "--label-bound", "1", "--noise-seed", "3", "--quiet", "--errors",
                             "homoscedastic"])
        self.assertEqual(out["receipt"]["mechanism"], "adassp")
        # A fixed seed is recorded with the output, as release's receipt records it.
        self.assertFalse(out["differentially_private"])
        self.assertEqual(out["noise_seed"], 3)
        self.assertEqual([c["term"] for c in out["coefficients"]], ["(intercept)", "x1", "x2"])
        coef = [c["coef"] for c in out["coefficients"]]
        np.testing.assert_allclose(coef, [0.2, 0.6, -0.4], atol=0.05)
        # With the intervals the whole budget goes to AdaSSP at --bound: no rows are clipped below
        # it, so the intervals hold no clipping bias (docs/regression_intervals.md).
        self.assertNotIn("bound_selection", out)
        self.assertAlmostEqual(out["receipt"]["bound"], np.sqrt(3.0))  # balanced rows
        self.assertEqual(out["receipt"]["epsilon"], 4.0)
        self.assertEqual(out["epsilon_total"], 4.0)
        self.assertIn("no clipping below --bound", out["noise_aware"]["assumes"])
        self.assertIn("constant error variance", out["noise_aware"]["assumes"])
        # Without them a tenth of epsilon chooses a bound at most --bound (norms <= 0.71).
        point = self.run_json(["regress", path, "--label", "y", "--epsilon", "4", "--bound", "1",
                               "--label-bound", "1", "--noise-seed", "3", "--quiet",
                               "--no-intervals"])
        chosen = point["bound_selection"]["bound"]
        self.assertLessEqual(chosen, 1.0)
        self.assertAlmostEqual(point["receipt"]["bound"], np.sqrt(3.0))
        self.assertAlmostEqual(point["receipt"]["epsilon"], 3.6)
        # A share asked for with the intervals is honoured, and the intervals say what they omit.
        tight = self.run_json(["regress", path, "--label", "y", "--epsilon", "4", "--bound", "1",
                               "--label-bound", "1", "--noise-seed", "3", "--quiet",
                               "--bound-epsilon", "0.4"])
        self.assertIn("bias is not in the intervals", tight["noise_aware"]["assumes"])
        self.assertLessEqual(out["receipt"]["delta_exact"], 1e-6)
        self.assertEqual(out["rows"], 20000)
        text = self.run_dpcov(["regress", path, "--label", "y", "--epsilon", "4", "--bound", "1",
                               "--label-bound", "1", "--noise-seed", "3", "--seed", "4",
                               "--quiet"]).stdout.decode()
        self.assertIn("private point estimate", text)
        self.assertIn("ridge", text)

    def test_noise_aware_intervals_by_default_cover_beta_and_never_reject(self):
        path = self.write_csv(self.data())
        args = ["regress", path, "--label", "y", "--epsilon", "4", "--bound", "1",
                "--label-bound", "1", "--noise-seed", "3", "--seed", "4", "--quiet", "--errors",
                "homoscedastic"]
        out = self.run_json(args)
        self.assertIn("sigma_label_square", out["receipt"])
        self.assertNotIn("released_label_square", out["receipt"])
        for c, beta in zip(out["coefficients"], [0.2, 0.6, -0.4]):
            aware = c["noise_aware"]
            self.assertLessEqual(aware["ci_lower"], beta)
            self.assertGreaterEqual(aware["ci_upper"], beta)
            self.assertEqual(aware["sign"], "+" if beta > 0 else "-")
        text = self.run_dpcov(args).stdout.decode()
        self.assertIn("account for the sampling and the privacy noise", text)
        self.assertNotIn("reject", text)
        plain = self.run_json(args + ["--no-intervals"])
        self.assertNotIn("noise_aware", plain)
        self.assertNotIn("sigma_label_square", plain["receipt"])
        result = self.run_dpcov(args + ["--calibration", "paper"])
        self.assertEqual(result.returncode, EXIT_USAGE)
        self.assertIn("--no-intervals", result.stderr.decode())

    def test_a_bound_below_the_given_one_is_chosen_privately_unless_disabled(self):
        path = self.write_csv(self.data(5000))
        base = ["regress", path, "--label", "y", "--epsilon", "20", "--bound", "4",
                "--label-bound", "1", "--noise-seed", "2", "--no-intervals", "--quiet"]
        out = self.run_json(base)
        grid = 4.0 / 1.25 ** np.arange(13)
        chosen = out["bound_selection"]["bound"]
        # At a tenth of 20 the candidates above every row (norm <= 0.71) are each about exp(-250)
        # less likely than the one nearest the 0.95 quantile.
        self.assertTrue(np.isclose(grid, chosen).any(), chosen)
        self.assertTrue(0.5 < chosen < 0.9, chosen)
        # Rows above the chosen bound are clipped: said on standard error, for the curator only,
        # and never in the (public) output.
        self.assertNotIn("clipped", out)
        noisy = self.run_dpcov(base + ["--json"])
        self.assertRegex(noisy.stderr.decode(), r"\d+ of 5000 rows were over .* clipped .*curator "
                                                r"only: not for publication")
        self.assertEqual(out["bound_selection"]["epsilon"], 2.0)
        self.assertIn("chosen privately below --bound 4", self.run_dpcov(base).stdout.decode())
        given = self.run_json(base + ["--bound-epsilon", "0"])
        self.assertNotIn("bound_selection", given)
        self.assertAlmostEqual(given["receipt"]["bound"], np.sqrt(3.0))  # balanced, at any bound
        self.assertEqual(given["receipt"]["epsilon"], 20.0)
        # Standard input is spooled for the bound step: the same bound as from the file.
        with open(path, "rb") as f:
            piped = self.run_dpcov(["regress", "-"] + base[2:] + ["--json"], stdin=f.read())
        self.assertEqual(piped.returncode, EXIT_OK, piped.stderr.decode())
        self.assertEqual(json.loads(piped.stdout.decode())["bound_selection"],
                         out["bound_selection"])
        for extra, pattern in ((["--neighbour", "add_remove", "--bound-epsilon", "2"],
                                "--bound-epsilon 0"),
                               (["--bound-epsilon", "20"], "below --epsilon"),
                               (["--bound-quantile", "1.5"], "--bound-quantile")):
            result = self.run_dpcov(base + extra)
            self.assertEqual(result.returncode, EXIT_USAGE, extra)
            self.assertRegex(result.stderr.decode(), pattern)
        self.assertEqual(self.run_dpcov(base + ["--neighbour", "add_remove", "--bound-epsilon",
                                                "0"]).returncode, EXIT_OK)
        # The default under add_remove takes no bound step (it aims at a quantile of the public
        # n): the whole budget at --bound.
        default = self.run_json(base + ["--neighbour", "add_remove"])
        self.assertNotIn("bound_selection", default)
        self.assertEqual(default["receipt"]["epsilon"], 20.0)
        # Under add_remove the intervals take the intercept's released count (n is private);
        # without the intercept there is none, so they are refused before any row is read.
        add_remove = base[:base.index("--no-intervals")] + ["--neighbour", "add_remove",
                                                            "--bound-epsilon", "0"]
        self.assertIn("method", self.run_json(add_remove)["noise_aware"])
        refused = self.run_dpcov(add_remove + ["--no-intercept"])
        self.assertEqual(refused.returncode, EXIT_USAGE)
        self.assertIn("--no-intervals", refused.stderr.decode())
        self.assertEqual(self.run_dpcov(add_remove + ["--no-intercept", "--no-intervals"])
                         .returncode, EXIT_OK)

    def test_the_ledger_charges_every_accounting_and_a_refusal_leaves_it_unchanged(self):
        # AdaSSP is one Gaussian mechanism: a zCDP ledger charges its rho (and the bound step's
        # (eps/10)^2 / 2), basic and advanced ones (epsilon, delta); the fit over the cap is
        # refused before any row is read, with the ledger file byte-identical.
        path = self.write_csv(self.data(4000))
        ledger = self.path("budget.json")
        args = ["regress", path, "--label", "y", "--epsilon", "1", "--bound", "1",
                "--label-bound", "1", "--quiet", "--ledger", ledger, "--bound-epsilon", "0.1",
                "--errors", "homoscedastic"]
        fits = {"basic": 2, "advanced": 2, "zcdp": 4}
        for accounting, fit in fits.items():
            with self.subTest(accounting=accounting):
                if os.path.exists(ledger):
                    os.remove(ledger)
                first = self.run_json(args + ["--ledger-epsilon", "2.5", "--ledger-delta", "1e-5",
                                              "--accounting", accounting])
                for _ in range(fit - 1):
                    self.run_json(args)
                with open(ledger, "rb") as f:
                    before = f.read()
                refused = self.run_dpcov(args)
                self.assertEqual(refused.returncode, EXIT_PRIVACY, refused.stderr.decode())
                self.assertIn(b"cap would be exceeded", refused.stderr)
                self.assertEqual(refused.stdout, b"")
                with open(ledger, "rb") as f:
                    self.assertEqual(f.read(), before)
                book = json.loads(before)
                receipt = first["receipt"]
                adassp = [c for c in book["charges"] if c["mechanism"].endswith("adassp")]
                self.assertEqual(len(adassp), fit)
                if accounting == "zcdp":
                    self.assertAlmostEqual(book["spent"]["rho"],
                                           fit * (receipt["rho"] + 0.1 ** 2 / 2), places=12)
                    self.assertLessEqual(book["spent"]["epsilon"], 2.5)
                else:
                    self.assertAlmostEqual(book["spent"]["epsilon"], fit * 1.0)
                    self.assertAlmostEqual(book["spent"]["delta"], fit * 1e-6)
        # A ledger on the regression of a released matrix (no privacy spent) is a usage error.
        self.assertEqual(self.run_dpcov(["regress", path, "--label", "y", "--ledger",
                                         ledger]).returncode, EXIT_USAGE)

    def fit_in_units(self, rows, s, t, extra):
        """The fit of `rows` with x in units s and y in units t, the bounds in the same units."""
        scaled = rows * [s, s, t]
        path = self.path(f"units{s}_{t}.csv")
        np.savetxt(path, scaled, delimiter=",", header="x1,x2,y", comments="", fmt="%.17g")
        out = self.run_json(["regress", path, "--label", "y", "--epsilon", "1", "--bound",
                             repr(0.8 * s), "--label-bound", repr(1.0 * t), "--noise-seed", "3",
                             "--seed", "4", "--bootstrap", "99", "--quiet"] + extra)
        return np.array([[c["coef"], c["noise_aware"]["std_err"], c["noise_aware"]["ci_lower"],
                          c["noise_aware"]["ci_upper"]] for c in out["coefficients"]],
                        dtype=float)

    def test_the_fit_in_other_units_is_the_fit_mapped_to_them(self):
        # Balanced rows [1, x sqrt(d) / B, y / B_y] (proofs/balanced_rows.md): the same rows in
        # other units, with the bounds in those units and the same seeds, print the fit mapped to
        # those units (intercept times t, slopes times t / s), on AdaSSP and a Gram mechanism,
        # with or without the intercept. Before, a bound far from sqrt(d) left the slopes or the
        # intercept in the noise.
        rows = self.data(3000)
        for extra in ([], ["--errors", "homoscedastic", "--bound-epsilon", "0"],
                      ["--no-intercept"], ["-m", "analyze_gauss", "--delta", "1e-6"]):
            base = self.fit_in_units(rows, 1.0, 1.0, extra)
            self.assertTrue(np.isfinite(base).all(), extra)
            for s, t in ((1e-3, 1.0), (1e3, 1.0), (250.0, 40.0)):
                with self.subTest(extra=extra, s=s, t=t):
                    unit = np.r_[[t] * (0 if "--no-intercept" in extra else 1), [t / s] * 2]
                    np.testing.assert_allclose(self.fit_in_units(rows, s, t, extra),
                                               base * unit[:, None], rtol=1e-6)

    def test_the_output_says_how_the_fit_reached_the_data_units(self):
        # The receipt's bounds are the balanced rows'; the user's bounds and the public factors
        # that mapped the fit back are in `units`, on AdaSSP and on a Gram mechanism.
        path = self.write_csv(self.data(500))
        for extra in ([], ["-m", "analyze_gauss", "--delta", "1e-6"]):
            out = self.run_json(["regress", path, "--label", "y", "--epsilon", "1", "--bound",
                                 "0.8", "--label-bound", "2", "--noise-seed", "3", "--quiet",
                                 "--bound-epsilon", "0"] + extra)
            units = out["units"]
            self.assertEqual((units["bound"], units["label_bound"]), (0.8, 2.0))
            np.testing.assert_allclose(units["unit_factors"],
                                       [2.0, 2 * np.sqrt(2) / 0.8, 2 * np.sqrt(2) / 0.8])

    def test_plan_regress_is_the_same_at_every_bound(self):
        # The balanced rows' bounds do not depend on --bound or --label-bound: neither does the
        # plan, and no bound warns of the units.
        plans = []
        for bound, label in (("0.01", "1"), ("1.5", "3"), ("1e4", "0.2")):
            result = self.run_dpcov(["plan", "--regress", "-m", "adassp", "-e", "1", "-d",
                                     "1e-6", "--dims", "2", "--rows", "2000", "--bound", bound,
                                     "--label-bound", label, "--json"])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            self.assertEqual(result.stderr.decode(), "")
            plan = json.loads(result.stdout)
            plans.append((plan["bound"], plan["bound_y"], plan["regress"]))
        self.assertEqual(plans[0], plans[1])
        self.assertEqual(plans[0], plans[2])

    def test_reject_names_the_file_line_and_the_bound(self):
        rows = self.data(50)
        rows[6, 0] = 3.0
        path = self.write_csv(rows)
        result = self.run_dpcov(["regress", path, "--label", "y", "--epsilon", "1", "--bound", "1",
                                 "--label-bound", "1", "--reject", "--quiet"])
        self.assertEqual(result.returncode, EXIT_INPUT)
        self.assertRegex(result.stderr.decode(), r"data.csv:8: row 7 .* > --bound 1")

    def test_missing_bounds_and_unknown_choices_are_usage_errors(self):
        path = self.write_csv(self.data(50))
        base = ["regress", path, "--label", "y", "--epsilon", "1", "--quiet"]
        for extra, pattern in (([], "--bound"),
                               (["--bound", "1", "--label-bound", "1", "-m", "iev"],
                                "must be adassp or a Gram mechanism"),
                               (["--bound", "1", "--label-bound", "1", "--calibration", "x"],
                                "joint_analytic, paper"),
                               (["--bound", "1", "--label-bound", "1", "--intercept", "x1"],
                                "constant 1"),
                               # A bound of 0 is given, and out of range: not "missing".
                               (["--bound", "0", "--label-bound", "1"],
                                "--bound must be a finite number > 0, got 0"),
                               (["--bound", "1", "--label-bound", "0"],
                                "--label-bound must be a finite number > 0, got 0"),
                               (["--bounds", "x1=-1:1,x2=-1:1,y=-1:1", "--label-bound", "0"],
                                "drop --bound and --label-bound"),
                               (["--bounds", "x1=-1e-320:1e-320,x2=-1:1,y=-1:1"],
                                "half their width, [0-9.]+e-321, is below the smallest normal")):
            result = self.run_dpcov(base + extra)
            self.assertEqual(result.returncode, EXIT_USAGE, extra)
            self.assertRegex(result.stderr.decode(), pattern)
        # The options of a released matrix are refused on raw rows, never ignored.
        for mechanism in ("adassp", "analyze_gauss"):
            for extra in (["--ridge", "100"], ["--plug-in"], ["--rows", "7"],
                          ["--receipt", path + ".json"]):
                result = self.run_dpcov(base + ["--bound", "1", "--label-bound", "1", "-m",
                                                mechanism] + extra)
                self.assertEqual(result.returncode, EXIT_USAGE, extra)
                self.assertIn(f"drop {extra[0]}", result.stderr.decode())
            # A number of draws the intervals would refuse is refused before the release: no
            # ledger is written.
            ledger = self.path(f"{mechanism}-ledger.json")
            result = self.run_dpcov(base + ["--bound", "1", "--label-bound", "1", "-m", mechanism,
                                            "--bootstrap", "38", "--ledger", ledger,
                                            "--ledger-epsilon", "10", "--ledger-delta", "1e-3"])
            self.assertEqual(result.returncode, EXIT_USAGE)
            self.assertIn(">= 39", result.stderr.decode())
            self.assertFalse(os.path.exists(ledger))

    def test_plan_regress_checks_what_regress_checks_and_plans_its_neighbours(self):
        base = ["plan", "--regress", "-e", "1", "-d", "1e-6", "--dims", "2", "--rows", "300",
                "--bound", "1.5"]
        for mechanism in ("adassp", "analyze_gauss"):
            for label in ("0", "-5", "nan", "inf", "1e300"):
                result = self.run_dpcov(base + ["-m", mechanism, "--label-bound", label])
                self.assertEqual(result.returncode, EXIT_USAGE, (mechanism, label))
                self.assertIn("--label-bound", result.stderr.decode())
        # The plan of regress --neighbour add_remove is made under add/remove, as regress's fit.
        path = self.write_csv(self.data(300))
        for neighbour in ("add_remove", "replace_one"):
            plan = self.run_json(base + ["-m", "adassp", "--label-bound", "1", "--neighbour",
                                         neighbour])
            fit = self.run_json(["regress", path, "--label", "y", "--epsilon", "1", "--bound",
                                 "1.5", "--label-bound", "1", "--neighbour", neighbour,
                                 "--noise-seed", "1", "--quiet"])
            self.assertEqual(plan["neighbour"], fit["receipt"]["neighbour"])
            self.assertEqual(plan["sensitivity_gram"], fit["receipt"]["sensitivity_gram"])

    def test_a_fixed_seed_is_labelled_not_private_and_numerics_idealized(self):
        # --noise-seed makes the noise reproducible: private only while the seed is secret. The
        # header line said "(differentially private: ...)" and the JSON had no such field.
        path = self.write_csv(self.data(2000))
        args = ["regress", path, "--label", "y", "--epsilon", "1", "--bound", "1",
                "--label-bound", "1", "--no-intervals", "--quiet"]
        for seed, private in ((["--noise-seed", "3"], False), ([], True)):
            out = self.run_json(args + seed)
            self.assertIs(out["differentially_private"], private)
            self.assertIs(out["receipt"]["differentially_private"], private)
            self.assertEqual(out["receipt"]["numerics"], "idealized")
            text = self.run_dpcov(args + seed)
            self.assertEqual(text.returncode, EXIT_OK, text.stderr.decode())
            header = text.stdout.decode().splitlines()[0]
            self.assertIn("idealized numerics", header)
            self.assertIn("(epsilon = 1, delta = 1e-06, replace_one; ", header)
            if private:
                self.assertIn("replace_one; differentially private; idealized", header)
            else:
                self.assertIn("replace_one; reproducible: not private if the seed is known; "
                              "idealized", header)
                self.assertNotIn("differentially private", header)

    def test_the_noise_seed_alone_reproduces_the_whole_output(self):
        # The intervals' draws come from the release's generator after its noise unless --seed
        # gives them their own, on every path: one --noise-seed, one output.
        path = self.write_csv(self.data(2000))
        args = ["regress", path, "--label", "y", "--epsilon", "1", "--bound", "1",
                "--label-bound", "1", "--noise-seed", "3", "--quiet", "--bootstrap", "99"]
        for extra in ([], ["--errors", "homoscedastic"], ["-m", "analyze_gauss"],
                      ["--neighbour", "add_remove"]):
            first, second = self.run_json(args + extra), self.run_json(args + extra)
            self.assertEqual(first, second, extra)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

"""Know before you spend, and spend only on what is used (issue 33): `dpcov plan` forecasts a
regression from public values (the crossover n and the expected interval width, with the
assumptions printed); `regress` on raw rows releases y'y for the intervals only where the plan
at this n forecasts them; `regress --bounds` fits on columns mapped to [-1, 1] by public ranges
and reports in the data's units; a refusal of a step's share names the user's epsilon. The
forecast's agreement with simulation is the statistical test `regression_forecast`.

Run by meson as: /usr/bin/python3 forecast_test.py DPCOV
"""
import json
import os
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, DpcovCase


class Forecast(DpcovCase):
    def ok(self, args):
        result = self.run_dpcov(args)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return result

    def test_plan_prints_the_crossover_and_the_width_with_their_assumptions(self):
        args = ["plan", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "2",
                "--dims", "4", "--rows", "5000", "--fill", "0.5"]
        plan = json.loads(self.ok(args + ["--json"]).stdout)
        f = plan["regression_forecast"]
        m = 0.5 * 4 / 4  # fill B^2 / d
        self.assertAlmostEqual(f["crossover_rows"] / (plan["sigma"] ** 2 / m ** 2), 1, places=9)
        se = np.sqrt(1 / 5000 + f["crossover_rows"] / 5000 ** 2)
        self.assertAlmostEqual(f["interval_width"], 2 * 1.959963984540054 * se, places=9)
        self.assertIn("reference design", f["assumptions"])
        self.assertNotIn("text", f)
        text = self.ok(args).stdout.decode()
        self.assertIn("crossover n: ", text)
        self.assertIn("expected 95% interval width", text)
        self.assertIn("reference design", text)

    def test_plan_of_adassp_and_a_mechanism_without_a_forecast(self):
        plan = json.loads(self.ok(["plan", "-m", "adassp", "-e", "1", "-d", "1e-6", "--bound", "1",
                                   "--label-bound", "1", "--dims", "3", "--rows", "1000",
                                   "--json"]).stdout)
        self.assertIn("sigma_label_square", plan)  # planned with y'y, what the intervals see
        self.assertGreater(plan["regression_forecast"]["crossover_rows"], 0)
        posterior = plan["regression_forecast"]["posterior"]
        self.assertEqual(posterior["intervals_expected"],
                         1000 >= posterior["rows_for_intervals"])
        self.assertGreaterEqual(posterior["rows_for_intervals"],
                                plan["regression_forecast"]["rows_for_intervals"])
        self.assertAlmostEqual(posterior["min_sampling_share"], 0.579, places=3)
        self.assertIn("noise-aware posterior (where the bootstrap refuses): sampling share",
                      self.ok(["plan", "-m", "adassp", "-e", "1", "-d", "1e-6", "--bound", "1",
                               "--label-bound", "1", "--dims", "3", "--rows",
                               "1000"]).stdout.decode())
        release = json.loads(self.ok(["plan", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                                      "--bound", "1", "--dims", "3", "--rows", "1000",
                                      "--json"]).stdout)
        self.assertIsNone(release["regression_forecast"]["posterior"])
        text = self.ok(["plan", "-m", "iev", "-e", "1", "-d", "1e-6", "--bound", "1", "--dims",
                        "3", "--rows", "1000"]).stdout.decode()
        self.assertIn("regression forecast: none: ", text)
        result = self.run_dpcov(["plan", "-m", "adassp", "-e", "1", "-d", "1e-6", "--bound", "1",
                                 "--dims", "3", "--rows", "10"])
        self.assertEqual(result.returncode, EXIT_USAGE)

    def test_plan_regress_plans_the_fit_regress_runs_and_forecasts_a_slope(self):
        # --regress counts the intercept on top of --bound and --dims as regress does: the plan
        # of 4 balanced regressors [1, x sqrt(3) / B] of norm sqrt(1 + 3) = 2 whatever B, and a
        # slope's forecast. With --errors homoscedastic the fit spends the whole budget; the
        # features' moment is 3/3 = 1, as bound^2 / 4 = 1 read plainly: the same crossover.
        base = ["plan", "-m", "adassp", "-e", "1", "-d", "1e-6", "--label-bound", "1",
                "--rows", "1000", "--json"]
        regress = json.loads(self.ok(base + ["--bound", "1", "--dims", "3", "--regress",
                                             "--errors", "homoscedastic"]).stdout)
        plain = json.loads(self.ok(base + ["--bound", "2", "--dims", "4"]).stdout)
        self.assertEqual(regress["num_regressors"], 4)
        self.assertAlmostEqual(regress["bound"], 2.0, places=12)
        self.assertEqual(regress["regress"]["errors"], "homoscedastic")
        self.assertTrue(regress["regression_forecast"]["intercept"])
        self.assertFalse(plain["regression_forecast"]["intercept"])
        self.assertAlmostEqual(regress["regression_forecast"]["crossover_rows"]
                               / plain["regression_forecast"]["crossover_rows"], 1.0, places=6)
        for wrong in (["-m", "analyze_gauss", "--regress"],
                      ["-m", "adassp", "--label-bound", "1", "--regress", "--rows", "0"]):
            self.assertEqual(self.run_dpcov(["plan", "-e", "1", "-d", "1e-6", "--bound", "1",
                                             "--dims", "3", "--rows", "10"] + wrong).returncode,
                             EXIT_USAGE, wrong)
        # regress prints the forecast of the fit that ran, and plan --regress with its flags
        # plans that fit: robust errors at a share of the budget, so the crossover is above that
        # of the fit at the whole budget.
        fit = json.loads(self.ok(["regress", self.write_rows(5000, 5), "--label", "y",
                                  "--epsilon", "1", "--bound", "1.5", "--label-bound", "1",
                                  "--noise-seed", "5", "--json", "--quiet"]).stdout)
        planned = json.loads(self.ok(base[:-3] + ["--rows", "5000", "--bound", "1.5", "--dims",
                                                  "2", "--regress", "--json"]).stdout)
        whole = json.loads(self.ok(base[:-3] + ["--rows", "5000", "--bound", "1.5", "--dims",
                                                "2", "--regress", "--errors", "homoscedastic",
                                                "--json"]).stdout)
        forecast = fit["regression_forecast"]
        self.assertTrue(forecast["intercept"])
        self.assertEqual(planned["regress"]["errors"], "robust")
        self.assertIn("sandwich", fit)
        self.assertEqual(planned["sigma_cross"], fit["receipt"]["sigma_cross"])
        self.assertEqual(planned["regression_forecast"]["crossover_rows"],
                         forecast["crossover_rows"])
        self.assertAlmostEqual(forecast["crossover_rows"],
                               fit["receipt"]["sigma_cross"] ** 2 / (2 / 2),  # d / d
                               delta=1e-6 * forecast["crossover_rows"])
        self.assertGreater(forecast["crossover_rows"],
                           1.2 * whole["regression_forecast"]["crossover_rows"])
        # At n = 50 regress releases no y'y and prints the forecast that decided so: plan
        # --regress says the same.
        small = json.loads(self.ok(["regress", self.write_rows(50, 6), "--label", "y",
                                    "--epsilon", "1", "--bound", "1.5", "--label-bound", "1",
                                    "--noise-seed", "6", "--json", "--quiet"]).stdout)
        planned = json.loads(self.ok(base[:-3] + ["--rows", "50", "--bound", "1.5", "--dims",
                                                  "2", "--regress", "--json"]).stdout)
        self.assertFalse(planned["regress"]["label_square_released"])
        self.assertNotIn("sigma_label_square", small["receipt"])
        self.assertEqual(planned["sigma_cross"], small["receipt"]["sigma_cross"])
        self.assertEqual(planned["regression_forecast"], small["regression_forecast"])
        text = self.ok(base[:-3] + ["--rows", "50", "--bound", "1.5", "--dims", "2",
                                    "--regress"]).stdout.decode()
        self.assertIn("dpcov regress's fit (public values only): errors homoscedastic", text)
        self.assertIn("y'y for the intervals no\n  budget: X'X, X'y and y'y without", text)

    def write_rows(self, n, seed):
        gen = np.random.default_rng(seed)
        x = gen.uniform(-1, 1, (n, 2))
        y = np.clip(0.5 * x[:, 0] - 0.3 * x[:, 1] + 0.1 * gen.standard_normal(n), -1, 1)
        np.savetxt(self.path("rows.csv"), np.column_stack([x, y]), delimiter=",",
                   header="a,b,y", comments="")
        return self.path("rows.csv")

    def test_y_squared_is_released_only_where_the_plan_forecasts_intervals(self):
        rows = self.write_rows(50, 1)
        args = ["regress", rows, "--label", "y", "--epsilon", "1", "--bound", "1.5",
                "--label-bound", "1", "--noise-seed", "1", "--errors", "homoscedastic", "--json",
                "--quiet"]
        small = json.loads(self.ok(args).stdout)
        self.assertNotIn("sigma_label_square", small["receipt"])
        self.assertIn("not attempted", small["noise_aware"]["refused"])
        self.assertFalse(small["regression_forecast"]["intervals_expected"])
        anyway = json.loads(self.ok(args + ["--intervals-anyway"]).stdout)
        self.assertIn("sigma_label_square", anyway["receipt"])
        text = self.ok(args[:-2] + ["--quiet"]).stdout.decode()
        self.assertIn("not attempted: the plan forecasts none at n = 50", text)
        large = json.loads(self.ok(["regress", self.write_rows(200000, 2), "--label", "y",
                                    "--epsilon", "1", "--bound", "1.5", "--label-bound", "1",
                                    "--noise-seed", "1", "--errors", "homoscedastic",
                                    "--json", "--quiet"]).stdout)
        self.assertIn("sigma_label_square", large["receipt"])
        self.assertTrue(large["regression_forecast"]["intervals_expected"])
        self.assertIn("ci_lower", large["coefficients"][1]["noise_aware"])

    def test_y_squared_waits_for_the_posterior_to_print_and_answers_when_asked(self):
        # At n = 100 neither the bootstrap's forecast nor the posterior's expects a printed
        # interval even for rows on their bounds (the posterior's X'X~ is not identified there),
        # so by default y'y is not released and the refusal says from which n the posterior
        # prints. With --intervals-anyway it is, and the posterior answers where the bootstrap
        # refuses, named; a coefficient it cannot support is nan (JSON null), flagged and warned
        # about. With --small-n refuse y'y is not released either.
        args = ["regress", self.write_rows(100, 4), "--label", "y", "--epsilon", "1", "--bound",
                "1.5", "--label-bound", "1", "--noise-seed", "4", "--seed", "4", "--quiet",
                "--errors", "homoscedastic"]
        default = json.loads(self.ok(args + ["--json"]).stdout)
        self.assertNotIn("sigma_label_square", default["receipt"])
        self.assertIn("the posterior prints from about n = ", default["noise_aware"]["refused"])
        posterior = default["regression_forecast"]["posterior"]
        self.assertFalse(posterior["intervals_expected"])
        self.assertGreater(posterior["rows_for_intervals"], 100)
        anyway = args + ["--intervals-anyway"]
        result = self.ok(anyway + ["--json"])
        fit = json.loads(result.stdout)
        self.assertIn("sigma_label_square", fit["receipt"])
        self.assertTrue(fit["noise_aware"]["method"].startswith("noise-aware posterior"))
        flags = [row["noise_aware"]["conclusive"] for row in fit["coefficients"]]
        for row, conclusive in zip(fit["coefficients"], flags):
            self.assertEqual(row["noise_aware"]["ci_lower"] is None, not conclusive, row)
        self.assertEqual("cannot support a conclusion" in result.stderr.decode(),
                         not all(flags))
        # Where a prior decides an interval or the chains did not converge, its standard error
        # and p-value are null too; where the interval covers every value that matters they stay.
        undecided = set()
        for line in result.stderr.decode().splitlines():
            for clause in line.split("; "):
                if "a prior, not the release" in clause or "did not converge" in clause:
                    undecided |= set(clause.split(" about ", 1)[1].split(": ", 1)[0].split(", "))
        for row in fit["coefficients"]:
            for key in ("std_err", "p"):
                self.assertEqual(row["noise_aware"][key] is None, row["term"] in undecided, row)
        self.assertIn("noise-aware posterior", self.ok(anyway).stdout.decode())
        refuse = json.loads(self.ok(args + ["--json", "--small-n", "refuse"]).stdout)
        self.assertIn("not attempted", refuse["noise_aware"]["refused"])
        self.assertNotIn("sigma_label_square", refuse["receipt"])

    def test_regress_bounds_reports_the_data_units(self):
        gen = np.random.default_rng(3)
        n = 100000
        x = np.column_stack([gen.uniform(0, 1e-3, n), gen.uniform(100, 300, n)])
        y = 50 + 2e4 * x[:, 0] - 0.1 * x[:, 1] + gen.normal(0, 1, n)  # both effects: 20 units
        np.savetxt(self.path("raw.csv"), np.column_stack([x, y]), delimiter=",",
                   header="small,large,y", comments="")
        # The robust fit without y'y (--small-n refuse) under 40 noise seeds: its intervals, in
        # the data's units, cover the truth of these rows in 66 of the 80 or more (one draw's
        # two intervals miss one time in ten; at a coverage of 0.95 this count fails with
        # probability 9e-6, at 0.93 with 4e-4).
        truth = {"small": 2e4, "large": -0.1}
        covered = 0
        for noise_seed in range(1, 41):
            fit = json.loads(self.ok(["regress", self.path("raw.csv"), "--label", "y",
                                      "--epsilon", "4", "--bounds",
                                      "small=0:1e-3,large=100:300,y=0:80", "--noise-seed",
                                      str(noise_seed), "--seed", "3", "--json", "--quiet",
                                      "--small-n", "refuse"]).stdout)
            self.assertIn("data", fit["units"]["coefficients"])
            rows = fit["coefficients"]
            for row in rows[1:]:
                aware = row["noise_aware"]
                covered += aware["ci_lower"] < truth[row["term"]] < aware["ci_upper"]
                self.assertLess(abs(row["coef"] / truth[row["term"]] - 1), 0.2, row)
            self.assertIsNone(rows[0]["noise_aware"]["ci_lower"])  # NaN: not a map of the others
        self.assertGreaterEqual(covered, 66)
        refused = self.run_dpcov(["regress", self.path("raw.csv"), "--label", "y", "--epsilon",
                                  "1", "--bounds", "0:1", "--bound", "2"])
        self.assertEqual(refused.returncode, EXIT_USAGE)
        self.assertIn("drop --bound", refused.stderr.decode())

    def test_pca_after_a_private_bound_says_what_its_subspace_bound_covers(self):
        gen = np.random.default_rng(4)
        rows = gen.standard_t(3, size=(20000, 3)) * [2.0, 1.0, 0.3]
        np.savetxt(self.path("t.csv"), rows, delimiter=",", header="a,b,c", comments="")
        self.ok(["release", "-m", "analyze_gauss", "-e", "4", "-d", "1e-6", "--bound", "auto",
                 "--quiet", self.path("t.csv"), "-o", self.path("auto.csv")])
        text = self.ok(["pca", self.path("auto.csv"), "-k", "1", "--seed", "1"]).stdout.decode()
        self.assertIn("covers: the bound is against the rows as clipped at the privately chosen",
                      text)
        out = json.loads(self.ok(["pca", self.path("auto.csv"), "-k", "1", "--seed", "1",
                                  "--json"]).stdout)
        self.assertIn("not the unclipped data", out["subspace_error"]["covers"])

    def test_a_step_share_refusal_names_the_users_epsilon(self):
        result = self.run_dpcov(["plan", "-m", "ols_jl", "-e", "4", "-d", "1e-6", "--bound", "1",
                                 "--dims", "3", "--rows", "1000", "--projection-rows", "50"])
        self.assertNotEqual(result.returncode, EXIT_OK)
        message = result.stderr.decode()
        self.assertIn("requested epsilon = 4", message)
        self.assertIn("epsilon = 2 of", message)

    def test_a_release_at_a_share_names_the_requested_epsilon(self):
        # The additive Wishart's theorem needs eps < 1: at 0.8 (robust regression) or 0.9
        # (--bound auto) of the user's epsilon it fails where the library's message would name
        # only the share. Refused before any row is read: exit 3, nothing written.
        gen = np.random.default_rng(8)
        x = np.clip(gen.standard_normal((3000, 3)) / 3.0, -1.0, 1.0)
        np.savetxt(self.path("w.csv"), x, delimiter=",", header="a,b,y", comments="")
        result = self.run_dpcov(["regress", self.path("w.csv"), "-y", "y", "-m",
                                 "wishart_additive", "-e", "4", "--bound", "2", "--label-bound",
                                 "1", "--seed", "1"])
        self.assertEqual(result.returncode, EXIT_PRIVACY, result.stderr.decode())
        message = result.stderr.decode()
        self.assertIn("share of the requested --epsilon 4 (the robust intervals' meat", message)
        self.assertIn("--errors homoscedastic gives the release all of it", message)
        self.assertIn("eps < 1", message)
        result = self.run_dpcov(["release", "-m", "wishart_additive", "-e", "1.2", "-d", "1e-6",
                                 "--bound", "auto", "--seed", "1", self.path("w.csv"), "-o",
                                 self.path("w_out.csv")])
        self.assertEqual(result.returncode, EXIT_PRIVACY, result.stderr.decode())
        self.assertIn("share of the requested --epsilon 1.2 (the private bound's step spends "
                      "the rest)", result.stderr.decode())
        self.assertFalse(os.path.exists(self.path("w_out.csv")))
        # Privacy units by group privacy: each row gets a share (1.25 of 5 for 2 rows a unit).
        ids = np.repeat(np.arange(1500), 2)
        np.savetxt(self.path("u.csv"), np.column_stack([ids, x[:, :2]]), delimiter=",",
                   header="person,a,b", comments="")
        result = self.run_dpcov(["release", "-m", "wishart_additive", "-e", "5", "-d", "1e-6",
                                 "--bound", "1", "--privacy-unit", "person",
                                 "--max-rows-per-unit", "2", "--seed", "1", self.path("u.csv"),
                                 "-o", self.path("u_out.csv")])
        self.assertEqual(result.returncode, EXIT_PRIVACY, result.stderr.decode())
        self.assertIn("share of the requested --epsilon 5 (per row, by group privacy over units "
                      "of up to 2 rows)", result.stderr.decode())
        # The whole epsilon at a public bound: the library's message, unchanged.
        result = self.run_dpcov(["release", "-m", "wishart_additive", "-e", "1.2", "-d", "1e-6",
                                 "--bound", "2", "--seed", "1", self.path("w.csv"), "-o",
                                 self.path("w_out.csv")])
        self.assertNotIn("share", result.stderr.decode())
        self.assertIn("epsilon = 1.2", result.stderr.decode())

    def test_plan_regress_of_a_gram_mechanism_plans_the_fit_regress_runs(self):
        # regress -m wishart_additive at epsilon 1.1 releases at the fit's share (0.88 < 1, the
        # theorem's cap) and the meat spends the rest; plan --regress plans that release (the
        # same constants as regress's receipt) where a plan of the whole epsilon is refused.
        rows = self.write_rows(20000, 3)
        for mechanism, numerics in (("wishart_additive", "idealized"),
                                    ("analyze_gauss", "exact"), ("laplace_sym", "exact")):
            for errors in ("robust", "homoscedastic"):
                epsilon = "1.1" if mechanism == "wishart_additive" and errors == "robust" \
                    else "0.9"
                common = ["-m", mechanism, "-e", epsilon, "-d", "1e-6", "--bound", "1.5",
                          "--label-bound", "1", "--errors", errors]
                fit = json.loads(self.ok(["regress", rows, "--label", "y", "--noise-seed", "2",
                                          "--json", "--quiet"] + common).stdout)
                planned = json.loads(self.ok(["plan", "--regress", "--dims", "2", "--rows",
                                              "20000", "--json"] + common).stdout)
                what = f"{mechanism} {errors}"
                self.assertEqual(planned["numerics"], numerics, what)
                self.assertEqual(planned["regress"]["errors"], errors, what)
                for key in ("epsilon", "delta", "bound", "sigma", "scale", "dof"):
                    self.assertEqual(planned[key], fit["receipt"][key], f"{what}: {key}")
                if errors == "robust":
                    self.assertAlmostEqual(planned["regress"]["fit_epsilon"],
                                           0.8 * float(epsilon), places=12)
                    self.assertEqual(fit["sandwich"]["meat_epsilon"],
                                     planned["regress"]["meat_epsilon"], what)
                self.assertGreater(planned["regression_forecast"]["crossover_rows"], 0, what)
        text = self.ok(["plan", "--regress", "-m", "wishart_additive", "-e", "1.1", "-d",
                        "1e-6", "--bound", "1.5", "--label-bound", "1", "--dims", "2",
                        "--rows", "20000"]).stdout.decode()
        self.assertIn("errors robust, the fit at epsilon 0.88", text)
        refused = self.run_dpcov(["plan", "-m", "wishart_additive", "-e", "1.1", "-d", "1e-6",
                                  "--bound", "1.5", "--dims", "2", "--rows", "20000"])
        self.assertEqual(refused.returncode, EXIT_PRIVACY, refused.stderr.decode())
        refused = self.run_dpcov(["plan", "--regress", "-m", "wishart_additive", "-e", "4", "-d",
                                  "1e-6", "--bound", "1.5", "--label-bound", "1", "--dims", "2",
                                  "--rows", "20000"])
        self.assertEqual(refused.returncode, EXIT_PRIVACY, refused.stderr.decode())
        self.assertIn("share of the requested --epsilon 4 (the robust intervals' meat",
                      refused.stderr.decode())
        for wrong in (["-m", "iev"], ["-m", "analyze_gauss", "--numerics", "bogus"],
                      ["-m", "analyze_gauss", "--k-bound", "2"]):
            self.assertEqual(self.run_dpcov(["plan", "--regress", "-e", "0.9", "-d", "1e-6",
                                             "--bound", "1", "--label-bound", "1", "--dims", "2",
                                             "--rows", "100"] + wrong).returncode,
                             EXIT_USAGE, wrong)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

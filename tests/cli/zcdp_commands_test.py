"""End-to-end tests of `dpcov plan`, `dpcov compare` and `dpcov audit` with the zCDP mechanisms on
the rows that `dpcov mechanisms` lists: the Dong-Liang-Yi ids (dly_gauss, dly_separate,
dly_adaptive, dly_adaptive_paper), coinpress and coinpress_mean. Each id gives a working answer or
a usage error naming why, never "unknown mechanism".

Run by meson as: /usr/bin/python3 zcdp_commands_test.py DPCOV_EXECUTABLE
"""
import json
import math
import os
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, DpcovCase

DLY = ["dly_gauss", "dly_separate", "dly_adaptive", "dly_adaptive_paper"]
# The settings each id needs besides --epsilon and --delta.
SETTINGS = {name: ["--bound", "1"] for name in DLY}
SETTINGS["coinpress"] = ["--k-bound", "20"]
SETTINGS["coinpress_mean"] = ["--mean-radius", "10"]


class ZcdpCommands(DpcovCase):
    def run_ok(self, args):
        result = self.run_dpcov(args)
        self.assertEqual(result.returncode, EXIT_OK, (args, result.stderr.decode()))
        return result.stdout.decode()

    def assert_usage_error(self, args, message):
        result = self.run_dpcov(args)
        stderr = result.stderr.decode()
        self.assertEqual(result.returncode, EXIT_USAGE, (args, stderr))
        self.assertIn(message, stderr, args)
        self.assertNotIn("unknown", stderr, args)

    def write_csv(self, rows, name="data.csv"):
        path = self.path(name)
        header = ",".join(f"x{j}" for j in range(rows.shape[1]))
        np.savetxt(path, rows, delimiter=",", header=header, comments="")
        return path

    def plan(self, name, extra=(), dims=5, rows=1000):
        out = self.run_ok(["plan", "--json", "-m", name, "-e", "1", "-d", "1e-6", "--dims",
                           str(dims), "--rows", str(rows)] + SETTINGS[name] + list(extra))
        return json.loads(out)

    # --- plan ---

    def test_plan_of_every_id_states_rho_and_its_epsilon_delta(self):
        for name in SETTINGS:
            with self.subTest(name):
                plan = self.plan(name)
                self.assertEqual(plan["command"], "plan")
                self.assertEqual(plan["mechanism"], name)
                self.assertEqual((plan["dim"], plan["n"]), (5, 1000))
                self.assertTrue(plan["n_public"])
                self.assertEqual(plan["neighbour"], "replace-one")
                # The largest rho whose (epsilon, delta) fits: epsilon within 1e-9 below 1.
                self.assertLessEqual(plan["epsilon"], 1.0)
                self.assertGreater(plan["epsilon"], 1.0 - 1e-9)
                self.assertEqual(plan["delta"], 1e-6)
                self.assertAlmostEqual(plan["rho"], 0.0243559703595, places=10)
                self.assertIn("plan: nothing released", plan["privacy_claim"])
                self.assertNotIn("branch", plan)  # an output of the release, not of the plan

    def test_plan_of_the_dly_ids_has_their_budget_split(self):
        plans = {name: self.plan(name) for name in DLY}
        rho = plans["dly_gauss"]["rho"]
        for name in ("dly_gauss", "dly_separate"):
            self.assertEqual(plans[name]["rho_covariance"], rho)
            self.assertEqual(plans[name]["trace_sigma"], 0)
        # Gauss and Separate state their data-independent noise (r = 1, n = 1000).
        self.assertAlmostEqual(plans["dly_gauss"]["sigma_matrix"], 1 / (1000 * rho ** 0.5))
        self.assertEqual(plans["dly_gauss"]["sigma_eigenvalues"], 0)
        separate = plans["dly_separate"]
        self.assertAlmostEqual(separate["sigma_matrix"], 1 / (1000 * (rho / 2) ** 0.5))
        self.assertEqual(separate["sigma_eigenvalues"], separate["sigma_matrix"])
        self.assertNotIn("sigma_matrix", plans["dly_adaptive"])  # depends on the radius chosen
        adaptive, paper = plans["dly_adaptive"], plans["dly_adaptive_paper"]
        self.assertLessEqual(adaptive["rho_covariance"], 123 * rho / 128)
        self.assertAlmostEqual(adaptive["rho_covariance"], 123 * rho / 128, delta=1e-15)
        self.assertAlmostEqual(adaptive["histogram_sigma"], (15 * rho / 512) ** -0.5)
        self.assertAlmostEqual(adaptive["first_look_sigma"], (rho / 512) ** -0.5)
        self.assertAlmostEqual(adaptive["trace_sigma"], 1 / (1000 * (2 * rho / 128) ** 0.5))
        self.assertLessEqual(paper["rho_covariance"], 3 * rho / 4)
        # The sparse vector step's pure epsilon at rho / 8: rho = epsilon^2 / 2.
        self.assertAlmostEqual(paper["svt_epsilon"], (2 * rho / 8) ** 0.5)
        self.assertGreater(paper["svt_queries"], 1)

    def test_plan_of_coinpress_has_the_step_split_and_sigmas(self):
        plan = self.plan("coinpress", ["--steps", "4"])
        self.assertEqual(plan["steps"], 4)
        self.assertEqual(plan["k_bound"], 20)
        self.assertLessEqual(sum(plan["step_rho"]), plan["rho"])
        self.assertAlmostEqual(plan["step_rho"][-1], 3 * plan["rho"] / 4)
        gamma = plan["clip_radius"]
        for rho_i, sigma in zip(plan["step_rho"], plan["step_sigma"]):
            self.assertAlmostEqual(sigma, gamma ** 2 / (1000 * rho_i ** 0.5), places=12)
        mean = self.plan("coinpress_mean", ["--k-bound", "4"])
        self.assertEqual((mean["mean_radius"], mean["scale"], mean["steps"]), (10, 2, 3))
        self.assertEqual(len(mean["step_sigma"]), 3)
        centred = self.plan("coinpress", ["--center", "--mean-radius", "3"])
        self.assertAlmostEqual(centred["centring"]["rho"], centred["rho"] / 8)
        self.assertAlmostEqual(centred["rho_covariance"], 7 * centred["rho"] / 8)
        self.assertAlmostEqual(sum(centred["step_rho"]), centred["rho_covariance"])

    def test_plan_matches_the_release(self):
        gen = np.random.default_rng(3)
        x = gen.standard_normal((400, 3))
        path = self.write_csv(x / (2 * np.linalg.norm(x, axis=1, keepdims=True)))
        for name in ("dly_adaptive", "coinpress"):
            with self.subTest(name):
                out = self.path(name + ".csv")
                self.run_ok(["release", path, "-m", name, "-e", "1", "-d", "1e-6", "-o", out,
                             "-q", "--seed", "1"] + SETTINGS[name])
                with open(out + ".json") as f:
                    receipt = json.load(f)
                plan = self.plan(name, dims=3, rows=400)
                for key, value in plan.items():
                    # The release is seeded: not private for whoever knows the seed; a plan
                    # draws from no generator.
                    if key not in ("command", "privacy_claim", "library_version",
                                   "differentially_private", "seed_fixed", "generator", "output"):
                        self.assertEqual(receipt[key], value, key)

    def test_plan_as_text(self):
        out = self.run_ok(["plan", "-m", "coinpress", "-e", "1", "-d", "1e-6", "--k-bound", "9",
                           "--dims", "3", "--rows", "100"])
        self.assertRegex(out, r"(?m)^  rho +0\.02")
        self.assertRegex(out, r"(?m)^  step_sigma +\[")

    def test_plan_bad_inputs_are_named(self):
        base = ["plan", "-e", "1", "--dims", "3", "--rows", "10"]
        cases = [
            (["-m", "dly_gauss", "--bound", "1"], "--delta is required: dly_gauss is a zCDP"),
            (["-m", "dly_separate", "-d", "1e-6"], "dly_separate needs --bound B"),
            (["-m", "coinpress", "-d", "1e-6"], "coinpress needs --k-bound K"),
            (["-m", "coinpress", "-d", "1e-6", "--k-bound", "9", "--bound", "1"],
             "give --k-bound, not --bound"),
            (["-m", "coinpress", "-d", "1e-6", "--k-bound", "0.5"], "must be >= 1, got 0.5"),
            (["-m", "coinpress", "-d", "1e-6", "--k-bound", "9", "--steps", "17"],
             "must be in [1, 16], got 17"),
            (["-m", "coinpress", "-d", "1e-6", "--k-bound", "9", "--center"],
             "coinpress --center needs --mean-radius"),
            (["-m", "coinpress_mean", "-d", "1e-6"], "coinpress_mean needs --mean-radius"),
            (["-m", "coinpress_mean", "-d", "1e-6", "--mean-radius", "1", "--bound", "1"],
             "give --mean-radius, not --bound"),
            (["-m", "dly_adaptive", "-d", "1e-6", "--bound", "1", "--k-bound", "4"],
             "coinpress only"),
            (["-m", "dly_adaptive", "-d", "1e-6", "--bound", "1", "--neighbour", "add-remove"],
             "replace-one"),
            (["-m", "dly_adaptive", "-d", "1e-6", "--bound", "1", "--numerics", "exact"],
             "--numerics applies to the Gram mechanisms, not dly_adaptive"),
            (["-m", "dly_adaptive", "-d", "2", "--bound", "1"], "delta must be in (0, 1)"),
            (["-m", "analyze_gauss", "-d", "1e-6"], "--bound is required: analyze_gauss"),
            (["-m", "analyze_gauss", "-d", "1e-6", "--bound", "1", "--k-bound", "4"],
             "coinpress only"),
        ]
        for extra, message in cases:
            with self.subTest(extra=extra):
                self.assert_usage_error(base + extra, message)
        self.assert_usage_error(["plan", "-m", "dly_gauss", "-e", "1", "-d", "1e-6", "--bound",
                                 "1", "--dims", "3", "--rows", "0"], "needs --rows n >= 1")

    # --- compare ---

    def compare(self, path, args):
        return json.loads(self.run_ok(["compare", path, "--json", "-q", "--seed", "2", "-r", "3"]
                                      + args))

    def small_norm_csv(self, n=2000, d=4):
        gen = np.random.default_rng(5)
        x = gen.standard_normal((n, d)) * np.arange(1, d + 1)
        return self.write_csv(x / (1.2 * np.linalg.norm(x, axis=1, keepdims=True)))

    def test_compare_runs_every_covariance_id_beside_the_others(self):
        path = self.small_norm_csv()
        ids = DLY + ["coinpress"]
        out = self.compare(path, ["--bound", "1", "-m", ",".join(["analyze_gauss"] + ids),
                                  "-e", "0.5,4", "-d", "1e-6", "--k-bound", "4"])
        results = {(r["mechanism"], r["epsilon"]): r for r in out["results"]}
        self.assertEqual(len(results), 2 * (1 + len(ids)))
        for name in ids:
            for eps in (0.5, 4.0):
                row = results[(name, eps)]
                self.assertEqual(row["delta"], 1e-6)
                self.assertIn("rho-zCDP", row["privacy_model"])
                # The rho whose (epsilon, delta) fits: the receipt's epsilon within 1e-9 below.
                self.assertEqual(row["receipt"]["rho"], row["rho"])
                self.assertLessEqual(row["receipt"]["epsilon"], eps)
                self.assertGreater(row["receipt"]["epsilon"], eps - 1e-9)
                self.assertEqual(row["receipt"]["n"], 2000)
                self.assertEqual(row["refused"], 0)
                self.assertEqual(row["frobenius_relative"]["count"], 3)
                self.assertLess(row["frobenius_relative"]["mean"], 1.0)
            # More budget, less error.
            self.assertLess(results[(name, 4.0)]["frobenius_relative"]["mean"],
                            results[(name, 0.5)]["frobenius_relative"]["mean"])
        self.assertNotIn("rho", results[("analyze_gauss", 0.5)])
        # One generator stream per (mechanism, epsilon): a row does not depend on the others.
        alone = self.compare(path, ["--bound", "1", "-m", "coinpress", "-e", "0.5,4", "-d",
                                    "1e-6", "--k-bound", "4"])["results"][1]
        self.assertEqual(alone["frobenius_relative"],
                         results[("coinpress", 4.0)]["frobenius_relative"])

    def test_compare_states_the_conversion_on_each_line(self):
        path = self.small_norm_csv(500, 3)
        text = self.run_ok(["compare", path, "--bound", "1", "-m", "laplace_sym,dly_adaptive",
                            "-e", "1", "-d", "1e-6", "-r", "2", "--seed", "1", "-q"])
        self.assertRegex(text, r"(?m)^dly_adaptive +1 +1e-06 +0\.02436 ")
        self.assertRegex(text, r"(?m)^laplace_sym +1 +0 +- ")
        self.assertIn("largest rho whose (epsilon, delta) guarantee fits", text)

    def test_compare_at_rho_runs_the_others_at_the_epsilon_it_implies(self):
        path = self.small_norm_csv(500, 3)
        out = self.compare(path, ["--bound", "1", "-m", "analyze_gauss,dly_gauss", "--rho",
                                  "0.1", "-d", "1e-6"])
        gauss, dly = out["results"]
        self.assertEqual(dly["rho"], 0.1)
        self.assertEqual(gauss["epsilon"], dly["epsilon"])
        self.assertAlmostEqual(dly["epsilon"], dly["receipt"]["epsilon"], places=12)
        self.assertEqual(gauss["receipt"]["epsilon"], gauss["epsilon"])

    def test_compare_center_runs_coinpress_on_its_private_mean_against_the_centred_gram(self):
        # Rows far from the origin: an uncentred release against the centred reference would be
        # off by |mean|^2 / 1 = 14 relatively; centred on the private mean it is within a few %.
        gen = np.random.default_rng(5)
        path = self.write_csv(gen.normal(size=(4000, 3)) + np.array([3.0, -2.0, 1.0]))
        out = self.compare(path, ["--bound", "20", "-m", "coinpress", "--center",
                                  "--mean-radius", "10", "--k-bound", "4", "-e", "4", "-d",
                                  "1e-6"])
        self.assertTrue(out["center"])
        (row,) = out["results"]
        self.assertEqual(row["refused"], 0)
        self.assertLess(row["frobenius_relative"]["max"], 0.1)
        self.assertIn("centring", row["receipt"])
        self.assertEqual(row["receipt"]["centring"]["mechanism"], "coinpress_mean")
        text = self.run_ok(["compare", path, "--bound", "20", "-m", "coinpress", "--center",
                            "--mean-radius", "10", "--k-bound", "4", "-e", "4", "-d", "1e-6",
                            "-r", "2", "-q", "--seed", "1"])
        self.assertIn("exact centred Gram matrix", text)
        # Without --center the same rows are compared against their uncentred Gram matrix.
        plain = self.compare(path, ["--bound", "20", "-m", "coinpress", "--k-bound", "4", "-e",
                                    "4", "-d", "1e-6"])
        self.assertNotIn("center", plain)

    def test_compare_plans_at_the_public_n_not_a_stand_in(self):
        # compare planned every zCDP column at n = 1 before reading the rows, and refused what the
        # real n allows: a Dong-Liang-Yi bound of 1e153 (noise over DBL_MAX / 128 at n = 1) and a
        # CoinPress centring mean with prior radius 1e305 (its first step's noise overflows).
        gen = np.random.default_rng(6)
        small = self.small_norm_csv(2000, 3)
        out = self.compare(small, ["--bound", "1e153", "-m", "dly_gauss,dly_adaptive", "-e", "1",
                                   "-d", "1e-6"])
        for row in out["results"]:
            self.assertEqual(row["refused"], 0)
            self.assertEqual(row["receipt"]["n"], 2000)
            # Errors near 1e305: their spread is still finite (the sd overflowed to null).
            spread = row["frobenius_relative"]
            self.assertTrue(all(math.isfinite(spread[k]) for k in ("mean", "sd", "max")), spread)
        far = self.write_csv(gen.standard_normal((2000, 3)) + 1e150, "far.csv")
        out = self.compare(far, ["--bound", "1e152", "-m", "coinpress", "--center",
                                 "--mean-radius", "1e305", "--k-bound", "20", "-e", "1", "-d",
                                 "1e-6"])
        (row,) = out["results"]
        self.assertEqual(row["refused"], 0)
        plan = self.plan("coinpress", ["--center", "--mean-radius", "1e305"], dims=3, rows=2000)
        self.assertEqual(row["receipt"]["centring"]["step_sigma"], plan["centring"]["step_sigma"])

    def test_compare_center_applies_to_coinpress_only_and_says_what_to_use(self):
        path = self.write_csv(np.random.default_rng(1).uniform(-0.5, 0.5, (100, 3)))
        base = ["compare", path, "--bound", "1", "-r", "2", "-q", "-e", "1", "-d", "1e-6"]
        cases = [
            (["-m", "coinpress,dly_gauss", "--k-bound", "4", "--center", "--mean-radius", "1"],
             "--center applies to coinpress only"),
            (["-m", "analyze_gauss", "--center", "--mean-radius", "1"],
             "`dpcov release --add-constant`) with `pca --center`"),
            (["-m", "coinpress", "--k-bound", "4", "--center"], "needs --mean-radius R"),
            (["-m", "coinpress", "--k-bound", "4", "--mean-radius", "1"],
             "--mean-radius applies to coinpress --center only"),
            (["-m", "coinpress", "--k-bound", "4", "--center", "--mean-radius", "1",
              "--label", "x0", "--intercept", "x1"], "--intercept does not apply with --center"),
        ]
        for extra, message in cases:
            with self.subTest(extra=extra):
                self.assert_usage_error(base + extra, message)

    def test_compare_bad_inputs_are_named(self):
        path = self.small_norm_csv(100, 3)
        base = ["compare", path, "--bound", "1", "-r", "2", "-q"]
        cases = [
            (["-m", "dly_gauss", "-e", "1"], "--delta is required: dly_gauss is a zCDP"),
            (["-m", "coinpress_mean", "-e", "1", "-d", "1e-6"],
             "coinpress_mean releases a mean (1 x d), which is not comparable"),
            (["-m", "coinpress", "-e", "1", "-d", "1e-6"], "coinpress needs --k-bound K"),
            (["-m", "dly_gauss", "-e", "1", "-d", "1e-6", "--k-bound", "4"], "coinpress only"),
            (["-m", "dly_gauss", "--rho", "0.1"], "--rho needs --delta"),
            (["-m", "dly_gauss", "-d", "1e-6"], "give one of --epsilons"),
            (["-m", "dly_gauss", "--rho", "1e-9", "-d", "0.5"], "implies (0, 0.5)-DP"),
        ]
        for extra, message in cases:
            with self.subTest(extra=extra):
                self.assert_usage_error(base + extra, message)
        # coinpress has no norm bound: rows over --bound would make its target differ.
        wide = self.write_csv(np.full((10, 3), 2.0), "wide.csv")
        self.assert_usage_error(["compare", wide, "--bound", "1", "-m", "coinpress", "-e", "1",
                                 "-d", "1e-6", "--k-bound", "4", "-q"],
                                "10 rows are over --bound 1")

    # --- audit ---

    def test_audit_runs_each_covariance_id_black_box(self):
        ids = DLY + ["coinpress"]
        out = json.loads(self.run_ok(["audit", "--json", "-m", ",".join(ids), "-e", "1",
                                      "--trials", "200", "--dims", "2", "-n", "20",
                                      "--method", "black-box"]))
        self.assertFalse(out["violation"])
        audits = out["audits"]
        self.assertEqual([(a["mechanism"], a["statistic"]) for a in audits],
                         [(name, s) for name in ids
                          for s in ("top-eigenvalue", "top-eigenvector-alignment")])
        for a in audits:
            self.assertEqual(a["audit"], "black-box")
            self.assertEqual(a["verdict"], "no violation found")
            self.assertAlmostEqual(a["rho"], 0.0243559703595, places=10)
            self.assertLessEqual(a["claimed_epsilon"], 1.0)
            self.assertGreater(a["claimed_epsilon"], 1.0 - 1e-9)
            self.assertEqual(a["claimed_delta"], 1e-6)
            self.assertEqual((a["dim"], a["n"], a["samples"]), (2, 20, 2 * (200 + 40)))
            self.assertLessEqual(a["delta_lower"], 1e-6)

    def test_audit_runs_the_exact_audit_where_there_is_one_and_says_why_not(self):
        out = json.loads(self.run_ok(["audit", "--json", "-m", "dly_gauss,dly_separate,dly_adaptive",
                                      "-e", "1", "--trials", "100"]))
        self.assertFalse(out["violation"])
        audits = out["audits"]
        self.assertEqual([(a["mechanism"], a["audit"].split(" ")[0]) for a in audits],
                         [("dly_gauss", "exact"), ("dly_separate", "exact"),
                          ("dly_adaptive", "black-box"), ("dly_adaptive", "black-box")])
        rho = 0.0243559703595
        for a, claimed_rho, n in zip(audits, (rho, rho / 2), (3000, 4000)):
            self.assertEqual(a["verdict"], "no violation found")
            self.assertAlmostEqual(a["rho"], claimed_rho, places=10)
            # The default three pairs (the axis pair and two rotations), 2 x 100 draws each.
            self.assertEqual((a["dim"], a["n"], a["samples"]), (3, n, 600))
            self.assertEqual((a["pairs"], a["dataset"]), (3, "axis+2-rotated"))
            self.assertEqual((a["findings"], a["clamp_hits"]), ("", 0))
            self.assertLessEqual(a["rho_lower"], a["rho"])
        self.assertLessEqual(audits[0]["claimed_epsilon"], 1.0)
        for a in audits[2:]:
            self.assertIn("no exact-density audit", a["why_black_box"])
        # coinpress: exact at t = 1 (its Gaussian release), per step at its default t = 3; both
        # with the black-box audit on ask.
        out = json.loads(self.run_ok(["audit", "--json", "-m", "coinpress", "-e", "1", "--trials",
                                      "100", "--steps", "1"]))
        (a,) = out["audits"]
        self.assertEqual((a["audit"].split(" ")[0], a["n"], a["verdict"], a["steps"]),
                         ("exact", 3000, "no violation found", 1))
        text = self.run_ok(["audit", "-m", "coinpress,dly_gauss", "-e", "1", "--trials", "100",
                            "--method", "both"])
        self.assertRegex(text, r"(?m)^dly_gauss +1 +1e-06 +3 +3000 +max-l2/axis\+2-rotated/exact ")
        self.assertRegex(text, r"(?m)^dly_gauss +1 +1e-06 +3 +50 +max-l2/sphere/eigenvalue ")
        self.assertRegex(text, r"(?m)^coinpress +1 +1e-06 +3 +8000 +max-l2/axis\+2-rotated/exact ")
        self.assertRegex(text, r"(?m)^coinpress +1 +1e-06 +3 +50 +max-l2/sphere/eigenvalue ")
        self.assertIn("dpcov_audit_rows_exact_pairs", text)
        # The exact audit alone, where there is none: an error naming the reason.
        result = self.run_dpcov(["audit", "-m", "dly_adaptive", "-e", "1", "--trials", "100",
                                 "--method", "exact"])
        self.assertEqual(result.returncode, EXIT_PRIVACY, result.stderr.decode())
        self.assertIn("dly_adaptive has no exact-density audit", result.stderr.decode())

    def test_audit_of_coinpress_at_three_steps_is_exact_per_step(self):
        # The library's release with t = 3 (K = 4, the shipped split 1/8, 1/8, 3/4) on the
        # far-row pair and two rotations of it; alpha = 1e-6 over the three pairs (1e-6 / 18 per
        # test), 100 draws per direction and pair: the shipped release is not flagged.
        out = json.loads(self.run_ok(["audit", "--json", "-m", "coinpress", "-e", "1", "--trials",
                                      "100", "--steps", "3", "--seed", "2"]))
        self.assertFalse(out["violation"])
        (a,) = out["audits"]
        self.assertEqual(a["audit"],
                         "exact (every step's Gaussian density given the earlier steps, t = 3)")
        self.assertEqual((a["verdict"], a["findings"], a["steps"]), ("no violation found", "", 3))
        self.assertAlmostEqual(a["rho"], 0.0243559703595, places=10)
        self.assertLessEqual(a["claimed_epsilon"], 1.0)
        # n from rho: every step's sigma at most gamma^2 / 400.
        self.assertEqual((a["dim"], a["n"], a["samples"], a["pairs"]), (3, 8000, 600, 3))
        self.assertAlmostEqual(a["alpha_per_test"], 1e-6 / 3 / 6, delta=1e-22)
        self.assertGreater(a["rho_lower"], 0)
        self.assertLessEqual(a["rho_lower"], a["rho"])
        self.assertLessEqual(a["delta_lower"], a["delta_estimate"])
        self.assertLessEqual(a["conformance_distance"], a["conformance_threshold"])
        self.assertEqual((a["clamp_hits"], a["gaussian_delta_lower"]), (0, 0))
        self.assertIn(a["worst_pair"], ["axis", "rotated-1", "rotated-2"])
        # Nothing of the transcript: the same fields as every exact audit, and statistics only.
        self.assertEqual(set(a) - {"steps"},
                         set(json.loads(self.run_ok(["audit", "--json", "-m", "dly_gauss", "-e",
                                                     "1", "--trials", "20"]))["audits"][0]))
        text = self.run_ok(["audit", "-m", "coinpress", "-e", "1", "--trials", "100"])
        self.assertRegex(text, r"(?m)^coinpress +1 +1e-06 +3 +8000 +max-l2/axis\+2-rotated/exact +"
                               r".* no violation found$")
        self.assertIn("exact: coinpress with --steps t >= 2", text)
        self.assertNotIn("black-box", text)

    def test_audit_exact_pairs_reports_the_worst_of_the_axis_pair_and_its_rotations(self):
        def audit(extra):
            out = json.loads(self.run_ok(["audit", "--json", "-m", "dly_gauss", "-e", "1",
                                          "--trials", "100", "--seed", "4"] + extra))
            (a,) = out["audits"]
            return a
        one = audit(["--pairs", "1"])
        self.assertEqual((one["pairs"], one["dataset"], one["worst_pair"]), (1, "axis", "axis"))
        self.assertEqual((one["samples"], one["alpha_per_test"]), (200, 1e-6 / 12))
        five = audit(["--pairs", "5"])
        self.assertEqual((five["pairs"], five["dataset"]), (5, "axis+4-rotated"))
        self.assertEqual(five["samples"], 5 * 200)
        self.assertAlmostEqual(five["alpha_per_test"], 1e-6 / 5 / 12, delta=1e-22)
        self.assertIn(five["worst_pair"], ["axis"] + [f"rotated-{k}" for k in range(1, 5)])
        self.assertEqual(five["verdict"], "no violation found")
        for value in ("0", "65"):
            self.assert_usage_error(["audit", "-m", "dly_gauss", "-e", "1", "--pairs", value],
                                    "--pairs")
        self.assert_usage_error(["audit", "-m", "analyze_gauss", "-e", "1", "--pairs", "2"],
                                "--pairs applies to the exact audit")

    def test_audit_runs_the_exact_audit_of_coinpress_mean(self):
        out = json.loads(self.run_ok(["audit", "--json", "-m", "coinpress_mean", "-e", "1",
                                      "--trials", "300", "--mean-radius", "3", "--steps", "2",
                                      "--k-bound", "4"]))
        self.assertFalse(out["violation"])
        (a,) = out["audits"]
        self.assertEqual(a["verdict"], "no violation found")
        self.assertTrue(a["audit"].startswith("exact"))
        self.assertAlmostEqual(a["rho"], 0.0243559703595, places=10)
        self.assertLessEqual(a["claimed_epsilon"], 1.0)
        self.assertEqual(a["samples"], 600)
        self.assertGreater(a["rho_lower"], 0)
        self.assertLessEqual(a["rho_lower"], a["rho"])
        self.assertLessEqual(a["conformance_distance"], a["conformance_threshold"])
        self.assertEqual(a["findings"], "")
        text = self.run_ok(["audit", "-m", "coinpress_mean", "-e", "1", "--trials", "100"])
        self.assertRegex(text, r"(?m)^coinpress_mean +1 +1e-06 +3 +50 +far-row/near-origin ")
        self.assertIn("dpcov_audit_coinpress_mean", text)

    def test_audit_as_text_names_the_black_box_pair(self):
        out = self.run_ok(["audit", "-m", "coinpress", "-e", "1", "--k-bound", "4", "--trials",
                           "100", "--method", "black-box"])
        self.assertRegex(out, r"(?m)^coinpress +1 +1e-06 +3 +50 +max-l2/sphere/eigenvalue +"
                              r"black-box: lower")
        self.assertIn("dpcov_audit_rows_black_box", out)

    def test_audit_bad_inputs_are_named(self):
        cases = [
            (["-m", "coinpress_mean", "--dataset", "sphere"], "audited on their own"),
            (["-m", "dly_gauss", "--mean-radius", "3"], "applies to coinpress_mean only"),
            (["-m", "dly_gauss", "--steps", "1"], "--steps applies to coinpress and"),
            (["-m", "analyze_gauss", "--method", "exact"], "--method applies to dly_gauss"),
            (["-m", "coinpress,coinpress_mean", "--k-bound", "4"], "in separate calls"),
            (["-m", "dly_gauss", "--dataset", "sphere"], "audited on their own"),
            (["-m", "dly_adaptive", "--neighbour", "add-remove"], "drop --dataset"),
            (["-m", "dly_gauss", "--k-bound", "4"], "--k-bound applies to coinpress and"),
            (["-m", "dly_separate", "--trials", "5"], "--trials must be >= 10 for a black-box"),
            (["-m", "dly_gauss", "--delta", "2"], "delta must be in (0, 1)"),
        ]
        for extra, message in cases:
            with self.subTest(extra=extra):
                self.assert_usage_error(["audit", "-e", "1"] + extra, message)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

"""End-to-end tests of `dpcov release` with the zCDP mechanisms on the rows: the Dong-Liang-Yi ids
(dly_gauss, dly_separate, dly_adaptive, dly_adaptive_paper) and coinpress. Each writes n times its
estimate of X^T X / n with a public receipt (rho, the (epsilon, delta) it implies, the constants,
the private branch and radius) and a curator file; the options of the Gram path are usage errors.

Run by meson as: /usr/bin/python3 zcdp_release_test.py DPCOV_EXECUTABLE
"""
import json
import os
import sys
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_OK, EXIT_USAGE, DpcovCase

DLY = ["dly_gauss", "dly_separate", "dly_adaptive", "dly_adaptive_paper"]


class ZcdpRelease(DpcovCase):
    def write_csv(self, rows, name="data.csv"):
        path = self.path(name)
        header = ",".join(f"x{j}" for j in range(rows.shape[1]))
        np.savetxt(path, rows, delimiter=",", header=header, comments="")
        return path

    def small_norm_rows(self, n=4000, d=5):
        gen = np.random.default_rng(7)
        x = gen.standard_normal((n, d)) * np.arange(1, d + 1)
        return x / (8 * np.linalg.norm(x, axis=1, keepdims=True))

    def release(self, args):
        out = self.path("out.csv")
        result = self.run_dpcov(["release"] + args + ["-o", out, "--quiet"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(out + ".json") as f:
            receipt = json.load(f)
        with open(out + ".curator.json") as f:
            curator = json.load(f)
        matrix = np.loadtxt(out, delimiter=",", skiprows=1)
        return matrix, receipt, curator

    def test_each_dly_id_releases_the_gram_with_its_receipt(self):
        x = self.small_norm_rows()
        path = self.write_csv(x)
        gram = x.T @ x
        for name in DLY:
            matrix, receipt, curator = self.release(
                [path, "-m", name, "--epsilon", "4", "--delta", "1e-6", "--bound", "1",
                 "--seed", "3"])
            self.assertEqual(receipt["mechanism"], name)
            self.assertTrue(receipt["n_public"])
            self.assertEqual(receipt["n"], 4000)
            self.assertLessEqual(receipt["epsilon"], 4.0)
            self.assertGreater(receipt["epsilon"], 3.99)
            self.assertEqual(receipt["delta"], 1e-6)
            self.assertIn(receipt["branch"], ("gauss", "separate"))
            self.assertFalse(receipt["differentially_private"])  # seeded
            self.assertEqual(curator["clipped"], 0)
            np.testing.assert_array_equal(matrix, matrix.T)
            self.assertLess(np.linalg.norm(matrix - gram) / np.linalg.norm(gram), 0.5)
        _, adaptive, _ = self.release([path, "-m", "dly_adaptive", "--epsilon", "4", "--delta",
                                       "1e-6", "--bound", "1"])
        self.assertTrue(adaptive["differentially_private"])
        # A first look that settles the radius releases neither the trace nor a second look.
        if adaptive["first_look_settled"]:
            self.assertEqual(adaptive["histogram_sigma"], 0)
            self.assertEqual(adaptive["trace_sigma"], 0)
        else:
            self.assertAlmostEqual(adaptive["histogram_sigma"], (15 * adaptive["rho"] / 512) ** -0.5)
            self.assertAlmostEqual(adaptive["trace_sigma"], 8 * adaptive["rho"] ** -0.5 / 4000)
        self.assertAlmostEqual(adaptive["first_look_sigma"], (adaptive["rho"] / 512) ** -0.5)
        self.assertEqual(adaptive["svt_epsilon"], 0)

    def test_coinpress_recovers_a_gaussian_covariance(self):
        gen = np.random.default_rng(9)
        x = gen.standard_normal((8000, 4)) * [1.0, 1.5, 2.0, 2.5]
        path = self.write_csv(x)
        matrix, receipt, _ = self.release([path, "-m", "coinpress", "--epsilon", "2", "--delta",
                                           "1e-6", "--k-bound", "20", "--seed", "5"])
        self.assertEqual(receipt["mechanism"], "coinpress")
        self.assertEqual(receipt["steps"], 3)
        self.assertEqual(len(receipt["step_rho"]), 3)
        self.assertLessEqual(sum(receipt["step_rho"]), receipt["rho"])
        np.testing.assert_allclose(np.diag(matrix) / 8000, [1.0, 2.25, 4.0, 6.25], rtol=0.25)

    def test_coinpress_mean_releases_the_private_mean_with_its_public_receipt(self):
        gen = np.random.default_rng(11)
        x = gen.standard_normal((3000, 4)) + [3.0, -1.0, 0.0, 2.0]
        path = self.write_csv(x)
        out = self.path("out.csv")
        result = self.run_dpcov(["release", path, "-m", "coinpress_mean", "--epsilon", "2",
                                 "--delta", "1e-6", "--mean-radius", "50", "--seed", "4", "-o",
                                 out, "--quiet"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        mean = np.loadtxt(out, delimiter=",", skiprows=1)
        with open(out + ".json") as f:
            receipt = json.load(f)
        with open(out + ".curator.json") as f:
            curator = json.load(f)
        self.assertEqual(mean.shape, (4,))
        self.assertLess(np.linalg.norm(mean - [3.0, -1.0, 0.0, 2.0]), 0.2)
        self.assertEqual(receipt["mechanism"], "coinpress_mean")
        self.assertLessEqual(sum(receipt["step_rho"]), receipt["rho"])
        self.assertEqual(len(receipt["step_clip_radius"]), 3)
        self.assertNotIn("clipped", receipt)
        self.assertNotIn("input", receipt)
        self.assertIn("curator_only", curator)
        for args, message in [([], "--mean-radius"), (["--mean-radius", "5", "--bound", "1"],
                                                      "not --bound")]:
            bad = self.run_dpcov(["release", path, "-m", "coinpress_mean", "--epsilon", "2",
                                  "--delta", "1e-6", "-o", self.path("bad.csv")] + args)
            self.assertEqual(bad.returncode, EXIT_USAGE)
            self.assertIn(message, bad.stderr.decode())
            self.assertFalse(os.path.exists(self.path("bad.csv")))

    def test_coinpress_center_estimates_the_covariance_of_rows_with_a_far_mean(self):
        gen = np.random.default_rng(2)
        x = gen.standard_normal((8000, 4)) * [1.0, 1.5, 2.0, 2.5] + [30.0, -10.0, 5.0, 20.0]
        path = self.write_csv(x)
        matrix, receipt, _ = self.release([path, "-m", "coinpress", "--epsilon", "2", "--delta",
                                           "1e-6", "--k-bound", "20", "--center",
                                           "--mean-radius", "100", "--seed", "5"])
        np.testing.assert_allclose(np.diag(matrix) / 8000, [1.0, 2.25, 4.0, 6.25], rtol=0.25)
        centring = receipt["centring"]
        self.assertEqual(centring["mechanism"], "coinpress_mean")
        self.assertLess(np.linalg.norm(np.array(centring["mean"]) - [30.0, -10.0, 5.0, 20.0]), 0.5)
        self.assertLessEqual(centring["rho"] + receipt["rho_covariance"], receipt["rho"])
        self.assertEqual(centring["scale"], np.sqrt(20.0))
        bad = self.run_dpcov(["release", path, "-m", "coinpress", "--epsilon", "2", "--delta",
                              "1e-6", "--k-bound", "20", "--center", "-o", self.path("bad.csv")])
        self.assertEqual(bad.returncode, EXIT_USAGE)
        self.assertIn("--mean-radius", bad.stderr.decode())
        bad = self.run_dpcov(["release", path, "-m", "dly_gauss", "--epsilon", "2", "--delta",
                              "1e-6", "--bound", "1", "--center", "-o", self.path("bad.csv")])
        self.assertEqual(bad.returncode, EXIT_USAGE)
        self.assertFalse(os.path.exists(self.path("bad.csv")))

    def test_coinpress_releases_charge_the_ledger_in_zcdp_and_a_refusal_changes_nothing(self):
        gen = np.random.default_rng(3)
        path = self.write_csv(gen.standard_normal((2000, 3)) + 4.0)
        ledger = self.path("ledger.json")
        common = ["--delta", "1e-6", "--quiet", "--ledger", ledger]
        first = self.run_dpcov(["release", path, "-m", "coinpress_mean", "--epsilon", "1",
                                "--mean-radius", "20", "-o", self.path("m.csv"),
                                "--ledger-epsilon", "3", "--ledger-delta", "1e-5",
                                "--accounting", "zcdp"] + common)
        self.assertEqual(first.returncode, EXIT_OK, first.stderr.decode())
        second = self.run_dpcov(["release", path, "-m", "coinpress", "--epsilon", "1",
                                 "--k-bound", "4", "--center", "--mean-radius", "20", "-o",
                                 self.path("c.csv")] + common)
        self.assertEqual(second.returncode, EXIT_OK, second.stderr.decode())
        with open(ledger) as f:
            state = json.load(f)
        self.assertEqual([c["mechanism"] for c in state["charges"]],
                         ["coinpress_mean", "coinpress"])
        with open(self.path("c.csv") + ".json") as f:
            receipt = json.load(f)
        self.assertAlmostEqual(state["charges"][1]["rho"], receipt["rho"])
        self.assertEqual(receipt["ledger"]["releases"], 2)
        with open(ledger, "rb") as f:
            before = f.read()
        over = self.run_dpcov(["release", path, "-m", "coinpress_mean", "--epsilon", "5",
                               "--mean-radius", "20", "-o", self.path("over.csv")] + common)
        self.assertEqual(over.returncode, 3, over.stderr.decode())
        self.assertIn("cap would be exceeded", over.stderr.decode())
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertFalse(os.path.exists(self.path("over.csv")))

    def test_a_release_failing_after_its_draw_is_charged_and_a_bad_argument_is_not(self):
        # K = DBL_MAX in one step: the noise is drawn, then K Z overflows. The failure is an
        # output of that noise: retrying until a release succeeds must spend the budget each time.
        # With --center the mean is released first, and the covariance then fails the same way.
        # A bad argument fails before any draw and costs nothing. No output is left behind.
        path = self.write_csv(np.random.default_rng(3).standard_normal((300, 3)) * 0.5)
        ledger = self.path("ledger.json")
        out = self.path("o.csv")
        # Seeded: with an unseeded generator a draw whose every |Z| K stays finite releases
        # (a few percent of the calls), and the test would fail at random.
        common = [path, "-m", "coinpress", "--steps", "1", "--epsilon", "0.001", "--delta",
                  "1e-3", "--seed", "4", "--quiet", "--ledger", ledger, "-o", out]
        overflow = ["--k-bound", "1.7976931348623157e308"]
        first = self.run_dpcov(["release"] + common + overflow + [
            "--ledger-epsilon", "10", "--ledger-delta", "1e-2", "--accounting", "zcdp"])
        # A result out of double's range on the caller's values: exit 2, not "internal".
        self.assertEqual(first.returncode, EXIT_INPUT, first.stderr.decode())
        self.assertIn("DPCOV_E_NUMERICAL", first.stderr.decode())
        centred = self.run_dpcov(["release"] + common + overflow + ["--center", "--mean-radius",
                                                                    "10"])
        self.assertEqual(centred.returncode, EXIT_INPUT, centred.stderr.decode())
        with open(ledger, "rb") as f:
            before = f.read()
        book = json.loads(before)
        self.assertEqual([c["mechanism"] for c in book["charges"]],
                         ["coinpress", "coinpress"])
        self.assertTrue(all("not written" in c["output"] for c in book["charges"]))
        self.assertEqual(book["spent"]["releases"], 2)
        for name in (out, out + ".json", out + ".curator.json"):
            self.assertFalse(os.path.exists(name), name)
        bad = self.run_dpcov(["release"] + common + ["--k-bound", "0.5"])
        self.assertEqual(bad.returncode, EXIT_USAGE, bad.stderr.decode())
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertFalse(os.path.exists(out))
        # coinpress_mean on one row at R = 1.5e305: the step's sigma is about 1.2e308, finite,
        # and the seeded noise overflows the mean (a noise over 1.52 sigma in one of 20 columns).
        one = self.write_csv(np.ones((1, 20)), "one.csv")
        mean = self.run_dpcov(["release", one, "-m", "coinpress_mean", "--mean-radius", "1.5e305",
                               "--steps", "1", "--epsilon", "0.001", "--delta", "1e-3",
                               "--seed", "4", "--quiet", "--ledger", ledger, "-o", out])
        self.assertEqual(mean.returncode, EXIT_INPUT, mean.stderr.decode())
        self.assertIn("DPCOV_E_NUMERICAL", mean.stderr.decode())
        with open(ledger) as f:
            self.assertEqual([c["mechanism"] for c in json.load(f)["charges"]],
                             ["coinpress", "coinpress", "coinpress_mean"])
        for name in (out, out + ".json", out + ".curator.json"):
            self.assertFalse(os.path.exists(name), name)

    def test_dong_liang_yi_releases_charge_the_ledger_under_every_accounting(self):
        path = self.write_csv(self.small_norm_rows(500, 3))
        # zCDP: rho at (1, 1e-6) is about 0.023, and the cap (2.5, 1e-5) holds rho 0.12.
        for accounting, fit in (("basic", 2), ("advanced", 2), ("zcdp", 5)):
            with self.subTest(accounting=accounting):
                ledger = self.path(f"{accounting}.json")
                common = ["-m", "dly_adaptive", "--epsilon", "1", "--delta", "1e-6", "--bound",
                          "1", "--quiet", "--ledger", ledger]
                for i in range(fit):
                    extra = ["--ledger-epsilon", "2.5", "--ledger-delta", "1e-5",
                             "--accounting", accounting] if i == 0 else []
                    ok = self.run_dpcov(["release", path, "-o", self.path(f"d{i}.csv")] +
                                        common + extra)
                    self.assertEqual(ok.returncode, EXIT_OK, ok.stderr.decode())
                with open(ledger, "rb") as f:
                    before = f.read()
                book = json.loads(before)
                with open(self.path("d0.csv") + ".json") as f:
                    receipt = json.load(f)
                self.assertEqual([c["mechanism"] for c in book["charges"]],
                                 ["dly"] * fit)
                self.assertAlmostEqual(book["charges"][0]["rho"], receipt["rho"])
                over = self.run_dpcov(["release", path, "-o", self.path("over.csv")] + common)
                self.assertEqual(over.returncode, 3, over.stderr.decode())
                with open(ledger, "rb") as f:
                    self.assertEqual(f.read(), before)
                self.assertFalse(os.path.exists(self.path("over.csv")))

    def plan_json(self, args):
        result = self.run_dpcov(["plan", "--json"] + args)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return json.loads(result.stdout)

    def test_the_release_is_planned_at_the_public_n_not_a_stand_in(self):
        # The constants depend on n (public under replace-one). The release was planned at n = 1
        # before reading the rows, and refused settings that the real n allows: a CoinPress mean
        # radius of 1e305 (its first step's noise overflows at n = 1), with or without --center,
        # and a Dong-Liang-Yi bound of 1e153 (its noise exceeds DBL_MAX / 128 at n = 1).
        n = 2000
        gen = np.random.default_rng(5)
        far = self.write_csv(gen.standard_normal((n, 3)) + 1e150, "far.csv")
        budget = ["--epsilon", "1", "--delta", "1e-6", "--seed", "8"]
        mean_args = ["-m", "coinpress_mean", "--mean-radius", "1e305"]
        mean, receipt, _ = self.release([far] + mean_args + budget)
        self.assertTrue(np.all(np.isfinite(mean)))
        plan = self.plan_json(mean_args + budget[:4] + ["--dims", "3", "--rows", str(n)])
        for key in ("step_rho", "step_clip_radius", "step_sigma"):
            self.assertEqual(receipt[key], plan[key], key)
        at_one = self.run_dpcov(["plan"] + mean_args + budget[:4] + ["--dims", "3", "--rows", "1"])
        self.assertNotEqual(at_one.returncode, EXIT_OK)  # the stand-in's refusal
        centre_args = ["-m", "coinpress", "--k-bound", "4", "--center", "--mean-radius", "1e305"]
        centred, receipt, _ = self.release([far] + centre_args + budget)
        self.assertTrue(np.all(np.isfinite(centred)))
        plan = self.plan_json(centre_args + budget[:4] + ["--dims", "3", "--rows", str(n)])
        self.assertEqual(receipt["centring"]["step_sigma"], plan["centring"]["step_sigma"])
        small = self.write_csv(self.small_norm_rows(n, 3), "small.csv")
        for name in ("dly_gauss", "dly_separate", "dly_adaptive"):
            with self.subTest(name):
                matrix, receipt, _ = self.release([small, "-m", name, "--bound", "1e153"] + budget)
                self.assertTrue(np.all(np.isfinite(matrix)))
                plan = self.plan_json(["-m", name, "--bound", "1e153"] + budget[:4] +
                                      ["--dims", "3", "--rows", str(n)])
                self.assertEqual(receipt["trace_sigma"], plan["trace_sigma"])
                if name != "dly_adaptive":
                    self.assertEqual(receipt["sigma_matrix"], plan["sigma_matrix"])

    def test_settings_refused_at_the_public_n_are_refused_before_any_draw(self):
        # Three rows at B = 9e153: dly_gauss's noise would exceed DBL_MAX / 128 at this n. The
        # plan, made once the rows are read, refuses before any noise: nothing is written and
        # the ledger is not charged.
        path = self.write_csv(self.small_norm_rows(3, 3))
        ledger = self.path("ledger.json")
        out = self.path("o.csv")
        common = [path, "-m", "dly_gauss", "--epsilon", "1", "--delta", "1e-6", "--quiet",
                  "--seed", "2", "--ledger", ledger, "-o", out]
        first = self.run_dpcov(["release"] + common + [
            "--bound", "1", "--ledger-epsilon", "10", "--ledger-delta", "1e-2"])
        self.assertEqual(first.returncode, EXIT_OK, first.stderr.decode())
        for name in (out, out + ".json", out + ".curator.json"):
            os.remove(name)
        with open(ledger, "rb") as f:
            before = f.read()
        refused = self.run_dpcov(["release"] + common + ["--bound", "9e153"])
        self.assertEqual(refused.returncode, EXIT_USAGE, refused.stderr.decode())
        self.assertIn("DBL_MAX / 128", refused.stderr.decode())
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        for name in (out, out + ".json", out + ".curator.json"):
            self.assertFalse(os.path.exists(name), name)

    def test_n_times_the_estimate_is_finite_or_nothing_is_written(self):
        # The written matrix is n times the estimate, which can overflow where the estimate does
        # not: ten rows at B = 9e153 wrote "inf" with exit 0 (Dong-Liang-Yi's entries reach B^2),
        # and so did CoinPress at K = 1e305 (its seeded estimate is finite, n times it is not).
        # Both now fail after their draw, charged, and write nothing; just below, all is finite.
        big = self.write_csv(np.tile([8.9e153, 0.0], (10, 1)), "big.csv")
        gauss = self.write_csv(np.random.default_rng(3).standard_normal((300, 3)) * 0.5)
        ledger = self.path("ledger.json")
        out = self.path("o.csv")
        runs = [[big, "-m", name, "--epsilon", "1000", "--delta", "1e-6", "--bound", "9e153"]
                for name in DLY]
        runs.append([gauss, "-m", "coinpress", "--steps", "1", "--epsilon", "0.001", "--delta",
                     "1e-3", "--k-bound", "1e305"])
        for i, args in enumerate(runs):
            result = self.run_dpcov(["release"] + args + [
                "--seed", "4", "--quiet", "--ledger", ledger, "--ledger-epsilon", "1e5",
                "--ledger-delta", "0.5", "-o", out])
            self.assertEqual(result.returncode, EXIT_INPUT, result.stderr.decode())
            self.assertIn("overflows", result.stderr.decode())
            with open(ledger) as f:
                charges = json.load(f)["charges"]
            self.assertEqual(len(charges), i + 1)
            self.assertIn("not written", charges[-1]["output"])
            for name in (out, out + ".json", out + ".curator.json"):
                self.assertFalse(os.path.exists(name), name)
        for args in ([big, "-m", "dly_gauss", "--epsilon", "1000", "--delta", "1e-6", "--bound",
                      "2e153"],
                     [gauss, "-m", "coinpress", "--steps", "1", "--epsilon", "0.001", "--delta",
                      "1e-3", "--k-bound", "1e303"]):
            matrix, _, _ = self.release(args + ["--seed", "4"])
            self.assertTrue(np.all(np.isfinite(matrix)))

    def test_rows_over_the_bound_are_clipped_or_refused(self):
        x = self.small_norm_rows(200, 3)
        x[4] = [3.0, 0.0, 0.0]
        path = self.write_csv(x)
        _, _, curator = self.release([path, "-m", "dly_gauss", "--epsilon", "1", "--delta", "1e-6",
                                      "--bound", "1"])
        self.assertEqual(curator["clipped"], 1)
        result = self.run_dpcov(["release", path, "-m", "dly_gauss", "--epsilon", "1", "--delta",
                                 "1e-6", "--bound", "1", "--reject", "-o", self.path("r.csv")])
        self.assertEqual(result.returncode, EXIT_INPUT)
        self.assertFalse(os.path.exists(self.path("r.csv")))

    def test_options_of_the_gram_path_are_usage_errors(self):
        path = self.write_csv(self.small_norm_rows(100, 3))
        base = ["release", path, "--epsilon", "1", "-o", self.path("u.csv")]
        cases = [
            (["-m", "dly_adaptive", "--bound", "1"], "--delta"),
            (["-m", "dly_adaptive", "--delta", "1e-6"], "--bound"),
            (["-m", "dly_adaptive", "--delta", "1e-6", "--bound", "auto"], "--bound auto"),
            (["-m", "dly_adaptive", "--delta", "1e-6", "--bound", "1", "--neighbour",
              "add-remove"], "replace-one"),
            (["-m", "dly_adaptive", "--delta", "1e-6", "--bound", "1", "--k-bound", "4"],
             "coinpress only"),
            (["-m", "coinpress", "--delta", "1e-6"], "--k-bound"),
            (["-m", "coinpress", "--delta", "1e-6", "--k-bound", "4", "--bound", "1"],
             "--k-bound, not --bound"),
            (["-m", "analyze_gauss", "--delta", "1e-6", "--bound", "1", "--steps", "2"],
             "coinpress only"),
        ]
        for extra, message in cases:
            result = self.run_dpcov(base + extra)
            self.assertEqual(result.returncode, EXIT_USAGE, (extra, result.stderr.decode()))
            self.assertIn(message, result.stderr.decode(), extra)
            self.assertFalse(os.path.exists(self.path("u.csv")))

    def test_a_file_read_once_per_pass_releases_what_stdin_releases(self):
        # From a file, dly_* and coinpress read the file again for each pass instead of holding
        # the rows; from standard input they read its spool (spool_test.py: byte-identical). With
        # one seed both draw the same noise: the same receipt but for the input's description,
        # the matrix within the rounding of the compensated sums. dly_adaptive_paper clips these rows (norms up to about 1/8 at
        # --bound 1) to r~ < r, so its second pass runs.
        x = self.small_norm_rows(3000, 4)
        x[::300] *= 8  # a few rows on the sphere, over --bound 0.5 for the clipped count
        path = self.write_csv(x)
        with open(path, "rb") as f:
            data = f.read()
        for name in DLY + ["coinpress"]:
            setting = ["--k-bound", "10"] if name == "coinpress" else ["--bound", "1"]
            args = ["-m", name, "--epsilon", "2", "--delta", "1e-6", "--seed", "11"] + setting
            from_file = self.path(f"{name}_file.csv")
            from_stdin = self.path(f"{name}_stdin.csv")
            for source, out, stdin in ((path, from_file, None), ("-", from_stdin, data)):
                result = self.run_dpcov(["release", source] + args + ["-o", out, "--quiet"],
                                        stdin=stdin)
                self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            receipts = []
            for out in (from_file, from_stdin):
                with open(out + ".json") as f:
                    receipts.append(json.load(f))
                receipts[-1] = {k: v for k, v in receipts[-1].items()
                                if not isinstance(v, dict) or "path" not in v}
            self.maxDiff = None
            self.assertEqual(receipts[0], receipts[1], name)
            if name == "dly_adaptive_paper":
                self.assertLess(receipts[0]["clip_radius"], 1.0)
            a = np.loadtxt(from_file, delimiter=",", skiprows=1)
            b = np.loadtxt(from_stdin, delimiter=",", skiprows=1)
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-9 * max(1.0, np.abs(b).max()),
                                       err_msg=name)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

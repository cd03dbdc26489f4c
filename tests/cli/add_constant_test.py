"""`dpcov release --add-constant`: a constant column `const` holding B in front of every row of a
`--bound B` or `--bound auto` release (rows [B, x] with x clipped to B, norm bound sqrt(2) B), so
that `pca --center`, `glasso --center` and `regress --intercept const` work on raw data in its own
units without a column of ones in the file; the receipt records the column; the option is refused
where it does not apply.

Run by meson as: /usr/bin/python3 add_constant_test.py DPCOV SOURCE_ROOT
"""
import json
import math
import os
import sys
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_OK, EXIT_USAGE, DpcovCase

GAUSS = ["-m", "analyze_gauss", "-d", "1e-6", "-q"]


class AddConstant(DpcovCase):
    def setUp(self):
        super().setUp()
        self.csv = os.path.join(SOURCE_ROOT, "data", "diabetes.csv")
        with open(self.csv) as f:
            self.names = f.readline().strip().split(",")
        self.raw = np.genfromtxt(self.csv, delimiter=",", skip_header=1)

    def ok(self, args):
        result = self.run_dpcov(args)
        self.assertEqual(result.returncode, EXIT_OK, (args, result.stderr.decode()))
        return result

    def json_of(self, args):
        return json.loads(self.ok(args + ["--json"]).stdout)

    def receipt(self, matrix):
        with open(matrix + ".json") as f:
            return json.load(f)

    def test_raw_diabetes_through_bound_auto_pca_and_regress_in_the_users_units(self):
        ledger, out = self.path("budget.json"), self.path("diabetes.npy")
        self.ok(["release", self.csv, "--bound", "auto", "--add-constant", "-e", "1", "-o", out,
                 "--seed", "16", "--ledger", ledger, "--ledger-epsilon", "2", "--ledger-delta",
                 "1e-5"] + GAUSS)
        receipt = self.receipt(out)
        B = receipt["bound_selection"]["bound"]
        self.assertEqual(receipt["columns"], ["const"] + self.names)
        self.assertEqual(receipt["constant_column"]["name"], "const")
        # Analyze Gauss runs with exact numerics by default: the rows, the constant too, are
        # rounded to the grid of unit bound 2^-bits (dpcov/exact.h).
        grid = receipt["exact_grid"]
        value = np.rint(B * (2.0**grid["bits"] / receipt["bound"])) * grid["unit"]
        self.assertEqual(receipt["constant_column"]["value"], value)
        self.assertAlmostEqual(value / B, 1.0, delta=1e-3)
        self.assertEqual(receipt["constant_column"]["row_bound"], B)
        self.assertEqual(receipt["constant_column"]["norm_bound"], receipt["bound"])
        self.assertGreaterEqual(receipt["bound"], math.sqrt(2) * B)
        self.assertLess(receipt["bound"], math.sqrt(2) * B * (1 + 1e-15))
        # The ledger adds up: the bound step and the release, epsilon 1 in all, delta the release's.
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([c["mechanism"] for c in book["charges"]], ["private_bound", "analyze_gauss"])
        self.assertAlmostEqual(sum(c["epsilon"] for c in book["charges"]), 1.0, places=12)
        self.assertLessEqual(book["spent"]["epsilon"], 1.0)
        self.assertEqual(book["spent"]["delta"], 1e-6)
        # Entry (const, const) estimates value^2 n.
        released = np.load(out)
        self.assertAlmostEqual(released[0, 0] / value**2 / len(self.raw), 1.0, delta=0.2)

        # pca centres by default, as with --center; the mean is in the data's units.
        for extra in ([], ["--center"]):
            pca = self.json_of(["pca", out, "-k", "2", "--seed", "1"] + extra)
            self.assertTrue(pca["centred"])
            mean = np.array([pca["mean"][name] for name in self.names])
            clipped = self.raw * np.minimum(1, B / np.linalg.norm(self.raw, axis=1))[:, None]
            # The noise of the mean: about 2 B sigma / (B^2 n) per column at sigma ~ 5 B^2.
            self.assertTrue(np.all(np.abs(mean - clipped.mean(axis=0)) < 0.1 * B),
                            (mean, clipped.mean(axis=0), B))

        # regress takes 'const' as the intercept and reports it in the label's units.
        fit = self.json_of(["regress", out, "--label", "progression", "--intercept", "const",
                            "--features", "bmi,bp,s5", "--seed", "1"])
        self.assertEqual(fit["intercept"], "const")
        self.assertEqual(fit["intercept_constant"], value)

    def test_with_little_noise_the_mean_and_the_fit_are_the_datas(self):
        # A public B above every row's norm (no clipping), a large epsilon and idealized numerics
        # (the exact path rounds the rows to a grid): the centred mean, the covariance and the
        # regression come back in the data's units, as numpy computes them.
        B = float(np.ceil(np.linalg.norm(self.raw, axis=1).max()))
        out = self.path("sharp.npy")
        self.ok(["release", self.csv, "--bound", str(B), "--add-constant", "-e", "1e6", "-o", out,
                 "--seed", "3", "--numerics", "idealized"] + GAUSS)
        with open(out + ".curator.json") as f:
            self.assertEqual(json.load(f)["clipped"], 0)
        # Analytic Gaussian noise shrinks as 1 / sqrt(epsilon) only: sigma ~ 435 here, about 1
        # on the covariance, 0.002 on the mean.
        glasso = self.ok(["glasso", out, "--rho", "5", "--center"])
        self.assertIn("centred", glasso.stdout.decode())
        pca = self.json_of(["pca", out, "-k", "1", "--seed", "1"])
        mean = np.array([pca["mean"][name] for name in self.names])
        self.assertTrue(np.allclose(mean, self.raw.mean(axis=0), atol=0.02),
                        (mean, self.raw.mean(axis=0)))
        fit = self.json_of(["regress", out, "--label", "progression", "--intercept", "const",
                            "--features", "bmi,bp", "--seed", "1", "--plug-in"])
        self.assertEqual(fit["intercept_constant"], B)
        coef = np.array([row["coef"] for row in fit["plug_in"]])
        # Exactly the least-squares solution on the release, the intercept times B ...
        released = np.load(out)
        terms = [0, 1 + self.names.index("bmi"), 1 + self.names.index("bp")]
        label = 1 + self.names.index("progression")
        solved = np.linalg.solve(released[np.ix_(terms, terms)], released[terms, label])
        solved[0] *= B
        self.assertTrue(np.allclose(coef, solved, rtol=1e-9), (coef, solved))
        # ... and close to the data's own fit, in the data's units.
        design = np.column_stack([np.ones(len(self.raw)), self.raw[:, [2, 3]]])
        exact = np.linalg.lstsq(design, self.raw[:, 10], rcond=None)[0]
        self.assertTrue(np.allclose(coef, exact, rtol=0.05), (coef, exact))

    def test_regress_under_add_remove_takes_n_from_the_released_count(self):
        # The receipt withholds n; --intercept const uses the released count S_cc / B^2 (post-
        # processing, as Python's PrivateLinearRegression), which --rows otherwise must give.
        B = float(np.ceil(np.linalg.norm(self.raw, axis=1).max()))
        out = self.path("add_remove.npy")
        self.ok(["release", self.csv, "--bound", str(B), "--add-constant", "-e", "1e6", "-o", out,
                 "--seed", "3", "--numerics", "idealized", "--neighbour", "add-remove"] + GAUSS)
        self.assertNotIn("n", self.receipt(out))
        args = ["regress", out, "--label", "progression", "--features", "bmi,bp", "--seed", "1",
                "--plug-in"]
        fit = self.json_of(args + ["--intercept", "const"])
        released = np.load(out)
        self.assertEqual(fit["n"], round(released[0, 0] / B ** 2))
        self.assertEqual(fit["n"], len(self.raw))  # the noise on the count is about 0.01 here
        self.assertTrue(fit["n_released_count"])
        given = self.json_of(args + ["--intercept", "const", "--rows", str(fit["n"])])
        self.assertNotIn("n_released_count", given)
        self.assertEqual(given["plug_in"], fit["plug_in"])
        text = self.ok(args + ["--intercept", "const"]).stdout.decode()
        self.assertIn("the released count of column 'const'", text)
        refused = self.run_dpcov(args)
        self.assertEqual(refused.returncode, EXIT_USAGE, refused.stderr.decode())
        self.assertIn("--rows", refused.stderr.decode())

    def test_exact_numerics_centre_on_the_constant_as_rounded_to_their_grid(self):
        # The exact path rounds every coordinate to its grid, the constant B included: centring
        # on the rounded constant recovers the mean of the rounded rows (centring on B itself
        # would scale it by about 1e-4).
        B = float(np.ceil(np.linalg.norm(self.raw, axis=1).max()))
        out = self.path("exact.npy")
        self.ok(["release", self.csv, "--bound", str(B), "--add-constant", "-e", "1e6", "-o", out,
                 "--seed", "3", "--numerics", "exact"] + GAUSS)
        receipt = self.receipt(out)
        # No row is over B, and none of the rows [B, x] is over sqrt(2) B as the release sums it.
        with open(out + ".curator.json") as f:
            self.assertEqual(json.load(f)["clipped"], 0)
        to_grid = 2.0**receipt["exact_grid"]["bits"] / receipt["bound"]
        rounded = np.rint(self.raw * to_grid) * receipt["exact_grid"]["unit"]
        pca = self.json_of(["pca", out, "-k", "1", "--seed", "1"])
        mean = np.array([pca["mean"][name] for name in self.names])
        self.assertTrue(np.allclose(mean, rounded.mean(axis=0), atol=0.01),
                        (mean, rounded.mean(axis=0)))

    def test_rows_over_b_are_clipped_and_said_so_or_rejected(self):
        result = self.ok(["release", self.csv, "--bound", "100", "--add-constant", "-e", "1",
                          "-o", self.path("c.npy"), "--seed", "1", "-m", "analyze_gauss", "-d",
                          "1e-6"])
        self.assertIn("scaled down to it", result.stderr.decode())
        self.assertIn("over --bound 100", result.stderr.decode())
        with open(self.path("c.npy.curator.json")) as f:
            self.assertGreater(json.load(f)["clipped"], 0)
        rejected = self.run_dpcov(["release", self.csv, "--bound", "100", "--add-constant", "-e",
                                   "1", "-o", self.path("r.npy"), "--reject"] + GAUSS)
        self.assertEqual(rejected.returncode, EXIT_INPUT, rejected.stderr.decode())
        self.assertIn("diabetes.csv:2", rejected.stderr.decode())
        self.assertFalse(os.path.exists(self.path("r.npy")))

    def test_a_rejected_row_whose_norm_overflows_is_refused_without_inf_and_nothing_is_written(self):
        # Its plain sum of squares overflows: the message gives the scaled norm, never "inf";
        # the user's row appears in their local message only, and no output or receipt is written.
        path = self.path("huge.csv")
        with open(path, "w") as f:
            f.write("a,b\n1,1\n1.5e308,-1.5e308\n")
        rejected = self.run_dpcov(["release", path, "--bound", "100", "--add-constant", "-e",
                                   "1", "-o", self.path("h.npy"), "--reject"] + GAUSS)
        message = rejected.stderr.decode()
        self.assertEqual(rejected.returncode, EXIT_INPUT, message)
        self.assertIn("huge.csv:3: row 2 has Euclidean norm > --bound 100", message)
        self.assertNotIn("inf", message)
        self.assertFalse(os.path.exists(self.path("h.npy")))
        self.assertFalse(os.path.exists(self.path("h.npy.receipt.json")))

    def test_refused_where_it_does_not_apply(self):
        ledger = self.path("budget.json")
        self.ok(["release", self.csv, "--bound", "1000", "-e", "0.5", "-o", self.path("a.npy"),
                 "--ledger", ledger, "--ledger-epsilon", "2", "--ledger-delta", "1e-5"] + GAUSS)
        with open(ledger, "rb") as f:
            before = f.read()
        bounds = os.path.join(SOURCE_ROOT, "data", "diabetes_bounds.csv")
        with open(self.path("const.csv"), "w") as f:
            f.write("const,x\n1,2\n1,3\n")
        for args, words in (
                (["-m", "analyze_gauss", "--bounds", bounds],
                 "puts a constant column 'const' in front already"),
                (["--bound", "1000", "-m", "dly_gauss"], "--add-constant applies to the Gram"),
                (["-m", "coinpress", "--k-bound", "4"], "--add-constant applies to the Gram"),
                (["-m", "analyze_gauss"], "a release needs a public bound"),
                (["-m", "analyze_gauss", "--bound", "1.3e154"], "too large for --add-constant")):
            with self.subTest(args=args):
                result = self.run_dpcov(["release", self.csv, "--add-constant", "-e", "0.5", "-o",
                                         self.path("b.npy"), "--ledger", ledger, "-d", "1e-6",
                                         "-q"] + args)
                self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
                self.assertIn(words, result.stderr.decode())
                self.assertFalse(os.path.exists(self.path("b.npy")))
                with open(ledger, "rb") as f:
                    self.assertEqual(f.read(), before)
        clash = self.run_dpcov(["release", self.path("const.csv"), "--add-constant", "--bound",
                                "5", "-e", "1", "-o", self.path("k.npy")] + GAUSS)
        self.assertEqual(clash.returncode, EXIT_USAGE, clash.stderr.decode())
        self.assertIn("has a column named 'const' already", clash.stderr.decode())
        # pca --center on a release without a constant column names the option that adds one.
        centre = self.run_dpcov(["pca", self.path("a.npy"), "--center"])
        self.assertEqual(centre.returncode, EXIT_USAGE)
        self.assertIn("--add-constant", centre.stderr.decode())


if __name__ == "__main__":
    DpcovCase.dpcov, SOURCE_ROOT = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)

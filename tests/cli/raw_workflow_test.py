"""The raw-data workflow of issue 16, end to end: data in its own units goes through
`dpcov release --bounds` (or `--bound auto --add-constant`), then `pca` (centred by default) and `regress`, with results in the
user's units, no silent clipping and a ledger that adds up; the same in Python in 10 lines
(examples/raw_workflow.py).

Data: the raw diabetes file (data/diabetes.csv with its public ranges data/diabetes_bounds.csv),
and a generated CSV of MEGABYTES (default 2; the long suite runs 200) whose columns have scales
1e-3, 1, 1e3 and 1e6, a label linear in them, and one outlier outside its range.

Run by meson as: /usr/bin/python3 raw_workflow_test.py DPCOV SOURCE_ROOT LIBRARY [MEGABYTES]
"""
import json
import os
import subprocess
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, EXIT_PRIVACY, DpcovCase

MEGABYTES = 2
SCALES = np.array([1e-3, 1.0, 1e3, 1e6])
SLOPES = np.array([2e3, -3.0, 5e-3, 1e-6])  # each column moves the label by about the same amount


class RawWorkflow(DpcovCase):
    def ok(self, args):
        result = self.run_dpcov(args)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.assertNotIn("clipped to it", result.stderr.decode())
        self.assertNotIn("were scaled down", result.stderr.decode())
        return result

    def json_of(self, args):
        return json.loads(self.ok(args + ["--json"]).stdout)

    def test_raw_diabetes_release_pca_and_regress_in_the_users_units(self):
        data = os.path.join(SOURCE_ROOT, "data")
        raw = np.genfromtxt(os.path.join(data, "diabetes.csv"), delimiter=",", skip_header=1)
        ledger = self.path("budget.json")
        out = self.path("diabetes.npy")
        self.ok(["release", os.path.join(data, "diabetes.csv"), "--bounds",
                 os.path.join(data, "diabetes_bounds.csv"), "-m", "analyze_gauss", "-e", "1",
                 "-d", "1e-6", "-o", out, "-q", "--ledger", ledger, "--ledger-epsilon", "2",
                 "--ledger-delta", "1e-5", "--seed", "7"])
        pca = self.json_of(["pca", out, "-k", "2", "--seed", "1"])
        self.assertTrue(pca["centred"])
        # The private mean is in the data's units: each within its public range.
        bounds = np.genfromtxt(os.path.join(data, "diabetes_bounds.csv"), delimiter=",", names=True)
        mean = np.array(list(pca["mean"].values()))
        self.assertTrue(np.all(np.abs(mean - raw.mean(axis=0)) < (bounds["max"] - bounds["min"])))
        result = self.run_dpcov(["regress", out, "--label", "progression", "--intercept", "const",
                                 "--features", "bmi,bp,s5", "--json", "--seed", "1"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(ledger) as f:
            self.assertEqual(json.load(f)["spent"]["epsilon"], 1.0)

    def test_a_mixed_scale_file_comes_back_in_its_units_and_the_ledger_adds_up(self):
        gen = np.random.default_rng(16)
        block = gen.uniform(-1, 1, size=(2000, 4)) * SCALES
        label = block @ SLOPES + gen.normal(0, 0.5, 2000)
        rows = np.column_stack([block, label])
        rows[0, 3] = 5e6  # outside its range: clamped, and the count is the curator's
        text = "x_milli,x_unit,x_kilo,x_mega,y\n" + "".join(
            ",".join(repr(float(v)) for v in r) + "\n" for r in rows)
        path = self.path("mixed.csv")
        with open(path, "w") as f:
            f.write(text[:text.index("\n") + 1])
            body = text[text.index("\n") + 1:]
            for _ in range(max(1, MEGABYTES * 1_000_000 // len(body))):
                f.write(body)
        repeats = max(1, MEGABYTES * 1_000_000 // len(body))
        print(f"\nmixed.csv: {os.path.getsize(path) / 1e6:.0f} MB, {2000 * repeats} rows",
              file=sys.stderr)
        bounds = ",".join(f"{-s}:{s}" for s in SCALES) + ",-12:12"
        ledger = self.path("budget.json")
        # A fixed seed: the test is deterministic (and the receipts say it is not private).
        base = ["-m", "analyze_gauss", "-d", "1e-7", "-q", "--ledger", ledger, "--bounds", bounds,
                "--seed", "16"]
        first = self.run_dpcov(["release", path, "-e", "0.5", "-o", self.path("a.npy"),
                                "--ledger-epsilon", "1", "--ledger-delta", "1e-6"] + base)
        self.assertEqual(first.returncode, EXIT_OK, first.stderr.decode())
        self.assertIn(f"{repeats} values lie outside their --bounds range", first.stderr.decode())
        self.ok(["release", path, "-e", "0.5", "-o", self.path("b.npy")] + base)
        with open(ledger, "rb") as f:
            before = f.read()
        self.assertEqual(json.loads(before)["spent"]["epsilon"], 1.0)
        refused = self.run_dpcov(["release", path, "-e", "0.1", "-o", self.path("c.npy")] + base)
        self.assertEqual(refused.returncode, EXIT_PRIVACY)
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertFalse(os.path.exists(self.path("c.npy")))
        # The release is the second moment of [1, x] in the data's units.
        released = np.load(self.path("a.npy"))
        n = 2000 * repeats
        self.assertAlmostEqual(released[0, 0] / n, 1.0, delta=0.05)
        pca = self.json_of(["pca", self.path("a.npy"), "-k", "1"])
        clamped = rows.copy()
        clamped[0, 3] = 1e6
        mean = np.array(list(pca["mean"].values()))
        scale = np.append(SCALES, 12.0)
        self.assertTrue(np.all(np.abs(mean - clamped.mean(axis=0)) < 0.05 * scale), mean)
        fit = self.json_of(["regress", self.path("a.npy"), "--label", "y", "--intercept", "const",
                            "--seed", "1"])
        table = fit["noise_aware"]["coefficients"][1:]
        coef = np.array([row["coef"] for row in table])
        width = np.array([row["ci_upper"] - row["ci_lower"] for row in table])
        # Each slope in the data's units: the data's own least-squares slope (the block repeats,
        # so it is the block's) within twice the 95% interval's width of the estimate, and the
        # interval itself informative.
        design = np.column_stack([np.ones(len(clamped)), clamped[:, :4]])
        exact = np.linalg.lstsq(design, clamped[:, 4], rcond=None)[0][1:]
        self.assertTrue(np.all(np.abs(coef - exact) < 2 * width), (coef, exact, width))
        self.assertTrue(np.all(width < np.abs(SLOPES)), width)

        # Without public ranges: --bound auto picks B near the 0.95 quantile of the raw norms,
        # charged to a zCDP ledger as the bound step and the release. The rows above B are
        # clipped, and said so (never silently); on these scales B follows the 1e6 column.
        zcdp = self.path("zcdp.json")
        auto = self.run_dpcov(["release", path, "-m", "analyze_gauss", "-e", "1", "-d", "1e-7",
                               "--bound", "auto", "--seed", "16", "-q", "-o",
                               self.path("auto.npy"), "--ledger", zcdp, "--ledger-epsilon", "2",
                               "--ledger-delta", "1e-6", "--accounting", "zcdp"])
        self.assertEqual(auto.returncode, EXIT_OK, auto.stderr.decode())
        self.assertIn("were scaled down to it", auto.stderr.decode())
        with open(self.path("auto.npy.json")) as f:
            receipt = json.load(f)
        self.assertTrue(2e5 < receipt["bound"] < 2.5e6, receipt["bound"])
        with open(zcdp) as f:
            book = json.load(f)
        self.assertEqual([c["mechanism"] for c in book["charges"]], ["private_bound", "analyze_gauss"])
        self.assertLessEqual(book["spent"]["epsilon"], 2.0)
        top = self.json_of(["pca", self.path("auto.npy"), "-k", "1"])
        self.assertGreater(abs(top["eigenvectors"]["x_mega"][0]), 0.99)

        # With --add-constant the same --bound auto release carries a column 'const' holding the
        # chosen B (the rows [B, x] with x clipped to B): pca centres it by default and regress
        # takes it as the intercept, in the data's units, with no column of ones in the file.
        centred = self.path("centred.json")
        auto = self.run_dpcov(["release", path, "-m", "analyze_gauss", "-e", "1", "-d", "1e-7",
                               "--bound", "auto", "--add-constant", "--seed", "16", "-q", "-o",
                               self.path("const.npy"), "--ledger", centred, "--ledger-epsilon",
                               "1", "--ledger-delta", "1e-7"])
        self.assertEqual(auto.returncode, EXIT_OK, auto.stderr.decode())
        self.assertIn("were scaled down to it", auto.stderr.decode())
        with open(self.path("const.npy.json")) as f:
            receipt = json.load(f)
        B = receipt["bound_selection"]["bound"]
        # Exact numerics round the rows to their grid: the column holds B so rounded.
        value = receipt["constant_column"]["value"]
        self.assertEqual(receipt["constant_column"]["row_bound"], B)
        self.assertAlmostEqual(value / B, 1.0, delta=1e-3)
        self.assertGreaterEqual(receipt["bound"], np.sqrt(2) * B)
        with open(centred) as f:
            book = json.load(f)
        self.assertEqual([c["mechanism"] for c in book["charges"]], ["private_bound", "analyze_gauss"])
        self.assertLessEqual(book["spent"]["epsilon"], 1.0)
        top = self.json_of(["pca", self.path("const.npy"), "-k", "1"])
        self.assertTrue(top["centred"])
        self.assertGreater(abs(top["eigenvectors"]["x_mega"][0]), 0.99)
        norms = np.linalg.norm(rows, axis=1)
        clipped = rows * np.minimum(1, B / norms)[:, None]
        self.assertLess(abs(top["mean"]["x_mega"] - clipped[:, 3].mean()), 0.05 * SCALES[3])
        fit = self.json_of(["regress", self.path("const.npy"), "--label", "y", "--intercept",
                            "const", "--seed", "1"])
        self.assertEqual(fit["intercept_constant"], value)

    def test_the_python_workflow_fits_in_ten_lines(self):
        script = os.path.join(SOURCE_ROOT, "examples", "raw_workflow.py")
        with open(script) as f:
            self.assertLessEqual(len(f.read().splitlines()), 10)
        env = dict(os.environ, DPCOV_LIBRARY=LIBRARY, PYTHONDONTWRITEBYTECODE="1",
                   PYTHONPATH=os.path.join(SOURCE_ROOT, "bindings", "python"))
        result = subprocess.run([sys.executable, script, os.path.join(SOURCE_ROOT, "data")],
                                capture_output=True, env=env, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr.decode())
        self.assertIn("spent: 5.0 of 5.0", result.stdout.decode())
        self.assertIn("coef:", result.stdout.decode())
        self.assertNotIn("Warning", result.stderr.decode())


if __name__ == "__main__":
    DpcovCase.dpcov, SOURCE_ROOT, LIBRARY = sys.argv[1], sys.argv[2], sys.argv[3]
    if len(sys.argv) > 4:
        MEGABYTES = int(sys.argv[4])
    unittest.main(argv=sys.argv[:1], verbosity=2)

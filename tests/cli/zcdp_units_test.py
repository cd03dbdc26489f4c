"""The zCDP row mechanisms with privacy units on the command line: `dpcov plan --privacy-unit`
prints the unit-level and per-row budgets the release uses, and the release keeps the same rows
as Python's (both through dpcov_unit_rows_keep) for the same seed and data.

Run by meson as: /usr/bin/python3 zcdp_units_test.py DPCOV (with DPCOV_LIBRARY and PYTHONPATH
set for the Python bindings)
"""
import json
import sys
import unittest

import numpy as np

import dpcov
from cli_case import EXIT_OK, EXIT_USAGE, DpcovCase

K = 3
MECHANISMS = (("dly_gauss", ["--bound", "1"]), ("coinpress", ["--k-bound", "4"]),
              ("coinpress_mean", ["--mean-radius", "2"]))


class ZcdpUnits(DpcovCase):
    def write_units(self, sizes, seed):
        """A CSV of units of the given sizes (units contiguous, ids as text) and its rows."""
        rng = np.random.default_rng(seed)
        ids = np.repeat([f"p{i}" for i in range(len(sizes))], sizes)
        rows = rng.uniform(-0.5, 0.5, size=(len(ids), 2))
        path = self.path(f"units{seed}.csv")
        with open(path, "w") as f:
            f.write("person,a,b\n")
            for i, r in zip(ids, rows):
                f.write(f"{i},{r[0]!r},{r[1]!r}\n")
        return path, ids, rows

    def test_plan_prints_the_unit_and_row_budgets_the_release_uses(self):
        path, _, _ = self.write_units(np.full(30, 2), seed=1)
        for mechanism, extra in MECHANISMS:
            with self.subTest(mechanism=mechanism):
                budget = ["-m", mechanism, "-e", "1", "-d", "1e-6"] + extra
                units = ["--privacy-unit", "person", "--max-rows-per-unit", str(K)]
                plan = self.run_dpcov(["plan", "--dims", "2", "--rows", "30", "--json"] + budget
                                      + units)
                self.assertEqual(plan.returncode, EXIT_OK, plan.stderr.decode())
                planned = json.loads(plan.stdout)
                out = self.path(mechanism + ".npy")
                release = self.run_dpcov(["release", path, "-o", out, "-q", "--seed", "2"]
                                         + budget + units)
                self.assertEqual(release.returncode, EXIT_OK, release.stderr.decode())
                with open(out + ".json") as f:
                    receipt = json.load(f)
                self.assertEqual(planned["privacy_unit"], receipt["privacy_unit"])
                for key in ("rho", "epsilon", "delta", "n"):
                    self.assertEqual(planned[key], receipt[key], key)
                self.assertEqual(planned["n"], K * 30)
                self.assertLessEqual(planned["privacy_unit"]["row_rho"] * K * K, planned["rho"])
                self.assertAlmostEqual(planned["privacy_unit"]["row_rho"] * K * K
                                       / planned["rho"], 1.0, places=12)

    def test_plan_refuses_units_where_they_do_not_apply(self):
        for args in (["-m", "dly_gauss", "--bound", "1", "--privacy-unit", "person"],
                     ["-m", "analyze_gauss", "--bound", "1", "--privacy-unit", "person",
                      "--max-rows-per-unit", "2"],
                     ["-m", "dly_gauss", "--bound", "1", "--privacy-unit", "person",
                      "--max-rows-per-unit", "0"]):
            with self.subTest(args=args):
                plan = self.run_dpcov(["plan", "--dims", "2", "--rows", "30", "-e", "1", "-d",
                                       "1e-6"] + args)
                self.assertEqual(plan.returncode, EXIT_USAGE, plan.stderr.decode())

    def test_the_command_line_and_python_keep_the_same_rows(self):
        # One unit over K rows among 300 padded ones, contiguous: the same draws from the same
        # seed, the same rows kept and the same matrix, byte for byte. Another 3 of the large
        # unit's 40 rows would move the Gram matrix by about 0.1.
        sizes = np.concatenate([[40], np.random.default_rng(5).integers(1, K + 1, size=300)])
        path, ids, rows = self.write_units(sizes, seed=3)
        out = self.path("cli.npy")
        result = self.run_dpcov(["release", path, "-m", "dly_gauss", "-e", "4", "-d", "1e-6",
                                 "--bound", "1", "-o", out, "-q", "--seed", "7",
                                 "--privacy-unit", "person", "--max-rows-per-unit", str(K)])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(out + ".json") as f:
            receipt = json.load(f)
        with dpcov.Rng(seed=7) as rng:
            python = dpcov.dly_release(rows, rng, variant="gauss", radius=1.0,
                                       rho=receipt["rho"], delta=1e-6, privacy_unit=ids,
                                       max_rows_per_unit=K)
        cli = np.load(out)
        self.assertGreater(np.abs(cli).min(), 1.0)  # a release, not the estimator's zero
        # The command line writes n times the estimate of X^T X / n.
        np.testing.assert_allclose(cli, python.covariance * K * len(sizes), rtol=1e-12,
                                   atol=1e-12)

    def test_units_in_any_order_keep_the_same_rows_on_the_command_line_and_in_python(self):
        # Many units over K rows, their rows interleaved: which rows a unit keeps depends on the
        # generator's state when the unit arrives, so both surfaces must hand the library the
        # units in its order (first appearance in the input). A unit's 3 of its up to 9 rows
        # chosen otherwise would move the matrix by about 0.1, far above any rounding.
        sizes = np.random.default_rng(11).integers(1, 3 * K + 1, size=120)
        assert (sizes > K).sum() >= 40
        _, ids, rows = self.write_units(sizes, seed=12)
        order = np.random.default_rng(13).permutation(len(ids))
        ids, rows = ids[order], rows[order]
        path = self.path("interleaved.csv")
        with open(path, "w") as f:
            f.write("person,a,b\n")
            for i, r in zip(ids, rows):
                f.write(f"{i},{r[0]!r},{r[1]!r}\n")
        units = ["--privacy-unit", "person", "--max-rows-per-unit", str(K)]
        for mechanism in ("analyze_gauss", "dly_gauss"):
            with self.subTest(mechanism=mechanism):
                out = self.path(mechanism + "_any.npy")
                result = self.run_dpcov(["release", path, "-m", mechanism, "-e", "1", "-d",
                                         "1e-6", "--bound", "1", "-o", out, "-q", "--seed", "7"]
                                        + units)
                self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                with open(out + ".json") as f:
                    receipt = json.load(f)
                with dpcov.Rng(seed=7) as rng:
                    if mechanism == "dly_gauss":
                        python = dpcov.dly_release(rows, rng, variant="gauss", radius=1.0,
                                                   rho=receipt["rho"], delta=1e-6,
                                                   privacy_unit=ids, max_rows_per_unit=K)
                        expected = python.covariance * (K * len(sizes))  # as the CLI scales
                    else:
                        expected = dpcov.release_rows("analyze_gauss", rows, 1.0, 1.0, 1e-6, rng,
                                                      privacy_unit=ids,
                                                      max_rows_per_unit=K).matrix
                self.assertEqual(np.load(out).tobytes(), np.ascontiguousarray(expected).tobytes())

if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

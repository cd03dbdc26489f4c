"""`dpcov regress --privacy-unit COLUMN --max-rows-per-unit K`: AdaSSP at the level of privacy
units (proofs/adassp_units.md). The fit equals Python's PrivateLinearRegression(
max_rows_per_unit=K).fit(X, y, privacy_unit=ids) for the same seed and data (both keep the rows
through the library's accumulator of units), its public output states the unit and K and no
count of rows, it has no intervals (the same reason as Python's), and bad settings are refused.

Run by meson as: /usr/bin/python3 regress_units_test.py DPCOV (with DPCOV_LIBRARY and PYTHONPATH
set for the Python bindings)
"""
import json
import sys
import unittest
import warnings

import numpy as np

import dpcov
from cli_case import EXIT_OK, EXIT_USAGE, DpcovCase

K = 3


class RegressUnits(DpcovCase):
    def write_units(self, sizes, seed):
        """A CSV of units of the given sizes (contiguous, ids as text), and its columns."""
        gen = np.random.default_rng(seed)
        ids = np.repeat([f"p{i}" for i in range(len(sizes))], sizes)
        x = gen.uniform(-0.6, 0.6, size=(len(ids), 2))
        y = np.clip(x @ [0.7, -0.4] + 0.1 * gen.normal(size=len(ids)), -1, 1)
        path = self.path(f"units{seed}.csv")
        with open(path, "w") as f:
            f.write("person,a,b,y\n")
            for i, r, v in zip(ids, x, y):
                f.write(f"{i},{r[0]!r},{r[1]!r},{v!r}\n")
        return path, ids, x, y

    def regress(self, path, *extra):
        return self.run_dpcov(["regress", path, "-y", "y", "-x", "a,b", "-e", "1", "--bound", "1",
                               "--label-bound", "1", "--noise-seed", "7", "--json",
                               "--privacy-unit", "person", "--max-rows-per-unit", str(K)]
                              + list(extra))

    def test_the_fit_equals_pythons_for_the_same_seed(self):
        path, ids, x, y = self.write_units(np.arange(40) % 6 + 1, seed=1)
        result = self.regress(path)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        out = json.loads(result.stdout)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = dpcov.PrivateLinearRegression(
                epsilon=1.0, delta=1e-6, bound=1.0, label_bound=1.0, max_rows_per_unit=K,
                random_state=dpcov.Rng(7)).fit(x, y, privacy_unit=ids)
        self.assertEqual([row["coef"] for row in out["coefficients"]], list(model.params_))
        receipt = out["receipt"]
        self.assertEqual(receipt["max_rows_per_unit"], K)
        for key in ("sigma_gram", "sigma_cross", "sigma_lambda_min", "rho", "ridge"):
            self.assertEqual(receipt[key], getattr(model.receipt_, key), key)
        self.assertEqual(out["privacy_unit"], {"column": "person", "max_rows_per_unit": K})
        self.assertNotIn("rows", out)
        self.assertEqual(out["noise_aware"]["refused"], dpcov.adassp_units.UNITS_NO_INTERVALS)
        stderr = result.stderr.decode()
        self.assertIn("curator only", stderr)
        self.assertIn("no intervals", stderr)

    def test_the_public_output_is_the_same_for_other_data_with_the_same_units(self):
        outputs = []
        for seed, sizes in ((1, np.arange(40) % 6 + 1), (2, np.arange(40) % 3 + 2)):
            path, _, _, _ = self.write_units(sizes, seed)
            result = self.regress(path)
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            out = json.loads(result.stdout)
            receipt = out["receipt"]
            for key in ("released_lambda_min", "ridge", "eigenvalues_floored"):
                receipt.pop(key)
            outputs.append((receipt, {k: v for k, v in out.items()
                                      if k not in ("coefficients", "receipt", "input")}))
        self.assertEqual(outputs[0], outputs[1])

    def test_plan_prints_the_constants_the_fit_uses(self):
        path, _, _, _ = self.write_units(np.full(20, 2), seed=4)
        fit = json.loads(self.regress(path).stdout)["receipt"]
        bound_x = fit["bound"]  # ||[1, x]||: the intercept's 1 within the bound
        plan = self.run_dpcov(["plan", "-m", "adassp", "-e", "1", "-d", "1e-6", "--bound",
                               repr(bound_x), "--label-bound", "1", "--dims", "3", "--rows", "20", "--json",
                               "--privacy-unit", "person", "--max-rows-per-unit", str(K)])
        self.assertEqual(plan.returncode, EXIT_OK, plan.stderr.decode())
        planned = json.loads(plan.stdout)
        self.assertEqual(planned["privacy_unit"], {"column": "person", "max_rows_per_unit": K})
        for key in ("max_rows_per_unit", "sigma_gram", "sigma_cross", "sigma_lambda_min", "rho",
                    "delta_exact", "noise_norm_bound"):
            self.assertEqual(planned[key], fit[key], key)
        self.assertEqual(planned["regression_forecast"], dpcov.adassp_units.UNITS_NO_INTERVALS)

    def test_bad_unit_settings_are_refused(self):
        path, _, _, _ = self.write_units(np.full(10, 2), seed=3)
        for extra in (["--bound-epsilon", "0.1"], ["--mechanism", "analyze_gauss"],
                      ["--reject"]):
            with self.subTest(extra=extra):
                result = self.regress(path, *extra)
                self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
        alone = self.run_dpcov(["regress", path, "-y", "y", "-x", "a,b", "-e", "1", "--bound",
                                "1", "--label-bound", "1", "--privacy-unit", "person"])
        self.assertEqual(alone.returncode, EXIT_USAGE, alone.stderr.decode())
        too_many = self.regress(path, "--max-rows-per-unit", str(2 ** 20 + 1))
        self.assertNotEqual(too_many.returncode, EXIT_OK)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

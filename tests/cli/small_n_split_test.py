"""The small-n budget split on the CLI (issue 33; proofs/adassp.md, "Without the lambda_min
step"): `regress` on raw rows drops AdaSSP's lambda_min step exactly where the default plan at the
public n expects the small-n posterior, not the bootstrap, to answer (dpcov_adassp_small_n_split,
the decision Python's PrivateLinearRegression takes too); there it releases no meat for robust
intervals, and the output says why; elsewhere, under add/remove (n private) and with
--small-n refuse the fit is the default's.

Run by meson as: /usr/bin/python3 small_n_split_test.py DPCOV
"""
import json
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, DpcovCase


class SmallNSplit(DpcovCase):
    def ok(self, args):
        result = self.run_dpcov(args)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return result

    def write_rows(self, n, seed):
        gen = np.random.default_rng(seed)
        x = gen.uniform(-1, 1, (n, 2))
        y = np.clip(0.5 * x[:, 0] - 0.3 * x[:, 1] + 0.1 * gen.standard_normal(n), -1, 1)
        path = self.path(f"rows{n}.csv")
        np.savetxt(path, np.column_stack([x, y]), delimiter=",", header="a,b,y", comments="")
        return path

    def args(self, n, *extra):
        return ["regress", self.write_rows(n, 5), "--label", "y", "--epsilon", "1", "--bound",
                "1.5", "--label-bound", "1", "--noise-seed", "5", "--seed", "5", "--quiet",
                *extra]

    def test_below_the_bootstraps_n_the_fit_drops_the_lambda_min_step(self):
        # d = 3 with the intercept, B_X^2 = 1 + 1.5^2, epsilon 1: the bootstrap from about
        # n = 320, so at n = 100 the posterior answers and the split is taken.
        fit = json.loads(self.ok(self.args(100, "--json")).stdout)
        receipt = fit["receipt"]
        self.assertIs(receipt["lambda_min_released"], False)
        self.assertEqual(receipt["sigma_lambda_min"], 0)
        self.assertEqual(receipt["ridge"], receipt["noise_norm_bound"])
        self.assertIn("without the lambda_min step", receipt["theorem"])
        split = fit["small_n_split"]
        self.assertIs(split["lambda_min_released"], False)
        self.assertIn("expects the small-n posterior to answer", split["reason"])
        # The default robust errors release no meat there: homoscedastic, and said why.
        self.assertNotIn("sandwich", fit)
        self.assertEqual(fit["noise_aware"]["errors"], "homoscedastic")
        text = self.ok(self.args(100)).stdout.decode()
        self.assertIn("without AdaSSP's lambda_min step", text)

    def test_elsewhere_the_fit_is_the_defaults(self):
        for n, extra in ((20000, ()), (100, ("--neighbour", "add_remove")),
                         (100, ("--small-n", "refuse")), (100, ("--no-intervals",))):
            fit = json.loads(self.ok(self.args(n, "--json", *extra)).stdout)
            self.assertNotIn("small_n_split", fit, (n, extra))
            self.assertNotIn("lambda_min_released", fit["receipt"], (n, extra))
            self.assertGreater(fit["receipt"]["sigma_lambda_min"], 0, (n, extra))


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

"""The default regression's decisions from public values are the same on every surface: both
take them from the library (dpcov_adassp_default_fit), and for a grid of public settings
(features, bound, epsilon, n, errors) `dpcov plan -m adassp --regress` (what `dpcov regress`
decides) and Python's PrivateLinearRegression give the same fit: its share of epsilon (robust
errors hold a share back for the meat), whether the lambda_min step and y'y are released, and the
same forecast. A surface that passed the library other public values would show here.

Run by meson as: /usr/bin/python3 regress_decisions_test.py DPCOV (with DPCOV_LIBRARY and
PYTHONPATH set to the build's library and bindings/python).
"""
import itertools
import json
import sys
import unittest
import warnings

import numpy as np

import dpcov

from cli_case import EXIT_OK, DpcovCase


class RegressDecisions(DpcovCase):
    def ok(self, args):
        result = self.run_dpcov(args)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return result

    def test_python_and_the_command_line_decide_alike(self):
        grid = itertools.product((1, 3), (0.5, 1.5), (0.3, 1.0, 4.0), (20, 60, 90, 150, 400, 2000),
                                 ("robust", "homoscedastic"))
        kinds = set()
        for p, bound, epsilon, n, errors in grid:
            gen = np.random.default_rng(n + p)
            x = gen.uniform(-1, 1, (n, p)) * bound / np.sqrt(p)
            y = np.clip(x.sum(axis=1) + 0.3 * gen.standard_normal(n), -1, 1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fit = dpcov.PrivateLinearRegression(
                    epsilon=epsilon, delta=1e-6, bound=bound, label_bound=1.0, random_state=1,
                    errors=errors, intervals="deferred").fit(x, y)
            # errors_ is not compared: it also says whether the release, after the fit,
            # supported the robust bootstrap (post-processing, not a decision from public values).
            python = (fit.receipt_.epsilon, bool(fit.receipt_.lambda_min_released),
                      fit.receipt_.sigma_label_square > 0, fit.forecast_.crossover_rows,
                      fit.forecast_.intercept == 1)
            plan = json.loads(self.ok(
                ["plan", "-m", "adassp", "-e", repr(epsilon), "-d", "1e-6", "--bound",
                 repr(bound), "--label-bound", "1", "--dims", str(p), "--rows", str(n),
                 "--regress", "--errors", errors, "--json"]).stdout)
            decided = plan["regress"]
            command_line = (plan["epsilon"], decided["lambda_min_released"],
                            decided["label_square_released"],
                            plan["regression_forecast"]["crossover_rows"],
                            plan["regression_forecast"]["intercept"])
            self.assertEqual(python, command_line, (p, bound, epsilon, n, errors))
            kinds.add((decided["errors"], command_line[1], command_line[2]))
        # The grid reaches every outcome: the small-n split without y'y, the posterior's y'y,
        # the whole budget with y'y, and robust errors' share.
        self.assertGreaterEqual(len(kinds), 4, kinds)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

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

    def test_a_bound_step_leaves_the_same_budget_and_decisions_on_both_surfaces(self):
        # With a bound step (--bound-epsilon, Python's bound_epsilon share) and intervals on, both
        # surfaces spend the library's rest of epsilon (dpcov_bound_step_rest) and decide at the
        # public bound, so the fit's receipt and its decisions agree to the last bit, and a fit
        # that holds no share back for the meat spends exactly that rest (a quarter's rest is
        # exact: rounding the difference down once more would lose an ulp).
        # Half the settings have most rows over the public bound (clipped onto it, and counted
        # on it by the bound step): the same generator then chooses the same bound on both
        # surfaces. Counted above it instead, at n = 60 the choice differs for every epsilon.
        grid = itertools.product((60, 150, 400, 2000), (0.5, 2.0), ("robust", "homoscedastic"),
                                 (0.1, 0.25))
        kinds = set()
        for n, epsilon, errors, share in grid:
            gen = np.random.default_rng(n)
            x = gen.uniform(-1, 1, (n, 3)) / np.sqrt(3) * (1.0 if errors == "robust" else 3.0)
            y = np.clip(x.sum(axis=1) + 0.3 * gen.standard_normal(n), -1, 1)
            path = self.path(f"rows_{n}_{epsilon}_{errors}.csv")
            np.savetxt(path, np.column_stack([x, y]), delimiter=",", header="a,b,c,y",
                       comments="")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fit = dpcov.PrivateLinearRegression(
                    epsilon=epsilon, delta=1e-6, bound=1.0, label_bound=1.0, random_state=1,
                    errors=errors, bound_epsilon=share, intervals="deferred").fit(x, y)
            python = (fit.receipt_.epsilon, bool(fit.receipt_.lambda_min_released),
                      fit.receipt_.sigma_label_square > 0, fit.bound_)
            out = json.loads(self.ok(
                ["regress", path, "--label", "y", "-e", repr(epsilon), "--bound", "1",
                 "--label-bound", "1", "--bound-epsilon", repr(share * epsilon), "--errors",
                 errors, "--noise-seed", "1", "--json"]).stdout)
            receipt = out["receipt"]
            command_line = (receipt["epsilon"], receipt.get("sigma_lambda_min", 0) > 0,
                            receipt.get("sigma_label_square", 0) > 0,
                            out["bound_selection"]["bound"])
            self.assertEqual(python, command_line, (n, epsilon, errors, share))
            rest = dpcov.private_bound.bound_step_rest(epsilon, share * epsilon)
            meat_share = python[0] < rest
            if not meat_share:
                self.assertEqual(python[0], rest, (n, epsilon, errors, share))
            kinds.add((meat_share,) + python[1:3])
        # The grid reaches the small-n split, the posterior's y'y and robust errors' share.
        self.assertGreaterEqual(len(kinds), 3, kinds)

if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

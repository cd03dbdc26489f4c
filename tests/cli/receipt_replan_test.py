"""`regress`, `pca` and `glasso` plan a release's receipt again from its public parameters and
refuse (exit 2, naming the field and both values) a receipt whose constants disagree: an edited
sigma made the noise-aware and guaranteed intervals narrower, exit 0. An untouched receipt of
every mechanism `release` runs passes.

Run by meson as: /usr/bin/python3 receipt_replan_test.py DPCOV_EXECUTABLE
"""
import json
import sys
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_OK, DpcovCase

# Every kind of release `dpcov release` writes a square matrix for: the library's mechanisms
# (idealized and exact numerics, both neighbour relations, --add-constant, --bounds) and the zCDP
# ones. The data has 2000 rows of norm <= 1 in 3 columns (sigma_min(A)^2 about 500,
# which ols_jl's test needs).
RELEASES = {
    "analyze_gauss_exact": ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "1"],
    "analyze_gauss": ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "1",
                      "--numerics", "idealized"],
    "analyze_gauss_add_remove": ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "1",
                                 "--numerics", "idealized", "--neighbour", "add-remove"],
    "analyze_gauss_classical": ["-m", "analyze_gauss", "-e", "0.5", "-d", "1e-6", "--bound", "1",
                                "--calibration", "classical-gaussian"],
    "analyze_gauss_add_constant": ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "1",
                                   "--add-constant"],
    "analyze_gauss_bounds": ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bounds", "-1:1"],
    "laplace_sym_exact": ["-m", "laplace_sym", "-e", "1", "--bound", "1"],
    "laplace_sym": ["-m", "laplace_sym", "-e", "1", "--bound", "1", "--numerics", "idealized"],
    "wishart_additive": ["-m", "wishart_additive", "-e", "0.5", "-d", "1e-6", "--bound", "1"],
    "inverse_gauss": ["-m", "inverse_gauss", "-e", "1", "-d", "1e-6", "--bound", "1",
                      "--lambda-min", "4"],
    "wishart_jiang": ["-m", "wishart_jiang", "-e", "1", "--bound", "1",
                      "--audit-only-not-private"],
    "iev": ["-m", "iev", "-e", "1", "--bound", "1"],
    "kt_rank1": ["-m", "kt_rank1", "-e", "1", "--bound", "1", "--rank", "2"],
    "jl_ridge": ["-m", "jl_ridge", "-e", "1", "-d", "1e-6", "--bound", "1",
                 "--projection-rows", "50"],
    "jl_ridge_sigma_min": ["-m", "jl_ridge_sigma_min", "-e", "1", "-d", "1e-6", "--bound", "1",
                           "--projection-rows", "50"],
    "inverse_wishart": ["-m", "inverse_wishart", "-e", "1", "-d", "1e-6", "--bound", "1",
                        "--posterior-dof", "5"],
    "inverse_wishart_sigma_min": ["-m", "inverse_wishart_sigma_min", "-e", "1", "-d", "1e-6",
                                  "--bound", "1", "--posterior-dof", "5"],
    "ols_jl": ["-m", "ols_jl", "-e", "1", "-d", "1e-6", "--bound", "1", "--projection-rows", "50"],
    "analyze_gauss_auto_bound": ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound",
                                 "auto"],
    "dly_gauss": ["-m", "dly_gauss", "-e", "1", "-d", "1e-6", "--bound", "1"],
    "dly_separate": ["-m", "dly_separate", "-e", "1", "-d", "1e-6", "--bound", "1"],
    "dly_adaptive": ["-m", "dly_adaptive", "-e", "1", "-d", "1e-6", "--bound", "1"],
    "dly_adaptive_paper": ["-m", "dly_adaptive_paper", "-e", "1", "-d", "1e-6", "--bound", "1"],
    "coinpress": ["-m", "coinpress", "-e", "1", "-d", "1e-6", "--k-bound", "4"],
    "coinpress_center": ["-m", "coinpress", "-e", "1", "-d", "1e-6", "--k-bound", "4",
                         "--center", "--mean-radius", "10"],
}


class ReceiptReplan(DpcovCase):
    def setUp(self):
        super().setUp()
        gen = np.random.default_rng(11)
        rows = gen.normal(size=(2000, 3))
        rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1.0)
        self.data = self.path("data.csv")
        np.savetxt(self.data, rows, delimiter=",", header="x1,x2,y", comments="")

    def release(self, name):
        out = self.path(name + ".csv")
        result = self.run_dpcov(["release", self.data, "-o", out, "--seed", "7", "--quiet"]
                                + RELEASES[name])
        self.assertEqual(result.returncode, EXIT_OK, f"{name}: {result.stderr.decode()}")
        with open(out + ".json") as f:
            return out, json.load(f)

    def edited(self, name, edit):
        """The release `name` with its receipt changed by `edit` (in place), written beside it."""
        matrix, receipt = self.release(name)
        edit(receipt)
        path = self.path(name + ".edited.json")
        with open(path, "w") as f:
            json.dump(receipt, f)
        return matrix, path

    def analyses(self, matrix, receipt=None):
        extra = [] if receipt is None else ["--receipt", receipt]
        return {
            "pca": self.run_dpcov(["pca", matrix, "-k", "1", "--seed", "1"] + extra),
            "regress": self.run_dpcov(["regress", matrix, "--label", "y", "--seed", "1",
                                       "--bootstrap", "99"] + extra),
            "glasso": self.run_dpcov(["glasso", matrix, "--rho", "0.5", "--as-is"] + extra),
        }

    def assert_refused(self, name, field, edit):
        matrix, receipt = self.edited(name, edit)
        for command, result in self.analyses(matrix, receipt).items():
            message = result.stderr.decode()
            self.assertEqual(result.returncode, EXIT_INPUT, f"{name}, {command}: {message}")
            self.assertIn(f'"{field}"', message, f"{name}, {command}")

    def test_an_untouched_receipt_of_every_release_passes(self):
        for name in RELEASES:
            matrix, _ = self.release(name)
            for command, result in self.analyses(matrix).items():
                message = result.stderr.decode()
                # The analysis itself may decline a noisy matrix (regress or glasso on one that
                # is not positive definite) or a receipt without n (add/remove, a usage error);
                # the receipt, whose refusals name it, is never what it refuses.
                self.assertNotIn(matrix + ".json", message, f"{name}, {command}")
                if command == "pca":
                    self.assertEqual(result.returncode, EXIT_OK, f"{name}: {message}")

    def test_a_smaller_sigma_is_refused_naming_both_values(self):
        # The attack of issue 32: sigma 10^6 times smaller, "guaranteed" intervals 4.6 times
        # narrower.
        def shrink(r):
            r["sigma"] /= 1e6
        matrix, receipt = self.edited("analyze_gauss", shrink)
        result = self.run_dpcov(["regress", matrix, "--label", "y", "--receipt", receipt])
        message = result.stderr.decode()
        self.assertEqual(result.returncode, EXIT_INPUT, message)
        _, original = self.release("analyze_gauss")
        self.assertIn(f'"sigma" is {original["sigma"] / 1e6!r}', message)
        self.assertIn(f"give {original['sigma']!r}", message)
        self.assert_refused("analyze_gauss", "sigma", shrink)

    def test_an_earlier_analytic_sigma_is_accepted_within_its_search_tolerance(self):
        # Releases of 0.1 before the scale-free calibration searched sigma at the sensitivity's
        # mantissa: the same certified sigma to a relative 1e-12, not bit for bit. Such a sigma
        # passes; one a relative 1e-10 away does not.
        for name in ("analyze_gauss", "inverse_gauss"):
            for factor in (1 + 2e-12, 1 - 2e-12):
                matrix, receipt = self.edited(name, lambda r: r.update(sigma=r["sigma"] * factor))
                for command, result in self.analyses(matrix, receipt).items():
                    self.assertNotIn(receipt, result.stderr.decode(), f"{name}, {command}")
            self.assert_refused(name, "sigma", lambda r: r.update(sigma=r["sigma"] * (1 + 1e-10)))

    def test_each_edited_constant_is_refused_by_every_command(self):
        def scaled(key, factor=0.5):
            def edit(r):
                r[key] *= factor
            return edit

        def nested(outer, key):
            def edit(r):
                r[outer][key] = r[outer][key] * 0.5 if not isinstance(r[outer][key], list) \
                    else [v * 0.5 for v in r[outer][key]]
            return edit

        cases = [
            ("analyze_gauss", "sensitivity", scaled("sensitivity")),
            ("analyze_gauss_add_remove", "sigma", scaled("sigma")),
            ("laplace_sym", "scale", scaled("scale")),
            ("wishart_additive", "dof", scaled("dof", 2.0)),
            ("wishart_additive", "scale", scaled("scale")),
            ("inverse_gauss", "sigma", scaled("sigma")),
            ("iev", "exponent_factor", scaled("exponent_factor", 2.0)),
            ("jl_ridge", "threshold_w2", scaled("threshold_w2")),
            ("analyze_gauss_exact", "exact_grid.noise_parameter",
             nested("exact_grid", "noise_parameter")),
            ("laplace_sym_exact", "exact_grid.noise_parameter",
             nested("exact_grid", "noise_parameter")),
            ("analyze_gauss_add_constant", "constant_column.value",
             nested("constant_column", "value")),
            ("analyze_gauss_bounds", "scaling.exact_grid_constant",
             nested("scaling", "exact_grid_constant")),
            ("dly_gauss", "sigma_matrix", scaled("sigma_matrix")),
            ("coinpress", "step_sigma", lambda r: r.update(
                step_sigma=[v * 0.5 for v in r["step_sigma"]])),
            ("coinpress_center", "centring.step_sigma", nested("centring", "step_sigma")),
        ]
        for name, field, edit in cases:
            with self.subTest(release=name, field=field):
                self.assert_refused(name, field, edit)

    def test_a_removed_constant_is_refused(self):
        self.assert_refused("analyze_gauss", "sigma", lambda r: r.pop("sigma"))

    def test_a_seeded_release_relabelled_private_is_refused(self):
        self.assert_refused("analyze_gauss", "differentially_private",
                            lambda r: r.update(differentially_private=True))
        self.assert_refused("analyze_gauss", "seed_fixed",
                            lambda r: r.update(seed_fixed=False, differentially_private=True))
        self.assert_refused("coinpress", "seed_fixed", lambda r: r.pop("seed_fixed"))

    def test_a_privacy_flag_that_is_not_a_boolean_is_an_input_error(self):
        # It was read as a boolean without a check: exit 4, "internal error", even for a receipt
        # of no known mechanism.
        for mechanism in ("analyze_gauss", "unknown"):
            matrix, receipt = self.edited("analyze_gauss", lambda r: r.update(
                mechanism=mechanism, mechanism_differentially_private="yes"))
            for command, result in self.analyses(matrix, receipt).items():
                self.assertEqual(result.returncode, EXIT_INPUT, f"{mechanism}, {command}")
                self.assertIn('"mechanism_differentially_private" must be true or false',
                              result.stderr.decode())

    def test_parameters_no_plan_accepts_are_refused(self):
        matrix, receipt = self.edited("analyze_gauss", lambda r: r.update(delta=2.0))
        result = self.run_dpcov(["pca", matrix, "--receipt", receipt])
        self.assertEqual(result.returncode, EXIT_INPUT, result.stderr.decode())
        self.assertIn("cannot be planned", result.stderr.decode())


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

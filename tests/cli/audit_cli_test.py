"""End-to-end tests of `dpcov audit`: the table and JSON of the auditor for correct mechanisms
(verdict "no violation found", exit code 0) and for Jiang et al.'s Wishart mechanism, run as an
audit target (verdict "violation", exit code 6), plus its usage errors.

Error rate: each audit flags a correct mechanism with probability <= alpha = 1e-6 (the library's
Bonferroni split), and the seeds are fixed, so the outcomes are deterministic. Jiang's mechanism
misses the support of its neighbour with probability 1 - exp(-eps/3) = 0.28 per draw at eps = 1:
the first look at 100 draws sees it with probability 1 - 0.72^100 > 1 - 1e-14.

Run by meson as: /usr/bin/python3 audit_cli_test.py DPCOV_EXECUTABLE
"""
import json
import subprocess
import sys
import unittest

DPCOV = None
EXIT_OK, EXIT_USAGE, EXIT_VIOLATION = 0, 1, 6


def run(args):
    return subprocess.run([DPCOV, "audit"] + args, capture_output=True, text=True, timeout=300)


class AuditCommandTest(unittest.TestCase):
    def test_correct_mechanisms_show_no_violation_and_exit_zero(self):
        result = run(["-m", "analyze_gauss,laplace_sym,jl_ridge", "-e", "1", "--delta", "1e-6",
                      "--dims", "3", "--trials", "400", "--seed", "3"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr)
        lines = [l for l in result.stdout.splitlines() if l.startswith(("analyze_gauss", "laplace_sym", "jl_ridge"))]
        self.assertEqual(len(lines), 3, result.stdout)
        for line in lines:
            self.assertTrue(line.endswith("no violation found"), line)
        self.assertNotIn("verified", result.stdout.lower())
        self.assertIn("max L", result.stdout)
        self.assertIn("samples", result.stdout)
        # The audit says which numerics it drew where the mechanism ships others by default.
        self.assertIn("numerics: analyze_gauss laplace_sym release with exact numerics by default",
                      " ".join(result.stdout.split()))

    def test_jiang_wishart_is_a_violation_with_exit_code_six(self):
        result = run(["-m", "wishart_jiang", "--audit-only-not-private", "-e", "1", "--dims", "3",
                      "--trials", "400", "--seed", "1"])
        self.assertEqual(result.returncode, EXIT_VIOLATION, result.stderr)
        row = [l for l in result.stdout.splitlines() if l.startswith("wishart_jiang")]
        self.assertEqual(len(row), 1, result.stdout)
        self.assertIn("violation (loss_above_epsilon", row[0])
        self.assertIn("inf", row[0])
        self.assertIn("privacy violation", result.stderr)

    def test_json_lists_every_audit_with_its_interval_and_samples(self):
        result = run(["-m", "wishart_jiang,analyze_gauss", "--audit-only-not-private", "-e", "0.5,1",
                      "--dims", "3,4", "--trials", "200", "--json"])
        self.assertEqual(result.returncode, EXIT_VIOLATION, result.stderr)
        report = json.loads(result.stdout)
        self.assertTrue(report["violation"])
        self.assertEqual(len(report["audits"]), 8)
        for audit in report["audits"]:
            self.assertIn(audit["verdict"], ("violation", "no violation found"))
            self.assertLessEqual(audit["delta_lower"], audit["delta_estimate"])
            self.assertLessEqual(audit["delta_estimate"], audit["delta_upper"])
            self.assertGreater(audit["samples"], 0)
            expected = "violation" if audit["mechanism"] == "wishart_jiang" else "no violation found"
            self.assertEqual(audit["verdict"], expected, audit)
        jiang = [a for a in report["audits"] if a["mechanism"] == "wishart_jiang"]
        self.assertTrue(all(a["max_loss"] == "inf" and a["claimed_delta"] == 0.0 for a in jiang))

    def test_each_audit_states_its_power(self):
        # The smallest violation the draws flag: smaller with ten times the draws, in the JSON of
        # every kind of audit (Gram exact, black-box, rows exact, CoinPress mean) and in the
        # table's power section.
        powers = []
        for trials in ("400", "4000"):
            mechanisms = "analyze_gauss,dly_adaptive"
            if trials == "400":
                mechanisms += ",dly_gauss,coinpress_mean"  # the exact audits on rows
            result = run(["-m", mechanisms, "-e", "1", "--delta", "1e-6", "--dims", "3", "--trials",
                          trials, "--json"])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr)
            audits = {a["mechanism"]: a for a in json.loads(result.stdout)["audits"]}
            for audit in audits.values():
                self.assertGreater(audit["detectable_delta"], audit["claimed_delta"], audit)
                self.assertLessEqual(audit["detectable_delta"], 1.0, audit)
            powers.append(audits["analyze_gauss"]["detectable_delta"])
        self.assertLess(powers[1], powers[0] / 5)
        table = run(["-m", "analyze_gauss,laplace_sym", "-e", "1", "--delta", "1e-6", "--dims", "3",
                     "--trials", "400"])
        self.assertEqual(table.returncode, EXIT_OK, table.stderr)
        self.assertIn("power: the smallest violation", table.stdout)
        self.assertIn("analyze_gauss eps 1 d 3: delta(eps) >= ", table.stdout)
        self.assertIn("laplace_sym eps 1 d 3: P(L > eps) >= ", table.stdout)

    def test_all_covers_every_private_id_and_skips_jiang_without_the_flag(self):
        result = run(["-e", "0.9", "--dims", "3", "--trials", "100", "--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr)
        audits = json.loads(result.stdout)["audits"]
        names = {a["mechanism"] for a in audits}
        self.assertNotIn("wishart_jiang", names)
        for name in ("analyze_gauss", "laplace_sym", "wishart_additive", "inverse_gauss", "jl_ridge",
                     "jl_ridge_sigma_min", "inverse_wishart", "inverse_wishart_sigma_min", "ols_jl",
                     "iev", "kt_rank1", "dly_gauss", "dly_separate", "dly_adaptive",
                     "dly_adaptive_paper", "coinpress", "coinpress_mean"):
            self.assertIn(name, names)
        kinds = {(a["mechanism"], a.get("audit", "").split(" ")[0]) for a in audits}
        for name in ("dly_gauss", "dly_separate", "coinpress"):
            self.assertIn((name, "exact"), kinds)
        for name in ("dly_adaptive", "dly_adaptive_paper"):
            self.assertIn((name, "black-box"), kinds)
        # Without a closed-form density: listed with the reason, not audited.
        for a in audits:
            if a["mechanism"] in ("iev", "kt_rank1"):
                self.assertEqual(a["verdict"], "not audited")
                self.assertIn("no closed-form output density", a["error"])
            else:
                self.assertEqual(a["verdict"], "no violation found", a)

    def test_usage_errors(self):
        for args, message in ((["-m", "nope", "-e", "1"], "unknown mechanism"),
                              (["-m", "iev", "-e", "1"], "no closed-form output density"),
                              (["-m", "analyze_gauss", "-e", "-1"], "--epsilon"),
                              (["-m", "analyze_gauss", "-e", "1", "--trials", "1"], "--trials")):
            result = run(args)
            self.assertEqual(result.returncode, EXIT_USAGE, (args, result.stderr))
            self.assertIn(message, result.stderr)

    def test_unit_rows_audit_each_unit_mechanism_and_flag_rows_only_bounding(self):
        # Units of 60 rows (tests/privacy/units_release_audit_test.cpp says why so many): every
        # mechanism with a unit proof, its release of units not flagged, the planted rows-only
        # variant flagged, and the exit code 0 (the planted bug is the expected finding). A
        # mechanism refused with units is listed with the registry's reason, and the zCDP
        # mechanisms on the rows, whose unit audits grow with K, with why they are left out at
        # K = 60 (below: in "all" at K <= 10).
        result = run(["--unit-rows", "60", "-e", "0.9", "--delta", "1e-6", "--dims", "3",
                      "--trials", "1000", "--first-checkpoint", "250", "--seed", "3", "--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr)
        audits = json.loads(result.stdout)["audits"]
        refusals = {e["name"]: e["unit_refusal"]
                    for e in json.loads(subprocess.run([DPCOV, "mechanisms", "--json"],
                                                       capture_output=True, text=True).stdout)}
        gram = {"analyze_gauss", "laplace_sym", "inverse_gauss", "wishart_additive", "jl_ridge",
                "inverse_wishart", "iev", "kt_rank1", "adassp"}
        on_rows = {"dly_gauss", "dly_separate", "dly_adaptive", "dly_adaptive_paper",
                   "coinpress", "coinpress_mean"}
        refused = {"jl_ridge_sigma_min", "inverse_wishart_sigma_min", "ols_jl"}
        self.assertEqual({a["mechanism"] for a in audits}, gram | on_rows | refused)
        self.assertEqual(len(audits), 2 * len(gram) + len(on_rows) + len(refused))
        for a in audits:
            self.assertEqual(a["neighbour_kind"], "unit-of-60")
            if a["mechanism"] in refused:
                self.assertEqual(a["verdict"], "not audited")
                self.assertIn(refusals[a["mechanism"]], a["error"])
            elif a["mechanism"] in on_rows:
                self.assertEqual(a["verdict"], "not audited")
                self.assertIn("-m " + a["mechanism"], a["error"])
            elif a.get("planted_broken"):
                self.assertEqual(a["verdict"], "flagged (planted bug)", a)
            else:
                self.assertEqual(a["verdict"], "no violation found", a)
        refused = run(["-m", "ols_jl", "--unit-rows", "2", "-e", "1"])
        self.assertEqual(refused.returncode, EXIT_USAGE, refused.stderr)
        self.assertIn(refusals["ols_jl"], " ".join(refused.stderr.split()))
        # At K = 3 "all" audits the zCDP mechanisms on the rows too, at most 100 draws here (300
        # by default within "all"): their releases of units are not flagged.
        small = run(["--unit-rows", "3", "-e", "0.9", "--delta", "1e-6", "--trials", "100",
                     "--seed", "3", "--json"])
        self.assertEqual(small.returncode, EXIT_OK, small.stderr)
        audited = [a for a in json.loads(small.stdout)["audits"] if a["mechanism"] in on_rows]
        self.assertEqual({a["mechanism"] for a in audited}, on_rows)
        self.assertEqual(len(audited), 2 * len(on_rows))
        for a in audited:
            if not a.get("planted_broken"):
                self.assertEqual(a["verdict"], "no violation found", a)

    def test_the_laplace_unit_audit_flags_rows_only_bounding_at_small_units(self):
        # Its pair moves the upper triangle by most of the L1 norm the noise is sized for: at
        # K = 2, d = 3 the rows-only variant spends about 1.44 epsilon on it (the axis pair moved
        # it by exactly its claim, and no number of draws could flag it).
        result = run(["-m", "laplace_sym", "--unit-rows", "2", "-e", "1", "--dims", "3",
                      "--trials", "20000", "--seed", "4", "--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr)
        audits = json.loads(result.stdout)["audits"]
        self.assertEqual(len(audits), 2)
        for a in audits:
            expected = "flagged (planted bug)" if a.get("planted_broken") else "no violation found"
            self.assertEqual(a["verdict"], expected, a)

    def test_unit_rows_audit_the_zcdp_row_mechanisms_and_flag_the_undivided_rho(self):
        # Units of exactly K rows released at rho / K^2 (dpcov_audit_rows_units), not flagged;
        # the planted variant at rho spends K^2 rho on the pair, flagged: by the exact density at
        # K = 3, black-box (dly_adaptive, no tractable density) at K = 100, where K^2 = 10^4 is
        # the miscalibration its row-level test flags. At epsilon 4 (rho 0.3) the planted
        # variant's 9 rho shows within 300 draws (at epsilon 1, rho 0.024, it needs 2000). Named,
        # they run at --trials; within "all" at most 300.
        for mechanisms, k, eps in (("dly_gauss,dly_separate,coinpress,coinpress_mean", "3", "4"),
                                   ("dly_adaptive", "100", "1")):
            result = run(["-m", mechanisms, "--unit-rows", k, "-e", eps, "--delta", "1e-6",
                          "--trials", "300", "--seed", "3", "--json"])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr)
            audits = json.loads(result.stdout)["audits"]
            self.assertEqual({a["mechanism"] for a in audits}, set(mechanisms.split(",")))
            for a in audits:
                self.assertEqual(a["neighbour_kind"], "unit-of-" + k)
                self.assertEqual(a["n"] % int(k), 0)
                expected = "flagged (planted bug)" if a.get("planted_broken") else "no violation found"
                self.assertEqual(a["verdict"], expected, a)
        table = run(["-m", "dly_gauss", "--unit-rows", "3", "-e", "1", "--trials", "300"])
        self.assertEqual(table.returncode, EXIT_OK, table.stderr)
        self.assertIn("rows-only", table.stdout)
        self.assertIn("rho / K^2", table.stdout)
        ignored = run(["-m", "coinpress", "--unit-rows", "3", "-e", "1", "--k-bound", "9"])
        self.assertEqual(ignored.returncode, EXIT_USAGE, ignored.stderr)
        self.assertIn("--k-bound", ignored.stderr)

    def test_unit_rows_audit_adassp_and_flag_its_row_level_calibration(self):
        # AdaSSP's exact audit on its own pair (d regressors, |y| <= B too), both releases (with
        # and without y'y) at alpha / 2 each: the release of units of 3 rows is not flagged under
        # either relation, the row-level calibration on those units is (its exact delta on the
        # pair is far above the claim), and the exit code is 0.
        table = run(["-m", "adassp", "--unit-rows", "3", "-e", "1", "--seed", "3"])
        self.assertEqual(table.returncode, EXIT_OK, table.stderr)
        lines = [l for l in table.stdout.splitlines() if l.startswith("adassp ")]
        self.assertEqual(len(lines), 2, table.stdout)
        self.assertIn("unit-of-3/released", lines[0])
        self.assertIn("no violation found", lines[0])
        self.assertIn("unit-of-3/rows-only", lines[1])
        self.assertIn("flagged (planted bug)", lines[1])
        self.assertIn("gaussian_profile_exceeded", lines[1])
        self.assertIn("adassp: the exact density of its Gaussian release", table.stdout)
        for neighbour in ("replace-one", "add-remove"):
            result = run(["-m", "adassp", "--unit-rows", "3", "-e", "1", "--dims", "2,4",
                          "--neighbour", neighbour, "--seed", "3", "--json"])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr)
            audits = json.loads(result.stdout)["audits"]
            self.assertEqual(len(audits), 4)
            for a in audits:
                self.assertEqual((a["mechanism"], a["neighbour_kind"]), ("adassp", "unit-of-3"))
                expected = "flagged (planted bug)" if a.get("planted_broken") else "no violation found"
                self.assertEqual(a["verdict"], expected, a)
                self.assertGreater(a["samples"], 0)
        for args, message in ((["-m", "adassp", "-e", "1"], "--unit-rows"),
                              (["-m", "adassp", "--unit-rows", "3", "-e", "1", "--calibration",
                                "analytic-gaussian"], "--calibration")):
            result = run(args)
            self.assertEqual(result.returncode, EXIT_USAGE, (args, result.stderr))
            self.assertIn(message, result.stderr)

    def test_trials_above_the_maximum_are_a_usage_error_before_any_draw(self):
        # DPCOV_AUDIT_MAX_TRIALS = 10^7 bounds an audit's time and memory: above it every
        # mechanism family (Gram, zCDP rows exact and black-box, coinpress_mean) is refused at
        # once, with nothing printed on standard output.
        for mechanism in ("analyze_gauss", "dly_gauss", "dly_adaptive", "coinpress_mean", "all"):
            for trials in ("10000001", str(2 ** 62), str(2 ** 63 - 1)):
                result = run(["-m", mechanism, "-e", "1", "--trials", trials])
                self.assertEqual(result.returncode, EXIT_USAGE, (mechanism, trials, result.stderr))
                self.assertIn("DPCOV_AUDIT_MAX_TRIALS", result.stderr)
                self.assertEqual(result.stdout, "")


if __name__ == "__main__":
    DPCOV = sys.argv.pop(1)
    unittest.main()

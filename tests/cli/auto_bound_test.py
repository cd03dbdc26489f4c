"""`dpcov release --bound auto`: B chosen from the data, eps-DP, with its own share of the budget
(proofs/private_bound.md). The receipt records both shares and the chosen B, the ledger is charged
the total, and the bad uses (standard input, add/remove, shares out of range, a zCDP ledger) are
usage errors that leave nothing behind.

Run by meson as: /usr/bin/python3 auto_bound_test.py DPCOV_EXECUTABLE
"""
import json
import os
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, EXIT_USAGE, DpcovCase


class AutoBound(DpcovCase):
    def data(self, rows=2000, scale=300.0):
        a = np.random.default_rng(7).normal(size=(rows, 3)) * scale
        path = self.path("raw.csv")
        np.savetxt(path, a, delimiter=",", header="x,y,z", comments="")
        return path, np.linalg.norm(a, axis=1)

    def release(self, args, out="r.npy"):
        result = self.run_dpcov(["release"] + args + ["-o", self.path(out), "-q"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(self.path(out) + ".json") as f:
            return json.load(f)

    def test_bound_near_the_quantile_with_both_shares_in_the_receipt_and_the_ledger(self):
        path, norms = self.data()
        ledger = self.path("budget.json")
        receipt = self.release([path, "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--seed",
                                "5", "--bound", "auto", "--ledger", ledger, "--ledger-epsilon",
                                "2", "--ledger-delta", "1e-5"])
        chosen = receipt["bound_selection"]
        self.assertEqual(chosen["epsilon"], 0.1)
        self.assertEqual(chosen["quantile"], 0.95)
        self.assertEqual(chosen["grid"], {"low": 1e-6, "high": 1e9, "ratio": 1.25, "candidates": 156})
        self.assertEqual(chosen["bound"], receipt["bound"])
        self.assertEqual(receipt["epsilon"], 1 - 0.1)
        self.assertEqual(receipt["epsilon_total"], 1.0)
        # The 95% quantile of the norms, up to the grid's ratio and the mechanism's error.
        self.assertLess(np.quantile(norms, 0.85), receipt["bound"])
        self.assertLess(receipt["bound"], np.quantile(norms, 0.995) * 1.25)
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([c["epsilon"] for c in book["charges"]], [1.0])
        self.assertEqual(book["spent"]["epsilon"], 1.0)
        # The shares can be set; the same seed gives the same choice.
        again = self.release([path, "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--seed", "5",
                              "--bound", "auto", "--bound-epsilon", "0.3", "--bound-quantile",
                              "0.5"], out="r2.npy")
        self.assertEqual(again["bound_selection"]["epsilon"], 0.3)
        self.assertEqual(again["epsilon"], 1 - 0.3)
        self.assertLess(again["bound"], receipt["bound"])

    def test_bad_uses_are_usage_errors(self):
        path, _ = self.data(rows=20)
        base = ["release", path, "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "-q", "-o",
                self.path("r.npy")]
        zcdp = self.path("zcdp.json")
        for args, pattern, stdin in [
            (["release", "-", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "auto",
              "-o", self.path("r.npy")], "standard input", b"1,2\n"),
            (base + ["--bound", "auto", "--neighbour", "add-remove"], "replace-one", None),
            (base + ["--bound", "auto", "--bound-epsilon", "1"], "--bound-epsilon", None),
            (base + ["--bound", "auto", "--bound-epsilon", "0"], "--bound-epsilon", None),
            (base + ["--bound", "auto", "--bound-quantile", "0"], "--bound-quantile", None),
            (base + ["--bound", "auto", "--reject"], "--reject", None),
            (base + ["--bound", "2", "--bound-epsilon", "0.1"], "auto only", None),
            (base + ["--bound", "autox"], "--bound", None),
            (base + ["--bound", "auto", "--ledger", zcdp, "--ledger-epsilon", "5",
                     "--ledger-delta", "1e-5", "--accounting", "zcdp"], "basic accounting", None),
        ]:
            with self.subTest(args=args):
                result = self.run_dpcov(args, stdin)
                self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
                self.assertRegex(result.stderr.decode(), pattern)
        self.assertFalse(os.path.exists(self.path("r.npy")))
        self.assertFalse(os.path.exists(zcdp))


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

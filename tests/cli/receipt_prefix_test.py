"""Every family's JSON receipt starts with the common prefix of dpcov_receipt_prefix: the same keys
in the same order, with the neighbour relation spelled the same way. One release of each family
through the command (a mechanism on the Gram matrix, Dong-Liang-Yi, CoinPress, the CoinPress mean,
and AdaSSP from `regress` on raw rows); before the prefix, AdaSSP's receipt began with
mechanism, theorem, neighbour ("replace_one") and the zCDP receipts with command, library_version.

Run by meson as: /usr/bin/python3 receipt_prefix_test.py DPCOV_EXECUTABLE
"""
import json
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, DpcovCase

PREFIX = ["mechanism", "privacy_model", "neighbour", "numerics", "generator", "seed_fixed",
          "epsilon", "delta", "rho", "bound", "n", "theorem"]


class ReceiptPrefix(DpcovCase):
    def write_csv(self, rows, header):
        path = self.path("data.csv")
        np.savetxt(path, rows, delimiter=",", header=header, comments="")
        return path

    def rows(self, n=3000, d=3):
        gen = np.random.default_rng(11)
        x = gen.uniform(-0.5, 0.5, size=(n, d))
        return x / (2 * np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1.0))

    def released_receipt(self, path, args):
        out = self.path("out.csv")
        result = self.run_dpcov(["release", path, "-o", out, "--seed", "5", "--quiet"] + args)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(out + ".json") as f:
            return json.load(f)

    def receipts(self):
        path = self.write_csv(self.rows(), "x0,x1,x2")
        found = {
            "analyze_gauss": self.released_receipt(
                path, ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "1"]),
            "dly_gauss": self.released_receipt(
                path, ["-m", "dly_gauss", "-e", "1", "-d", "1e-6", "--bound", "1"]),
            "coinpress": self.released_receipt(
                path, ["-m", "coinpress", "-e", "1", "-d", "1e-6", "--k-bound", "4"]),
            "coinpress_mean": self.released_receipt(
                path, ["-m", "coinpress_mean", "-e", "1", "-d", "1e-6", "--mean-radius", "2"]),
        }
        result = self.run_dpcov(["regress", path, "--label", "x2", "--epsilon", "2", "--bound",
                                 "1", "--label-bound", "1", "--noise-seed", "3", "--quiet",
                                 "--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        found["adassp"] = json.loads(result.stdout.decode())["receipt"]
        return found

    def test_every_family_starts_with_the_same_keys_in_the_same_order(self):
        for name, receipt in self.receipts().items():
            with self.subTest(family=name):
                self.assertEqual(list(receipt)[:len(PREFIX)], PREFIX)
                self.assertEqual(receipt["neighbour"], "replace-one")
                self.assertIs(receipt["seed_fixed"], True)
                self.assertEqual(receipt["generator"], "pcg64")
                self.assertIn(receipt["numerics"], ("idealized", "exact"))
                self.assertGreater(len(receipt["theorem"]), 0)

    def test_the_prefix_states_each_familys_privacy_model_and_rho(self):
        found = self.receipts()
        for name in ("dly_gauss", "coinpress", "coinpress_mean"):
            self.assertIn("rho-zCDP", found[name]["privacy_model"])
            self.assertGreater(found[name]["rho"], 0.0)
        self.assertEqual(found["analyze_gauss"]["privacy_model"], "(epsilon, delta)-DP")
        self.assertEqual(found["analyze_gauss"]["rho"], 0.0)
        self.assertEqual(found["adassp"]["mechanism"], "adassp")
        self.assertGreater(found["adassp"]["rho"], 0.0)
        self.assertIn("failure_probability", found["adassp"])
        self.assertEqual(found["dly_gauss"]["bound"], 1.0)
        self.assertEqual(found["coinpress"]["bound"], 0.0)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

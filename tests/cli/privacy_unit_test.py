"""`dpcov release --privacy-unit COLUMN --max-rows-per-unit K`: the release at the unit bound
sqrt(K) B with n the number of units (public under replace-one, withheld under add-remove), the
public receipt naming the unit column and K and nothing data-dependent, the curator file with the
units and the rows truncated; a unit that is not contiguous refused at its line; misuse refused.

Run by meson as: /usr/bin/python3 privacy_unit_test.py DPCOV
"""
import json
import math
import sys
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_OK, EXIT_USAGE, DpcovCase


class PrivacyUnit(DpcovCase):
    def write_csv(self, name, ids, rows):
        path = self.path(name)
        with open(path, "w") as f:
            f.write("person,a,b\n")
            for i, r in zip(ids, rows):
                f.write(f"{i},{r[0]!r},{r[1]!r}\n")
        return path

    def setUp(self):
        super().setUp()
        rng = np.random.default_rng(4)
        self.sizes = rng.integers(1, 6, size=30)
        self.ids = np.repeat(np.arange(30) * 7 + 3, self.sizes)
        self.rows = rng.uniform(-0.5, 0.5, size=(len(self.ids), 2))
        self.csv = self.write_csv("units.csv", self.ids, self.rows)

    def release(self, csv, extra):
        out = self.path("g.npy")
        result = self.run_dpcov(["release", csv, "-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                                 "--bound", "1", "-o", out, "-q", "--seed", "3"] + extra)
        return result, out

    def test_release_is_at_the_unit_bound_with_n_the_units(self):
        for neighbour, public_n in (("replace-one", 30), ("add-remove", None)):
            with self.subTest(neighbour=neighbour):
                result, out = self.release(self.csv, ["--privacy-unit", "person",
                                                      "--max-rows-per-unit", "3",
                                                      "--neighbour", neighbour])
                self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                with open(out + ".json") as f:
                    receipt = json.load(f)
                with open(out + ".curator.json") as f:
                    curator = json.load(f)
                self.assertEqual(receipt["columns"], ["a", "b"])
                self.assertEqual(receipt["privacy_unit"],
                                 {"column": "person", "max_rows_per_unit": 3, "row_bound": 1.0})
                self.assertGreaterEqual(receipt["bound"], math.sqrt(3))
                self.assertLess(receipt["bound"], math.sqrt(3) * (1 + 1e-8))
                self.assertEqual(receipt.get("n"), public_n)
                self.assertEqual(curator["units"], 30)
                self.assertEqual(curator["rows_truncated_by_max_rows_per_unit"],
                                 int(np.maximum(self.sizes - 3, 0).sum()))
                self.assertNotIn("units", receipt)
                self.assertEqual(np.load(out).shape, (2, 2))

    def test_a_unit_that_comes_back_is_refused_at_its_line(self):
        ids = self.ids.copy()
        ids[-1] = ids[0]
        csv = self.write_csv("back.csv", ids, self.rows)
        result, _ = self.release(csv, ["--privacy-unit", "person", "--max-rows-per-unit", "3"])
        self.assertEqual(result.returncode, EXIT_INPUT, result.stderr.decode())
        self.assertIn(f"back.csv:{len(ids) + 1}", result.stderr.decode())
        self.assertIn("sort the rows by the unit column", result.stderr.decode())

    def test_misuse_is_refused(self):
        for extra, words in ((["--privacy-unit", "person"], "go together"),
                             (["--max-rows-per-unit", "2"], "go together"),
                             (["--privacy-unit", "nobody", "--max-rows-per-unit", "2"],
                              "not among the columns"),
                             (["--privacy-unit", "person", "--max-rows-per-unit", "2", "--reject"],
                              "--privacy-unit takes a public --bound")):
            with self.subTest(extra=extra):
                result, _ = self.release(self.csv, extra)
                self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
                self.assertIn(words, result.stderr.decode())
        result = self.run_dpcov(["release", self.csv, "-m", "wishart_additive", "-e", "1", "-d",
                                 "1e-6", "--bound", "1", "-o", self.path("w.npy"), "-q",
                                 "--privacy-unit", "person", "--max-rows-per-unit", "2"])
        self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
        self.assertIn("no proof at the level of privacy units", result.stderr.decode())


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

"""`dpcov release --privacy-unit COLUMN --max-rows-per-unit K`: the release at the unit bound
sqrt(K) B (the Wishart one at the per-row budget of group privacy) with n the number of units (public under replace-one, withheld under add-remove), the
public receipt naming the unit column and K and nothing data-dependent, the curator file with the
units and the rows truncated; units whose rows are not contiguous grouped through spill files;
misuse refused.

Run by meson as: /usr/bin/python3 privacy_unit_test.py DPCOV (with DPCOV_LIBRARY and PYTHONPATH
set to the build's library and bindings/python: one test compares Python's choice of B).
"""
import json
import math
import os
import sys
import unittest
import warnings

import numpy as np

import dpcov

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

    def test_unsorted_units_are_grouped_through_private_spill_files_removed_after(self):
        # With K at least every unit's size no row is drawn out, so the grouped release of the
        # shuffled file is the sorted file's, byte for byte (exact numerics: integer sums); with
        # K = 3 the same units and truncated rows. The spill directory goes once done.
        order = np.random.default_rng(8).permutation(len(self.ids))
        shuffled = self.write_csv("shuffled.csv", self.ids[order], self.rows[order])
        spill_root = self.path("spill")
        os.mkdir(spill_root)
        os.environ["TMPDIR"] = spill_root
        try:
            for k in ("5", "3"):
                with self.subTest(k=k):
                    results = []
                    for csv in (self.csv, shuffled):
                        result, out = self.release(csv, ["--privacy-unit", "person",
                                                         "--max-rows-per-unit", k])
                        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                        with open(out + ".curator.json") as f:
                            curator = json.load(f)
                        results.append((np.load(out), curator["units"],
                                        curator["rows_truncated_by_max_rows_per_unit"]))
                    (sorted_matrix, *sorted_counts), (grouped_matrix, *grouped_counts) = results
                    self.assertEqual(sorted_counts, grouped_counts)
                    self.assertEqual(grouped_counts[0], 30)
                    if k == "5":
                        self.assertEqual(sorted_matrix.tobytes(), grouped_matrix.tobytes())
                    self.assertEqual(os.listdir(spill_root), [])
        finally:
            del os.environ["TMPDIR"]

    def test_text_unit_ids_are_units_by_their_text_in_any_order(self):
        # "person-7" for unit 7: equal texts are one unit, so the release (K = 5: nothing drawn
        # out) is the integer ids' byte for byte, sorted or shuffled; "07" and "7" are two units.
        names = np.array([f"person-{i}" for i in self.ids])
        order = np.random.default_rng(8).permutation(len(self.ids))
        text_sorted = self.write_csv("names.csv", names, self.rows)
        text_shuffled = self.write_csv("names_shuffled.csv", names[order], self.rows[order])
        matrices = []
        for csv in (self.csv, text_sorted, text_shuffled):
            result, out = self.release(csv, ["--privacy-unit", "person", "--max-rows-per-unit",
                                             "5"])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            with open(out + ".curator.json") as f:
                self.assertEqual(json.load(f)["units"], 30)
            matrices.append(np.load(out).tobytes())
        self.assertEqual(matrices[1], matrices[0])
        self.assertEqual(matrices[2], matrices[0])
        padded = self.write_csv("padded.csv", ["7", "07", "7"], self.rows[:3])
        result, out = self.release(padded, ["--privacy-unit", "person", "--max-rows-per-unit",
                                            "2"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(out + ".curator.json") as f:
            self.assertEqual(json.load(f)["units"], 2)

    def test_gram_sums_at_most_k_rows_per_unit_in_any_order(self):
        order = np.random.default_rng(8).permutation(len(self.ids))
        shuffled = self.write_csv("shuffled.csv", self.ids[order], self.rows[order])
        for k, truncated in ((5, 0), (3, int(np.maximum(self.sizes - 3, 0).sum()))):
            for csv in (self.csv, shuffled):
                with self.subTest(k=k, csv=csv):
                    out = self.path("gram.npy")
                    result = self.run_dpcov(["gram", csv, "--bound", "1", "-o", out, "-q",
                                             "--privacy-unit", "person", "--max-rows-per-unit",
                                             str(k), "--seed", "2"])
                    self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                    with open(out + ".json") as f:
                        receipt = json.load(f)
                    self.assertEqual(receipt["columns"], ["a", "b"])
                    self.assertEqual(receipt["units"], 30)
                    self.assertEqual(receipt["rows_truncated_by_max_rows_per_unit"], truncated)
                    self.assertEqual(receipt["privacy_unit"]["max_rows_per_unit"], k)
                    gram = np.load(out)
                    if truncated == 0:  # every row kept: the Gram of all the rows
                        np.testing.assert_allclose(gram, self.rows.T @ self.rows, rtol=1e-12)
        result = self.run_dpcov(["gram", self.csv, "--bound", "1", "-o", self.path("r.npy"),
                                 "-q", "--privacy-unit", "person", "--max-rows-per-unit", "2",
                                 "--reject"])
        self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())

    def test_misuse_is_refused(self):
        for extra, words in ((["--privacy-unit", "person"], "go together"),
                             (["--max-rows-per-unit", "2"], "go together"),
                             (["--privacy-unit", "nobody", "--max-rows-per-unit", "2"],
                              "not among the columns"),
                             (["--privacy-unit", "person", "--max-rows-per-unit", "2", "--reject"],
                              "--privacy-unit takes --bound B or --bound auto")):
            with self.subTest(extra=extra):
                result, _ = self.release(self.csv, extra)
                self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
                self.assertIn(words, result.stderr.decode())
        result = self.run_dpcov(["release", self.csv, "-m", "ols_jl", "-e", "1", "-d",
                                 "1e-6", "--bound", "1", "-o", self.path("w.npy"), "-q",
                                 "--privacy-unit", "person", "--max-rows-per-unit", "2"])
        self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
        self.assertIn("ols_jl is refused with privacy units", result.stderr.decode())
        # Why, as the registry words it: the refusal and `dpcov mechanisms` quote it.
        listed = self.run_dpcov(["mechanisms", "--json"])
        self.assertEqual(listed.returncode, EXIT_OK, listed.stderr.decode())
        entries = {e["name"]: e for e in json.loads(listed.stdout)}
        refusal = entries["ols_jl"]["unit_refusal"]
        self.assertIn(refusal, " ".join(result.stderr.decode().split()))
        text = self.run_dpcov(["mechanisms"]).stdout.decode()
        self.assertIn("privacy units:  refused: " + refusal, text)
        self.assertIn("privacy units:  proofs/unit_group_privacy.md", text)
        for name, entry in entries.items():
            self.assertNotEqual(entry["unit_proof"] == "", entry["unit_refusal"] == "", name)
        self.assertEqual(entries["private_bound"]["unit_proof"], "proofs/private_bound.md")

    def test_bound_auto_counts_each_unit_once_by_its_largest_row(self):
        # proofs/private_bound.md, "Privacy units": 200 units of one row of norm 100 and four of
        # norm 1. The quantile 0.5 of the units' largest norms is 100; of the rows it is 1. At
        # eps_B = 20 the scan's noise has scale 0.1, and stopping below 100 needs a noise of about
        # 100 counts (probability below e^-900): the chosen B is in [100, 125) on every seed.
        ids = np.repeat(np.arange(200), 5)
        rows = np.tile([[60.0, 80.0], [0.6, 0.8], [0.8, 0.6], [1.0, 0.0], [0.0, 1.0]], (200, 1))
        order = np.random.default_rng(5).permutation(len(ids))
        bounds = []
        for name, perm in (("sorted.csv", np.arange(len(ids))), ("shuffled.csv", order)):
            csv = self.write_csv(name, ids[perm], rows[perm])
            out = self.path("a.npy")
            result = self.run_dpcov(["release", csv, "-m", "analyze_gauss", "-e", "40", "-d",
                                     "1e-6", "--bound", "auto", "--bound-epsilon", "20",
                                     "--bound-quantile", "0.5", "-o", out, "-q", "--seed", "3",
                                     "--privacy-unit", "person", "--max-rows-per-unit", "2"])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            with open(out + ".json") as f:
                receipt = json.load(f)
            chosen = receipt["bound_selection"]
            self.assertIn("units with a row above B", chosen["method"])
            self.assertEqual(receipt["privacy_unit"]["row_bound"], chosen["bound"])
            self.assertGreaterEqual(receipt["bound"], math.sqrt(2) * chosen["bound"])
            self.assertGreaterEqual(chosen["bound"], 100)
            self.assertLess(chosen["bound"], 125)
            self.assertNotIn("units", receipt)
            bounds.append(chosen["bound"])
        self.assertEqual(bounds[0], bounds[1])
        # A quantile of the units needs their number public: add-remove takes a count target.
        refused = self.run_dpcov(["release", self.csv, "-m", "analyze_gauss", "-e", "1", "-d",
                                  "1e-6", "--bound", "auto", "-o", self.path("r.npy"), "-q",
                                  "--neighbour", "add-remove", "--privacy-unit", "person",
                                  "--max-rows-per-unit", "2"])
        self.assertEqual(refused.returncode, EXIT_USAGE, refused.stderr.decode())
        counted = self.run_dpcov(["release", self.csv, "-m", "analyze_gauss", "-e", "1", "-d",
                                  "1e-6", "--bound", "auto", "--bound-clipped", "0", "-o",
                                  self.path("c.npy"), "-q", "--neighbour", "add-remove",
                                  "--privacy-unit", "person", "--max-rows-per-unit", "2"])
        self.assertEqual(counted.returncode, EXIT_OK, counted.stderr.decode())

    def test_bound_auto_with_units_is_python_s_for_the_same_seed(self):
        # Both surfaces count each unit once through dpcov_private_bound_unit_histogram over the
        # same grid, aim at the same quantile of the units and make the bound the release
        # generator's first draw: the same B from the same seed, units not contiguous.
        rng = np.random.default_rng(11)
        ids = np.repeat(np.arange(300) * 3 + 1, rng.integers(1, 5, size=300))
        rows = rng.normal(size=(len(ids), 2)) * rng.lognormal(0.0, 1.0, size=(len(ids), 1))
        order = rng.permutation(len(ids))
        csv = self.write_csv("spread.csv", ids[order], rows[order])
        bounds = set()
        for seed in (3, 4, 5):
            out = self.path(f"s{seed}.npy")
            result = self.run_dpcov(["release", csv, "-m", "analyze_gauss", "-e", "1", "-d",
                                     "1e-6", "--bound", "auto", "--privacy-unit", "person",
                                     "--max-rows-per-unit", "2", "-o", out, "-q", "--seed",
                                     str(seed)])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
            with open(out + ".json") as f:
                cli_bound = json.load(f)["bound_selection"]["bound"]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = dpcov.PrivateCovariance(epsilon=1.0, delta=1e-6, bound="auto",
                                              max_rows_per_unit=2, random_state=seed)
                est.fit(rows[order], privacy_unit=ids[order])
            self.assertEqual(est.bound_, cli_bound, seed)
            bounds.add(cli_bound)
        # The seeds draw different noise: the test compares choices, not one fixed candidate.
        self.assertGreater(len(bounds), 1)

    def test_wishart_releases_units_by_group_privacy_at_the_row_bound(self):
        # proofs/unit_group_privacy.md: the rows' bound B, the unit-level (eps, delta) in the
        # receipt, the degrees of freedom of the per-row budget eps / (2 K) under replace-one.
        out = self.path("w.npy")
        result = self.run_dpcov(["release", self.csv, "-m", "wishart_additive", "-e", "0.9", "-d",
                                 "1e-6", "--bound", "1", "-o", out, "-q", "--seed", "3",
                                 "--privacy-unit", "person", "--max-rows-per-unit", "3"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(out + ".json") as f:
            receipt = json.load(f)
        self.assertEqual(receipt["bound"], 1.0)
        self.assertEqual((receipt["epsilon"], receipt["delta"]), (0.9, 1e-6))
        self.assertEqual(receipt["privacy_unit"]["max_rows_per_unit"], 3)
        # d + 14 ln(4 / delta_r) / eps_r^2 at eps_r = 0.15: far above the row level's 266.
        self.assertGreater(receipt["dof"], 14 * math.log(4e6) / 0.15 ** 2)
        self.assertEqual(np.load(out).shape, (2, 2))

    def test_eigenvector_mechanisms_release_units_at_epsilon_over_the_steps(self):
        # Pure eps by group privacy: eps / (2 K) per row under replace-one, delta 0, the receipt
        # the unit-level epsilon with the unit and K.
        for mechanism in ("iev", "kt_rank1"):
            with self.subTest(mechanism=mechanism):
                out = self.path(mechanism + ".npy")
                result = self.run_dpcov(["release", self.csv, "-m", mechanism, "-e", "1",
                                         "--bound", "1", "-o", out, "-q", "--seed", "3",
                                         "--privacy-unit", "person", "--max-rows-per-unit", "3"])
                self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                with open(out + ".json") as f:
                    receipt = json.load(f)
                self.assertEqual((receipt["epsilon"], receipt["bound"]), (1.0, 1.0))
                self.assertEqual(receipt["privacy_unit"]["max_rows_per_unit"], 3)
                self.assertEqual(np.load(out).shape, (2, 2))

    def test_wishart_units_are_checked_at_the_divided_budget(self):
        # The additive Wishart needs epsilon < 1 per row; with units it runs at eps / (2 K) (unit
        # replace-one), so -e 2 with K = 3 (eps_r = 1/3) is a valid release. The plan was checked
        # at the undivided epsilon and refused it; the ledger is charged the unit-level budget.
        out, ledger = self.path("w.npy"), self.path("budget.json")
        result = self.run_dpcov(["release", self.csv, "-m", "wishart_additive", "-e", "2", "-d",
                                 "1e-6", "--bound", "1", "-o", out, "-q", "--seed", "3",
                                 "--privacy-unit", "person", "--max-rows-per-unit", "3",
                                 "--ledger", ledger, "--ledger-epsilon", "5", "--ledger-delta",
                                 "1e-5"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(out + ".json") as f:
            receipt = json.load(f)
        self.assertEqual((receipt["epsilon"], receipt["delta"]), (2.0, 1e-6))
        self.assertEqual(receipt["neighbour"], "replace-one")
        with open(ledger) as f:
            book = json.load(f)
        self.assertEqual([c["epsilon"] for c in book["charges"]], [2.0])
        self.assertEqual(book["spent"]["delta"], 1e-6)
        # Above the per-row limit (eps_r = 7 / 6 >= 1) it is still refused, before any row.
        result = self.run_dpcov(["release", self.csv, "-m", "wishart_additive", "-e", "7", "-d",
                                 "1e-6", "--bound", "1", "-o", self.path("x.npy"), "-q",
                                 "--privacy-unit", "person", "--max-rows-per-unit", "3"])
        self.assertNotEqual(result.returncode, EXIT_OK)
        self.assertFalse(os.path.exists(self.path("x.npy")))

    def test_every_unit_release_is_read_by_the_commands_that_compute_from_them(self):
        # pca, regress and glasso plan a release again from its receipt: they must plan units as
        # release does (group privacy at the per-row budget, the unit's contribution bound with
        # or without --add-constant, zCDP at the per-row rho), and still refuse an edited k.
        plain = ["--bound", "1", "-e", "0.9", "-d", "1e-6"]
        cases = [(name, extra + plain, constant, neighbour)
                 for name, extra in (("analyze_gauss", []), ("laplace_sym", []),
                                     ("analyze_gauss", ["--numerics", "exact"]),
                                     ("laplace_sym", ["--numerics", "idealized"]),
                                     ("wishart_additive", []), ("iev", []), ("kt_rank1", []),
                                     ("jl_ridge", ["--projection-rows", "200"]),
                                     ("inverse_wishart", ["--posterior-dof", "200"]),
                                     ("inverse_gauss", ["--lambda-min", "0.01"]))
                 for constant in ([], ["--add-constant"])
                 for neighbour in ("replace-one", "add-remove")]
        cases += [(name, plain, [], "replace-one")
                  for name in ("dly_gauss", "dly_separate", "dly_adaptive")]
        cases.append(("coinpress", ["--k-bound", "4", "-e", "0.9", "-d", "1e-6"], [],
                      "replace-one"))
        for name, options, constant, neighbour in cases:
            with self.subTest(mechanism=name, options=options + constant, neighbour=neighbour):
                out = self.path("u.npy")
                result = self.run_dpcov(["release", self.csv, "-m", name, "-o", out, "-q",
                                         "--seed", "3", "--privacy-unit", "person",
                                         "--max-rows-per-unit", "3", "--neighbour", neighbour]
                                        + options + constant)
                self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                read = self.run_dpcov(["pca", out, "-k", "1", "--no-center"])
                self.assertEqual(read.returncode, EXIT_OK, read.stderr.decode())
                with open(out + ".json") as f:
                    receipt = json.load(f)
                receipt["privacy_unit"]["max_rows_per_unit"] = 2
                with open(out + ".json", "w") as f:
                    json.dump(receipt, f)
                edited = self.run_dpcov(["pca", out, "-k", "1", "--no-center"])
                self.assertEqual(edited.returncode, EXIT_INPUT, edited.stderr.decode())

    def test_commands_read_a_unit_release_s_n_as_units_not_rows(self):
        # The receipt's n counts units; the rows kept are private. Centring, the graphical
        # lasso's S and the subspace bound take the count from the release, and the bound says
        # that it covers only the rows kept.
        rng = np.random.default_rng(8)
        ids = rng.integers(0, 300, size=1800)
        rows = rng.normal(size=(1800, 2)) * [0.3, 0.1] + [0.5, 0.2]
        csv = self.write_csv("many.csv", ids, rows)
        out = self.path("uc.npy")
        result = self.run_dpcov(["release", csv, "-m", "analyze_gauss", "-e", "1e6", "-d", "1e-6",
                                 "--bound", "2", "--add-constant", "--privacy-unit", "person",
                                 "--max-rows-per-unit", "6", "-o", out, "-q", "--seed", "1"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        read = self.run_dpcov(["pca", out, "-k", "1", "--seed", "1", "--json"])
        self.assertEqual(read.returncode, EXIT_OK, read.stderr.decode())
        pca = json.loads(read.stdout)
        # About 6 rows a unit: few are dropped, and those at random.
        np.testing.assert_allclose(list(pca["mean"].values()), rows.mean(0), atol=0.02)
        self.assertAlmostEqual(pca["trace"], rows.var(0).sum(), delta=0.01)
        self.assertIn("rows the release kept", pca["subspace_error"]["covers"])
        glasso = self.run_dpcov(["glasso", out, "--rho", "0.001"])
        self.assertEqual(glasso.returncode, EXIT_OK, glasso.stderr.decode())

    def test_zcdp_row_mechanisms_keep_exactly_k_rows_per_unit_at_rho_over_k_squared(self):
        # proofs/unit_group_privacy.md, "Row mechanisms": each unit keeps exactly K rows (zero
        # rows pad the smaller), n = K U is public, and the mechanism runs at rho / K^2.
        k = 3
        for mechanism, extra in (("dly_gauss", ["--bound", "1"]),
                                 ("coinpress", ["--k-bound", "4"]),
                                 ("coinpress_mean", ["--mean-radius", "2"])):
            with self.subTest(mechanism=mechanism):
                out = self.path(mechanism + ".npy")
                result = self.run_dpcov(["release", self.csv, "-m", mechanism, "-e", "1", "-d",
                                         "1e-6", "-o", out, "-q", "--seed", "5",
                                         "--privacy-unit", "person", "--max-rows-per-unit",
                                         str(k)] + extra)
                self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                with open(out + ".json") as f:
                    receipt = json.load(f)
                with open(out + ".curator.json") as f:
                    curator = json.load(f)
                unit = receipt["privacy_unit"]
                self.assertEqual((unit["column"], unit["max_rows_per_unit"]), ("person", k))
                self.assertLessEqual(unit["row_rho"] * k * k, receipt["rho"])
                self.assertAlmostEqual(unit["row_rho"] * k * k / receipt["rho"], 1.0, places=12)
                self.assertLessEqual(receipt["epsilon"], 1.0)
                self.assertAlmostEqual(receipt["epsilon"], 1.0, places=9)
                self.assertEqual(receipt["n"], k * 30)
                self.assertEqual(receipt["columns"], ["a", "b"])
                self.assertNotIn("units", receipt)
                self.assertEqual(curator["units"], 30)
                self.assertEqual(curator["rows_truncated_by_max_rows_per_unit"],
                                 int(np.maximum(self.sizes - k, 0).sum()))
                self.assertEqual(curator["zero_rows_padding_units"],
                                 int(np.maximum(k - self.sizes, 0).sum()))
                self.assertEqual(np.load(out).shape, (1, 2) if mechanism == "coinpress_mean"
                                 else (2, 2))

    def test_zcdp_row_mechanisms_with_units_refuse_add_remove(self):
        result = self.run_dpcov(["release", self.csv, "-m", "dly_gauss", "-e", "1", "-d", "1e-6",
                                 "--bound", "1", "-o", self.path("x.npy"), "-q",
                                 "--neighbour", "add-remove", "--privacy-unit", "person",
                                 "--max-rows-per-unit", "2"])
        self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

"""Neighbouring inputs (replace-one: row 0 of norm 0.5 replaced by one of norm 2, over --bound 1)
whose releases are forced equal by one --seed give byte-identical public receipts (the `.json`
beside the output), for every bound option (--bound, --bound auto, --bounds, --add-constant) and
policy the option takes (--clip, --reject; `release` has no --drop), numerics default (exact),
exact and idealized, for analyze_gauss and laplace_sym, and for the zCDP mechanisms on the rows
(Dong-Liang-Yi, CoinPress, CoinPress mean): under --clip both release; under --reject the
neighbour is refused naming its row. The row bounding is the library's; a count that depends
on the data (rows clipped, dropped or clamped) reaches the curator file only. Deterministic:
fixed seeds.

Run by meson as: /usr/bin/python3 receipt_equality_test.py DPCOV
"""
import json
import os
import sys
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_OK, DpcovCase

ROWS, DIM = 300, 3

OPTIONS = {
    "bound": ["--bound", "1"],
    "bound auto": ["--bound", "auto"],
    "bounds": ["--bounds", "-1:1"],
    "add-constant": ["--bound", "1", "--add-constant"],
    "auto add-constant": ["--bound", "auto", "--add-constant"],
}


def csv_text(a):
    header = ",".join(f"x{j}" for j in range(a.shape[1]))
    return header + "\n" + "\n".join(",".join(repr(float(v)) for v in row) for row in a) + "\n"


class ReceiptEquality(DpcovCase):
    def setUp(self):
        super().setUp()
        gen = np.random.default_rng(35)
        x = gen.normal(size=(ROWS, DIM))
        x *= (0.5 / np.linalg.norm(x, axis=1))[:, None]
        other = x.copy()
        other[0] *= 4.0
        self.inputs = []
        for name, rows in (("data.csv", x), ("neighbour.csv", other)):
            with open(self.path(name), "w") as f:
                f.write(csv_text(rows))
            self.inputs.append(self.path(name))

    def release(self, path, args, mechanism):
        # One output path for both: the receipt names it.
        out = self.path("release.npy")
        for stale in (out, out + ".json", out + ".curator.json"):
            if os.path.exists(stale):
                os.remove(stale)
        result = self.run_dpcov(["release", path, "-m", mechanism, "-e", "1", "--seed", "35", "-q",
                                 "-o", out] + args)
        if result.returncode != EXIT_OK:
            return result.returncode, result.stderr.decode()
        with open(out + ".json", "rb") as f:
            return EXIT_OK, f.read()

    def test_neighbours_give_byte_identical_public_receipts_or_a_refusal_naming_the_row(self):
        for mechanism, extra in (("analyze_gauss", ["-d", "1e-6"]), ("laplace_sym", [])):
            for name, option in OPTIONS.items():
                for numerics in ("default", "exact", "idealized"):
                    for policy in ("--clip", "--reject"):
                        if policy == "--reject" and ("auto" in name or name == "bounds"):
                            continue  # refused as a usage error whatever the data
                        args = option + [policy, "--numerics", numerics] + extra
                        with self.subTest(mechanism=mechanism, option=name, policy=policy,
                                          numerics=numerics):
                            self.check_neighbours(args, mechanism, policy, numerics)

    def test_the_zcdp_row_releases_give_byte_identical_public_receipts(self):
        """The zCDP mechanisms on the rows (idealized numerics: they have no exact form): DLY
        under --clip and --reject at --bound 1, CoinPress (which clips whitened rows inside the
        mechanism), with and without --center, and the CoinPress mean."""
        cases = [(name, ["-d", "1e-6", "--bound", "1", policy], policy)
                 for name in ("dly_gauss", "dly_separate", "dly_adaptive", "dly_adaptive_paper")
                 for policy in ("--clip", "--reject")]
        cases += [("coinpress", ["-d", "1e-6", "--k-bound", "4"], "--clip"),
                  ("coinpress", ["-d", "1e-6", "--k-bound", "4", "--center", "--mean-radius",
                                 "2"], "--clip"),
                  ("coinpress_mean", ["-d", "1e-6", "--mean-radius", "2"], "--clip")]
        for mechanism, args, policy in cases:
            with self.subTest(mechanism=mechanism, args=args):
                if "--center" not in args:
                    self.check_neighbours(args, mechanism, policy, "idealized")
                    continue
                # --center's receipt holds the private mean it released (a mechanism's output,
                # which differs between the neighbours): everything else is identical.
                first, second = (self.release(path, args, mechanism) for path in self.inputs)
                self.assertEqual((first[0], second[0]), (EXIT_OK, EXIT_OK), (first, second))
                receipts = [json.loads(r[1]) for r in (first, second)]
                for r in receipts:
                    del r["centring"]["mean"]
                self.assertEqual(receipts[0], receipts[1])

    def check_neighbours(self, args, mechanism, policy, numerics):
        first = self.release(self.inputs[0], args, mechanism)
        second = self.release(self.inputs[1], args, mechanism)
        self.assertEqual(first[0], EXIT_OK, first[1])
        want = b'"numerics": "idealized"' if numerics == "idealized" else b'"numerics": "exact"'
        self.assertIn(want, first[1])
        if policy == "--reject":
            self.assertEqual(second[0], EXIT_INPUT, second[1])
            self.assertIn(":2: ", second[1])  # row 0 is on the file's line 2
            return
        self.assertEqual(second[0], EXIT_OK, second[1])
        self.assertEqual(first[1], second[1])

if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)

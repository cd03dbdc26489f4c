"""No public receipt or JSON field depends on the data except through a private mechanism
(proofs/public_receipt.md).

For every release path of `dpcov release` (Analyze Gauss at a public --bound under replace-one and
add/remove, public --bounds under both, --bound auto with a ledger, exact-numerics symmetric
Laplace; --add-constant with --bound B under both relations, with --bound auto and with exact
numerics), two neighbouring datasets are released with the same seed: the public receipts must be
byte-identical, while the curator files differ (the clipped count, n, the input's size). Then the
two releases are forced equal (the first matrix copied over the second, each keeping its own
receipts) and everything downstream (`pca --seed`, centred and not, and `regress`) must print the
same bytes: nothing downstream reads the curator's file. `regress` on raw rows (AdaSSP) releases
inside the command, so its JSON is compared field by field without the mechanism's outputs.

Run by meson as: /usr/bin/python3 public_outputs_test.py DPCOV_EXECUTABLE
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, DpcovCase

HEADER = "x,y,z\n"


def csv_bytes(a):
    return (HEADER + "".join(",".join(repr(float(v)) for v in row) + "\n" for row in a)).encode()


class PublicOutputs(DpcovCase):
    def neighbours(self):
        a = np.random.default_rng(44).normal(size=(60, 3)) * 0.5
        over = a.copy()
        over[0] = [123.456789, -98.7654321, 55.5]  # over every bound: the clipped count differs
        flipped = a.copy()
        flipped[0] = -a[0]  # the same norm (the same cell of --bound auto's grid), other digits
        added = np.vstack([a, [[0.1, 0.2, 0.3]]])  # one row more: n differs
        return a, over, flipped, added

    def ok(self, args, cwd=None):
        # Run in the release's folder, so that the paths in the receipts (public parameters) are
        # the same relative ones for both datasets.
        result = subprocess.run([DpcovCase.dpcov] + args, capture_output=True, timeout=120,
                                cwd=cwd)
        self.assertEqual(result.returncode, EXIT_OK, (args, result.stderr.decode()))
        return result

    def release(self, name, data, args):
        folder = self.path(name)
        os.mkdir(folder)
        path = os.path.join(folder, "data.csv")
        with open(path, "wb") as f:
            f.write(csv_bytes(data))
        out = os.path.join(folder, "r.npy")
        extra = [a.replace("LEDGER", "budget.json") for a in args]
        self.ok(["release", "data.csv", "--seed", "3", "-o", "r.npy", "-q"] + extra, cwd=folder)
        with open(out + ".json", "rb") as f:
            public = f.read()
        with open(out + ".curator.json") as f:
            curator = json.load(f)
        return out, public, curator

    def downstream(self, matrix, commands):
        outputs = []
        for command in commands:
            args = [a.replace("MATRIX", "r.npy") for a in command]
            # pca's 95% quantile of the noise's spectral norm is simulated: with --seed it is the
            # same for the same files, so its output is compared byte for byte too.
            if args[0] == "pca":
                args += ["--seed", "1"]
            outputs.append(self.ok(args, cwd=os.path.dirname(matrix)).stdout)
        return outputs

    def test_every_release_path_publishes_the_same_bytes_for_neighbouring_datasets(self):
        a, over, flipped, added = self.neighbours()
        gauss = ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6"]
        moment = [["pca", "MATRIX", "-k", "2", "--json"],
                  ["regress", "MATRIX", "--label", "z", "--json", "--seed", "1"]]
        add_remove = [["pca", "MATRIX", "-k", "2", "--json", "--rows", "60"],
                      ["regress", "MATRIX", "--label", "z", "--json", "--seed", "1", "--rows",
                       "60"]]
        scaled = [["pca", "MATRIX", "-k", "2", "--json"],
                  ["pca", "MATRIX", "-k", "2", "--json", "--no-center"],
                  ["regress", "MATRIX", "--label", "z", "--intercept", "const", "--json",
                   "--seed", "1"]]
        cases = {
            "replace-one": (a, over, gauss + ["--bound", "2"], moment),
            "add-remove": (a, added, gauss + ["--bound", "2", "--neighbour", "add-remove"],
                           add_remove),
            "bounds": (a, over, gauss + ["--bounds", "-1:1"], scaled),
            "bounds add-remove": (a, added, gauss + ["--bounds", "-1:1", "--neighbour",
                                                     "add-remove"],
                                  [["pca", "MATRIX", "-k", "2", "--json"]]),
            "bound auto, ledger": (a, flipped, gauss + [
                "--bound", "auto", "--ledger", "LEDGER", "--ledger-epsilon", "2",
                "--ledger-delta", "1e-5"], moment),
            "bound auto add-remove": (a, added, gauss + [
                "--bound", "auto", "--bound-clipped", "3", "--neighbour", "add-remove"],
                add_remove),
            "laplace_sym exact": (a, over, ["-m", "laplace_sym", "-e", "1", "--bound", "2"],
                                  moment),
            "add-constant": (a, over, gauss + ["--bound", "2", "--add-constant"], scaled),
            "add-constant add-remove": (a, added, gauss + ["--bound", "2", "--add-constant",
                                                           "--neighbour", "add-remove"],
                                        [["pca", "MATRIX", "-k", "2", "--json"]]),
            "bound auto add-constant, ledger": (a, flipped, gauss + [
                "--bound", "auto", "--add-constant", "--ledger", "LEDGER", "--ledger-epsilon",
                "2", "--ledger-delta", "1e-5"], scaled),
            "laplace_sym exact add-constant": (a, over, ["-m", "laplace_sym", "-e", "1", "--bound",
                                                         "2", "--add-constant"], scaled),
        }
        for name, (first, second, args, commands) in cases.items():
            with self.subTest(path=name):
                key = name.replace(" ", "_").replace(",", "")
                out_a, public_a, curator_a = self.release(key + "_a", first, args)
                out_b, public_b, curator_b = self.release(key + "_b", second, args)
                self.assertEqual(public_a, public_b)
                self.assertNotEqual(curator_a, curator_b)
                receipt = json.loads(public_a)
                for field in ("clipped", "dropped", "input", "clamped_values",
                              "bingham_proposals", "bingham_rejections"):
                    self.assertNotIn(field, receipt)
                self.assertEqual("n" in receipt, "add-remove" not in name)
                # Force the releases equal: downstream sees the same public files, and must not
                # find a difference anywhere else.
                shutil.copyfile(out_a, out_b)
                self.assertEqual(self.downstream(out_a, commands),
                                 self.downstream(out_b, commands))

    def test_regress_on_raw_rows_prints_nothing_of_the_data_but_the_mechanisms_outputs(self):
        a, over, _, added = self.neighbours()
        y = lambda m: np.clip(m @ [0.5, -0.3, 0.0], -1, 1)
        mechanism_outputs = {"coef", "noise_aware", "released_lambda_min", "ridge",
                             "eigenvalues_floored"}

        def public_fields(value):
            if isinstance(value, dict):
                return {k: public_fields(v) for k, v in value.items()
                        if k not in mechanism_outputs and not (k == "bound" and "bound_given"
                                                               in value)}
            if isinstance(value, list):
                return [public_fields(v) for v in value]
            return value

        for name, second, extra in (("replace_one", over, []),
                                    ("add_remove", added, ["--neighbour", "add_remove",
                                                           "--bound-epsilon", "0"])):
            with self.subTest(neighbour=name):
                outputs, ledgers = [], []
                for i, data in enumerate((a, second)):
                    rows = np.column_stack([data[:, :2], y(data)])
                    # With a zCDP ledger: its file holds only public values (the charges). Each
                    # run in its own folder with the input by the same name, which the ledger's
                    # hash chain covers.
                    folder = self.path(f"raw_{name}_{i}")
                    os.mkdir(folder)
                    with open(os.path.join(folder, "data.csv"), "wb") as f:
                        f.write(csv_bytes(rows))
                    result = self.ok(["regress", "data.csv", "--label", "z", "--epsilon", "1",
                                      "--bound", "1", "--label-bound", "1", "--noise-seed", "4",
                                      "--json", "-q", "--ledger", "budget.json",
                                      "--ledger-epsilon", "3", "--ledger-delta", "1e-5",
                                      "--accounting", "zcdp"] + extra, cwd=folder)
                    outputs.append(json.loads(result.stdout))
                    with open(os.path.join(folder, "budget.json"), "rb") as f:
                        ledgers.append(f.read())
                first, second_out = outputs
                self.assertNotIn("clipped", first)
                self.assertEqual("rows" in first, name == "replace_one")
                first["input"] = second_out["input"] = "data.csv"
                self.assertEqual(public_fields(first), public_fields(second_out))
                self.assertIn("ledger", first)
                self.assertEqual(ledgers[0], ledgers[1])

    def test_clipping_warnings_print_no_exact_n_under_add_remove(self):
        # The curator-labelled stderr line counts the clipped rows; "k of N" only where N is
        # public (replace-one), as the Python warnings do.
        _, over, _, _ = self.neighbours()
        data = np.vstack([over, [[0.1, 0.2, 0.3]]])  # 61 rows, one over every bound
        labelled = np.column_stack([data[:, :2], np.clip(data[:, 2], -1, 1)])
        path, raw = self.path("clip_warning.csv"), self.path("clip_warning_raw.csv")
        with open(path, "wb") as f:
            f.write(csv_bytes(data))
        with open(raw, "wb") as f:
            f.write(csv_bytes(labelled))
        gauss = ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--seed", "3", "-q"]
        runs = {
            "release": ["release", path, "--bound", "2", "-o", self.path("w_r.npy")] + gauss,
            "release add-constant": ["release", path, "--bound", "2", "--add-constant", "-o",
                                     self.path("w_c.npy")] + gauss,
            "regress raw": ["regress", raw, "--label", "z", "--epsilon", "1", "--bound", "1",
                            "--label-bound", "1", "--noise-seed", "4", "-q", "--bound-epsilon",
                            "0"],
        }
        for name, args in runs.items():
            for neighbour in ("replace-one", "add-remove"):
                with self.subTest(command=name, neighbour=neighbour):
                    relation = (neighbour if name != "regress raw"
                                else neighbour.replace("-", "_"))
                    out = list(args)
                    if "-o" in out:
                        out[out.index("-o") + 1] = out[out.index("-o") + 1].replace(
                            ".npy", "_" + neighbour + ".npy")
                    stderr = self.ok(out + ["--neighbour", relation]).stderr.decode()
                    if neighbour == "replace-one":
                        self.assertRegex(stderr, r"warning: [1-9][0-9]* of 61 rows")
                    else:
                        self.assertRegex(stderr, r"warning: [1-9][0-9]* rows")
                        self.assertNotRegex(stderr, r"of [0-9]+ rows")
                        self.assertNotIn("61", stderr)


if __name__ == "__main__":
    DpcovCase.dpcov = os.path.abspath(sys.argv[1])
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

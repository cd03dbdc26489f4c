"""The `--ledger` file charges every release through the library's one charge of a receipt
(dpcov_ledger_charge_receipt), and its entries record the registry id and the receipt's prefix.

data/ledger_format2_{basic,zcdp,advanced}.json were written by dpcov at e83fd06, the format
before (a Gram receipt's fields, or a release stated in zCDP by a name such as
"coinpress --center"), by FAMILY_RELEASES below on the rows make_inputs() writes. The tests:
- every family, released by this dpcov on a new ledger, spends what the previous format spent;
- the previous format's files are read and charged as before: one more release on a copy gives
  what the same releases on a new ledger give;
- Python's BudgetAccountant, charged the entries of a ledger the command wrote through their
  prefix, agrees with the file's totals.
"""
import json
import os
import shutil
import sys
import unittest

import numpy as np

from cli_case import DpcovCase, EXIT_OK

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
ACCOUNTINGS = ("basic", "zcdp", "advanced")
CAPS = ["--ledger-epsilon", "100", "--ledger-delta", "1e-3"]


def family_releases(accounting):
    """One release of each family at epsilon 0.5 (an advanced ledger's per-release budget): the
    Gram mechanisms with exact and idealized numerics, with and without a private bound step,
    Dong-Liang-Yi, CoinPress (with and without --center), CoinPress mean, and AdaSSP with and
    without its tighter-bound step. zCDP has no bound for the additive Wishart."""
    e = ["-e", "0.5"]
    gram = ["rows.csv"] + e
    releases = [
        gram + ["-m", "analyze_gauss", "-d", "1e-6", "--bound", "1"],
        gram + ["-m", "analyze_gauss", "-d", "1e-6", "--bound", "1", "--numerics", "idealized"],
        gram + ["-m", "laplace_sym", "--bound", "auto"],
        gram + ["-m", "analyze_gauss", "-d", "1e-6", "--bound", "auto", "--numerics",
                "idealized"],
    ]
    if accounting != "zcdp":
        releases.append(gram + ["-m", "wishart_additive", "-d", "1e-6", "--bound", "1"])
    far = ["far.csv"] + e + ["-d", "1e-6"]
    releases += [
        gram + ["-m", "dly_adaptive", "-d", "1e-6", "--bound", "1"],
        far + ["-m", "coinpress", "--k-bound", "4", "--center", "--mean-radius", "20"],
        far + ["-m", "coinpress", "--k-bound", "4"],
        far + ["-m", "coinpress_mean", "--mean-radius", "20"],
    ]
    return [["release", "-o", f"o{i + 1}.npy", "--seed", str(i + 1)] + args
            for i, args in enumerate(releases)]


REGRESSIONS = [
    ["regress", "reg.csv", "--label", "y", "--epsilon", "0.5", "--delta", "1e-6", "--bound", "1",
     "--label-bound", "1", "--noise-seed", "3", "--no-intervals", "--bound-epsilon", "0.1"],
    ["regress", "reg.csv", "--label", "y", "--epsilon", "0.5", "--delta", "1e-6", "--bound", "1",
     "--label-bound", "1", "--noise-seed", "4"],
]


def make_inputs(directory):
    g = np.random.default_rng(7)
    x = g.standard_normal((400, 3)) * 0.3
    np.savetxt(os.path.join(directory, "rows.csv"), x, delimiter=",", header="a,b,c",
               comments="")
    y = np.column_stack([x, x @ [0.2, -0.1, 0.3] + 0.05 * g.standard_normal(400)])
    y[:, 3] = np.clip(y[:, 3], -1, 1)
    np.savetxt(os.path.join(directory, "reg.csv"), y, delimiter=",", header="a,b,c,y",
               comments="")
    far = g.standard_normal((2000, 3)) + 4.0
    np.savetxt(os.path.join(directory, "far.csv"), far, delimiter=",", header="a,b,c",
               comments="")


class LedgerFormatTest(DpcovCase):
    def setUp(self):
        super().setUp()
        make_inputs(self.dir)

    def run_here(self, args):
        cwd = os.getcwd()
        os.chdir(self.dir)
        try:
            result = self.run_dpcov(args + ["--quiet"])
        finally:
            os.chdir(cwd)
        self.assertEqual(result.returncode, EXIT_OK, (args, result.stderr.decode()))

    def charge_all(self, ledger, accounting, extra=()):
        """The releases of every family charged to a new ledger `ledger`; its state after."""
        runs = family_releases(accounting) + REGRESSIONS + list(extra)
        for i, args in enumerate(runs):
            self.run_here(args + ["--ledger", ledger] +
                          (CAPS + ["--accounting", accounting] if i == 0 else []))
        with open(ledger) as f:
            return json.load(f)

    def previous(self, accounting):
        with open(os.path.join(DATA, f"ledger_format2_{accounting}.json")) as f:
            return json.load(f)

    def test_each_family_spends_what_the_previous_format_spent(self):
        for accounting in ACCOUNTINGS:
            with self.subTest(accounting=accounting):
                book = self.charge_all(self.path(f"{accounting}.json"), accounting)
                old = self.previous(accounting)
                self.assertEqual(len(book["charges"]), len(old["charges"]))
                for key, value in old["spent"].items():
                    self.assertAlmostEqual(book["spent"][key], value, delta=1e-15 * abs(value),
                                           msg=key)
                for entry in book["charges"]:
                    self.assertIn("privacy_model", entry)
                    self.assertIn("mechanism_id", entry)
                    self.assertNotIn("zcdp_rho", entry)

    def test_a_file_of_the_previous_format_is_read_and_charged_as_before(self):
        extra = ["release", "-o", "last.npy", "--seed", "99", "rows.csv", "-m", "laplace_sym",
                 "-e", "0.5", "--bound", "1"]
        for accounting in ACCOUNTINGS:
            with self.subTest(accounting=accounting):
                fresh = self.charge_all(self.path(f"new-{accounting}.json"), accounting, [extra])
                ledger = self.path(f"old-{accounting}.json")
                shutil.copy(os.path.join(DATA, f"ledger_format2_{accounting}.json"), ledger)
                self.run_here(extra + ["--ledger", ledger])
                with open(ledger) as f:
                    book = json.load(f)
                for key, value in fresh["spent"].items():
                    self.assertAlmostEqual(book["spent"][key], value, delta=1e-15 * abs(value),
                                           msg=key)
                # The previous entries are kept as written (the chain covers them), the new one
                # records the prefix.
                old = self.previous(accounting)["charges"]
                self.assertEqual([c.get("zcdp_rho") for c in book["charges"][:-1]],
                                 [c.get("zcdp_rho") for c in old])
                self.assertEqual(book["charges"][-1]["privacy_model"], "pure")
                self.assertEqual(book["charges"][-1]["mechanism"], "laplace_sym")

    def test_python_charged_the_files_entries_agrees_with_the_file(self):
        import dpcov
        from dpcov._lib import ReceiptC, new_struct
        models = {"pure": 1, "approximate": 2, "zcdp": 3}
        for accounting in ACCOUNTINGS:
            with self.subTest(accounting=accounting):
                book = self.charge_all(self.path(f"{accounting}.json"), accounting)
                budget = dpcov.BudgetAccountant(epsilon=100, delta=1e-3, accounting=accounting)
                for entry in book["charges"]:
                    r = new_struct(ReceiptC)
                    r.mechanism = entry["mechanism_id"]
                    r.privacy_model = models[entry["privacy_model"]]
                    r.numerics = 1 if entry["numerics"] == "exact" else 0
                    r.epsilon, r.delta, r.rho = entry["epsilon"], entry["delta"], entry["rho"]
                    if "sigma" in entry:
                        r.sensitivity, r.sigma = entry["sensitivity"], entry["sigma"]
                        r.sensitivity_norm = entry["sensitivity_norm"]
                    budget.charge(r)
                spent = budget.spent
                for key in ("epsilon", "delta", "rho"):
                    self.assertEqual(getattr(spent, key), book["spent"][key], key)
                self.assertEqual(spent.charges, book["spent"]["releases"])


if __name__ == "__main__":
    DpcovCase.dpcov = os.path.abspath(sys.argv[1])  # the tests run in their own directory
    unittest.main(argv=sys.argv[:1])

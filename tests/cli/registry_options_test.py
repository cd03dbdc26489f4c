"""The command line follows the library's registry (dpcov_mechanism_entry, read here through the
Python binding, not through the command line): for every Gram mechanism, `dpcov compare` hands it
--projection-rows, --posterior-dof and --rank exactly when its entry's options include them (an
option handed to a mechanism that does not read it is refused by the library, so the comparison
would fail), `dpcov audit` audits it on its entry's standard pair, or refuses it when the entry
has none, at the auditor's rows without --rows (dpcov_audit_standard_rows), `dpcov mechanisms`
prints the entry's summary, preconditions, commands and flags (--calibration where the entry has
a choice of calibration, which --help names), and `dpcov regress` gives a release the inference
its entry's inference bits say (exact t-tests on a projection, guaranteed Gaussian intervals).
A registry row whose options, pair or inference change fails here unless the command line
follows."""
import json
import os
import sys
import unittest

import numpy as np

from cli_case import DpcovCase, EXIT_OK, EXIT_USAGE
import dpcov
from dpcov import registry

DATASETS = {0: "random", 1: "sphere", 2: "repeated", 3: "rank-deficient", 4: "nearly-singular",
            5: "tiny-n"}
NEIGHBOURS = {0: "random", 1: "max-l2", 2: "max-l1", 3: "least-eigenvector"}
FLAGS = {"projection_rows": ["--projection-rows", "11"], "posterior_dof": ["--posterior-dof", "9"],
         "spectral": ["--rank", "1"]}


def gram_entries():
    return [m for m in registry.mechanisms() if m.family == "gram"]


def runs_on_command_line(entry):
    return "glasso_rho" not in entry.options


def compared(entry):
    return runs_on_command_line(entry) and not {"lambda_min", "audit_unlock"} & set(entry.options)


def audited(entry):
    return runs_on_command_line(entry) and entry.audit_dataset >= 0


class RegistryOptions(DpcovCase):
    def data(self):
        rows = 0.5 * np.sin(1.7 * np.arange(120.0)).reshape(40, 3)
        path = self.path("rows.csv")
        np.savetxt(path, rows, delimiter=",", header="a,b,c", comments="")
        return path

    def test_compare_hands_each_mechanism_the_options_its_entry_reads(self):
        data = self.data()
        flags = sum(FLAGS.values(), [])
        for entry in filter(compared, gram_entries()):
            with self.subTest(entry.name):
                result = self.run_dpcov(["compare", data, "--bound", "1", "-m", entry.name,
                                         "-e", "0.5", "-d", "1e-6", "--repeats", "1", "--seed",
                                         "1", "--quiet", "--json"] + flags)
                self.assertEqual(result.returncode, EXIT_OK, result.stderr)
                receipt = json.loads(result.stdout)["results"][0]["receipt"]
                self.assertEqual(receipt["projection_rows"] == 11,
                                 "projection_rows" in entry.options)
                if "posterior_dof" in entry.options:
                    self.assertEqual(receipt["dof"], 9)
                self.assertEqual(receipt["rank"] == 1, "spectral" in entry.options)

    def test_compare_refuses_what_it_cannot_run(self):
        data = self.data()
        for entry in gram_entries():
            if compared(entry) or not runs_on_command_line(entry):
                continue
            with self.subTest(entry.name):
                result = self.run_dpcov(["compare", data, "--bound", "1", "-m", entry.name,
                                         "-e", "0.5", "-d", "1e-6", "--quiet"])
                self.assertEqual(result.returncode, EXIT_USAGE, result.stderr)

    def test_audit_runs_each_mechanism_on_its_entrys_pair(self):
        for entry in filter(runs_on_command_line, gram_entries()):
            with self.subTest(entry.name):
                args = ["audit", "-m", entry.name, "-e", "0.5", "--dims", "3", "--trials", "20",
                        "--first-checkpoint", "10", "--json"]
                if "audit_unlock" in entry.options:
                    args.append("--audit-only-not-private")
                result = self.run_dpcov(args)
                if not audited(entry):
                    self.assertEqual(result.returncode, EXIT_USAGE, result.stderr)
                    self.assertIn(b"no closed-form output density", result.stderr)
                    continue
                rows = json.loads(result.stdout)["audits"]
                self.assertEqual(len(rows), 1)
                self.assertNotIn("error", rows[0])
                self.assertEqual(rows[0]["dataset"], DATASETS[entry.audit_dataset])
                self.assertEqual(rows[0]["neighbour_kind"], NEIGHBOURS[entry.audit_neighbour_kind])
                # Without --rows, the auditor's n for these settings (the command's options: an
                # unlock, and its default max(20, 2d) projection rows or posterior dof at d = 3).
                options = {key: 20 for key in ("projection_rows", "posterior_dof")
                           if key in entry.options}
                if "audit_unlock" in entry.options:
                    options["audit_only_not_private"] = True
                self.assertEqual(rows[0]["n"], dpcov.audit_standard_rows(
                    entry.id, 3, 1.0, 0.5, 1e-6, fallback=50, mechanism_options=options))

    def test_mechanisms_prints_what_each_entry_implies(self):
        result = self.run_dpcov(["mechanisms", "--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr)
        listed = {m["name"]: m for m in json.loads(result.stdout)}
        for entry in registry.mechanisms():
            with self.subTest(entry.name):
                shown = listed[entry.name]
                self.assertEqual(shown["output"], entry.summary)
                self.assertEqual(shown["preconditions"], entry.preconditions)
                if entry.family != "gram":
                    continue
                commands = shown["command"].split(", ")
                self.assertEqual("release" in commands, runs_on_command_line(entry))
                self.assertEqual("compare" in commands, compared(entry))
                self.assertEqual("audit" in commands, audited(entry))
                for option, flag in FLAGS.items():
                    self.assertEqual(flag[0] in shown["options"],
                                     option in entry.options and runs_on_command_line(entry))
                self.assertEqual("--calibration" in shown["options"],
                                 "calibration" in entry.options and runs_on_command_line(entry))

    def test_calibration_help_names_the_mechanisms_with_a_choice(self):
        result = self.run_dpcov(["release", "--help"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr)
        text = " ".join(result.stdout.decode().split())
        choosing = [m.name for m in gram_entries() if "calibration" in m.options]
        self.assertGreaterEqual(len(choosing), 2)
        named = ", ".join(choosing[:-1]) + " and " + choosing[-1] + ": noise calibration"
        self.assertIn(named, text)

    def test_regress_reads_the_inference_its_entry_supports(self):
        data = self.data()
        for entry in filter(runs_on_command_line, gram_entries()):
            if not {"projection_t", "guaranteed_gauss"} & set(entry.inference):
                continue
            with self.subTest(entry.name):
                rows = np.random.default_rng(3).normal(scale=0.3, size=(20000, 3))
                path = self.path(entry.name + ".npy")
                np.save(path, rows)
                out = self.path(entry.name + "_release.csv")
                args = ["release", path, "-m", entry.name, "-e", "1", "-d", "1e-6", "--bound",
                        "1", "--seed", "2", "--quiet", "-o", out]
                if "projection_rows" in entry.options:
                    args += ["--projection-rows", "200"]
                result = self.run_dpcov(args)
                self.assertEqual(result.returncode, EXIT_OK, result.stderr)
                result = self.run_dpcov(["regress", out, "-y", "2", "--seed", "1", "--json"])
                self.assertEqual(result.returncode, EXIT_OK, result.stderr)
                fit = json.loads(result.stdout)
                projection = "projection_t" in entry.inference
                # Exact t inference on the projection: r - p residual dof, no noise-aware table.
                self.assertEqual("noise_aware" in fit, not projection)
                if projection:
                    self.assertEqual(fit["dof"], 200 - 2)
                self.assertEqual("guaranteed" in fit, "guaranteed_gauss" in entry.inference)


if __name__ == "__main__":
    DpcovCase.dpcov = os.path.abspath(sys.argv[1])  # the tests run in their own directory
    unittest.main(argv=sys.argv[:1])

"""A seeded run is reproducible: every command that takes --seed prints the same bytes and writes
the same files when it is run twice with the same seed.

Every random draw of a seeded run must come from the seeded generator: a draw from the operating
system's entropy (as `pca`'s simulated noise-norm quantile once was) makes two identical runs
differ. The commands that take --seed are read from `dpcov --help` and each command's help, and
every one of them must have runs below, so that a new command with --seed cannot be left out.
Files written by a run are compared too (matrix, public receipt, curator file, ledger), after the
run's own temporary folder is replaced by a fixed name.

Run by meson as: /usr/bin/python3 seeded_runs_test.py DPCOV_EXECUTABLE
"""
import os
import re
import shutil
import subprocess
import sys
import unittest

import numpy as np

from cli_case import EXIT_OK, DpcovCase


def data_csv(path):
    """Rows with a constant column, columns of mixed scales and a label (norms near 1)."""
    rng = np.random.default_rng(11)
    x = rng.normal(size=(400, 3)) * [0.4, 0.2, 0.1]
    y = np.clip(x @ [1.0, 0.5, 0.0] + 0.1 * rng.normal(size=400), -1, 1)
    with open(path, "w") as f:
        f.write("one,a,b,c,y\n")
        for row, label in zip(x, y):
            f.write(",".join(repr(float(v)) for v in [1.0, *row, label]) + "\n")


# Runs per command: arguments after the command name. DATA is the CSV above, REL a seeded
# analyze_gauss release of it (idealized numerics), SCALED a seeded release --bounds of it.
RUNS = {
    "release": [
        ["DATA", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "2", "-o", "out.npy"],
        ["DATA", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "auto",
         "--numerics", "idealized", "-o", "out.npy", "--ledger", "budget.json",
         "--ledger-epsilon", "3", "--ledger-delta", "1e-5"],
        ["DATA", "-m", "laplace_sym", "-e", "1", "--bound", "2", "-o", "out.csv"],
        ["DATA", "-m", "wishart_additive", "-e", "0.5", "-d", "1e-6", "--bound", "2",
         "-o", "out.npy"],
        ["DATA", "-m", "iev", "-e", "4", "--bound", "2", "-o", "out.npy"],
        ["DATA", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bounds", "-2:2",
         "-o", "out.npy"],
        ["DATA", "-m", "dly_adaptive", "-e", "1", "-d", "1e-6", "--bound", "2", "-o", "out.npy"],
        ["DATA", "-m", "coinpress", "-e", "1", "-d", "1e-6", "--k-bound", "10",
         "-o", "out.npy"],
    ],
    "regress": [
        ["REL", "--label", "y", "--intercept", "one", "--bootstrap", "199", "--json"],
        ["SCALED", "--label", "y", "--intercept", "const", "--bootstrap", "199"],
        ["DATA", "--label", "y", "--epsilon", "1", "--bound", "2", "--label-bound", "1",
         "--noise-seed", "4", "--bootstrap", "199", "-q"],
    ],
    "pca": [
        ["REL", "-k", "2", "--json"],
        ["REL", "-k", "2", "--constant", "one"],
    ],
    "compare": [
        ["DATA", "--bound", "2", "-m", "analyze_gauss,laplace_sym", "-e", "0.5,1", "-d", "1e-6",
         "-r", "3", "--label", "y"],
    ],
    "gram": [
        ["DATA", "--privacy-unit", "one", "--max-rows-per-unit", "3", "--bound", "2",
         "-o", "out.npy"],
    ],
    "audit": [
        ["-m", "analyze_gauss", "-e", "1", "--delta", "1e-6", "--dims", "3", "--trials", "500",
         "--json"],
    ],
}


def commands_with_seed(dpcov):
    text = subprocess.run([dpcov, "--help"], capture_output=True, text=True, check=True).stdout
    commands = re.findall(r"^  ([a-z]+)  ", text.split("Subcommands:")[1], re.M)
    assert commands, text
    with_seed = set()
    for command in commands:
        help_text = subprocess.run([dpcov, command, "--help"], capture_output=True, text=True,
                                   check=True).stdout
        if re.search(r"--seed\b", help_text):
            with_seed.add(command)
    return with_seed


class SeededRuns(DpcovCase):
    def run_in(self, folder, args):
        result = subprocess.run([DpcovCase.dpcov] + args, capture_output=True, timeout=120,
                                cwd=folder)
        self.assertEqual(result.returncode, EXIT_OK, (args, result.stderr.decode()))
        return result

    def prepare(self, folder):
        os.mkdir(folder)
        data_csv(os.path.join(folder, "data.csv"))
        self.run_in(folder, ["release", "data.csv", "-m", "analyze_gauss", "-e", "1", "-d",
                             "1e-6", "--bound", "2", "--numerics", "idealized", "-o", "rel.npy",
                             "--seed", "9", "-q"])
        self.run_in(folder, ["release", "data.csv", "-m", "analyze_gauss", "-e", "1", "-d",
                             "1e-6", "--bounds", "-2:2", "-o", "scaled.npy", "--seed", "9", "-q"])
        return {"DATA": "data.csv", "REL": "rel.npy", "SCALED": "scaled.npy"}

    def snapshot(self, folder, result):
        """stdout, stderr and every file of the folder, with the folder's name made fixed."""
        def fixed(blob):
            return blob.replace(folder.encode(), b"FOLDER")
        files = {}
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as f:
                files[name] = fixed(f.read())
        return fixed(result.stdout), fixed(result.stderr), files

    def test_every_command_with_seed_has_runs(self):
        self.assertEqual(commands_with_seed(DpcovCase.dpcov), set(RUNS))

    def test_same_seed_same_bytes(self):
        for command, runs in RUNS.items():
            for i, args in enumerate(runs):
                with self.subTest(command=command, run=i):
                    outputs = []
                    for attempt in ("first", "second"):
                        folder = self.path(f"{command}-{i}-{attempt}")
                        names = self.prepare(folder)
                        full = [command] + [names.get(a, a) for a in args] + ["--seed", "5"]
                        outputs.append(self.snapshot(folder, self.run_in(folder, full)))
                        shutil.rmtree(folder)
                    stdout, stderr, files = outputs[0]
                    self.assertTrue(stdout or len(files) > 3, "the run printed and wrote nothing")
                    self.assertEqual(outputs[0][0], outputs[1][0], "stdout differs")
                    self.assertEqual(outputs[0][1], outputs[1][1], "stderr differs")
                    self.assertEqual(sorted(outputs[0][2]), sorted(outputs[1][2]))
                    for name in outputs[0][2]:
                        self.assertEqual(outputs[0][2][name], outputs[1][2][name],
                                         f"{name} differs")

    def test_unseeded_pca_bound_is_drawn_from_entropy(self):
        # The check above can only fail if the seed matters: without it, the simulated quantile
        # differs between runs (so the seeded run's equality is the seed's doing).
        folder = self.path("unseeded")
        names = self.prepare(folder)
        first = self.run_in(folder, ["pca", names["REL"], "-k", "2", "--json"]).stdout
        second = self.run_in(folder, ["pca", names["REL"], "-k", "2", "--json"]).stdout
        self.assertIn(b"noise_norm", first)
        # Unseeded on purpose. The outputs agree only if the two simulated 0.95 quantiles (each
        # the spectral norm of one continuous Gaussian draw) are the same double: a false failure
        # has probability below 1e-12.
        self.assertNotEqual(first, second)


if __name__ == "__main__":
    DpcovCase.dpcov = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)

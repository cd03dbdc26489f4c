"""Every option that takes a list takes exactly one comma-separated argument, so it never swallows
the input file that follows it: each command runs with each list option before and after its
input and gives the same result, and a second bare word after a list option is refused.

The options checked are read from each command's --help (a type ending in "..."), so a new list
option without a case here fails the test.

Run by meson as: /usr/bin/python3 list_options_test.py DPCOV_EXECUTABLE
"""
import re
import subprocess
import sys
import unittest

from cli_case import EXIT_OK, EXIT_USAGE, DpcovCase

ROWS = [(0.1 * i % 0.9, 0.2 - 0.03 * i, 0.05 * (i % 7), 0.3 + 0.01 * i) for i in range(40)]

# command -> (arguments without the input, {list option: its one argument}); None for a command
# that reads no input file.
CASES = {
    "release": ("release -m laplace_sym -e 1 --bound 2 --seed 1 -o OUT/m.csv", {"--columns": "a,b"}),
    "gram": ("gram --bound 2 -o OUT/g.csv", {"--columns": "a,c"}),
    "regress": ("regress --label y --epsilon 1 --bound 2 --label-bound 1 --seed 1 "
                "--noise-seed 1 --bound-epsilon 0", {"-x": "a,b", "--features": "b,c"}),
    "compare": ("compare --bound 2 -m analyze_gauss -e 1 -d 1e-6 -r 1 --seed 1",
                {"--columns": "a,b", "-m": "analyze_gauss,laplace_sym", "--mechanisms": "laplace_sym",
                 "-e": "0.5,1", "--epsilons": "1,2", "--label y -x": "a,b",
                 "--label y --features": "a,c"}),
    "audit": (None, {"-m": "laplace_sym", "--mechanism": "laplace_sym", "-e": "1,2",
                     "--epsilon": "1", "--dims": "2,3"}),
}
# compare --rho excludes -e and needs its own base.
RHO_CASE = ("compare --bound 2 -m analyze_gauss -d 1e-6 -r 1 --seed 1", "--rho", "0.01,0.02")
AUDIT_BASE = "audit -m laplace_sym -e 1 --dims 2 --trials 200 --seed 1"


def list_options(dpcov):
    """{command: set of list options' names} from the help texts."""
    top = subprocess.run([dpcov, "--help"], capture_output=True, text=True, check=True).stdout
    commands = re.findall(r"^  ([a-z]+) ", top.split("Subcommands:")[1], re.M)
    found = {}
    for command in commands:
        text = subprocess.run([dpcov, command, "--help"], capture_output=True, text=True,
                              check=True).stdout
        for names, kind in re.findall(r"^  (-\S+) (\S+) \.\.\.", text, re.M):
            found.setdefault(command, set()).update(names.split(","))
    return found


class ListOptions(DpcovCase):
    def setUp(self):
        super().setUp()
        self.csv = self.path("data.csv")
        with open(self.csv, "w") as f:
            f.write("a,b,c,y\n" + "".join("%g,%g,%g,%g\n" % row for row in ROWS))

    def run_ok(self, words):
        result = self.run_dpcov(words)
        self.assertEqual(result.returncode, EXIT_OK, (words, result.stderr.decode()))
        return result.stdout

    def outputs(self, words):
        stdout = self.run_ok(words)
        written = [w for w in words if w.startswith(self.dir)]
        return stdout, [open(p, "rb").read() for p in written if p != self.csv]

    def words(self, text):
        return text.replace("OUT", self.dir).split()

    def test_every_list_option_has_a_case(self):
        for command, names in list_options(DpcovCase.dpcov).items():
            covered = {c.split()[-1] for c in CASES.get(command, (None, {}))[1]}
            if command == "compare":
                covered.add(RHO_CASE[1])
            for name in names:
                with self.subTest(command=command, option=name):
                    self.assertIn(name, covered, "a list option without a before/after case")

    def test_list_option_before_and_after_the_input(self):
        cases = [(base, option, value) for command, (base, options) in CASES.items() if base
                 for option, value in options.items()] + [RHO_CASE]
        for base, option, value in cases:
            with self.subTest(base=base, option=option):
                given = option.split() + [value]
                before = self.outputs(self.words(base) + given + [self.csv])
                after = self.outputs(self.words(base) + [self.csv] + given)
                self.assertEqual(before, after)

    def test_audit_list_options_take_one_argument(self):
        for option, value in CASES["audit"][1].items():
            with self.subTest(option=option):
                words = self.words(AUDIT_BASE) + [option, value]
                self.run_ok(words)
                result = self.run_dpcov(words + ["stray"])
                self.assertEqual(result.returncode, EXIT_USAGE)

    def test_a_second_bare_word_is_not_part_of_the_list(self):
        # Before the fix, '--columns a b data.csv' read b as a second column.
        result = self.run_dpcov(["gram", "--bound", "2", "--columns", "a", "b", self.csv])
        self.assertEqual(result.returncode, EXIT_USAGE)
        self.assertIn("not expected", result.stderr.decode())


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)

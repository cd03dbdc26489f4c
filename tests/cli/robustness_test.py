"""Every command through every class of bad input: each class has one exit code whatever the
command, the message names the file and never more than a short excerpt of what is not data (a
column name, an option's value; a value of the rows never), and nothing is written. The classes: a missing or unreadable input, a malformed CSV (non-UTF-8
header, one line with millions of fields, a huge field, a ragged row), an output or receipt that is
the input (same path, symbolic link or hard link), a malformed receipt or one that disagrees with
its matrix, and a --bound that is not a finite number > 0.

Run by meson as: /usr/bin/python3 robustness_test.py DPCOV_EXECUTABLE
"""
import json
import os
import resource
import subprocess
import sys
import unittest

from cli_case import EXIT_INPUT, EXIT_IO, EXIT_OK, EXIT_USAGE, DpcovCase

# The longest message a refusal may print: a short excerpt of any quoted input, never the input.
MAX_MESSAGE_BYTES = 4200
# Address space a refusal must fit in: far below the gigabytes an unbounded reader takes for one
# line of millions of fields, far above what the program needs.
MEMORY_LIMIT = 1 << 30

DATA = "a,b,c\n0.1,0.2,0.3\n0.3,-0.1,0.2\n-0.2,0.1,0.1\n0.0,0.3,-0.1\n"


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


class RobustnessCase(DpcovCase):
    def run_limited(self, args, stdin=None):
        return subprocess.run([DpcovCase.dpcov] + args, capture_output=True, timeout=120,
                              preexec_fn=limit_memory, input=stdin)

    def write(self, name, data):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path

    def expect(self, args, code, names=None, stdin=None):
        """Runs dpcov; expects exit `code`, a short message naming `names` (if given)."""
        result = self.run_limited(args, stdin)
        message = result.stderr.decode(errors="replace")
        self.assertEqual(result.returncode, code, f"{args[:2]}: {message[:500]}")
        self.assertLessEqual(len(result.stderr), MAX_MESSAGE_BYTES, args[:2])
        if names is not None:
            self.assertIn(names, message)
        return message

    # The data commands, each as a function of (input, output directory): the arguments.
    def data_commands(self):
        out = self.path("out.csv")
        return {
            "release": lambda data: ["release", data, "-o", out, "-m", "analyze_gauss", "-e", "1",
                                     "-d", "1e-6", "--bound", "1", "--seed", "1", "-q"],
            "gram": lambda data: ["gram", data, "-o", out, "--bound", "1", "-q"],
            "compare": lambda data: ["compare", data, "-m", "analyze_gauss", "-e", "1", "-d",
                                     "1e-6", "--bound", "1", "-y", "1", "-r", "1", "--seed", "1"],
            "regress-raw": lambda data: ["regress", data, "--epsilon", "1", "--bound", "1",
                                         "--label-bound", "1", "-y", "1", "--noise-seed", "1",
                                         "-q"],
        }

    # The commands reading a released matrix and its receipt.
    def matrix_commands(self):
        return {
            "regress": lambda m: ["regress", m, "-y", "1"],
            "pca": lambda m: ["pca", m, "-k", "1"],
            "glasso": lambda m: ["glasso", m, "--rho", "0.1", "-o", self.path("p.csv")],
        }

    def released_matrix(self):
        """A matrix and its receipt as `dpcov release` writes them."""
        data = self.write("data.csv", DATA)
        m = self.path("m.csv")
        result = self.run_dpcov(["release", data, "-o", m, "-m", "analyze_gauss", "-e", "1", "-d",
                                 "1e-6", "--bound", "1", "--seed", "1", "-q"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return m

    def test_missing_or_unreadable_input_is_an_io_error(self):
        os.mkdir(self.path("dir"))
        for name, command in self.data_commands().items():
            with self.subTest(name):
                self.expect(command(self.path("missing.csv")), EXIT_IO, "missing.csv")
                self.expect(command(self.path("dir")), EXIT_IO, "dir")
        for name, command in self.matrix_commands().items():
            with self.subTest(name):
                self.expect(command(self.path("missing.csv")), EXIT_IO, "missing.csv")

    def test_malformed_csv_is_an_input_error_naming_the_file(self):
        huge = "1" * (20 << 20)
        inputs = {
            "non-utf8 header": b"a,\xff\xfe,c\n1,2,3\n4,5,6\n",
            "overlong utf8 header": b"a,\xc0\xaf,c\n1,2,3\n4,5,6\n",
            "millions of fields": "1," * 3_000_000 + "1\n",
            "millions of header fields": "a," * 3_000_000 + "a\n1\n",
            "huge field": "a,b,c\n1,2,3\n1," + "x" * (20 << 20) + ",3\n",
            "huge number": "a,b,c\n1,2,3\n1," + huge + "e999999,3\n",
            "huge header name": "a," + "b" * (20 << 20) + ",c\n1,2,3\n",
            "ragged row of many fields": "a,b,c\n1,2,3\n" + "1," * 1_000_000 + "1\n",
            "line of 40 MiB": "a,b,c\n1,2," + " " * (40 << 20) + "3\n",
        }
        for label, text in inputs.items():
            data = self.write("bad.csv", text)
            for name, command in self.data_commands().items():
                with self.subTest(label=label, command=name):
                    self.expect(command(data), EXIT_INPUT, data)
            # A pipe goes through the read buffer instead of a mapping: the same refusals.
            with self.subTest(label=label, command="gram from a pipe"), open(data, "rb") as f:
                self.expect(self.data_commands()["gram"]("-"), EXIT_INPUT, "<stdin>", f.read())
            self.assertFalse(os.path.exists(self.path("out.csv")))

    def test_output_or_receipt_that_is_the_input_is_refused_untouched(self):
        data = self.write("data.csv", DATA)
        os.symlink(data, self.path("link.csv"))
        os.link(data, self.path("hard.csv"))
        before = os.stat(data)
        base = ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "1", "-q"]
        cases = {
            "release -o input": ["release", data, "-o", data] + base,
            "release -o symlink": ["release", data, "-o", self.path("link.csv")] + base,
            "release -o hard link": ["release", data, "-o", self.path("hard.csv")] + base,
            "release --receipt input": ["release", data, "-o", self.path("o.csv"),
                                        "--receipt", data] + base,
            "release --receipt link": ["release", data, "-o", self.path("o.csv"),
                                       "--receipt", self.path("hard.csv")] + base,
            "release from stdin -o input": ["release", "-", "-o", data] + base,
            "release --receipt ledger": ["release", data, "-o", self.path("o.csv"), "--receipt",
                                         self.path("ledger.json"), "--ledger",
                                         self.path("ledger.json"), "--ledger-epsilon", "5"] + base,
            "gram -o input": ["gram", data, "-o", data, "--bound", "1", "-q"],
            "gram -o symlink": ["gram", data, "-o", self.path("link.csv"), "--bound", "1", "-q"],
            "gram --receipt hard link": ["gram", data, "-o", self.path("o.csv"), "--receipt",
                                         self.path("hard.csv"), "--bound", "1", "-q"],
        }
        for label, args in cases.items():
            with self.subTest(label), open(data, "rb") as stdin:
                result = subprocess.run([DpcovCase.dpcov] + args, stdin=stdin,
                                        capture_output=True, timeout=120)
                self.assertEqual(result.returncode, EXIT_USAGE, result.stderr.decode())
                self.assertIn("never overwrites", result.stderr.decode())
        after = os.stat(data)
        self.assertEqual((before.st_mtime_ns, before.st_ino), (after.st_mtime_ns, after.st_ino))
        with open(data) as f:
            self.assertEqual(f.read(), DATA)
        self.assertFalse(os.path.exists(self.path("o.csv")))
        self.assertFalse(os.path.exists(self.path("ledger.json")))

        # A --bounds file is an input too.
        ranges = "column,min,max\na,-1,1\nb,-1,1\nc,-1,1\n"
        bounds = self.write("bounds.csv", ranges)
        for flag in ("-o", "--receipt"):
            with self.subTest("release --bounds file " + flag):
                args = ["release", data, "--bounds", bounds, "-m", "analyze_gauss", "-e", "1",
                        "-d", "1e-6", "-q", flag, bounds]
                if flag == "--receipt":
                    args += ["-o", self.path("o.csv")]
                self.expect(args, EXIT_USAGE, "never overwrites")
        with open(bounds) as f:
            self.assertEqual(f.read(), ranges)

        # glasso: its output, or its output's receipt, is the matrix or the matrix's receipt.
        m = self.released_matrix()
        os.link(m + ".json", self.path("p.csv.json"))
        for out in (m, self.path("p.csv")):
            with self.subTest(out):
                self.expect(["glasso", m, "--rho", "0.1", "-o", out], EXIT_USAGE,
                            "never overwrites")

    def test_a_refused_output_names_the_role_of_the_file_it_would_replace(self):
        data = self.write("data.csv", DATA)
        ledger = self.path("ledger.csv")  # a name an output could take
        base = ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "1", "-q"]
        self.expect(["release", data, "-o", self.path("o.csv"), "--ledger", ledger,
                     "--ledger-epsilon", "5", "--ledger-delta", "1e-5"] + base, EXIT_OK)
        message = self.expect(["release", data, "-o", ledger, "--ledger", ledger] + base,
                              EXIT_USAGE, "is the ledger " + ledger)
        self.assertNotIn("is the input", message)
        self.expect(["release", data, "-o", data] + base, EXIT_USAGE, "is the input " + data)
        ranges = self.write("bounds.csv", "column,min,max\na,-1,1\nb,-1,1\nc,-1,1\n")
        self.expect(["release", data, "--bounds", ranges, "-m", "analyze_gauss", "-e", "1", "-d",
                     "1e-6", "-q", "-o", ranges], EXIT_USAGE, "is the bounds file " + ranges)
        m = self.released_matrix()
        self.expect(["glasso", m, "--rho", "0.1", "-o", m], EXIT_USAGE, "is the release " + m)

    def test_a_data_file_given_as_a_ledger_or_receipt_is_not_quoted(self):
        # The JSON parser's message quotes the bytes it last read: here the data's first values.
        secret = "7391846.25"
        data = self.write("secret.csv", f"{secret},1,2\n0,0,0\n")
        plain = self.write("data.csv", DATA)
        m = self.released_matrix()
        for label, args in {
            "ledger": ["release", plain, "-o", self.path("o.csv"), "-m", "analyze_gauss", "-e",
                       "1", "-d", "1e-6", "--bound", "1", "-q", "--ledger", data],
            "receipt": ["pca", m, "-k", "1", "--receipt", data],
        }.items():
            with self.subTest(label):
                message = self.expect(args, EXIT_INPUT, "parse error at byte")
                self.assertNotIn("7391846", message)

    def test_bad_receipt_is_an_input_error_naming_it(self):
        m = self.released_matrix()
        with open(m + ".json") as f:
            good = json.load(f)

        def changed(**entries):
            receipt = dict(good)
            receipt.update(entries)
            return json.dumps(receipt)

        receipts = {
            "not json": "{\"mechanism\": ",
            "not an object": "[1, 2, 3]",
            "columns not strings": changed(columns=[1, 2, 3]),
            "columns too few": changed(columns=["a", "b"]),
            "columns disagree with the header": changed(columns=["c", "b", "a"]),
            "dim disagrees": changed(dim=4),
            "shape disagrees": changed(output={"shape": [2, 2]}),
            "sigma a string": changed(sigma="large"),
            "sigma negative": changed(sigma=-1.0),
            "n negative": changed(n=-5),
            "n huge": changed(n=2**64 - 1),
            "n fractional": changed(n=2.5),
            "mechanism a number": changed(mechanism=3),
            "command a list": changed(command=["release"]),
            "private a string": changed(differentially_private="yes"),
            "huge string": changed(columns=["x" * (1 << 20), "b", "c"]),
            "invalid utf8": b"{\"mechanism\": \"\xff\"}",
        }
        for label, text in receipts.items():
            receipt = self.write("bad.json", text)
            for name, command in self.matrix_commands().items():
                with self.subTest(label=label, command=name):
                    self.expect(command(m) + ["--receipt", receipt], EXIT_INPUT, receipt)

    def test_non_utf8_matrix_header_is_an_input_error(self):
        m = self.write("m.csv", b"\xff,b\n1,0\n0,1\n")
        for name, command in self.matrix_commands().items():
            with self.subTest(name):
                self.expect(command(m) + ["--rows", "10"], EXIT_INPUT, m)

    def test_bound_that_is_not_a_positive_finite_number_is_a_usage_error(self):
        data = self.write("data.csv", DATA)
        commands = dict(self.data_commands())
        commands["plan"] = lambda _: ["plan", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                                      "--dims", "3", "--rows", "10", "--bound", "1"]
        commands["audit"] = lambda _: ["audit", "-m", "analyze_gauss", "-e", "1", "--delta",
                                       "1e-6", "--trials", "10", "--bound", "1"]
        # Not a number, not > 0, not finite, or a square that underflows or overflows (which
        # covers the library's range of row bounds, >= 2^-960: 2^-1074, 2^-1000 and 2^-961 here).
        for value in ["abc", "", "-1", "0", "-0", "inf", "-inf", "nan", "1e400", "0x", "1,5",
                      "1e-320", "1e-200", "1e-160", "1e160", "1e300", "1.7e308",
                      "5e-324", "9.332636185032189e-302", "5.1306710016229703e-290"]:
            for name, command in commands.items():
                args = command(data)
                args[args.index("--bound") + 1] = value
                with self.subTest(value=value, command=name):
                    self.expect(args, EXIT_USAGE, "--bound")
        raw = commands["regress-raw"](data)
        for value in ["0", "nan", "-2", "x", "1e-200", "1e200"]:
            args = list(raw)
            args[args.index("--label-bound") + 1] = value
            with self.subTest(label_bound=value):
                self.expect(args, EXIT_USAGE, "--label-bound")

    def test_a_privacy_parameter_out_of_range_is_a_usage_error_on_every_command(self):
        # NaN included: the library's status for it (non-finite) means bad data where data are
        # read, but a plan reads only the options.
        data = self.write("data.csv", DATA)
        commands = dict(self.data_commands())
        commands["plan"] = lambda _: ["plan", "-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                                      "--dims", "3", "--rows", "10", "--bound", "1"]
        long_names = {"-e": "--epsilon", "-d": "--delta"}
        for option, values in {"-e": ["nan", "inf", "0", "-1", "x"],
                               "-d": ["nan", "inf", "0", "1", "-1e-6", "2", "x"]}.items():
            for name, command in commands.items():
                for value in values:
                    args = command(data)
                    flag = option if option in args else long_names[option]
                    if flag not in args:
                        args += [flag, "1e-6"]
                    args[args.index(flag) + 1] = value
                    with self.subTest(command=name, option=flag, value=value):
                        self.expect(args, EXIT_USAGE)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv.pop(1)
    unittest.main()

"""The leftovers of the input classes, each failing on the code before its fix: exit 4 only for a
library fault (a plan whose constants overflow, pca on a matrix whose eigenvalue overflows), the
epsilon cap, CSV files with carriage-return line ends or an unterminated quote, duplicate header
names, unknown .npy header keys, rows of norm exactly --bound, and inverse_gauss's input scope
releasing both datasets of a pair its guarantee covers.

Run by meson as: /usr/bin/python3 input_leftovers_test.py DPCOV_EXECUTABLE
"""
import json
import math
import struct
import sys
import unittest

from cli_case import EXIT_INPUT, EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, DpcovCase

RELEASE = ["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "1", "--seed", "1", "-q"]


class InputLeftovers(DpcovCase):
    def write(self, name, data):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path

    def expect(self, args, code, *needles):
        result = self.run_dpcov(args)
        message = result.stderr.decode(errors="replace")
        self.assertEqual(result.returncode, code, f"{args}: {message[:500]}")
        for needle in needles:
            self.assertIn(needle, message)
        return message

    # Exit codes: the caller's conditions, never 4.
    def test_plan_whose_constants_overflow_is_a_usage_error(self):
        args = ["plan", "-m", "analyze_gauss", "-e", "1e-300", "-d", "1e-300", "--bound", "1",
                "--dims", "2", "--rows", "10"]
        self.expect(args + ["--numerics", "idealized"], EXIT_USAGE)
        # The exact plan refuses first: the budget is below the discrete Gaussian's smoothing
        # shift, a refusal of the privacy parameters.
        self.expect(args, EXIT_PRIVACY, "smoothing shift")

    def test_pca_on_a_matrix_whose_eigenvalue_overflows_is_an_input_error(self):
        m = self.write("m.csv", "a,b\n1e308,1e308\n1e308,1e308\n")
        self.expect(["pca", m, "-k", "1"], EXIT_INPUT, m)

    # The epsilon cap (docs/epsilon-cap.md): 2^40 accepted, above it a usage error.
    def test_epsilon_above_the_cap_is_a_usage_error(self):
        data = self.write("data.csv", "a,b\n0.1,0.2\n0.3,-0.1\n")
        out = self.path("out.csv")
        for eps in ["1e20", "1099511627776.0003", "1.1e12"]:
            with self.subTest(eps=eps):
                args = ["release", data, "-o", out] + RELEASE
                args[args.index("-e") + 1] = eps
                self.expect(args, EXIT_USAGE, "DPCOV_MAX_EPSILON")
                self.expect(["plan", "-m", "laplace_sym", "-e", eps, "--bound", "1", "--dims",
                             "2", "--rows", "10"], EXIT_USAGE, "DPCOV_MAX_EPSILON")
        self.expect(["plan", "-m", "analyze_gauss", "-e", "1099511627776", "-d", "1e-6",
                     "--bound", "1", "--dims", "2", "--rows", "10"], EXIT_OK)

    # CSV line ends and quotes: their own messages, not '"a" is not a number'.
    def test_carriage_return_line_ends_are_named(self):
        data = self.write("mac.csv", "a,b\r0.1,0.2\r0.3,-0.1\r")
        for command in (["gram", data, "--bound", "1", "-o", self.path("g.csv"), "-q"],
                        ["release", data, "-o", self.path("r.csv")] + RELEASE):
            with self.subTest(command=command[0]):
                message = self.expect(command, EXIT_INPUT, data + ":1:4:", "carriage return")
                self.assertNotIn("not a number", message)

    def test_unterminated_quote_is_named(self):
        for text, column in [('"a,b\n0.1,0.2\n', 1), ('a,"b\n0.1,0.2\n', 3),
                             ('"0.1,0.2\n0.3,0.4\n', 1)]:
            data = self.write("q.csv", text)
            with self.subTest(text=text):
                message = self.expect(["gram", data, "--bound", "1", "-o", self.path("g.csv"),
                                       "-q"], EXIT_INPUT, f"{data}:1:{column}:",
                                      "opening quote without a closing quote")
                self.assertNotIn("not a number", message)
        # Quotes that close, and doubled quotes inside them, still read.
        ok = self.write("ok.csv", '"a ""x""",b\n"0.1",0.2\n')
        self.expect(["gram", ok, "--bound", "1", "-o", self.path("g.csv"), "-q"], EXIT_OK)

    def test_duplicate_header_names_are_refused_naming_them(self):
        data = self.write("dup.csv", "x,y,x\n0.1,0.2,0.3\n")
        self.expect(["gram", data, "--bound", "1", "-o", self.path("g.csv"), "-q"], EXIT_INPUT,
                    "header fields 1 and 3", "'x'")
        # Distinct names still read.
        self.expect(["gram", self.write("u.csv", "x,y,z\n0.1,0.2,0.3\n"), "--bound", "1", "-o",
                     self.path("g.csv"), "-q"], EXIT_OK)

    def npy(self, header_dict):
        header = header_dict.encode()
        total = 10 + len(header) + 1
        header += b" " * ((64 - total % 64) % 64) + b"\n"
        return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header +
                struct.pack("<4d", 0.1, 0.2, 0.3, -0.1))

    def test_unknown_npy_header_keys_are_refused_naming_them(self):
        good = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }"
        self.expect(["gram", self.write("g.npy", self.npy(good)), "--bound", "1", "-o",
                     self.path("g.csv"), "-q"], EXIT_OK)
        extra = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), 'offset': 8, }"
        self.expect(["gram", self.write("e.npy", self.npy(extra)), "--bound", "1", "-o",
                     self.path("g.csv"), "-q"], EXIT_INPUT, "unknown key 'offset'")
        twice = "{'descr': '<f8', 'shape': (1, 2), 'fortran_order': False, 'shape': (2, 2), }"
        self.expect(["gram", self.write("t.npy", self.npy(twice)), "--bound", "1", "-o",
                     self.path("g.csv"), "-q"], EXIT_INPUT, "'shape' twice")

    # A header-only CSV is an empty dataset (under add/remove, where n is private, a dataset like
    # any other): gram gives its exact statistic, the zero matrix of its columns, and rows 0.
    def test_gram_of_a_header_only_csv_is_the_zero_matrix(self):
        out = self.path("g.csv")
        self.expect(["gram", self.write("h.csv", "a,b\n"), "--bound", "1", "-o", out, "-q"],
                    EXIT_OK)
        with open(out) as f:
            self.assertEqual(f.read().split(), ["a,b", "0,0", "0,0"])
        with open(out + ".json") as f:
            self.assertEqual(json.load(f)["rows"], 0)

    # release agrees with gram where n is private: under add/remove an empty input is released
    # (refusing it would tell the empty dataset from its one-row neighbours), and its public
    # receipt is the one-row neighbour's but for the output's name; under replace-one, where n is
    # public, an empty input is refused. With --bound auto and a clipped-rows target too.
    def test_an_empty_input_is_released_under_add_remove_and_refused_under_replace_one(self):
        empty, one = self.write("e.csv", "a,b\n"), self.write("o.csv", "a,b\n0.1,0.2\n")
        for numerics in ("exact", "idealized"):
            for bound in (["--bound", "1"], ["--bound", "auto", "--bound-clipped", "1"]):
                receipts = []
                for name, data in (("e", empty), ("o", one)):
                    out = self.path(f"{name}-released.csv")
                    receipt = self.path(f"{name}-{numerics}.json")
                    self.expect(["release", data, "-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                                 "--neighbour", "add-remove", "--numerics", numerics, "--seed",
                                 "1", "-q", "-o", out, "--receipt", receipt] + bound, EXIT_OK)
                    with open(receipt) as f:
                        public = json.load(f)
                    public["output"].pop("path", None)
                    receipts.append(public)
                self.assertEqual(receipts[0], receipts[1], f"{numerics} {bound}")
            self.expect(["release", empty, "-m", "analyze_gauss", "-e", "1", "-d", "1e-6",
                         "--bound", "1", "--numerics", numerics, "--seed", "1", "-q", "-o",
                         self.path("r.csv")], EXIT_INPUT, "no rows")

    # regress on raw rows likewise, on every path (AdaSSP, a Gram mechanism, privacy units): the
    # exit status and the public outputs of an empty input under add/remove are those of a
    # one-row input, so they do not tell n = 0 from n = 1.
    def test_regress_fits_an_empty_input_under_add_remove(self):
        empty = self.write("e.csv", "u,x,y\n")
        one = self.write("o.csv", "u,x,y\n1,0.1,0.2\n")
        paths = ([], ["-m", "analyze_gauss"], ["-x", "x", "--privacy-unit", "u",
                                               "--max-rows-per-unit", "2"])
        for extra in paths:
            if "--privacy-unit" not in extra:
                extra = extra + ["-x", "x"]
            args = ["-y", "y", "-e", "1", "--bound", "1.5", "--label-bound", "3", "-q",
                    "--noise-seed", "1", "--seed", "1", "--json"] + extra
            outs = []
            for data in (empty, one):
                result = self.run_dpcov(["regress", data, "--neighbour", "add_remove"] + args)
                self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode()[:500])
                outs.append(json.loads(result.stdout))
            self.assertEqual(outs[0].keys(), outs[1].keys(), extra)
            self.expect(["regress", empty] + args, EXIT_INPUT, "no rows")

    # A row of norm exactly --bound is within it: kept whole, not counted as clipped.
    def test_rows_of_norm_exactly_the_bound_are_not_reported_over_it(self):
        data = self.write("b.csv", "a,b\n3,4\n0,5\n-5,0\n")
        out = self.path("g.csv")
        self.expect(["gram", data, "--bound", "5", "-o", out, "-q"], EXIT_OK)
        with open(out + ".json") as f:
            receipt = json.load(f)
        self.assertEqual(receipt["clipped"], 0)
        with open(out) as f:
            lines = f.read().split()
        self.assertEqual(lines[1:], ["34,12", "12,41"])
        args = ["release", data, "-o", self.path("r.csv")] + RELEASE
        args[args.index("--bound") + 1] = "5"
        message = self.expect(args, EXIT_OK)
        self.assertNotIn("over --bound", message)

    # inverse_gauss, input scope (B = 1, theta^2 = 4): diag(5, 4.5) and its neighbour diag(6, 3.5)
    # are both released; below theta^2 - B^2 = 3 a refusal names no value computed from the data.
    def test_inverse_gauss_input_scope_releases_a_covered_pair(self):
        def rows(a, b):
            return "x,y\n" + "1,0\n" * a + "0,1\n" * b + f"0,{math.sqrt(0.5)!r}\n"
        args = ["-m", "inverse_gauss", "-e", "1", "-d", "1e-6", "--bound", "1", "--lambda-min",
                "4", "--lambda-min-scope", "input", "--seed", "1", "-q"]
        for name, (a, b) in {"g": (5, 4), "neighbour": (6, 3)}.items():
            with self.subTest(dataset=name):
                data = self.write(name + ".csv", rows(a, b))
                self.expect(["release", data, "-o", self.path(name + ".out.csv")] + args, EXIT_OK)
        low = self.write("low.csv", rows(6, 2))
        message = self.expect(["release", low, "-o", self.path("low.out.csv")] + args,
                              EXIT_PRIVACY, "theta^2 - B^2 = 3")
        self.assertNotIn("2.5", message)
        self.assertNotIn("2.49", message)


if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv.pop(1)
    unittest.main()

"""End-to-end tests of the dpcov command: parsing of every input format against matrices written
by NumPy, the Gram it computes against one dpcov_gram_add_rows call on the same data, every error
path with its message position and exit code, and atomic outputs.

Run by meson as: /usr/bin/python3 cli_test.py DPCOV_EXECUTABLE GRAM_ONE_CALL_EXECUTABLE
"""
import json
import math
import os
import re
import subprocess
import sys
import unittest

import numpy as np

from cli_case import EXIT_INPUT, EXIT_IO, EXIT_OK, EXIT_PRIVACY, EXIT_USAGE, DpcovCase

ONE_CALL = None

# Chunked and one-call Grams differ only by rounding (the library sums chunks with compensation,
# dsyrk within a call does not): for the few thousand rows used here, well below 1e-12 relative.
RELATIVE_TOLERANCE = 1e-12


def matrix(rows, cols, seed):
    return np.random.default_rng(seed).normal(size=(rows, cols))


class CliTestCase(DpcovCase):
    def one_call(self, a, bound, policy="clip"):
        """The Gram of `a` from a single dpcov_gram_add_rows call, and (rows, clipped, dropped)."""
        raw = self.path("one_call_in.f64")
        out = self.path("one_call_out.f64")
        np.ascontiguousarray(a, dtype="<f8").tofile(raw)
        d = a.shape[1]
        subprocess.run([ONE_CALL, raw, str(d), repr(bound), policy, out], check=True)
        values = np.fromfile(out, dtype="<f8")
        return values[: d * d].reshape(d, d), tuple(int(c) for c in values[d * d:])

    def gram(self, args, stdin=None, output="gram.npy"):
        """Runs `dpcov gram ARGS -o OUTPUT`; returns the matrix and the receipt."""
        out = self.path(output)
        result = self.run_dpcov(["gram"] + args + ["-o", out, "--quiet"], stdin)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.assertEqual(result.stderr, b"")
        if output.endswith(".npy"):
            g = np.load(out)
        else:
            g = np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)
        with open(out + ".json") as f:
            return g, json.load(f)

    def assert_same_gram(self, actual, expected):
        self.assertEqual(actual.shape, expected.shape)
        scale = max(np.max(np.abs(expected)), np.finfo(float).tiny)
        self.assertLessEqual(np.max(np.abs(actual - expected)), RELATIVE_TOLERANCE * scale)

    def assert_fails(self, args, code, pattern, stdin=None):
        """Runs dpcov, expects exit `code` and a stderr line matching `pattern` (a regex)."""
        result = self.run_dpcov(args, stdin)
        message = result.stderr.decode()
        self.assertEqual(result.returncode, code, message)
        self.assertRegex(message, pattern)
        return message

    def write(self, name, text, encoding="utf-8"):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(text.encode(encoding) if isinstance(text, str) else text)
        return path


def csv_text(a, delimiter=",", header=None, newline="\n", quote=False, plus=False):
    lines = []
    if header is not None:
        lines.append(delimiter.join(header))
    for row in a:
        fields = [repr(float(x)) for x in row]
        if plus:
            fields = ["+" + f if not f.startswith("-") else f for f in fields]
        if quote:
            fields = ['"' + f + '"' for f in fields]
        lines.append(delimiter.join(fields))
    return newline.join(lines) + newline


class CsvInput(CliTestCase):
    def test_comma_csv_with_header_gives_the_one_call_gram_and_names(self):
        a = matrix(500, 4, 1)
        path = self.write("a.csv", csv_text(a, header=["w", "x", "y", "z"]))
        g, receipt = self.gram([path, "--bound", "1e6"])
        expected, counts = self.one_call(a, 1e6)
        self.assert_same_gram(g, expected)
        self.assert_same_gram(g, a.T @ a)
        self.assertEqual(receipt["rows"], 500)
        self.assertEqual(receipt["columns"], ["w", "x", "y", "z"])
        self.assertTrue(receipt["input"]["header"])
        self.assertTrue(receipt["input"]["header_detected"])
        self.assertFalse(receipt["private"])
        self.assertEqual(counts, (500, 0, 0))

    def test_every_delimiter_is_detected_with_and_without_header(self):
        a = matrix(50, 3, 2)
        expected, _ = self.one_call(a, 1e6)
        for delimiter, name in [(",", ","), (";", ";"), ("\t", "tab"), (" ", "space")]:
            for header in [None, ["a", "b", "c"]]:
                with self.subTest(delimiter=name, header=header is not None):
                    path = self.write("d.csv", csv_text(a, delimiter, header))
                    g, receipt = self.gram([path, "--bound", "1e6"])
                    self.assert_same_gram(g, expected)
                    self.assertEqual(receipt["input"]["delimiter"], name)
                    self.assertEqual(receipt["input"]["header"], header is not None)
                    self.assertEqual(receipt["rows"], 50)

    def test_quoted_fields_crlf_plus_signs_bom_comments_and_blank_lines_are_tolerated(self):
        a = matrix(40, 3, 3)
        body = csv_text(a, header=['"first"', '"se,cond"', "third"], newline="\r\n", quote=True,
                        plus=True)
        text = "\ufeff# a comment before the header\r\n\r\n" + body.replace(
            "\r\n", "\r\n  \r\n# comment\r\n", 3)
        path = self.write("q.csv", text)
        g, receipt = self.gram([path, "--bound", "1e6"])
        self.assert_same_gram(g, self.one_call(a, 1e6)[0])
        self.assertEqual(receipt["columns"], ["first", "se,cond", "third"])
        self.assertEqual(receipt["rows"], 40)

    def test_whitespace_separated_runs_of_blanks_and_padding_are_one_separator(self):
        path = self.write("w.txt", "  1   2\t3  \n4 5    6\n")
        g, receipt = self.gram([path, "--bound", "100"])
        a = np.array([[1.0, 2, 3], [4, 5, 6]])
        np.testing.assert_array_equal(g, a.T @ a)
        self.assertEqual(receipt["input"]["delimiter"], "space")

    def test_spaces_after_commas_do_not_hide_the_comma_delimiter(self):
        path = self.write("s.csv", "1, 2, 3\n4, 5, 6\n")
        g, receipt = self.gram([path, "--bound", "100"])
        self.assertEqual(receipt["input"]["delimiter"], ",")
        self.assertEqual(g.shape, (3, 3))

    def test_a_text_id_column_is_not_taken_for_a_header_and_can_be_skipped(self):
        path = self.write("id.csv", "a17,1,2\na18,3,4\n")
        g, receipt = self.gram([path, "--bound", "100", "--columns", "2-3"])
        np.testing.assert_array_equal(g, [[10.0, 14], [14, 20]])
        self.assertFalse(receipt["input"]["header"])
        self.assertEqual(receipt["columns"], ["column 2", "column 3"])

    def test_a_numeric_header_needs_and_obeys_the_header_flag(self):
        path = self.write("n.csv", "2019,2020\n1,2\n3,4\n")
        g, receipt = self.gram([path, "--bound", "100", "--header"])
        np.testing.assert_array_equal(g, [[10.0, 14], [14, 20]])
        self.assertEqual(receipt["columns"], ["2019", "2020"])
        self.assertFalse(receipt["input"]["header_detected"])
        g, receipt = self.gram([path, "--bound", "100"])
        self.assertEqual(receipt["rows"], 3)

    def test_no_header_flag_and_explicit_delimiter_override_detection(self):
        path = self.write("p.csv", "1|2\n3|4\n")
        g, receipt = self.gram([path, "--bound", "100", "--delimiter", "|", "--no-header"])
        np.testing.assert_array_equal(g, [[10.0, 14], [14, 20]])
        self.assertFalse(receipt["input"]["delimiter_detected"])

    def test_columns_select_and_reorder_by_name_number_and_range(self):
        a = matrix(30, 5, 4)
        path = self.write("c.csv", csv_text(a, header=["a", "b", "c", "d", "e"]))
        g, receipt = self.gram([path, "--bound", "1e6", "--columns", "e,1,2-3"])
        picked = a[:, [4, 0, 1, 2]]
        self.assert_same_gram(g, self.one_call(picked, 1e6)[0])
        self.assertEqual(receipt["columns"], ["e", "a", "b", "c"])
        self.assertEqual(receipt["dim"], 4)

    def test_unselected_columns_may_hold_text(self):
        path = self.write("t.csv", 'name,x,label\n"Smith, J",1,abc\nLee,2,"q ""x"""\n')
        g, _ = self.gram([path, "--bound", "100", "--columns", "x"])
        np.testing.assert_array_equal(g, [[5.0]])

    def test_chunking_does_not_change_the_gram_or_the_clipping_counts(self):
        a = 3.0 * matrix(2000, 6, 5)
        path = self.write("big.csv", csv_text(a))
        bound = 7.0
        expected, counts = self.one_call(a, bound)
        self.assertGreater(counts[1], 0)  # some rows are clipped
        for chunk in ["1", "7", "1000", "65536"]:
            with self.subTest(chunk_rows=chunk):
                g, receipt = self.gram([path, "--bound", repr(bound), "--chunk-rows", chunk])
                self.assert_same_gram(g, expected)
                self.assertEqual((receipt["rows"], receipt["clipped"], receipt["dropped"]), counts)

    def test_drop_policy_leaves_rows_out_and_counts_them(self):
        a = 3.0 * matrix(300, 4, 6)
        path = self.write("drop.csv", csv_text(a))
        expected, counts = self.one_call(a, 5.0, "drop")
        g, receipt = self.gram([path, "--bound", "5", "--drop", "--chunk-rows", "13"])
        self.assert_same_gram(g, expected)
        self.assertEqual(receipt["policy"], "drop")
        self.assertEqual((receipt["rows"], receipt["clipped"], receipt["dropped"]), counts)
        self.assertEqual(receipt["rows_read"], 300)

    def test_a_csv_larger_than_the_read_buffer_parses_across_block_boundaries(self):
        a = matrix(120000, 5, 7)  # about 11 MB of text, three read blocks
        path = self.write("large.csv", csv_text(a))
        g, receipt = self.gram([path, "--bound", "1e6"])
        self.assert_same_gram(g, self.one_call(a, 1e6)[0])
        self.assertEqual(receipt["rows"], 120000)

    def test_standard_input_is_read_with_a_dash(self):
        a = matrix(100, 3, 8)
        g, receipt = self.gram(["-", "--bound", "1e6"], stdin=csv_text(a, ";").encode())
        self.assert_same_gram(g, self.one_call(a, 1e6)[0])
        self.assertEqual(receipt["input"]["path"], "<stdin>")


class NpyInput(CliTestCase):
    def save(self, name, a, version=None):
        path = self.path(name)
        with open(path, "wb") as f:
            np.lib.format.write_array(f, a, version=version)
        return path

    def test_format_versions_1_2_and_3_are_read(self):
        a = matrix(200, 4, 10)
        expected = self.one_call(a, 1e6)[0]
        for version in [(1, 0), (2, 0), (3, 0)]:
            with self.subTest(version=version):
                g, receipt = self.gram([self.save("v.npy", a, version), "--bound", "1e6"])
                self.assert_same_gram(g, expected)
                self.assertEqual(receipt["input"]["npy_version"], version[0])

    def test_every_supported_dtype_and_byte_order_converts_exactly(self):
        base = np.random.default_rng(11).integers(-100, 100, size=(64, 3))
        for dtype in ["<f8", "<f4", ">f8", ">f4", "|i1", "<i2", ">i4", "<i8", "|u1", "<u2",
                      ">u4", "<u8"]:
            with self.subTest(dtype=dtype):
                values = np.abs(base) if dtype[1] == "u" else base
                typed = values.astype(dtype)
                g, receipt = self.gram([self.save("t.npy", typed), "--bound", "1e6"])
                exact = values.astype(float)
                self.assert_same_gram(g, self.one_call(exact, 1e6)[0])
                self.assertEqual(receipt["input"]["dtype"], np.dtype(dtype).str)

    def test_fortran_order_is_read_in_column_blocks(self):
        a = np.asfortranarray(matrix(1000, 5, 12))
        path = self.save("f.npy", a)
        g, receipt = self.gram([path, "--bound", "1e6", "--chunk-rows", "77"])
        self.assert_same_gram(g, self.one_call(np.ascontiguousarray(a), 1e6)[0])
        self.assertTrue(receipt["input"]["fortran_order"])
        g, _ = self.gram([path, "--bound", "1e6", "--columns", "5,2", "--chunk-rows", "300"])
        self.assert_same_gram(g, self.one_call(np.ascontiguousarray(a[:, [4, 1]]), 1e6)[0])

    def test_a_vector_is_one_column(self):
        g, receipt = self.gram([self.save("v.npy", np.array([1.0, 2.0, 3.0])), "--bound", "10"])
        np.testing.assert_array_equal(g, [[14.0]])
        self.assertEqual(receipt["dim"], 1)

    def test_npy_streams_from_standard_input_in_chunks(self):
        a = matrix(500, 3, 13)
        with open(self.save("s.npy", a), "rb") as f:
            data = f.read()
        g, _ = self.gram(["-", "--bound", "1e6", "--chunk-rows", "64"], stdin=data)
        self.assert_same_gram(g, self.one_call(a, 1e6)[0])

    def test_an_empty_array_gives_a_zero_gram(self):
        g, receipt = self.gram([self.save("e.npy", np.zeros((0, 3))), "--bound", "1"])
        np.testing.assert_array_equal(g, np.zeros((3, 3)))
        self.assertEqual(receipt["rows"], 0)


class RawInput(CliTestCase):
    def test_raw_float64_needs_dims_and_infers_rows_from_the_file_size(self):
        a = matrix(300, 4, 20)
        path = self.path("a.f64")
        a.astype("<f8").tofile(path)
        g, receipt = self.gram([path, "--dims", "4", "--bound", "1e6", "--chunk-rows", "128"])
        self.assert_same_gram(g, self.one_call(a, 1e6)[0])
        self.assertEqual(receipt["input"]["format"], "raw")
        self.assertEqual(receipt["rows"], 300)

    def test_raw_float64_streams_from_standard_input(self):
        a = matrix(300, 4, 21)
        g, receipt = self.gram(["-", "--dims", "4", "--bound", "1e6", "--chunk-rows", "100"],
                               stdin=a.astype("<f8").tobytes())
        self.assert_same_gram(g, self.one_call(a, 1e6)[0])
        self.assertEqual(receipt["rows"], 300)


class Outputs(CliTestCase):
    def test_csv_output_has_names_and_round_trips_the_npy_output_exactly(self):
        a = matrix(100, 3, 30)
        path = self.write("a.csv", csv_text(a, header=["p", "q", "r"]))
        g_npy, _ = self.gram([path, "--bound", "1e6"])
        g_csv, receipt = self.gram([path, "--bound", "1e6"], output="gram.csv")
        np.testing.assert_array_equal(g_csv, g_npy)
        with open(self.path("gram.csv")) as f:
            self.assertEqual(f.readline().strip(), "p,q,r")
        self.assertEqual(receipt["output"]["format"], "csv")

    def test_without_output_the_gram_goes_to_standard_output_as_csv(self):
        result = self.run_dpcov(["gram", "-", "--bound", "100", "-q"], b"1,2\n3,4\n")
        self.assertEqual(result.returncode, EXIT_OK)
        self.assertEqual(result.stdout.decode(), "column 1,column 2\n10,14\n14,20\n")

    def test_receipt_names_input_bound_policy_counts_and_library_version(self):
        path = self.write("a.csv", "x,y\n3,4\n0.3,0.4\n")
        _, receipt = self.gram([path, "--bound", "1", "--clip"])
        version = self.run_dpcov(["--version"]).stdout.decode().split()[1]
        self.assertEqual(receipt["library_version"], version)
        self.assertEqual(receipt["input"]["path"], path)
        self.assertEqual(receipt["bound"], 1.0)
        self.assertEqual(receipt["policy"], "clip")
        self.assertEqual((receipt["rows"], receipt["clipped"]), (2, 1))
        self.assertIn("NOT differentially private", receipt["note"])

    def test_the_summary_line_says_not_private_and_quiet_silences_it(self):
        path = self.write("a.csv", "1,2\n")
        result = self.run_dpcov(["gram", path, "--bound", "10", "-o", self.path("g.npy")])
        self.assertEqual(result.returncode, EXIT_OK)
        self.assertIn("NOT private", result.stderr.decode())

    def test_an_error_leaves_no_output_and_keeps_an_existing_file(self):
        good = "\n".join("1,2" for _ in range(100))
        path = self.write("late.csv", good + "\n1,x\n")
        out = self.write("old.npy", b"previous result")
        self.assert_fails(["gram", path, "--bound", "10", "--chunk-rows", "10", "-o", out],
                          EXIT_INPUT, r"late\.csv:101:3:")
        with open(out, "rb") as f:
            self.assertEqual(f.read(), b"previous result")
        self.assertEqual(sorted(os.listdir(self.dir)), ["late.csv", "old.npy"])
        fresh = self.path("fresh.csv")
        self.assert_fails(["gram", path, "--bound", "10", "-o", fresh], EXIT_INPUT, "not a number")
        self.assertEqual(sorted(os.listdir(self.dir)), ["late.csv", "old.npy"])


class InputErrors(CliTestCase):
    def fails_on(self, text, pattern, extra=(), bound="10"):
        path = self.write("bad.csv", text)
        return self.assert_fails(["gram", path, "--bound", bound, "-q"] + list(extra), EXIT_INPUT,
                                 "^dpcov: " + re.escape(path) + pattern)

    def test_a_short_row_is_ragged_at_its_end(self):
        self.fails_on("1,2,3\n4,5,6\n7,8\n", r":3:4: ragged row: 2 fields where line 1 has 3")

    def test_a_long_row_is_ragged_at_its_extra_field(self):
        self.fails_on("a,b\n1,2\n3,4,5\n", r":3:5: ragged row: 3 fields where line 1 has 2")

    def test_a_non_numeric_field_is_named_by_line_column_and_header(self):
        # By its position and kind, never its text: messages reach logs.
        message = self.fails_on("x,y\n1,2\n3, abc\n",
                                r":3:4: field 2 \('y'\): text that is not a number")
        self.assertNotIn("abc", message)
        for marker in ("NA", " n/a", "null", "?"):
            self.fails_on(f"x,y\n1,2\n3,{marker}\n", r":3:\d+: field 2 \('y'\): a missing-value "
                          r"marker where a number is expected; remove or impute the row")

    def test_trailing_garbage_after_a_number_is_not_a_number(self):
        message = self.fails_on("1,2\n1,2.5e3x\n", r":2:3: field 2: text that is not a number")
        self.assertNotIn("2.5e3", message)

    def test_an_empty_field_is_refused(self):
        self.fails_on("1,2\n3,,\n", r":2:3: field 2: empty field")

    def test_nan_and_infinity_are_refused_with_their_position(self):
        self.fails_on("1,2\n3,nan\n", r":2:3: field 2: NaN is refused: rows must be finite")
        self.fails_on("1,2\n-inf,1\n", r":2:1: field 1: an infinity is refused")

    def test_a_number_overflowing_a_double_is_refused(self):
        message = self.fails_on("1,1\n1,7.25e999\n",
                                r":2:3: field 2: a number beyond the range of a double")
        self.assertNotIn("7.25", message)

    def test_an_unterminated_quote_is_refused(self):
        self.fails_on('1,2\n1,"2\n', r":2:3: field 2: opening quote without a closing quote")

    def test_a_row_over_the_bound_under_reject_is_named_by_its_file_line(self):
        # Comments and blank lines shift file lines away from row numbers; the row is in the
        # fourth chunk of three rows.
        rows = ["# data", "x,y"] + ["0.1,0.2"] * 5 + ["", "# gap"] + ["0.3,0.1"] * 5 + ["3,4"]
        message = self.fails_on("\n".join(rows) + "\n",
                                r":15: row 11 has Euclidean norm > --bound 2",
                                extra=["--reject", "--chunk-rows", "3"], bound="2")
        self.assertIn("--reject", message)
        # Never the norm (5): a value printed invites a bound read off the data.
        self.assertNotRegex(message, r"norm 5|\b5\b")

    def test_a_row_whose_norm_overflows_is_refused_without_inf(self):
        # The sum of squares overflows: the norm is compared scaled, and never printed.
        message = self.fails_on("1,1\n1.5e308,1.5e308\n",
                                r":2: row 2 has Euclidean norm > --bound 2",
                                extra=["--reject"], bound="2")
        self.assertNotIn("inf", message)
        self.fails_on("1,1\n3e200,4e200\n", r":2: row 2 has Euclidean norm > --bound 2",
                      extra=["--reject"], bound="2")

    def test_an_empty_input_has_no_data(self):
        self.fails_on("\n# nothing\n", r": the input holds no data")

    def test_npy_nan_is_named_by_row_and_column(self):
        a = np.ones((10, 3))
        a[7, 2] = np.nan
        path = self.path("nan.npy")
        np.save(path, a)
        self.assert_fails(["gram", path, "--bound", "10", "--chunk-rows", "4"], EXIT_INPUT,
                          re.escape(path) + r": row 8, column 3: value nan is not finite")

    def test_a_row_over_the_bound_in_npy_is_named_by_row(self):
        a = np.ones((10, 2))
        a[6] = [30, 40]
        path = self.path("big.npy")
        np.save(path, a)
        self.assert_fails(["gram", path, "--bound", "10", "--reject", "--chunk-rows", "4"],
                          EXIT_INPUT, re.escape(path) + r": row 7: row 7 has Euclidean norm > ")

    def test_a_truncated_npy_file_is_refused(self):
        path = self.path("cut.npy")
        np.save(path, np.ones((10, 3)))
        with open(path, "r+b") as f:
            f.truncate(os.path.getsize(path) - 5)
        self.assert_fails(["gram", path, "--bound", "10"], EXIT_INPUT, "truncated file")
        with open(path, "rb") as f:
            data = f.read()
        self.assert_fails(["gram", "-", "--bound", "10"], EXIT_INPUT, "inside row 10 of 10",
                          stdin=data)

    def test_unsupported_npy_dtypes_and_shapes_are_refused(self):
        for name, a, pattern in [("c.npy", np.ones((2, 2), complex), "unsupported element type"),
                                 ("b.npy", np.ones((2, 2), bool), "unsupported element type"),
                                 ("s.npy", np.zeros(2, dtype=[("a", "<f8")]),
                                  "structured arrays"),
                                 ("3.npy", np.ones((2, 2, 2)), "3 dimensions")]:
            with self.subTest(name=name):
                path = self.path(name)
                np.save(path, a)
                self.assert_fails(["gram", path, "--bound", "10"], EXIT_INPUT, pattern)

    def test_fortran_order_npy_from_standard_input_says_how_to_fix_it(self):
        path = self.path("f.npy")
        np.save(path, np.asfortranarray(np.ones((4, 3))))
        with open(path, "rb") as f:
            self.assert_fails(["gram", "-", "--bound", "10"], EXIT_INPUT,
                              "Fortran-order.*ascontiguousarray", stdin=f.read())

    def test_a_raw_file_whose_size_does_not_fit_dims_is_refused(self):
        path = self.path("r.f64")
        np.ones(10).tofile(path)
        self.assert_fails(["gram", path, "--dims", "3", "--bound", "10"], EXIT_INPUT,
                          "not a multiple of the row size 24")
        self.assert_fails(["gram", "-", "--dims", "3", "--bound", "10"], EXIT_INPUT,
                          "ends inside row 4", stdin=np.ones(10).tobytes())


class PlanAndRelease(CliTestCase):
    def plan(self, args):
        result = self.run_dpcov(["plan", "--json"] + args)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return json.loads(result.stdout)

    def release(self, args, output="released.npy", stdin=None):
        out = self.path(output)
        result = self.run_dpcov(["release"] + args + ["-o", out, "-q"], stdin)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.last_stderr = result.stderr.decode()
        with open(out + ".json") as f:
            return np.load(out), json.load(f)

    def test_plan_prints_every_constant_without_data(self):
        plan = self.plan(["-m", "analyze_gauss", "-e", "0.5", "-d", "1e-6", "--bound", "2",
                          "--dims", "4", "--rows", "1000"])
        self.assertEqual(plan["mechanism"], "analyze_gauss")
        self.assertEqual((plan["dim"], plan["n"], plan["bound"]), (4, 1000, 2.0))
        self.assertEqual((plan["epsilon"], plan["delta"]), (0.5, 1e-6))
        self.assertGreater(plan["sigma"], 0)
        self.assertTrue(plan["differentially_private"])
        self.assertFalse(plan["seed_fixed"])
        self.assertNotEqual(plan["theorem"], "")

    def test_plan_as_text_lists_the_constants(self):
        result = self.run_dpcov(["plan", "-m", "laplace_sym", "-e", "1", "--bound", "1",
                                 "--dims", "3", "--rows", "10"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        self.assertRegex(result.stdout.decode(), r"(?m)^  scale +\d")

    def test_a_missing_delta_for_an_epsilon_delta_mechanism_is_named(self):
        for command in [["plan", "--dims", "3", "--rows", "10"], ["release", self.write(
                "a.csv", "1,2,3\n"), "-o", self.path("r.npy")]]:
            with self.subTest(command=command[0]):
                self.assert_fails(command + ["-m", "analyze_gauss", "-e", "1", "--bound", "1"],
                                  EXIT_USAGE, "--delta is required: analyze_gauss")
        self.assertEqual(os.listdir(self.dir), ["a.csv"])

    def test_violated_privacy_preconditions_exit_with_the_privacy_code(self):
        base = ["plan", "--bound", "1", "--dims", "3", "--rows", "10"]
        self.assert_fails(base + ["-m", "wishart_additive", "-e", "2", "-d", "1e-6"],
                          EXIT_PRIVACY, "DPCOV_E_PRECONDITION")
        self.assert_fails(base + ["-m", "wishart_jiang", "-e", "1"], EXIT_PRIVACY,
                          "DPCOV_E_NOT_PRIVATE")

    def test_release_fails_before_reading_data_when_the_plan_fails(self):
        path = self.write("bad.csv", "1,2\n3,x\n")
        self.assert_fails(["release", path, "-m", "wishart_additive", "-e", "2", "-d", "1e-6",
                           "--bound", "1", "-o", self.path("r.npy")], EXIT_PRIVACY,
                          "DPCOV_E_PRECONDITION")

    def test_unknown_mechanism_and_bad_epsilon_are_usage_errors(self):
        base = ["plan", "--bound", "1", "--dims", "3", "--rows", "10"]
        self.assert_fails(base + ["-m", "nope", "-e", "1"], EXIT_USAGE, "unknown value 'nope'")
        self.assert_fails(base + ["-m", "laplace_sym", "-e", "0"], EXIT_USAGE,
                          "--epsilon must be a finite number > 0")
        # The forecast's settings are checked for every mechanism, not only where one runs.
        for mechanism in (["-m", "iev", "-e", "1"], ["-m", "dly_gauss", "-e", "1", "-d", "1e-6"]):
            self.assert_fails(base + mechanism + ["--level", "2"], EXIT_USAGE,
                              r"--level must be in \(0, 1\)")
            self.assert_fails(base + mechanism + ["--fill", "7"], EXIT_USAGE,
                              r"--fill must be in \(0, 1\]")

    def test_plan_reads_no_data_so_a_refused_size_is_a_usage_error(self):
        # A release would blame its input file (exit 2); plan's sizes are its options.
        for mechanism in (["-m", "analyze_gauss", "-e", "1", "-d", "1e-6"],
                          ["-m", "dly_gauss", "-e", "1", "-d", "1e-6"],
                          ["-m", "adassp", "-e", "1", "-d", "1e-6", "--label-bound", "1"]):
            self.assert_fails(["plan", "--bound", "1", "--dims", "100000", "--rows", "10"]
                              + mechanism, EXIT_USAGE, "DPCOV_E_")

    def test_an_unknown_name_lists_every_choice_and_the_closest(self):
        # Every mechanism the command takes is listed (the zCDP ones too), with the nearest.
        message = self.assert_fails(["plan", "--bound", "1", "--dims", "3", "--rows", "10", "-m",
                                     "analyse_gauss", "-e", "1"], EXIT_USAGE,
                                    "did you mean 'analyze_gauss'")
        for name in ("coinpress", "dly_gauss", "inverse_wishart", "kt_rank1"):
            self.assertIn(name, message)
        path = self.write("r.csv", csv_text(matrix(50, 3, 41), header=["a", "b", "y"]))
        raw = ["regress", path, "-y", "y", "-e", "1", "--bound", "2", "--label-bound", "3"]
        self.assert_fails(raw + ["-m", "wishart_additiv"], EXIT_USAGE,
                          r"did you mean 'wishart_additive'\? \(one of: adassp, analyze_gauss")
        self.assert_fails(raw + ["--neighbour", "add-remov"], EXIT_USAGE,
                          "did you mean 'add_remove'")

    def test_a_name_is_read_with_either_separator_on_every_command(self):
        # Python spells add_remove; the command line's release, plan and audit add-remove.
        path = self.write("r.csv", csv_text(matrix(50, 3, 41), header=["a", "b", "y"]))
        for neighbour in ("add-remove", "add_remove"):
            with self.subTest(neighbour=neighbour):
                _, receipt = self.release([path, "-m", "analyze_gauss", "-e", "1", "-d", "1e-5",
                                           "--bound", "2", "--neighbour", neighbour],
                                          output=neighbour + ".npy")
                self.assertEqual(receipt["neighbour"], "add-remove")
                for args in (["regress", path, "-y", "y", "-e", "1", "--bound", "2",
                              "--label-bound", "3", "--neighbour", neighbour, "--calibration",
                              "joint-analytic", "--bound-epsilon", "0", "--no-intervals"],
                             ["plan", "--bound", "1", "--dims", "3", "-m", "analyze_gauss", "-e",
                              "1", "-d", "1e-6", "--rows", "100", "--neighbour", neighbour]):
                    result = self.run_dpcov(args)
                    self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())

    def test_a_seeded_release_is_reproducible_and_its_receipt_matches_the_plan(self):
        a = matrix(300, 3, 40)
        path = self.write("a.csv", csv_text(a, header=["x", "y", "z"]))
        args = [path, "-m", "analyze_gauss", "-e", "1", "-d", "1e-5", "--bound", "2",
                "--seed", "7"]
        first, receipt = self.release(args)
        second, _ = self.release(args, output="again.npy")
        np.testing.assert_array_equal(first, second)
        np.testing.assert_array_equal(first, first.T)
        # Other chunking: the same noise on a Gram equal up to rounding.
        chunked, _ = self.release(args + ["--chunk-rows", "50"], output="chunked.npy")
        self.assert_same_gram(chunked, first)
        plan = self.plan(["-m", "analyze_gauss", "-e", "1", "-d", "1e-5", "--bound", "2",
                          "--dims", "3", "--rows", "300"])
        for key in plan:
            # The plan's forecast of a regression from the release is not part of a receipt.
            if key not in ("seed_fixed", "generator", "privacy_claim", "command",
                           "differentially_private", "regression_forecast"):
                self.assertEqual(receipt[key], plan[key], key)
        self.assertTrue(receipt["seed_fixed"])
        # A seeded release never claims privacy: anyone who knows the seed removes the noise.
        self.assertFalse(receipt["differentially_private"])
        self.assertTrue(receipt["mechanism_differentially_private"])
        self.assertTrue(receipt["privacy_claim"].startswith("reproducible: not private if the "
                                                            "seed is known"))
        self.assertEqual(receipt["generator"], "pcg64")
        self.assertTrue(receipt["privacy_claim"].startswith(
            "reproducible: not private if the seed is known"))
        self.assertEqual(plan["generator"], "none")
        self.assertEqual(receipt["seed"], 7)
        self.assertIn("--seed fixes the noise", self.last_stderr)
        self.assertEqual(receipt["columns"], ["x", "y", "z"])
        with open(self.path("released.npy.curator.json")) as f:
            curator = json.load(f)
        self.assertEqual(curator["clipped"], self.one_call(a, 2.0)[1][1])
        self.assertNotIn("clipped", receipt)
        self.assertIn("were scaled down to it", self.last_stderr)  # even under -q
        # The noise is centred on the clipped Gram: a loose check that the release is of the data.
        gram, _ = self.one_call(a, 2.0)
        self.assertLess(np.max(np.abs(first - gram)), 20 * receipt["sigma"])

    def test_neighbouring_inputs_give_byte_identical_public_receipts(self):
        # Replace-one: row 0 replaced by a row over the bound with more digits (clipped count,
        # byte size differ); add/remove: one row more (n differs). Same seed, so the releases
        # differ only through the data; the public receipt must not differ at all.
        a = matrix(60, 3, 44)
        b = a.copy()
        b[0] = [123.456789, -98.7654321, 55.5]
        c = np.vstack([a, [[0.1, 0.2, 0.3]]])
        cases = {"replace-one": (a, b, ["--bound", "2"]),
                 "add-remove": (a, c, ["--bound", "2", "--neighbour", "add-remove"]),
                 # Public per-column bounds: the replaced row is also outside its ranges (the
                 # clamped count differs), and the scaling in the receipt is the same.
                 "bounds": (a, b, ["--bounds", "-1:1"])}
        for name, (first, second, extra) in cases.items():
            with self.subTest(neighbour=name):
                receipts, curators = [], []
                for data in (first, second):
                    path = self.write("data.csv", csv_text(data, header=["x", "y", "z"]))
                    out = self.path("r.npy")
                    result = self.run_dpcov(["release", path, "-m", "analyze_gauss", "-e", "1",
                                             "-d", "1e-6", "--seed", "3", "-o",
                                             out, "-q"] + extra)
                    self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
                    with open(out + ".json", "rb") as f:
                        receipts.append(f.read())
                    with open(self.path("r.npy.curator.json")) as f:
                        curators.append(json.load(f))
                self.assertEqual(receipts[0], receipts[1])
                self.assertNotEqual(curators[0], curators[1])
                self.assertIn("NOT FOR PUBLICATION", curators[0]["curator_only"])
                public = json.loads(receipts[0])
                for key in ("clipped", "input", "bingham_proposals", "bingham_rejections",
                            "clamped_values"):
                    self.assertNotIn(key, public)
                self.assertEqual(public["n_public"], name != "add-remove")
                self.assertEqual("n" in public, name != "add-remove")

    def test_a_ledger_adds_up_and_refuses_the_release_over_its_cap_untouched(self):
        path = self.write("a.csv", csv_text(matrix(50, 3, 45)))
        ledger = self.path("budget.json")
        base = [path, "-m", "analyze_gauss", "-d", "1e-6", "--bound", "3", "-q", "--ledger", ledger]
        # A new ledger needs its cap.
        self.assert_fails(["release"] + base + ["-e", "0.5", "-o", self.path("r0.npy")],
                          EXIT_USAGE, "--ledger-epsilon")
        for i, eps in enumerate(["0.5", "0.25"]):
            extra = ["--ledger-epsilon", "1", "--ledger-delta", "1e-5"] if i == 0 else []
            result = self.run_dpcov(["release"] + base + extra + ["-e", eps, "-o",
                                                                  self.path(f"r{i + 1}.npy")])
            self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        with open(ledger, "rb") as f:
            before = f.read()
        book = json.loads(before)
        self.assertEqual([c["epsilon"] for c in book["charges"]], [0.5, 0.25])
        self.assertEqual((book["spent"]["epsilon"], book["spent"]["delta"]), (0.75, 2e-6))
        with open(self.path("r2.npy.json")) as f:
            self.assertEqual(json.load(f)["ledger"]["epsilon"], 0.75)
        # 0.75 + 0.5 > 1: refused before reading the data; no output, the ledger file unchanged.
        self.assert_fails(["release"] + base + ["-e", "0.5", "-o", self.path("r3.npy")],
                          EXIT_PRIVACY, "cap would be exceeded")
        self.assertFalse(os.path.exists(self.path("r3.npy")))
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        # The cap is fixed when the ledger is created.
        self.assert_fails(["release"] + base + ["-e", "0.1", "--ledger-epsilon", "5", "-o",
                                                self.path("r4.npy")], EXIT_USAGE, "never changed")
        # So is its accounting (basic here, by default).
        self.assert_fails(["release"] + base + ["-e", "0.1", "--accounting", "zcdp", "-o",
                                                self.path("r5.npy")], EXIT_USAGE, "accounting")
        self.assertFalse(os.path.exists(self.path("r5.npy")))

    def test_a_refusal_after_the_draw_is_charged_and_a_bad_argument_is_not(self):
        # ols_jl's private test on rows of norm about 1e-4 draws its noise and then refuses: the
        # refusal is an output, charged to the ledger; no output is written. A bad setting fails
        # before any draw and leaves the ledger unchanged.
        path = self.write("t.csv", csv_text(matrix(300, 3, 47) * 1e-4))
        ledger = self.path("budget.json")
        out = self.path("o.csv")
        # Seeded: the test's noise decides the refusal (unseeded, it passes with probability
        # below 1e-37, but a test of a refusal after the draw should not rest on a draw).
        base = ["release", path, "-m", "ols_jl", "--bound", "1", "-e", "1", "-d", "1e-6", "-q",
                "--seed", "6", "--ledger", ledger, "-o", out]
        self.assert_fails(base + ["--projection-rows", "50", "--ledger-epsilon", "5",
                                  "--ledger-delta", "1e-3"], EXIT_PRIVACY, "refused")
        with open(ledger, "rb") as f:
            before = f.read()
        book = json.loads(before)
        self.assertEqual([(c["mechanism"], c["epsilon"]) for c in book["charges"]],
                         [("ols_jl", 1.0)])
        self.assertIn("not written", book["charges"][0]["output"])
        for name in (out, out + ".json", out + ".curator.json"):
            self.assertFalse(os.path.exists(name), name)
        self.assert_fails(base + ["--projection-rows", "0"], EXIT_INPUT, "projection rows")
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertFalse(os.path.exists(out))

    def test_an_advanced_ledger_holds_releases_to_the_first_ones_budget_and_refuses_untouched(self):
        path = self.write("a.csv", csv_text(matrix(50, 3, 45)))
        ledger = self.path("advanced.json")
        base = [path, "-m", "wishart_additive", "-d", "1e-7", "--bound", "3", "-q", "--ledger",
                ledger]
        first = self.run_dpcov(["release"] + base + ["-e", "0.5", "-o", self.path("r1.npy"),
                                "--ledger-epsilon", "1", "--ledger-delta", "1e-5",
                                "--accounting", "advanced"])
        self.assertEqual(first.returncode, EXIT_OK, first.stderr.decode())
        # The first release fixed (0.5, 1e-7) per release: a larger one is refused, the file and
        # the outputs untouched.
        with open(ledger, "rb") as f:
            before = f.read()
        self.assertEqual(json.loads(before)["accounting"], "advanced")
        self.assert_fails(["release"] + base + ["-e", "0.6", "-o", self.path("r2.npy")],
                          EXIT_PRIVACY, "at most the first one's")
        self.assertFalse(os.path.exists(self.path("r2.npy")))
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        # The file is replayed: a second release of the same size fits (basic composition is the
        # tighter bound for two), a third is over the cap.
        second = self.run_dpcov(["release"] + base + ["-e", "0.5", "-o", self.path("r3.npy")])
        self.assertEqual(second.returncode, EXIT_OK, second.stderr.decode())
        with open(ledger, "rb") as f:
            before = f.read()
        self.assertEqual(json.loads(before)["spent"]["epsilon"], 1.0)
        self.assert_fails(["release"] + base + ["-e", "0.5", "-o", self.path("r4.npy")],
                          EXIT_PRIVACY, "cap would be exceeded")
        with open(ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertFalse(os.path.exists(self.path("r4.npy")))

    def test_bounds_release_in_the_users_units_with_the_scaling_in_the_receipt(self):
        # Two columns of very different scales, one value outside its range.
        rng = np.random.default_rng(46)
        a = np.column_stack([rng.uniform(20, 80, 300), rng.uniform(0, 2e5, 300)])
        a[0, 1] = 3e5
        path = self.write("raw.csv", csv_text(a, header=["age", "income"]))
        args = [path, "-m", "analyze_gauss", "-e", "1e6", "-d", "1e-6", "--seed", "3"]
        released, receipt = self.release(args + ["--bounds", "age=18:90,income=0:250000"])
        self.assertEqual(receipt["columns"], ["const", "age", "income"])
        self.assertEqual(receipt["dim"], 3)
        self.assertGreaterEqual(receipt["bound"] ** 2, 3)
        # sqrt(3) raised to the accumulator's within limit, about (d + 17) u above it
        # (core/data/box_norm_bound.hpp, proofs/column_bounds.md).
        self.assertLess(receipt["bound"], math.sqrt(3) * (1 + 1e-14))
        self.assertEqual(receipt["scaling"]["bounds"], {"age": [18, 90], "income": [0, 250000]})
        # The matrix is the second moment of [1, x] in the data's units (at a huge epsilon).
        clamped = a.copy()
        clamped[0, 1] = 250000
        x1 = np.column_stack([np.ones(300), clamped])
        exact = x1.T @ x1
        self.assertTrue(np.allclose(released, exact, rtol=1e-3), (released, exact))
        # pca and glasso centre it by default, from the constant column: the data's mean and
        # covariance in the data's units.
        result = self.run_dpcov(["pca", self.path("released.npy"), "-k", "1", "--json"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        pca = json.loads(result.stdout)
        self.assertTrue(pca["centred"])
        self.assertEqual(list(pca["mean"]), ["age", "income"])
        np.testing.assert_allclose(list(pca["mean"].values()), clamped.mean(axis=0), rtol=1e-3)
        cov = np.cov(clamped.T, bias=True)
        self.assertAlmostEqual(pca["eigenvalues"][0], np.linalg.eigvalsh(cov)[-1], delta=1e-3 * cov[1, 1])
        uncentred = json.loads(self.run_dpcov(["pca", self.path("released.npy"), "-k", "1",
                                               "--json", "--no-center"]).stdout)
        self.assertNotIn("centred", uncentred)
        result = self.run_dpcov(["glasso", self.path("released.npy"), "--rho", "0", "--json",
                                 "-o", "-"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        precision = np.array(json.loads(result.stdout)["precision"]).reshape(2, 2)
        np.testing.assert_allclose(precision, np.linalg.inv(cov), rtol=1e-2)
        # regress fits in the scaled units (where the noise is) and reports the data's units.
        result = self.run_dpcov(["regress", self.path("released.npy"), "--label", "income",
                                 "--intercept", "const", "--json", "--plug-in", "--seed", "1"])
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        fit = json.loads(result.stdout)
        exact = np.linalg.lstsq(x1[:, :2], clamped[:, 1], rcond=None)[0]
        for table in ("plug_in", "noise_aware"):
            rows = fit[table] if table == "plug_in" else fit[table]["coefficients"]
            self.assertAlmostEqual(rows[1]["coef"], exact[1], delta=1e-2 * abs(exact[1]))
            self.assertAlmostEqual(rows[0]["coef"], exact[0], delta=1e-2 * abs(exact[0]))
            self.assertIsNone(rows[0]["ci_lower"])
        self.assert_fails(["regress", self.path("released.npy"), "--label", "income"], EXIT_USAGE,
                          "--intercept const")
        # Clamping is never silent; its count is the curator's.
        self.assertIn("1 values lie outside their --bounds range", self.last_stderr)
        with open(self.path("released.npy.curator.json")) as f:
            self.assertEqual(json.load(f)["clamped_values"], 1)
        self.assertNotIn("clamped_values", receipt)
        # The same ranges in column order, and one range for every column.
        same, _ = self.release(args + ["--bounds", "18:90,0:250000"], output="same.npy")
        self.assertTrue(np.array_equal(same, released))
        self.release(args + ["--bounds", "-1e6:1e6"], output="wide.npy")
        with open(self.path("bounds.csv"), "w") as f:
            f.write("column,min,max\nincome,0,250000\nweight,40,200\nage,18,90\n")
        from_file, _ = self.release(args + ["--bounds", self.path("bounds.csv")], output="f.npy")
        self.assertTrue(np.array_equal(from_file, released))
        for bad, message in [("age=18:90", "no range for column"), ("1:2,3:4,5:6", "3 ranges for 2"),
                             ("age=18:90,age=1:2", "twice"), ("age=9:1,income=0:1", "LOW < HIGH"),
                             ("x:1", "not LOW:HIGH"), ("age=1:2,weight=0:1", "no column named")]:
            self.assert_fails(["release"] + args + ["--bounds", bad, "-o", self.path("bad.npy")],
                              EXIT_USAGE, message)
        self.assert_fails(["release"] + args + ["--bounds", "0:1", "--bound", "1", "-o",
                                                self.path("bad.npy")], EXIT_USAGE, "excludes")
        self.assert_fails(["release"] + args + ["-o", self.path("bad.npy")], EXIT_USAGE,
                          "needs a public bound")
        self.assertFalse(os.path.exists(self.path("bad.npy")))
        # A release without a constant column cannot be centred: said, not guessed.
        self.release(args + ["--bound", "3e5"], output="plain.npy")
        self.assert_fails(["pca", self.path("plain.npy"), "--center"], EXIT_USAGE,
                          "--center needs a column that held a constant.*--add-constant")

    def test_an_unseeded_release_draws_fresh_noise(self):
        path = self.write("a.csv", csv_text(matrix(50, 2, 41)))
        args = [path, "-m", "laplace_sym", "-e", "1", "--bound", "3"]
        first, receipt = self.release(args)
        second, _ = self.release(args, output="again.npy")
        # Unseeded on purpose. Two independent releases agree only if the discrete Laplace noise
        # (parameter t = 5.04e7 units, P(X = Y) < 1 / (2 t) per entry) agrees on all three
        # entries of the upper triangle: a false failure has probability below 1e-23.
        self.assertFalse(np.array_equal(first, second))
        self.assertFalse(receipt["seed_fixed"])
        self.assertEqual(receipt["delta"], 0.0)
        # Without a seed the release draws from the cryptographic generator.
        self.assertEqual(receipt["generator"], "chacha20")
        self.assertTrue(receipt["privacy_claim"].startswith("private;"))
        # laplace_sym and analyze_gauss release with exact numerics unless told otherwise; the
        # mechanisms without an exact mode stay idealized.
        self.assertEqual(receipt["numerics"], "exact")
        self.assertIn("exact_grid", receipt)
        plan = self.plan(["-m", "analyze_gauss", "-e", "1", "-d", "1e-6", "--bound", "3",
                          "--dims", "2", "--rows", "50"])
        self.assertEqual(plan["numerics"], "exact")
        plan = self.plan(["-m", "wishart_additive", "-e", "0.5", "-d", "1e-6", "--bound", "3",
                          "--dims", "2", "--rows", "50"])
        self.assertEqual(plan["numerics"], "idealized")

    def test_an_exact_release_is_on_its_grid_and_its_receipt_says_exact(self):
        path = self.write("a.csv", csv_text(matrix(60, 3, 43)))
        for mechanism, extra in [("analyze_gauss", ["-d", "1e-6"]), ("laplace_sym", [])]:
            args = [path, "-m", mechanism, "-e", "1", "--bound", "3", "--numerics", "exact"]
            released, receipt = self.release(args + extra, output=mechanism + ".npy")
            self.assertEqual(receipt["numerics"], "exact")
            self.assertEqual(receipt["generator"], "chacha20")
            self.assertIn("exact numerics", receipt["privacy_claim"])
            grid = receipt["exact_grid"]
            self.assertEqual(grid["bits"], 12)
            self.assertEqual(grid["unit"], 3 * 2.0 ** -12)
            self.assertEqual(grid["integer_noise"], "discrete_gaussian" if extra else
                             "discrete_laplace")
            units = released / grid["unit"] ** 2
            self.assertTrue(np.array_equal(units, np.round(units)))
            self.assertTrue(np.array_equal(released, released.T))
            plan = self.plan(["-m", mechanism, "-e", "1", "--bound", "3", "--dims", "3",
                              "--rows", "60", "--numerics", "exact"] + extra)
            self.assertEqual(plan["exact_grid"], grid)
            self.assertEqual((plan["sigma"], plan["scale"]), (receipt["sigma"], receipt["scale"]))
        # Seeded exact releases are reproducible; the idealized path stays available.
        seeded = [path, "-m", "laplace_sym", "-e", "1", "--bound", "3", "--seed", "5",
                  "--numerics", "exact"]
        first, _ = self.release(seeded, output="s1.npy")
        second, _ = self.release(seeded, output="s2.npy")
        self.assertTrue(np.array_equal(first, second))
        _, idealized = self.release([path, "-m", "laplace_sym", "-e", "1", "--bound", "3",
                                     "--numerics", "idealized"], output="i.npy")
        self.assertEqual(idealized["numerics"], "idealized")
        self.assertNotIn("exact_grid", idealized)

    def test_an_exact_release_streams_the_same_from_a_file_and_from_a_pipe_in_chunks(self):
        # 5000 rows, about a third over the bound: the default (exact) release streams the rows
        # through the exact accumulator, whose integers do not depend on the chunking, so a
        # seeded release from the file (chunks of 65536 rows) and from standard input in chunks
        # of 7 or 1000 rows are the same bytes, the curator's clipped count too.
        a = matrix(5000, 3, 47)
        text = csv_text(a)
        path = self.write("big.csv", text)
        for mechanism, extra in [("analyze_gauss", ["-d", "1e-6"]), ("laplace_sym", [])]:
            args = ["-m", mechanism, "-e", "1", "--bound", "2", "--seed", "6"] + extra
            self.release([path] + args, output="file.npy")
            with open(self.path("file.npy"), "rb") as f:
                from_file = f.read()
            with open(self.path("file.npy.curator.json")) as f:
                curator = json.load(f)
            self.assertEqual(curator["clipped"], int(np.sum(np.linalg.norm(a, axis=1) > 2)))
            for chunk in ("7", "1000"):
                _, receipt = self.release(["-", "--chunk-rows", chunk] + args,
                                          output="pipe.npy", stdin=text.encode())
                self.assertEqual(receipt["numerics"], "exact")
                with open(self.path("pipe.npy"), "rb") as f:
                    self.assertEqual(f.read(), from_file, (mechanism, chunk))
        # A row over the bound under --reject, in a later chunk, is named at its line.
        bad = a.copy()
        bad[:, :] = 0.1
        bad[2345, 0] = 9.0
        self.assert_fails(["release", "-", "-m", "laplace_sym", "-e", "1", "--bound", "2",
                           "--reject", "--chunk-rows", "100", "-o", self.path("r.npy")],
                          EXIT_INPUT, r"<stdin>:2346: row 2346 has Euclidean norm > ",
                          stdin=csv_text(bad).encode())

    def test_exact_numerics_refuse_other_mechanisms_and_rows_over_the_bound(self):
        path = self.write("a.csv", "1,2\n3,4\n")
        self.assert_fails(["release", path, "-m", "wishart_additive", "-e", "0.5", "-d", "1e-6",
                           "--bound", "10", "--numerics", "exact", "-o", self.path("w.npy")],
                          EXIT_USAGE, r"analyze_gauss and laplace_sym only")
        self.assert_fails(["release", path, "-m", "laplace_sym", "-e", "1", "--bound", "4",
                           "--reject", "--numerics", "exact", "-o", self.path("r.npy")],
                          EXIT_INPUT, r"row 2 has Euclidean norm > ")
        self.assert_fails(["release", path, "-m", "analyze_gauss", "-e", "1", "--bound", "10",
                           "--numerics", "exact", "-o", self.path("g.npy")],
                          EXIT_USAGE, r"--delta is required")
        for out in ("w.npy", "r.npy", "g.npy"):
            self.assertFalse(os.path.exists(self.path(out)))

    def test_release_reads_standard_input_and_refuses_rows_over_the_bound_under_reject(self):
        released, receipt = self.release(["-", "-m", "laplace_sym", "-e", "1", "--bound", "10",
                                          "--seed", "1"], stdin=b"1,2\n3,4\n")
        self.assertEqual(released.shape, (2, 2))
        self.assertEqual(receipt["n"], 2)
        self.assert_fails(["release", "-", "-m", "laplace_sym", "-e", "1", "--bound", "4",
                           "--reject", "-o", self.path("r.npy")], EXIT_INPUT,
                          r"<stdin>:3: row 2 has Euclidean norm > --bound 4", stdin=b"1,2\n\n3,4\n")
        self.assertFalse(os.path.exists(self.path("r.npy")))
        self.assertFalse(os.path.exists(self.path("r.npy.json")))


class UsageAndIoErrors(CliTestCase):
    def setUp(self):
        super().setUp()
        self.csv = self.write("a.csv", "x,y\n1,2\n")

    def test_version_and_help_succeed(self):
        result = self.run_dpcov(["--version"])
        self.assertEqual(result.returncode, EXIT_OK)
        self.assertRegex(result.stdout.decode(), r"^dpcov \d+\.\d+\.\d+")
        for args in [["--help"], ["gram", "--help"], ["release", "--help"], ["plan", "--help"]]:
            result = self.run_dpcov(args)
            self.assertEqual(result.returncode, EXIT_OK)
            self.assertIn("Exit codes", result.stdout.decode())

    def test_bad_options_are_usage_errors(self):
        for args, pattern in [
            ([], "subcommand is required"),
            (["gram", self.csv], "--bound is required"),
            (["gram", self.csv, "--bound", "-1"], "--bound must be a finite number > 0"),
            (["gram", self.csv, "--bound", "inf"], "--bound must be a finite number > 0"),
            (["gram", self.csv, "--bound", "1", "--reject", "--drop"], "excludes"),
            (["gram", self.csv, "--bound", "1", "-o", self.path("g.txt")], r"\.csv or \.npy"),
            (["gram", self.csv, "--bound", "1", "--columns", "nope"], "'nope' is neither"),
            (["gram", self.csv, "--bound", "1", "--columns", "3"], "the input has 2 columns"),
            (["gram", self.csv, "--bound", "1", "--columns", "x,1"], "selected twice"),
            (["gram", self.csv, "--bound", "1", "--dims", "2", "--format", "csv"],
             "--dims applies to raw"),
            (["gram", self.csv, "--bound", "1", "--format", "raw"], "needs --dims"),
            (["gram", self.csv, "--bound", "1", "--delimiter", "5"], "cannot separate numbers"),
        ]:
            with self.subTest(args=args):
                self.assert_fails(args, EXIT_USAGE, pattern)
        self.assertEqual(os.listdir(self.dir), ["a.csv"])

    def test_io_failures_exit_with_the_io_code(self):
        self.assert_fails(["gram", self.path("missing.csv"), "--bound", "1"], EXIT_IO,
                          "missing.csv: cannot open")
        self.assert_fails(["gram", self.csv, "--bound", "1", "-o",
                           self.path("no/such/dir/g.npy")], EXIT_IO, "cannot write in directory")


if __name__ == "__main__":
    DpcovCase.dpcov, ONE_CALL = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=2)

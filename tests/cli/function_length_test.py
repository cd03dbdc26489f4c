"""No function of the dpcov command is longer than MAX_LINES: a long function mixes steps that
each deserve a name, and a step hidden inside one cannot be shared (the release pipeline) or read
alone. Functions are found by a brace counter over the sources of cli/ with comments, strings and
preprocessor lines removed: a brace opened after a parameter list (a ')' in the text since the last
';', '{' or '}') outside any function starts a function, which ends at its matching brace; its
length is counted from the first line of its signature to its closing brace. Lambdas and blocks
inside a function count towards it.

ALLOWED lists the functions that may be longer, with the file that holds them: only code that
another change is about to rewrite, and only until then.

Run by meson as: /usr/bin/python3 function_length_test.py SOURCE_ROOT
"""
import pathlib
import re
import sys
import unittest

MAX_LINES = 100

# (file under the source root, function name): longer than MAX_LINES for now. Empty: keep it so.
ALLOWED = set()

NOT_A_FUNCTION = re.compile(r"^\s*(namespace\b|extern\s*\"C\"|class\b|struct\b|union\b|enum\b)")
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else)\b")
DIRECTIVE = re.compile(r"[ \t]*#")


def blank_out(text):
    """`text` with comments, string and character literals and preprocessor lines replaced by
    spaces, newlines kept, so that braces inside them do not count and line numbers stay."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and DIRECTIVE.match(text, i):
            end = i
            while True:  # a directive continues over lines that end with a backslash
                end = text.find("\n", end)
                if end < 0:
                    end = n
                    break
                if text[end - 1] != "\\":
                    break
                end += 1
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        at_line_start = c == "\n"
        raw = re.match(r'R"([^(\s]*)\(', text[i:i + 20]) if c == "R" else None
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            end = i + 1
            while end < n and text[end] != c:
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, n)
        else:
            out.append(c)
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:end]))
        i = end
    return "".join(out)


def function_name(header):
    """The name before the parameter list of a function signature."""
    paren = header.find("(")
    before = header[:paren].rstrip()
    match = re.search(r"([A-Za-z_~][A-Za-z0-9_:~<>]*|operator\W+)$", before)
    return match.group(1).split("::")[-1] if match else before


def functions(text):
    """(name, first line, last line) of each function defined in `text` (C++ source)."""
    code = blank_out(text)
    found = []
    stack = []  # per open brace: None, or (name, first line) of the function it opens
    header_start = 0
    for i, c in enumerate(code):
        if c == "{":
            header = code[header_start:i]
            inside = any(entry is not None for entry in stack)
            is_function = (not inside and ")" in header and not header.rstrip().endswith("=")
                           and not NOT_A_FUNCTION.match(header) and not CONTROL.match(header))
            if is_function:
                skipped = len(header) - len(header.lstrip())
                first = code.count("\n", 0, header_start + skipped) + 1
                stack.append((function_name(header.strip()), first))
            else:
                stack.append(None)
            header_start = i + 1
        elif c == "}":
            entry = stack.pop() if stack else None
            if entry is not None:
                found.append((entry[0], entry[1], code.count("\n", 0, i) + 1))
            header_start = i + 1
        elif c == ";":
            header_start = i + 1
    return found


def long_functions(root):
    """(file, name, lines) of every function in cli/ longer than MAX_LINES."""
    out = []
    for path in sorted((root / "cli").rglob("*")):
        if path.suffix not in (".cpp", ".hpp"):
            continue
        relative = path.relative_to(root).as_posix()
        for name, first, last in functions(path.read_text()):
            if last - first + 1 > MAX_LINES:
                out.append((relative, name, last - first + 1))
    return out


class FunctionLength(unittest.TestCase):
    def test_no_function_over_the_limit(self):
        over = [f"{path}: {name} has {lines} lines"
                for path, name, lines in long_functions(ROOT) if (path, name) not in ALLOWED]
        self.assertEqual(over, [], f"functions over {MAX_LINES} lines (split them into steps "
                                   "with names)")

    def test_allowed_functions_are_still_long(self):
        # An entry that no longer needs the exception is removed, so that the list stays short.
        long = {(path, name) for path, name, _ in long_functions(ROOT)}
        self.assertEqual(sorted(ALLOWED - long), [])

    def test_counter_finds_a_long_function(self):
        body = "\n".join(f"  x += {i};" for i in range(MAX_LINES))
        text = ("namespace a {\nstruct S { int f() const { return 1; } };\n"
                "const char *s = \"{\";  // {\n"
                f"int long_one(int x) {{\n  if (x) {{ x = 1; }}\n{body}\n  return x;\n}}\n"
                "auto t = R\"({{)\";\n}\n")
        self.assertEqual(functions(text), [("f", 2, 2), ("long_one", 4, MAX_LINES + 7)])


if __name__ == "__main__":
    ROOT = pathlib.Path(sys.argv.pop(1)).resolve()
    unittest.main()

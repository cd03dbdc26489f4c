"""The checked-in binding mirrors are what scripts/generate-bindings writes from the headers today.

Regenerates into a temporary directory and compares each generated file byte for byte with the
checked-in one, so a header change without a regeneration (or a hand edit of a generated file)
fails here, naming the file and its first differing lines. Without libclang's Python module the
generator cannot run, and this check fails (it is not skipped): run scripts/setup.

Usage: check_generated_bindings.py SOURCE_ROOT
"""
import difflib
import pathlib
import subprocess
import sys
import tempfile

def main(root: pathlib.Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(["/usr/bin/python3", str(root / "scripts" / "generate-bindings"),
                              "--output-dir", tmp], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout + run.stderr, end="")
            print("FAILED: scripts/generate-bindings did not run (libclang's Python module "
                  "comes from Debian python3-clang: run scripts/setup)")
            return 1
        generated = sorted(str(p.relative_to(tmp)) for p in pathlib.Path(tmp).rglob("*")
                           if p.is_file())
        stale = []
        for relative in generated:
            fresh = (pathlib.Path(tmp) / relative).read_bytes()
            checked_in = root / relative
            current = checked_in.read_bytes() if checked_in.exists() else b""
            if fresh != current:
                stale.append(relative)
                diff = difflib.unified_diff(
                    current.decode(errors="replace").splitlines(),
                    fresh.decode(errors="replace").splitlines(),
                    f"{relative} (checked in)", f"{relative} (from the headers)", lineterm="")
                print("\n".join(list(diff)[:40]))
    if stale:
        print(f"FAILED: {', '.join(stale)} differ from what the headers give: run "
              "scripts/generate-bindings and commit the result")
        return 1
    print(f"generated bindings match the headers: {', '.join(generated)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))

"""The `--ledger` file is tamper-evident (cli/ledger/ledger_chain.hpp, docs/ledger-file.md): its cap,
accounting and creation are sealed when it is created, and every charge is chained to the one
before it by a BLAKE2b hash. A raised cap, an edited, deleted or moved charge, or a charge cut from
the end is refused when the file is read (exit 2) with a message naming what was found; an
untouched file, one re-indented, and the files the ledger rule leaves (a refund byte for byte, a
pending charge, a charge after a failure) pass. Before, every hand edit was accepted. The chain
is recomputed here independently (hashlib's BLAKE2b), which also shows its limit: without a secret
key, a curator who rewrites the whole chain is not stopped.

Run by meson as: /usr/bin/python3 ledger_chain_test.py DPCOV_EXECUTABLE
"""
import hashlib
import json
import sys
import unittest

from cli_case import EXIT_INPUT, EXIT_OK, EXIT_PRIVACY, DpcovCase
from ledger_case import CAPS, LedgerCase

SEALED = ("format", "accounting", "epsilon_cap", "delta_cap", "adopted_charges")


def digest(domain, *parts):
    h = hashlib.blake2b(digest_size=16)
    for part in (domain,) + parts:
        h.update(part.encode() + b"\0")
    return h.hexdigest()


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def rechain(book):
    """Seals and links `book` as dpcov does: what a curator with this code can always do."""
    book["seal"] = {name: digest("dpcov ledger seal", name, canonical(book[name]))
                    for name in SEALED if name in book}
    after = digest("dpcov ledger genesis", canonical(book["seal"]))
    book["settled"] = digest("dpcov ledger settled", after, "0")
    for count, entry in enumerate(book["charges"], 1):
        content = {k: v for k, v in entry.items() if k not in ("after", "link")}
        entry["after"] = after
        entry["link"] = after = digest("dpcov ledger link", after, canonical(content))
        if entry.get("state") != "pending":
            book["settled"] = digest("dpcov ledger settled", after, str(count))
    book["head"] = digest("dpcov ledger head", after, str(len(book["charges"])))
    return book


class LedgerChain(LedgerCase):
    def setUp(self):
        super().setUp()
        self.ledger = self.path("L.json")

    def release(self, epsilon, extra=(), data=None):
        return super().release(self.ledger, epsilon, extra, data)

    def ok(self, epsilon, extra=()):
        result = self.release(epsilon, extra)
        self.assertEqual(result.returncode, EXIT_OK, result.stderr.decode())
        return result

    def three_charges(self):
        self.ok(0.1, CAPS)
        self.ok(0.2)
        self.ok(0.3)
        return self.read()

    def read(self):
        with open(self.ledger) as f:
            return json.load(f)

    def save(self, book, **dump):
        with open(self.ledger, "w") as f:
            json.dump(book, f, **dump)

    def refused(self, *needles):
        with open(self.ledger, "rb") as f:
            before = f.read()
        result = self.release(0.01)
        message = result.stderr.decode()
        self.assertEqual(result.returncode, EXIT_INPUT, message)
        for needle in needles:
            self.assertIn(needle, message)
        with open(self.ledger, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_the_file_written_is_the_chain_recomputed_independently(self):
        book = self.three_charges()
        self.assertEqual(rechain(json.loads(json.dumps(book))), book)
        self.assertEqual(book["format"], 2)

    def test_an_untouched_or_reindented_file_passes(self):
        book = self.three_charges()
        self.save(book, indent=7, sort_keys=True)
        result = self.ok(0.1)
        self.assertNotIn("warning", result.stderr.decode())
        self.assertEqual(len(self.read()["charges"]), 4)

    def test_a_raised_cap_is_refused(self):
        book = self.three_charges()
        book["epsilon_cap"] = 100.0
        self.save(book)
        self.refused("epsilon_cap does not match its seal", "the cap was changed by hand")

    def test_a_changed_accounting_is_refused(self):
        book = self.three_charges()
        book["accounting"] = "zcdp"
        self.save(book)
        self.refused("accounting does not match its seal")

    def test_a_deleted_charge_is_refused(self):
        book = self.three_charges()
        del book["charges"][1]
        self.save(book)
        self.refused("charges[1] (\"analyze_gauss\"", "a charge before it was deleted")

    def test_the_last_charge_deleted_is_refused(self):
        book = self.three_charges()
        del book["charges"][2]
        self.save(book)
        self.refused("head does not match its last charge", "deleted")

    def test_an_edited_charge_is_refused(self):
        book = self.three_charges()
        book["charges"][0]["epsilon"] = 0.01
        self.save(book)
        self.refused("charges[0]", "does not match its link", "edited by hand")

    def test_reordered_charges_are_refused(self):
        book = self.three_charges()
        book["charges"][0], book["charges"][1] = book["charges"][1], book["charges"][0]
        self.save(book)
        self.refused("was written after charges[1]", "reordered")

    def test_a_removed_seal_field_is_refused(self):
        book = self.three_charges()
        del book["head"]
        self.save(book)
        self.refused("\"head\" was removed")

    def test_a_curator_who_rewrites_the_whole_chain_is_not_stopped(self):
        # The documented limit: no secret key, so a consistent rewrite passes.
        book = self.three_charges()
        book["epsilon_cap"] = 100.0
        self.save(rechain(book))
        self.ok(5)

    def test_pending_charges_cut_from_the_end_pass_and_others_do_not(self):
        # A run killed before its draw leaves its charge pending; the curator may remove it.
        book = self.three_charges()
        pending = dict(book["charges"][2], state="pending", epsilon=0.25)
        book["charges"].append(pending)
        self.save(rechain(book))
        book["charges"].pop()
        self.save(book)
        result = self.ok(0.1)
        self.assertIn("removed by hand", result.stderr.decode())
        self.assertEqual([c["epsilon"] for c in self.read()["charges"]], [0.1, 0.2, 0.3, 0.1])
        # A settled charge cannot be cut the same way.
        book = self.read()
        book["charges"].pop()
        self.save(book)
        self.refused("head does not match")

    def test_a_charge_added_by_hand_at_the_end_is_counted_and_linked(self):
        # What the message of a charge that could not be recorded asks for.
        book = self.three_charges()
        added = {k: v for k, v in book["charges"][2].items() if k not in ("after", "link")}
        added["epsilon"] = 0.35
        book["charges"].append(added)
        self.save(book)
        result = self.release(0.1)
        self.assertEqual(result.returncode, EXIT_PRIVACY, result.stderr.decode())
        self.assertIn("added by hand", result.stderr.decode())
        self.ok(0.04)
        book = self.read()
        self.assertEqual([c["epsilon"] for c in book["charges"]], [0.1, 0.2, 0.3, 0.35, 0.04])
        self.assertEqual(rechain(json.loads(json.dumps(book))), book)

    def test_a_file_of_an_earlier_dpcov_is_adopted_with_a_warning(self):
        book = self.three_charges()
        legacy = {k: v for k, v in book.items()
                  if k not in ("format", "seal", "head", "settled")}
        for entry in legacy["charges"]:
            del entry["after"], entry["link"]
        self.save(legacy)
        result = self.ok(0.1)
        self.assertIn("no hash chain", result.stderr.decode())
        book = self.read()
        self.assertEqual(book["adopted_charges"], 3)
        self.assertEqual(rechain(json.loads(json.dumps(book))), book)
        book["adopted_charges"] = 0
        self.save(book)
        self.refused("adopted_charges does not match its seal")

    def test_a_refund_puts_the_chained_file_back_byte_for_byte(self):
        self.three_charges()
        with open(self.ledger, "rb") as f:
            before = f.read()
        # Rows that are not numbers: refused before any draw, after the charge was written ahead.
        bad = self.path("bad.csv")
        with open(bad, "w") as f:
            f.write("a,b\n1,x\n")
        result = self.release(0.1, data=bad)
        self.assertEqual(result.returncode, EXIT_INPUT, result.stderr.decode())
        with open(self.ledger, "rb") as f:
            self.assertEqual(f.read(), before)
        self.ok(0.1)
        self.assertEqual(len(self.read()["charges"]), 4)

if __name__ == "__main__":
    DpcovCase.dpcov = sys.argv[1]
    unittest.main(argv=sys.argv[:1])

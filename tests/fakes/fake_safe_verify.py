#!/usr/bin/env python3
"""A fake SafeVerify executable: `fake_safe_verify.py target.olean submission.olean`.

The "oleans" are what the fake `lake env lean -o` writes (JSON with the source). Declarations are
read crudely from the text (`theorem|lemma|def|abbrev NAME … :=`) and compared the way SafeVerify
compares constants: same name, kind (`lemma` is `theorem`) and type text (whitespace-normalised),
definition bodies too unless the target's is `sorry`. Output and exit codes follow SafeVerify's
Main.lean: `Replaying …` / `Finished.` on stdout, `Found a problem in <file> with declaration <n>`
on stderr for a mismatch, `uncaught exception: …` + exit 1 for unsafe constants or axioms outside
propext / Quot.sound / Classical.choice (`native_decide` → Lean.ofReduceBool, `axiom X` used → X).

FAKE_SV_DIFFER=name makes Lean find that declaration's type different although the texts agree
(what a meaning change the text cannot see looks like to the kernel).
"""

from __future__ import annotations

import json
import os
import re
import sys

DECL = re.compile(r"^[ \t]*(?:@\[[^\]]*\][ \t]*)?(?:(?:private|protected|noncomputable)[ \t]+)*"
                  r"(theorem|lemma|def|abbrev)[ \t]+(\S+)(.*?):=(.*?)(?=^\S|\Z)", re.MULTILINE | re.DOTALL)


def decls(text: str) -> dict[str, tuple[str, str, str]]:
    out = {}
    for m in DECL.finditer(text):
        kind = "theorem" if m.group(1) == "lemma" else ("def" if m.group(1) == "abbrev" else m.group(1))
        out[m.group(2)] = (kind, " ".join(m.group(3).split()), " ".join(m.group(4).split()))
    return out


def main(target: str, submission: str) -> int:
    print(f"Running SafeVerify on target file: {target} and submission file: {submission}.")
    sources = []
    for path in (target, submission):
        print("------------------")
        print(f"Replaying {path}")
        with open(path, encoding="utf-8") as f:
            sources.append(json.load(f)["source"])
        print("Finished setting up the environement.")
    targ, sub = sources
    if re.search(r"\bunsafe\b", sub):
        print("uncaught exception: unsafe constant evil detected", file=sys.stderr)
        return 1
    axioms = ["Lean.ofReduceBool"] if "native_decide" in sub else []
    axioms += [m.group(1) for m in re.finditer(r"^axiom (\S+)", sub, re.MULTILINE) if re.search(rf"\b{m.group(1)}\b",
               sub[m.end():])]
    if axioms:
        name = list(decls(sub))[-1] if decls(sub) else "?"
        print(f"uncaught exception: {name} used disallowed axioms. #[{', '.join(axioms)}]", file=sys.stderr)
        return 1
    mine, theirs = decls(targ), decls(sub)
    differ = os.environ.get("FAKE_SV_DIFFER")
    print("------------------")
    for name, (kind, typ, body) in mine.items():
        got = theirs.get(name)
        bad = got is None or got[0] != kind or got[1] != typ or name == differ
        if not bad and kind == "def" and body != "sorry" and got[2] != body:
            bad = True
        if bad:
            print(f"Found a problem in {submission} with declaration {name}", file=sys.stderr)
    print("------------------")
    print("Finished.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

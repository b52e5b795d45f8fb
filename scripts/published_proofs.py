"""Published, author-verified proofs through `lemmaforge check --against`, per set: the table of
docs/soundness.md ("Published proofs: refusals") comes from this script.

    python scripts/published_proofs.py                       # every set, the table and every refusal
    python scripts/published_proofs.py --set seed-prover-minif2f --every 5
    python scripts/published_proofs.py --json > published.json

Each proof runs on the stand-in Kimina server answering as the Lean version its set was verified
with, against its problem's statement in the dataset version its authors used (tests/lean/published
/harness.py; the sets and their sources: tests/data/published/SOURCES.md). Exit 1 when a set has
fewer than 99 % of its proofs accepted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: tests.lean.published

from tests.lean.published import harness  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", choices=harness.SET_NAMES, dest="sets",
                        help="a set to run (repeatable; default: all)")
    parser.add_argument("--every", type=int, default=1, help="every N-th proof of each set (default: all)")
    parser.add_argument("--json", action="store_true", help="one JSON object: the table and every outcome")
    args = parser.parse_args()
    outcomes: list[harness.Outcome] = []
    for name in args.sets or harness.SET_NAMES:
        started = time.monotonic()
        done = harness.sweep(harness.proof_set(name), every=max(1, args.every))
        outcomes += done
        print(f"{name}: {len(done)} proofs in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    print(harness.outcomes_json(outcomes) if args.json else harness.render(outcomes))
    return 0 if all(row["rate"] >= 0.99 for row in harness.table(outcomes)) else 1


if __name__ == "__main__":
    sys.exit(main())

"""`BenchmarkProblem`: one benchmark theorem, its proof slot and answer slots, and the rewrite of
a term-mode proof slot into tactic mode (see `lemmaforge.benchmarks.datasets`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

from lemmaforge.benchmarks.registry import DatasetError
from lemmaforge.lean.syntax import Hole, holes
from lemmaforge.records import ProblemRecord

Answers = Literal["slots", "inlined"]


@dataclass(frozen=True)
class BenchmarkProblem:
    """One benchmark theorem. `code` (= header + statement) is what Lean checks.

    Slot positions (`slots`, `proof_slot`, `answer_slots`) are `lean.syntax.Hole`s in `code`
    coordinates (header included), the frame in which the verifier reports positions; only the
    statement's holes count, never the header's.
    """

    name: str
    dataset: str
    split: str
    header: str
    statement: str  # the formal statement, ending in its proof slot (the final `sorry`)
    informal: str | None = None
    lean_version: str | None = None  # the Lean version the dataset pins, e.g. "v4.9.0"
    category: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.dataset, self.name, self.split, self.header, self.statement))

    @property
    def problem_id(self) -> str:
        return f"{self.dataset}/{self.name}"

    @property
    def _separator(self) -> str:
        return "\n" if self.header and not self.header.endswith("\n") else ""

    @property
    def code(self) -> str:
        return self.header + self._separator + self.statement

    @property
    def statement_offset(self) -> int:
        """Where the statement starts in `code`."""
        return len(self.header) + len(self._separator)

    @cached_property
    def slots(self) -> list[Hole]:
        """The statement's holes (answer slots, then the proof slot), in `code` coordinates."""
        start = self.statement_offset
        return [h for h in holes(self.code) if h.offset >= start]

    @property
    def proof_slot(self) -> Hole:
        """The hole of the statement's final `sorry`: the proof to find."""
        if not self.slots:
            raise DatasetError(f"{self.problem_id}: the statement has no `sorry` proof slot")
        return self.slots[-1]

    @property
    def answer_slots(self) -> list[Hole]:
        """Holes before the proof slot: PutnamBench solution `abbrev`s (answers to fill in)."""
        return self.slots[:-1]

    @property
    def term_mode(self) -> bool:
        """The proof slot is a term (`:= sorry`), not a tactic (`:= by sorry`)."""
        return self.proof_slot.position == "term"

    def _assign_end(self) -> int | None:
        """Statement index right after the `:=` that the proof slot directly follows, if any."""
        slot = self.proof_slot.offset - self.statement_offset
        before = self.statement[:slot].rstrip()
        if before.endswith(":="):
            return len(before)
        return None

    def as_tactic_statement(self) -> str:
        """The statement with its final term-mode `sorry` turned into `:= by\\n  sorry`.

        Only the proof slot changes (answer `abbrev`s keep their term `sorry`); a statement whose
        proof slot is already in a tactic block is returned unchanged."""
        end = self._assign_end()
        if end is None:
            return self.statement
        slot_end = self.proof_slot.end - self.statement_offset
        return self.statement[:end] + " by\n  sorry" + self.statement[slot_end:]

    def with_tactic_proof(self) -> BenchmarkProblem:
        """This problem with `as_tactic_statement()` as its statement (original in `extra`)."""
        new = self.as_tactic_statement()
        if new == self.statement:
            return self
        extra = dict(self.extra)
        extra.setdefault("original_statement", self.statement)
        return replace(self, statement=new, extra=extra)

    def to_record(self) -> ProblemRecord:
        extra = dict(self.extra)
        extra["category"] = list(self.category)
        extra["lean_version"] = self.lean_version
        return ProblemRecord(
            problem_id=self.problem_id,
            name=self.name,
            header=self.header + self._separator,
            statement=self.statement,
            dataset=self.dataset,
            split=self.split,
            informal=self.informal,
            extra=extra,
        )


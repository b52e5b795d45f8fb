"""What an `open` changes in a statement's elaborated type, as far as the fakes model Lean + Mathlib.

The fakes' `#check @NAME` print (fake_common.type_message) shows a statement's tokens; under
`pp.all` + `pp.fullNames` real Lean prints every constant by its full name, so what the `open`s in
force change in a statement shows in the print. Modelled here, from Lean's and Mathlib's sources:

* **names**: `open Real` makes `sqrt` denote `Real.sqrt`; an identifier that several opened
  namespaces declare is overloaded: Lean elaborates every alternative and keeps the one that
  succeeds (an error when several do). The fakes cannot elaborate, so the print shows the overload
  (`{Nat.sqrt|Real.sqrt}`): the same opens give the same print, other opens a different one
  (fail closed). A name bound in the statement itself is never resolved. The table (`NAMES`) covers
  the namespaces published provers open;
* **scoped notations**: `π` (`scoped notation "π" => Real.pi`,
  Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean), `n !`
  (`scoped notation:10000 n "!" => Nat.factorial n`, Mathlib/Data/Nat/Factorial/Basic.lean), `φ`
  (Nat.totient, Mathlib/Data/Nat/Totient.lean), `𝓝` (`scoped[Topology] notation "𝓝" => nhds`,
  Mathlib/Topology/Defs/Filter.lean). Without the `open`, the token stays unresolved (real Lean:
  a parse or elaboration error). `∑ x ∈ s, f` / `∑ x in s, f` are global since mathlib4#13271
  (2024-05-27, before every Lean version the fakes answer as), so `BigOperators` brings nothing;
* **scoped instances**: `open Classical` activates `Classical.propDecidable`
  (leanprover/lean4 src/Init/Classical.lean: `noncomputable scoped instance (priority := low)
  propDecidable`). Being low priority it is chosen only where no other `Decidable` instance is
  found: modelled as a statement that decides something (`if`, `decide`, `filter`) about a
  Prop-valued variable it binds without a `Decidable` binder; the print then names the instance.

`open A B`, `open scoped A`, `open A hiding x`, `open A (x y)`, `open A renaming x → y` and
`open A in` (for the next command only) are read; `section` / `namespace` … `end` close the opens
made inside them. Standard library only (the fake REPL process imports the fakes by path).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_IDENT = r"\w'!?₀-₉ₐ-ₜᵢ-ᵪ"

# namespace → {token: the constant it denotes once the namespace is open}
NAMES: dict[str, dict[str, str]] = {
    "Real": {
        "π": "Real.pi", "pi": "Real.pi", "sqrt": "Real.sqrt", "exp": "Real.exp", "log": "Real.log",
        "logb": "Real.logb", "cos": "Real.cos", "sin": "Real.sin", "tan": "Real.tan", "arctan": "Real.arctan",
        "cosh": "Real.cosh", "sinh": "Real.sinh", "rpow": "Real.rpow",
    },
    "Nat": {
        "!": "Nat.factorial", "factorial": "Nat.factorial", "choose": "Nat.choose", "sqrt": "Nat.sqrt",
        "log": "Nat.log", "Prime": "Nat.Prime", "digits": "Nat.digits", "divisors": "Nat.divisors",
        "φ": "Nat.totient", "totient": "Nat.totient", "fib": "Nat.fib", "primeFactors": "Nat.primeFactors",
        "ModEq": "Nat.ModEq", "succ": "Nat.succ", "floor": "Nat.floor", "ceil": "Nat.ceil",
    },
    "Int": {
        "floor": "Int.floor", "ceil": "Int.ceil", "fract": "Int.fract", "natAbs": "Int.natAbs",
        "toNat": "Int.toNat", "emod": "Int.emod", "ModEq": "Int.ModEq", "sqrt": "Int.sqrt", "log": "Int.log",
    },
    "Rat": {"sqrt": "Rat.sqrt", "floor": "Rat.floor", "ceil": "Rat.ceil"},
    "Complex": {
        "exp": "Complex.exp", "log": "Complex.log", "cos": "Complex.cos", "sin": "Complex.sin", "I": "Complex.I",
        "abs": "Complex.abs", "re": "Complex.re", "im": "Complex.im",
    },
    "NNReal": {"sqrt": "NNReal.sqrt"},
    "Finset": {
        "range": "Finset.range", "Icc": "Finset.Icc", "Ico": "Finset.Ico", "Ioc": "Finset.Ioc",
        "Ioo": "Finset.Ioo", "sum": "Finset.sum", "prod": "Finset.prod", "filter": "Finset.filter",
        "card": "Finset.card", "image": "Finset.image", "univ": "Finset.univ",
    },
    "Set": {
        "Icc": "Set.Icc", "Ico": "Set.Ico", "Ioc": "Set.Ioc", "Ioo": "Set.Ioo", "Ici": "Set.Ici", "Iic": "Set.Iic",
        "Ioi": "Set.Ioi", "Iio": "Set.Iio", "image": "Set.image", "univ": "Set.univ", "range": "Set.range",
        "ncard": "Set.ncard",
    },
    "Topology": {"𝓝": "nhds"},
    "Filter": {"atTop": "Filter.atTop", "Tendsto": "Filter.Tendsto"},
    "Polynomial": {"X": "Polynomial.X", "C": "Polynomial.C", "eval": "Polynomial.eval",
                   "degree": "Polynomial.degree", "natDegree": "Polynomial.natDegree", "roots": "Polynomial.roots"},
    "BigOperators": {},
}
_DECIDES = frozenset({"if", "decide", "filter", "Finset.filter"})


@dataclass
class _Open:
    namespace: str
    only: frozenset[str] | None = None  # `open A (x y)`
    hiding: frozenset[str] = frozenset()  # `open A hiding x`
    renames: dict[str, str] = field(default_factory=dict)  # `open A renaming x → y`: y ↦ A.x

    def names(self, token: str) -> str | None:
        if token in self.renames:
            return self.renames[token]
        if (self.only is not None and token not in self.only) or token in self.hiding:
            return None
        return NAMES.get(self.namespace, {}).get(token)


_COMMAND = re.compile(r"^(?P<kw>open|section|namespace|end|noncomputable[ \t]+section)\b(?P<rest>[^\n]*)", re.MULTILINE)
_NEXT = re.compile(r"\n(?=[^\s])")


def opens_in_force(context: str) -> list[_Open]:
    """The `open`s in force after `context` (comments and strings already masked), in order."""
    stack: list[list[_Open]] = [[]]
    pending: list[_Open] = []  # an `open … in` at the very end: it prefixes the next command
    for m in _COMMAND.finditer(context):
        kw, rest = m.group("kw"), m.group("rest").strip()
        if kw == "open":
            opened, prefix = _parse_open(rest)
            if not prefix:
                stack[-1].extend(opened)
            elif not context[m.end() :].strip():
                pending = opened
        elif kw == "end":
            if len(stack) > 1:
                stack.pop()
        else:
            stack.append([])
    return [o for level in stack for o in level] + pending


def _parse_open(rest: str) -> tuple[list[_Open], bool]:
    words = rest.split()
    prefix = bool(words) and words[-1] == "in"
    if prefix:
        words = words[:-1]
    text = " ".join(words)
    if "renaming" in words:
        ns, _, pairs = text.partition(" renaming ")
        renames = {}
        for pair in pairs.split(","):
            old, _, new = pair.partition("→")
            if old.strip() and new.strip():
                renames[new.strip()] = f"{ns.strip()}.{old.strip()}"
        return [_Open(ns.strip(), only=frozenset(), renames=renames)], prefix
    if "hiding" in words:
        ns, _, hidden = text.partition(" hiding ")
        return [_Open(ns.strip(), hiding=frozenset(hidden.split()))], prefix
    if "(" in text:
        ns, _, names = text.partition("(")
        return [_Open(ns.strip(), only=frozenset(names.rstrip(")").split()))], prefix
    if words and words[0] == "scoped":
        words = words[1:]
    return [_Open(w) for w in words], prefix


def _bound_names(signature: str) -> set[str]:
    """Names the statement binds itself: binder groups and ∀ / ∃ / fun / big-operator variables."""
    bound: set[str] = set()
    for group in re.findall(r"[({⦃\[]\s*([^:(){}\[\]⦃⦄]+?)\s*:(?!=)", signature):
        bound.update(group.split())
    for names in re.findall(r"(?:∀|∃!?|fun|λ|∑|∏|⋃|⋂)\s+([^,:=>∈]+?)\s*(?:,|:|=>|↦|∈|\bin\b)", signature):
        bound.update(n.strip("()") for n in names.split())
    return bound


def resolve(tokens: list[str], signature: str, context: str) -> list[str]:
    """`tokens` (the statement's, fake_common.type_tokens) as Lean's `pp.all` print names them after
    `context`: each name the opens in force resolve, by its constant's full name; then the
    `Classical.propDecidable` instance where it is the one Lean picks (see the module docstring)."""
    opens = opens_in_force(context)
    if not opens:
        return tokens
    bound = _bound_names(signature)
    words = set(tokens)
    out: list[str] = []
    for t in tokens:
        if t in bound:
            out.append(t)
            continue
        found = sorted({c for o in opens if (c := o.names(t)) is not None})
        out.append(found[0] if len(found) == 1 else ("{" + "|".join(found) + "}" if found else t))
    if any(o.namespace == "Classical" and o.only is None for o in opens) and words & _DECIDES \
            and re.search(r"(?::|→)\s*Prop\b", signature) and "Decidable" not in signature:
        out.append("⟦instance Classical.propDecidable⟧")
    return out

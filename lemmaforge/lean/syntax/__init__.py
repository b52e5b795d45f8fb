"""Lean 4 source as text, read the way Lean reads it. Nothing here runs Lean.

Pure text: tokens by rules ported from Lean's own parser (differentially tested on Lean's test
files), and where a reading depends on something the text alone cannot say, a refusal instead of
a guess. Everything the rest of the product reads of Lean text goes through the names below:
`from lemmaforge.lean import syntax` then `syntax.holes(…)`.

Public names, by what they answer:

* tokens — `lex`, `tokens`, `Token`, `Lines` (offsets ↔ line and column), `find_tokens` /
  `TokenMatch`, `strip_comments`, `normalize_whitespace`, names (`is_ident`, `is_ident_start`,
  `name_components`, `format_name`), and `refusal` / `Refusal` (why the lexer cannot vouch for a
  text);
* layout — `analyze` / `Analysis` (where commands start, how tactic blocks nest; one pass, cached
  per text; `keeping(text)` holds a big text's reading for a block of readers), the keyword sets
  `COMMAND_KEYWORDS`, `DECLARATION_KEYWORDS`, `MODIFIERS` and the bracket sets `OPEN_BRACKETS`,
  `CLOSE_BRACKETS`;
* commands — `split_commands` → `Command`s at any column, `declarations` / `theorems_of` /
  `last_theorem` → `Declaration`s, `full_name`, `split_header`;
* holes — `holes` → `Hole`s, `fill` (a proof into each hole; `TermProof` for a term), `rebase`
  (a block moved to column 0), and where a filled sketch's proof lies without reading it again
  (`fill_with_body_span`, `proof_span`);
* steps — `have_steps` → `HaveStep`s, `top_level_tactics`, `skeleton`, `structure_consistency`;
* statements — ONE normaliser (`statement_tokens`, `normalize_statement`, `normalize_code`,
  `compared_tokens` and `join_canonical` with its `GLUE` mark), the comparison (`statement_match`,
  `same_statement`, `theorem_key`, `target_declaration`), the preamble (`preamble_diff`,
  `preamble_changed`, `header_command`) and PutnamBench answer slots (`answer_slots`,
  `filled_answers`);
* a hole lemma's key from the sketch's tokens, not re-read — `sketch_pieces` → `SketchPieces`,
  `name_piece`, `signature_key`, `COLON`.

Private parts, one job each: `_scanner.py` (the tokenizer pass) and `_token_table.py` (its
character classes and table), `_lexer.py` (the memoised entry points), `_layout.py`,
`_commands.py`, `_holes.py`, `_steps.py`, `_compare.py`, `_pieces.py`, `_filled.py`. The package
imports nothing of the rest of `lemmaforge.lean` but `lean/memo.py` (its byte-bounded memos).
"""

from lemmaforge.lean.syntax._commands import (
    Command,
    Declaration,
    declarations,
    full_name,
    last_theorem,
    split_commands,
    split_header,
    theorems_of,
)
from lemmaforge.lean.syntax._compare import (
    GLUE,
    answer_slots,
    compared_tokens,
    filled_answers,
    header_command,
    join_canonical,
    normalize_code,
    normalize_statement,
    preamble_changed,
    preamble_diff,
    same_statement,
    statement_match,
    statement_tokens,
    target_declaration,
    theorem_key,
)
from lemmaforge.lean.syntax._filled import fill_with_body_span, proof_span
from lemmaforge.lean.syntax._holes import Hole, TermProof, fill, holes, rebase
from lemmaforge.lean.syntax._layout import (
    CLOSE_BRACKETS,
    COMMAND_KEYWORDS,
    DECLARATION_KEYWORDS,
    MODIFIERS,
    OPEN_BRACKETS,
    Analysis,
    analyze,
    keeping,
)
from lemmaforge.lean.syntax._lexer import (
    Lines,
    TokenMatch,
    find_tokens,
    format_name,
    is_ident,
    is_ident_start,
    lex,
    name_components,
    normalize_whitespace,
    refusal,
    strip_comments,
    tokens,
)
from lemmaforge.lean.syntax._pieces import COLON, SketchPieces, name_piece, signature_key, sketch_pieces
from lemmaforge.lean.syntax._scanner import Refusal, Token
from lemmaforge.lean.syntax._steps import (
    HaveStep,
    have_steps,
    skeleton,
    structure_consistency,
    top_level_tactics,
)

__all__ = [
    "Analysis",
    "CLOSE_BRACKETS",
    "COLON",
    "COMMAND_KEYWORDS",
    "Command",
    "DECLARATION_KEYWORDS",
    "Declaration",
    "GLUE",
    "HaveStep",
    "Hole",
    "Lines",
    "MODIFIERS",
    "OPEN_BRACKETS",
    "Refusal",
    "SketchPieces",
    "TermProof",
    "Token",
    "TokenMatch",
    "analyze",
    "answer_slots",
    "compared_tokens",
    "declarations",
    "fill",
    "fill_with_body_span",
    "filled_answers",
    "find_tokens",
    "format_name",
    "full_name",
    "have_steps",
    "header_command",
    "holes",
    "is_ident",
    "is_ident_start",
    "join_canonical",
    "keeping",
    "last_theorem",
    "lex",
    "name_components",
    "name_piece",
    "normalize_code",
    "normalize_statement",
    "normalize_whitespace",
    "preamble_changed",
    "preamble_diff",
    "proof_span",
    "rebase",
    "refusal",
    "same_statement",
    "signature_key",
    "skeleton",
    "sketch_pieces",
    "split_commands",
    "split_header",
    "statement_match",
    "statement_tokens",
    "strip_comments",
    "structure_consistency",
    "target_declaration",
    "theorem_key",
    "theorems_of",
    "tokens",
    "top_level_tactics",
]

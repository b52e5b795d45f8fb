"""Lean 4 source as text, read the way Lean reads it. Nothing here runs Lean.

One home per job:

* `lexer`    tokens (comments, doc comments, strings, chars, raw strings, «names», numbers)
* `layout`   where commands start and how tactic blocks nest (one pass, cached per text)
* `commands` `split_commands` → `Command`s at any column; declarations; the header
* `holes`    `sorry` holes and `fill`
* `steps`    top-level tactics, `have` steps, `skeleton`, structure consistency
* `compare`  ONE statement normaliser (`statement_tokens`, `normalize_statement`), statement
             comparison, preamble diff and answer slots
* `pieces`   a hole lemma's statement key joined from its sketch's tokens (not re-read)
* `filled`   where a filled sketch's proof lies, from the sketch's reading and the fill's edits

Everything public is re-exported here: `from lemmaforge.lean import syntax` then `syntax.holes(…)`.
"""

from lemmaforge.lean.syntax.commands import (
    Command,
    Declaration,
    declarations,
    full_name,
    last_theorem,
    split_commands,
    split_header,
)
from lemmaforge.lean.syntax.compare import (
    answer_slots,
    filled_answers,
    header_command,
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
from lemmaforge.lean.syntax.holes import Hole, TermProof, fill, holes
from lemmaforge.lean.syntax.layout import COMMAND_KEYWORDS, DECLARATION_KEYWORDS, MODIFIERS
from lemmaforge.lean.syntax.lexer import (
    Token,
    TokenMatch,
    find_tokens,
    format_name,
    is_ident,
    lex,
    name_components,
    normalize_whitespace,
    strip_comments,
    tokens,
)
from lemmaforge.lean.syntax.steps import (
    HaveStep,
    have_steps,
    skeleton,
    structure_consistency,
    top_level_tactics,
)

__all__ = [
    "COMMAND_KEYWORDS",
    "DECLARATION_KEYWORDS",
    "MODIFIERS",
    "Command",
    "Declaration",
    "HaveStep",
    "Hole",
    "TermProof",
    "Token",
    "TokenMatch",
    "answer_slots",
    "declarations",
    "fill",
    "filled_answers",
    "find_tokens",
    "format_name",
    "full_name",
    "have_steps",
    "holes",
    "is_ident",
    "last_theorem",
    "lex",
    "name_components",
    "normalize_code",
    "normalize_statement",
    "normalize_whitespace",
    "header_command",
    "preamble_changed",
    "preamble_diff",
    "same_statement",
    "skeleton",
    "statement_match",
    "target_declaration",
    "split_commands",
    "split_header",
    "statement_tokens",
    "theorem_key",
    "strip_comments",
    "structure_consistency",
    "tokens",
    "top_level_tactics",
]

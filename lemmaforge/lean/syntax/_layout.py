"""Where commands start and how tactic blocks nest: one pass over the tokens of a text.

Command starts follow Lean's command loop (`Lean.Parser.parseCommand`): a command runs as long
as the tokens can continue it, and Lean starts the next command at the first token that cannot
(on a parse error it skips ahead and re-parses a command at that token). So:

* a *reserved* command keyword (`theorem`, `def`, `instance`, `#eval`, `notation3`, `@[`, a
  modifier such as `private`, …, see `COMMAND_KEYWORDS`) starts a command WHEREVER it appears:
  any column, same line as another command, inside unbalanced brackets (`(t)#exit`). None of them
  can be part of a term or a tactic. The exceptions are the places where Lean's grammar reuses
  the word: attribute names inside `@[…]` / `attribute […]` (`instance`, `class`, `macro`,
  `export`, `local`, `scoped`), `deriving instance`, `class inductive` / `class abbrev`, and the
  keyword after its own modifiers;
* `local` / `scoped` are modifiers (a command start) only in front of a command keyword
  (`local notation`, `scoped instance`), not in `open scoped Real`;
* `deriving` starts a command only as `deriving instance … for …` (else it is a clause of a
  `structure`/`inductive`);
* `open` and `set_option` are also tactics and terms (`open Real in simp`, `set_option … in`),
  so they start a command only where no term or tactic can continue: at bracket depth 0, outside
  every open tactic block, and not right after a token that expects a term (`:=`, `by`, `=>`,
  `in`, `,`, …);
* after `in` that ends `open … in`, `set_option … in`, `attribute … in`, `variable … in`,
  `include … in`, `omit … in`, the next token starts a new command (the `in` combinator):
  the prefix becomes part of that command (see `commands.Command.prefixes`).

A command start resets bracket depth and tactic blocks: whatever a broken command left open,
Lean starts the next one from scratch.

Tactic blocks follow Lean's layout rules: `by`, `·`, tactic `=>` (`case … =>`, `next =>`,
`| alt =>` of `induction`/`cases`/`match`), `try`/`all_goals`/… and tactic parentheses open a
block at the column of the next token; a later line whose first token is at that column starts a
new tactic of that block; a line to the left of it (at the same bracket depth) or a closing
bracket ends it. That decides whether a `sorry` is a tactic or a term, which tactics are the
top-level steps of a proof, and how far each step reaches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

from lemmaforge.lean.memo import ByteBoundedMemo
from lemmaforge.lean.syntax import _lexer
from lemmaforge.lean.syntax._lexer import Lines, tokens
from lemmaforge.lean.syntax._scanner import Token

__all__ = [
    "COMMAND_KEYWORDS",
    "DECLARATION_KEYWORDS",
    "MODIFIERS",
    "PREFIX_KEYWORDS",
]

# Declarations (Lean core, Mathlib's `lemma` and `irreducible_def`).
DECLARATION_KEYWORDS = frozenset(
    {
        "theorem",
        "lemma",
        "def",
        "abbrev",
        "axiom",
        "instance",
        "example",
        "structure",
        "inductive",
        "class",
        "opaque",
        "irreducible_def",
    }
)
MODIFIERS = frozenset({"private", "protected", "noncomputable", "partial", "unsafe", "nonrec"})
# Modifiers only in front of a command keyword.
SCOPE_MODIFIERS = frozenset({"local", "scoped"})
# Every reserved word that begins a command (besides `#…` tokens and `@[`). `open` and
# `set_option` are here too but are judged by position (they are also tactics/terms).
COMMAND_KEYWORDS = (
    DECLARATION_KEYWORDS
    | MODIFIERS
    | {
        "import",
        "open",
        "namespace",
        "section",
        "end",
        "variable",
        "universe",
        "set_option",
        "attribute",
        "notation",
        "notation3",
        "infix",
        "infixl",
        "infixr",
        "prefix",
        "postfix",
        "macro",
        "macro_rules",
        "syntax",
        "elab",
        "elab_rules",
        "declare_syntax_cat",
        "initialize",
        "builtin_initialize",
        "mutual",
        "deriving",
        "export",
        "alias",
        "run_cmd",
        "run_elab",
        "run_meta",
        "omit",
        "include",
        "add_decl_doc",
        "unif_hint",
        "simproc",
        "dsimproc",
        "builtin_simproc",
        "register_simp_attr",
        "register_option",
        "assert_not_exists",
        "suppress_compilation",
        "unseal",
        "seal",
        "binder_predicate",
        "declare_config_elab",
        "library_note",
        "universes",
        "coinductive",
        "prelude",
        "grind_pattern",
        "initialize_simps_projections",
        "compile_inductive",
        "assert_not_imported",
        "count_heartbeats",
        "whatsnew",
        "proof_wanted",
        "declare_aesop_rule_sets",
        "register_builtin_option",
        "extend_docs",
        "register_label_attr",
        "open_locale",
        "simproc_decl",
        "dsimproc_decl",
        "builtin_dsimproc",
    }
)
# Commands that `… in` turns into a prefix of the next command.
PREFIX_KEYWORDS = frozenset(
    {
        "open",
        "set_option",
        "attribute",
        "variable",
        "include",
        "omit",
        "universe",
        "count_heartbeats",
        "whatsnew",
        "#guard_msgs",
        "#count_heartbeats",
    }
)
_POSITIONAL = frozenset({"open", "set_option"})
_CONDITIONAL = frozenset({"deriving"}) | SCOPE_MODIFIERS
# Reserved words that are also attribute names (`@[instance]`, `attribute [local simp]`).
_ATTRIBUTE_WORDS = frozenset({"instance", "class", "macro", "export", "local", "scoped"})
# After these a term or tactic must follow, so `open`/`set_option` there is a term/tactic.
_EXPECTS_TERM = frozenset(
    {
        ":=",
        "by",
        "=>",
        "in",
        ",",
        ";",
        "<;>",
        "<|>",
        "then",
        "else",
        "do",
        "from",
        "fun",
        "λ",
        ":",
        "|",
        "←",
        "<-",
        "·",
        ".",
        "$",
        "<|",
        "|>",
        "at",
        "with",
        "show",
        "exact",
        "refine",
        "have",
        "calc",
    }
)

# Every token text that may start a command (besides `#…` tokens), for the fast path.
_START_WORDS = COMMAND_KEYWORDS | SCOPE_MODIFIERS | {"@["}

OPEN_BRACKETS = frozenset({"(", "[", "{", "⦃", "⟨", "⟦", "⟮", "‹", "⌊", "⌈", "@[", "`(", "#[", "!["})
CLOSE_BRACKETS = frozenset(")]}⦄⟩⟧⟯›⌋⌉")
# Texts that some layout rule looks at (`_Tracker.visit`); a token with none of them, on no line
# start and with no block about to open, only records the state it is in. Kept beside the rules.
_NOTABLE = (
    _START_WORDS
    | OPEN_BRACKETS
    | CLOSE_BRACKETS
    | {"by", "fun", "λ", "=>", "then", "|", "else", "·", ".", "in"}
)
# A token after one of these may start a tactic (`t; t'`, `t <;> t'`).
_SEPARATORS = frozenset({";", "<;>", "<|>"})
# Tactics whose argument is a tactic sequence: the next token opens a block.
_SEQ_TAKING_TACTICS = frozenset({"try", "all_goals", "any_goals", "focus", "repeat", "repeat'", "iterate"})
# Tactics whose `=>` introduces tactic blocks (not term alternatives).
_TACTIC_ARROW_STARTERS = frozenset(
    {
        "case",
        "case'",
        "next",
        "induction",
        "induction'",
        "cases",
        "cases'",
        "match",
        "conv",
        "conv_lhs",
        "conv_rhs",
        "on_goal",
        "|",
        "fun_induction",
    }
)
# A line starting with one of these continues the previous tactic (`t\n  <;> t'`, the `else` of
# a tactic `if`), it does not start a new one even at the block's column.
CONTINUATION_TOKENS = frozenset({"<;>", "<|>", "else"})


@dataclass(eq=False, slots=True)
class Block:
    column: int
    depth: int
    opener: int  # index of the token that opened it (`by`, `·`, …), -1 for none


@dataclass(slots=True)
class Analysis:
    """Tokens (comments dropped) of one text with their layout. Cached per text: callers must not
    mutate it (the lazily filled fields are the exception, filled once by their owners)."""

    code: str
    toks: list[Token]
    lines: Lines
    line_start_tok: list[bool]  # first token on its line
    tactic_pos: list[bool]  # token begins a tactic
    item_of: list[Block | None]  # block in which the token starts a new tactic of the sequence
    stack: list[tuple[Block, ...]]  # blocks open at the token, before it opens its own
    depth: list[int]  # bracket depth before the token (reset to 0 at each command start)
    cols: list[int]  # column of each token
    starts: list[int]  # token indices where a command starts (after a prefix's `in` too)
    keyword: dict[int, int]  # command start -> index of its keyword (after attributes/modifiers)
    cache: dict[str, Any]  # lazily computed views (commands, declarations, top level, steps)

    def col(self, i: int) -> int:
        return self.cols[i]


def analyze(code: str) -> Analysis:
    """Tokens, command starts and block structure of `code` (memoised within a byte budget; do not
    mutate)."""
    return _analyze_memo(code)


@contextmanager
def keeping(*texts: str) -> Iterator[None]:
    """Within the block, each of `texts` is lexed and laid out at most once, however large: for a
    reader that reads one text many ways in a row (the audit of a whole proof), where the memos'
    byte budgets would drop a big text's tokens and analysis after each reading."""
    with ExitStack() as stack:
        for text in texts:
            for memo in (_lexer._lex_memo, _analyze_memo):
                stack.enter_context(memo.keep(text))
        yield


def _analyze_uncached(code: str) -> Analysis:
    toks = tokens(code)
    lines = Lines(code)
    cols, line_start = _columns_and_line_starts(code, toks)
    tracker = _Tracker(toks, cols, line_start)
    stacks, depths = tracker.stacks, tracker.depths
    prev_text = ""
    for i, t in enumerate(toks):
        text = t.text
        # Most tokens change nothing: no line start, no block about to open, no word any rule
        # looks at, not after a tactic separator. They only record the state they are in.
        if (
            line_start[i]
            or text in _NOTABLE
            or prev_text in _SEPARATORS
            or tracker.open_request is not None
            or tracker.next_is_start
            or tracker.after_iterate
            or t.kind == "hashcmd"
        ):
            tracker.visit(i)
        else:
            stacks[i] = tracker.blocks_now()
            depths[i] = tracker.depth
        prev_text = text
    return Analysis(
        code,
        toks,
        lines,
        line_start,
        tracker.tactic_pos,
        tracker.item_of,
        tracker.stacks,
        tracker.depths,
        cols,
        tracker.starts,
        tracker.keyword_of,
        {},
    )


def _columns_and_line_starts(code: str, toks: Sequence[Token]) -> tuple[list[int], list[bool]]:
    """Column of each token and whether it is the first token of its line (no earlier token ends
    on that line), from one backward search per token over the previous token and the gap
    before this one (C string search; the text is scanned about once in all)."""
    cols = [0] * len(toks)
    line_start = [False] * len(toks)
    rfind = code.rfind
    line_begin = 0  # offset where the current token's line begins
    prev_start, prev_last = 0, -1  # the previous token's first and last offsets
    for i, t in enumerate(toks):
        start = t.start
        newline = rfind("\n", prev_start, start)  # the last newline since the previous token began
        if newline >= 0:
            line_begin = newline + 1
        cols[i] = start - line_begin
        line_start[i] = prev_last < 0 or newline >= prev_last
        prev_start, prev_last = start, t.end - 1
    return cols, line_start


def matching_bracket(toks: Sequence[Token], i: int) -> int:
    """Index of the token closing the bracket opened at token `i` (last token if unbalanced)."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.kind == "symbol" and t.text in OPEN_BRACKETS:
            depth += 1
        elif t.kind == "symbol" and t.text in CLOSE_BRACKETS:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def _is_word(t: Token, words: frozenset[str]) -> bool:
    return t.kind == "ident" and t.text in words


class _Tracker:
    """Command starts and Lean's layout rules for tactic blocks, one token at a time."""

    def __init__(self, toks: Sequence[Token], cols: list[int], line_start: list[bool]) -> None:
        n = len(toks)
        self.toks, self.cols, self.line_start = toks, cols, line_start
        self.tactic_pos = [False] * n
        self.item_of: list[Block | None] = [None] * n
        self.stacks: list[tuple[Block, ...]] = [()] * n
        self.depths = [0] * n
        self.starts: list[int] = []
        self.keyword_of: dict[int, int] = {}
        self.blocks: list[Block] = []
        self._blocks_tuple: tuple[Block, ...] | None = ()  # None: `blocks` changed since
        self._reset()
        self.no_start_until = -1  # tokens up to this index belong to the command just started
        self.attr_close = -1  # inside an attribute list up to this token index
        self.current_keyword: str | None = None
        self.next_is_start = False  # the previous token was the `in` of a prefix command

    def blocks_now(self) -> tuple[Block, ...]:
        """The open blocks as a tuple, shared by every token until they change (tokens far
        outnumber block changes: a new tuple per token was wasted work)."""
        if self._blocks_tuple is None:
            self._blocks_tuple = tuple(self.blocks)
        return self._blocks_tuple

    def _reset(self) -> None:
        self.blocks = []
        self._blocks_tuple = ()
        self.depth = 0
        self.open_request: int | None = None  # index of an opener whose block starts at the next token
        self.item_first: dict[int, str] = {}  # id(block) -> first token of its current tactic
        self.pending_fun: Counter[int] = Counter()  # `fun`s at a depth still waiting for their `=>`
        self.after_iterate = False

    def visit(self, i: int) -> None:
        if self.line_start[i]:
            self._close_blocks_right_of(self.cols[i])
        if self._starts_command(i):
            self._start_command(i)
        self.stacks[i] = self.blocks_now()
        self.depths[i] = self.depth
        self._classify(i)
        self._maybe_request_block(i)
        self._track_brackets(i)
        t = self.toks[i]
        if (
            t.text == "in"
            and t.kind == "ident"
            and self.current_keyword in PREFIX_KEYWORDS
            and self.depth == 0
            and not self.blocks
        ):
            self.next_is_start = True

    # --- command starts -----------------------------------------------------------------------

    def _starts_command(self, i: int) -> bool:
        toks = self.toks
        t = toks[i]
        if self.next_is_start:
            self.next_is_start = False
            return True
        if t.text not in _START_WORDS and t.kind != "hashcmd":
            return False  # the fast path: almost every token
        if i <= self.no_start_until:
            return False
        if t.kind == "hashcmd":
            return True  # `#eval`, `#exit`…: never part of a term or tactic
        in_attributes = i <= self.attr_close
        if t.kind == "symbol" and t.text == "@[":
            return not in_attributes
        if t.kind != "ident" or t.text not in COMMAND_KEYWORDS | SCOPE_MODIFIERS:
            return False
        if in_attributes and t.text in _ATTRIBUTE_WORDS:
            return False
        prev = toks[i - 1] if i > 0 else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.text in _CONDITIONAL:
            if t.text == "deriving":
                return nxt is not None and _is_word(nxt, frozenset({"instance"}))
            return (
                nxt is not None
                and (_is_word(nxt, COMMAND_KEYWORDS | SCOPE_MODIFIERS) or nxt.text == "@[")
                and not (prev is not None and _is_word(prev, frozenset({"open"})))
            )
        if t.text in _POSITIONAL:
            if self.depth != 0 or self.blocks or self.open_request is not None:
                return False
            return prev is None or prev.text not in _EXPECTS_TERM or prev.kind not in ("ident", "symbol")
        if (
            t.text in ("inductive", "structure", "abbrev")
            and prev is not None
            and _is_word(prev, frozenset({"class"}))
        ):
            return False
        return True

    def _start_command(self, i: int) -> None:
        """Record a command starting at token `i`; find its keyword past attributes/modifiers."""
        toks = self.toks
        self._reset()
        self.starts.append(i)
        k = i
        while k < len(toks):
            t = toks[k]
            if t.kind == "symbol" and t.text == "@[":
                close = matching_bracket(toks, k)
                self.attr_close = close
                k = close + 1
            elif (
                _is_word(t, MODIFIERS | SCOPE_MODIFIERS)
                and k + 1 < len(toks)
                and (_is_word(toks[k + 1], COMMAND_KEYWORDS | SCOPE_MODIFIERS) or toks[k + 1].text == "@[")
            ):
                k += 1
            else:
                break
        k = min(k, len(toks) - 1)
        self.keyword_of[i] = k
        kw = toks[k]
        self.current_keyword = kw.text
        last = k
        if _is_word(kw, frozenset({"deriving", "class"})) and k + 1 < len(toks):
            if _is_word(toks[k + 1], frozenset({"instance", "inductive", "structure", "abbrev"})):
                last = k + 1
        if _is_word(kw, frozenset({"attribute"})) and k + 1 < len(toks) and toks[k + 1].text == "[":
            self.attr_close = matching_bracket(toks, k + 1)
        self.no_start_until = last

    # --- tactic blocks ------------------------------------------------------------------------

    def _close_blocks_right_of(self, col: int) -> None:
        """A line starting left of a block's column (at the block's bracket depth) ends it."""
        while self.blocks and self.blocks[-1].depth == self.depth and col < self.blocks[-1].column:
            self.blocks.pop()
            self._blocks_tuple = None

    def _in_tactic(self) -> Block | None:
        """The innermost block, if the current token is directly in it (not inside brackets)."""
        top = self.blocks[-1] if self.blocks else None
        return top if top is not None and top.depth == self.depth else None

    def _classify(self, i: int) -> None:
        t = self.toks[i]
        top = self._in_tactic()
        prev = self.toks[i - 1].text if i > 0 else None
        if self.after_iterate and t.kind == "number":
            pass  # `iterate 3 tac`: the count is not the block's first tactic
        elif self.open_request is not None and not (self.line_start[i] and t.text in CONTINUATION_TOKENS):
            block = Block(self.cols[i], self.depth, self.open_request)
            self.blocks.append(block)
            self._blocks_tuple = None
            self.open_request = None
            self._start_item(i, block)
        elif top is not None and self.line_start[i] and self.cols[i] == top.column:
            if t.text not in CONTINUATION_TOKENS:
                self._start_item(i, top)
        elif top is not None and prev == ";":
            self._start_item(i, top)
        elif prev in ("<;>", "<|>"):
            self.tactic_pos[i] = True  # one tactic, not a new item of the sequence
        self.after_iterate = False

    def _start_item(self, i: int, block: Block) -> None:
        self.tactic_pos[i] = True
        self.item_of[i] = block
        self.item_first[id(block)] = self.toks[i].text

    def _maybe_request_block(self, i: int) -> None:
        """Does this token make the next one start a tactic block?"""
        t = self.toks[i]
        text = t.text
        top = self._in_tactic()
        current_first = self.item_first.get(id(top)) if top is not None else None
        if t.kind == "ident" and text in ("fun", "λ"):
            self.pending_fun[self.depth] += 1
        if text == "by" and t.kind == "ident":
            self.open_request = i
        elif self.tactic_pos[i] and (text in ("·", ".", "(") or text in _SEQ_TAKING_TACTICS):
            # bullets, `(tac; tac)`, `try tac`, `all_goals tac`, `iterate n tac`…
            self.open_request = i
            self.after_iterate = text == "iterate"
        elif text == "=>":
            if self.pending_fun[self.depth] > 0:
                self.pending_fun[self.depth] -= 1  # `fun x => …`: a term
            elif current_first in _TACTIC_ARROW_STARTERS:
                self.open_request = i
        elif (text == "then" and current_first == "if") or (text == "|" and current_first == "first"):
            self.open_request = i
        elif text == "else":
            self._open_else_branch(i)

    def _open_else_branch(self, i: int) -> None:
        """A tactic `if … then tac else tac`: the `then` branch may still be open on this line;
        the `else` belongs to the `if` tactic below it."""
        for k in range(len(self.blocks) - 1, -1, -1):
            if self.blocks[k].depth != self.depth:
                return
            if self.item_first.get(id(self.blocks[k])) == "if":
                del self.blocks[k + 1 :]
                self._blocks_tuple = None
                self.open_request = i
                return

    def _track_brackets(self, i: int) -> None:
        t = self.toks[i]
        if t.kind != "symbol":
            return
        if t.text in OPEN_BRACKETS:
            self.depth += 1
        elif t.text in CLOSE_BRACKETS:
            self.pending_fun[self.depth] = 0
            self.depth = max(0, self.depth - 1)
            while self.blocks and self.blocks[-1].depth > self.depth:
                self.blocks.pop()  # a closing bracket ends the blocks opened inside it
                self._blocks_tuple = None
            if self.open_request is not None and self.toks[self.open_request].text == "(":
                self.open_request = None  # `()`: nothing was opened


_analyze_memo = ByteBoundedMemo(_analyze_uncached, 8 << 20, lambda code, an: 2 * len(code) + 400 * len(an.toks))

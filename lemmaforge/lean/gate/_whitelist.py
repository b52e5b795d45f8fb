"""What the whitelist gate (`lean/gate/`) allows, and the words it refuses: options, attributes,
commands per kind of text, modifiers, code runners, command words the syntax layer does not split
on, names that reach the host, literal config values. Data only; the rules that read it are in
`lean/gate/_rules.py`.
"""

from __future__ import annotations

from lemmaforge.lean import syntax

# Options that only change resources or printing. Everything else (`debug.skipKernelTC`,
# `compiler.*`, `trace.*`, `backward.*`, `autoImplicit`…) is refused.
ALLOWED_OPTIONS = frozenset(
    {"maxHeartbeats", "maxRecDepth", "synthInstance.maxHeartbeats", "synthInstance.maxSize", "maxSynthPendingDepth",
     # Seed-Prover's standard header; runs nothing, and the audit's context check still sees it.
     "tactic.hygienic"}
)
ALLOWED_OPTION_PREFIXES = ("pp.", "linter.")

# Attributes a helper lemma may carry: they register the lemma with a tactic, nothing runs.
ALLOWED_ATTRIBUTES = frozenset(
    {
        "simp", "norm_cast", "push_cast", "field_simps", "ext", "gcongr", "mono", "congr", "refl", "symm",
        "trans", "elab_as_elim", "nolint", "simps", "aesop", "fun_prop", "positivity_ext_lemma",
        "bound", "continuity", "measurability", "zify_simps", "qify_simps", "rify_simps", "mfld_simps",
        "reducible", "semireducible", "irreducible", "local", "scoped", "grind", "induction_eliminator",
        "cases_eliminator", "match_pattern", "inline", "specialize",
    }
)
# Dataset contexts: the same list. `@[instance]` / `@[coe]` would change elaboration like an
# `instance` command, which a dataset needs --trust-dataset for.
_DATASET_ATTRIBUTES = ALLOWED_ATTRIBUTES

# `import` only names installed modules (Lean refuses it after the first command). Which imports a
# final proof may add is the audit's header rule (`syntax.header_command`: modules under Mathlib,
# Aesop, Batteries or Std, or the problem's own), not code the candidate wrote.
PROOF_COMMANDS = frozenset({"theorem", "lemma", "example", "open", "set_option", "import"})
DATASET_COMMANDS = frozenset(
    {
        "import", "open", "set_option", "def", "abbrev", "theorem", "lemma", "example", "inductive", "structure",
        "namespace", "section", "end", "variable", "universe",
    }
)
ALLOWED_MODIFIERS = frozenset({"private", "protected", "noncomputable"})

# Words that run code or meta code wherever they appear: refused in every text, trusted or not.
_CODE_RUNNERS = frozenset(
    {
        "run_cmd", "run_tac", "run_elab", "run_meta", "by_elab", "unsafe", "implemented_by", "extern", "csimp",
        "initialize", "builtin_initialize", "elab", "elab_rules", "macro", "macro_rules", "syntax",
        "declare_syntax_cat", "simproc", "dsimproc", "simproc_decl", "dsimproc_decl", "register_option",
        "register_builtin_option", "declare_config_elab", "command_elab", "term_elab", "tactic_elab",
        "suppress_compilation", "unseal", "seal", "export", "extern_lib",
    }
)

# Mathlib / core commands the syntax layer does not split on. Refused wherever they appear in
# untrusted text (they are reserved words once declared, so an honest proof never uses them).
# Why this matters: Lean ends a tactic block at the first token that cannot continue it, so a
# command word the syntax layer does not know, written after a helper lemma's last tactic, is a
# command to Lean and part of that proof to us. E.g. Mathlib's `variable? (h : False)` there adds
# a variable that Lean < 4.10 includes in the next theorem when its proof uses it: the statement
# text is unchanged, its meaning is not, and only a Lean-side statement check would see it.
_EXTRA_COMMAND_WORDS = frozenset(
    {
        "axioms", "coinductive", "prelude", "grind_pattern", "initialize_simps_projections", "compile_inductive",
        "assert_not_imported", "count_heartbeats", "whatsnew", "proof_wanted", "declare_aesop_rule_sets",
        "register_builtin_option", "extend_docs", "register_label_attr", "open_locale", "simproc_decl",
        "dsimproc_decl", "builtin_simproc", "builtin_dsimproc",
    }
)
# Every other reserved word that begins a command in Lean core, Mathlib and the libraries Mathlib
# imports (Batteries, Aesop, Plausible, ImportGraph, ProofWidgets, LeanSearchClient), read from
# their `… : command` syntax declarations and `@[builtin_command_parser]`s (Mathlib of 2026-04,
# checked against its `#help command` list of 2026-08). Left out: Lake's DSL (`package`,
# `require`, `script`, …: keywords only with `import Lake`, which a candidate cannot add), the
# module system's `module`/`public`/`meta`, and test-only helpers. `#…` commands are refused as a
# class. A word spelled with `%` (`compile_def%`) is an identifier and a `%` to the lexer.
_LIBRARY_COMMAND_WORDS = frozenset(
    {
        # Lean core
        "with_weak_namespace", "end_local_scope", "init_quot", "docs_to_verso", "register_tactic_tag",
        "tactic_extension", "recommended_spelling", "register_error_explanation", "deprecated_syntax",
        "deprecated_module", "unlock_limits", "builtin_simproc_decl", "builtin_dsimproc_decl", "cbv_simproc",
        "cbv_simproc_decl", "builtin_cbv_simproc", "builtin_cbv_simproc_decl", "init_grind_norm",
        "register_grind_attr", "grind_annotated", "grind_propagator", "builtin_grind_propagator",
        "register_try?_tactic", "norm_cast_add_elim", "declare_simp_like_tactic", "declare_uint_theorems",
        "declare_bitwise_uint_theorems", "declare_int_theorems", "declare_bitwise_int_theorems",
        "declare_uint_simprocs", "declare_sint_simprocs", "declare_eval_bin", "declare_eval_bin_bitwise",
        "declare_eval_bin_bool_pred", "register_linter_set", "register_sym_simp", "register_sym_dsimp",
        "register_sym_simp_attr", "set_library_suggestions", "show_panel_widgets", "elab_stx_quot",
        "declare_command_config_elab", "declare_core_config_elab", "declare_term_config_elab",
        "def_eval_config_item", "ensure_eval_expr_instance", "ensure_eval_term_expr_instances",
        "ensure_eval_term_instance", "derive_eval_expr_instance_using_meta_eval", "declare_config_elab_legacy",
        "declare_command_config_elab_legacy", "make_elab_simp_config", "make_elab_grind_config", "aux_def",
        "test_extern",
        # Mathlib
        "variables", "variable?", "deprecate", "register_hint", "mk_iff_of_inductive_prop", "recall", "recall?",
        "name_poly_vars", "name_power_vars", "lrat_proof", "initialize_simps_projections?", "sudo",
        "unsuppress_compilation", "insert_to_additive_translation", "to_dual_insert_cast",
        "to_dual_insert_cast_fun", "unset_option", "assert_no_sorry", "guard_min_heartbeats",
        "to_additive_name_hint", "to_dual_name_hint",
        # Aesop
        "add_aesop_rules", "erase_aesop_rules", "declare_aesop_exception", "register_aesop_check_option",
        # Commands of Lean versions after the pinned one (`verifier.lean_version`): outside its
        # whitelist, and a keyword to a newer Lean that would end the proof before them.
        "set_premise_selector", "copy_doc_string",
    }
)
# Command words written with a trailing `%`: an identifier followed by `%` to the lexer.
_PERCENT_COMMAND_WORDS = frozenset(
    {
        "gen_injective_theorems", "simproc_pattern", "builtin_simproc_pattern", "cbv_simproc_pattern",
        "builtin_cbv_simproc_pattern", "reset_grind_attrs", "compile_def", "compile_inductive",
    }
)
# Every command word the syntax layer does not split on: one set, one lookup per identifier.
_UNSPLIT_COMMAND_WORDS = _EXTRA_COMMAND_WORDS | _LIBRARY_COMMAND_WORDS
COMMAND_WORDS = syntax.COMMAND_KEYWORDS | _UNSPLIT_COMMAND_WORDS


# Names that reach the host from elaboration: the file system, processes, the environment, the
# clock, mutable state, or a read of a host file into the term (`include_str "…"`). An honest proof
# of a competition statement names none of them (none occurs in the 438 reference proofs or the
# benchmark statements); a name with one of these components is refused wherever it appears, so
# `native_decide` or a `(config := …)` cannot run `IO` through a Bool either.
HOST_ACCESS = frozenset(
    {
        "IO", "BaseIO", "EIO", "EStateM", "ST", "System", "include_str", "unsafeIO", "unsafeBaseIO", "unsafeEIO",
        "runST", "IOError", "dbgTrace", "dbg_trace", "dbgTraceIfShared", "dbgSleep", "unsafeCast", "ptrAddrUnsafe",
        "evalExpr", "MetaM", "TacticM", "CoreM", "TermElabM", "CommandElabM",
    }
)
# What a tactic's `(config := …)` may hold: Lean EVALUATES that term (`declare_config_elab` runs
# `evalExpr` on it), so it is code. Allowed: a structure instance of literal fields, `.ctor`
# values and `with`; anything else (a function call, a `let`, a `by`) is refused.
_CONFIG_NAMES = frozenset({"config", "cfg"})
_CONFIG_LITERALS = frozenset({"true", "false", "with", "{", "}", "(", ")", ",", ":=", "⟨", "⟩"})

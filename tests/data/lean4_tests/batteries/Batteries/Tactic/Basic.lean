module

public meta import Lean.Elab.Tactic.ElabTerm
public meta import Batteries.Linter
public meta import Batteries.Tactic.Init
public meta import Batteries.Tactic.SeqFocus
public meta import Batteries.Util.ProofWanted

-- This is an import only file for common tactics used throughout Batteries

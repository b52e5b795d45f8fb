module

public import Batteries.Tactic.Lint.Basic
public import Batteries.Tactic.Lint.Misc
public import Batteries.Tactic.Lint.Simp
public import Batteries.Tactic.Lint.TypeClass
public import Batteries.Tactic.Lint.Frontend

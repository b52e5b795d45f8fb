module

public meta import Batteries.Linter.UnreachableTactic
public meta import Batteries.Linter.UnnecessarySeqFocus

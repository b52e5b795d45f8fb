module

public import Batteries.CodeAction.Attr
public import Batteries.CodeAction.Basic
public import Batteries.CodeAction.Misc
public import Batteries.CodeAction.Match

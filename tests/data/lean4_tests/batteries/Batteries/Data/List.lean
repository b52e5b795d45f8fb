module -- deprecated_module: ignore

public import Batteries.Data.List.ArrayMap
public import Batteries.Data.List.Basic
public import Batteries.Data.List.Count
public import Batteries.Data.List.Init.Lemmas
public import Batteries.Data.List.Interleave
public import Batteries.Data.List.Lemmas
public import Batteries.Data.List.Matcher
public import Batteries.Data.List.Monadic
public import Batteries.Data.List.Pairwise
public import Batteries.Data.List.Perm
public import Batteries.Data.List.Scan

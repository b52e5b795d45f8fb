module -- deprecated_module: ignore

public import Batteries.Data.Array.Basic
public import Batteries.Data.Array.Init.Lemmas
public import Batteries.Data.Array.Lemmas
public import Batteries.Data.Array.Match
public import Batteries.Data.Array.Merge
public import Batteries.Data.Array.Monadic
public import Batteries.Data.Array.Pairwise
public import Batteries.Data.Array.Scan

module -- deprecated_module: ignore

public import Batteries.Data.Vector.Basic
public import Batteries.Data.Vector.Lemmas
public import Batteries.Data.Vector.Monadic

module

public import Batteries.Data.Fin.Basic
public import Batteries.Data.Fin.Coding
public import Batteries.Data.Fin.Fold
public import Batteries.Data.Fin.Lemmas
public import Batteries.Data.Fin.OfBits

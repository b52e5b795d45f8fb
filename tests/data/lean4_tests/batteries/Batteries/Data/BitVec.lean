module

public import Batteries.Data.BitVec.Basic
public import Batteries.Data.BitVec.Lemmas

module

public import Batteries.Data.Nat.Bitwise.Lemmas

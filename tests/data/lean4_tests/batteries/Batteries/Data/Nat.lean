module

public import Batteries.Data.Nat.Basic
public import Batteries.Data.Nat.Bisect
public import Batteries.Data.Nat.Bitwise
public import Batteries.Data.Nat.Bitwise.Lemmas
public import Batteries.Data.Nat.Gcd
public import Batteries.Data.Nat.Lemmas

module

public import Batteries.Lean.EStateM
public import Batteries.Lean.Except
public import Batteries.Recycling.MonadSatisfying.Basic

deprecated_module "it is recommended to use Std.Do.Triple instead" (since := "2026-05-10")

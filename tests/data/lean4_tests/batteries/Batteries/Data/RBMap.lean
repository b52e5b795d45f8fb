module -- deprecated_module: ignore

public import Batteries.Data.RBMap.Basic
public import Batteries.Data.RBMap.Depth
public import Batteries.Data.RBMap.Lemmas
public import Batteries.Data.RBMap.Alter
public import Batteries.Data.RBMap.WF

deprecated_module "it is recommended to use Std.TreeMap instead" (since := "2026-05-14")

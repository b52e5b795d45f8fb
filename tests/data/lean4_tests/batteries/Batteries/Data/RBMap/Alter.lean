module

public import Batteries.Recycling.RBTree.WF

deprecated_module "it is recommended to use Std.TreeMap instead" (since := "2026-05-14")

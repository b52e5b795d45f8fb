module
public import Batteries.Data.Float.Rat

deprecated_module "moved to Batteries.Data.Float.Rat" (since := "2026-07-22")

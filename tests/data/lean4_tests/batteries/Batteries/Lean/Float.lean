module
public import Batteries.Data.Float.Basic

deprecated_module "moved to Batteries.Data.Float.Basic" (since := "2026-07-22")

module -- deprecated_module: ignore

public import Batteries.Data.Rat.Float

deprecated_module "use Batteres.Data.Float.Rat instead" (since := "2026-06-22")

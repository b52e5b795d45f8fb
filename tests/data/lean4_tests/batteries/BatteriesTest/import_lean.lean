import Lean
import Batteries

/-!
This file ensures that we can import all of `Lean` and `Batteries` without name conflicts.
-/

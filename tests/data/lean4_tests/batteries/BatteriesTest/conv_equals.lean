/-
Copyright (c) 2023 Joachim Breitner. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
Authors: Joachim Breitner
-/

import Batteries.Tactic.Basic

-- The example from the doc string, for quick comparision
-- and keeping the doc up-to-date
-- (only `guard_target` added)

/-- warning: declaration uses `sorry` -/
#guard_msgs in
example (P : (Nat → Nat) → Prop) : P (fun n => n - n) := by
  conv in (_ - _) => equals 0 =>
    -- current goal: ⊢ n - n = 0
    guard_target =ₛ n - n = 0
    apply Nat.sub_self
  guard_target =ₛ P (fun n => 0)
  -- current goal: P (fun n => 0)
  sorry

-- This tests that the goal created by equals must be closed

-- Using #guard_msgs below triggers this linter
set_option linter.unreachableTactic false

/--
error: unsolved goals
P : (Nat → Nat) → Prop
n : Nat
⊢ n - n = 0
---
error: No goals to be solved
-/
#guard_msgs in
example (P : (Nat → Nat) → Prop) : P (fun n => n - n) := by
  conv in (_ - _) =>
    equals 0 => skip -- this should complain
    -- and at this point, there should be no goal left
    tactic => sorry
  sorry

/-- warning: declaration uses `sorry` -/
#guard_msgs in
example (P : Nat → Prop) : P 12 := by
  conv =>
    enter [1]
    equals (12 : Fin 37) =>
      guard_target =ₛ (12 : Nat) = (12 : Fin 37)
      rfl
  guard_target =ₛ P (12 : Fin 37)
  sorry

/--
error: Type mismatch
  12
has type
  Nat
but is expected to have type
  Fin 37
---
error: unsolved goals
P : Fin 37 → Prop
⊢ 12 = sorry
-/
#guard_msgs in
example (P : Fin 37 → Prop) : P 12 := by
  conv =>
    enter [1]
    equals (12 : Nat) => skip
  sorry

import Mathlib
import Aesop
open BigOperators Real Nat Topology Rat
set_option maxHeartbeats 0
set_option maxRecDepth 100000
set_option tactic.hygienic false

theorem mathd_numbertheory_126 : IsLeast {a : ℕ | ∃ x : ℕ, Nat.gcd a 40 = x + 3 ∧ Nat.lcm a 40 = x * (x + 3)} 8 := by
  unfold IsLeast
  constructor
  swap
  simp [lowerBounds]
  intro x a h₁ h₂
  by_contra! h
  have h₁ : x.gcd 40 = a + 3 := h₁
  have h₂ : x.lcm 40 = a * (a + 3) := h₂
  have h₃ : x ≤ 7 := by linarith
  interval_cases x <;> simp_all (config := {decide := true})
  simp
  norm_num [Nat.lcm]

#print axioms mathd_numbertheory_126

import Mathlib
import Aesop
open BigOperators Real Nat Topology Rat
set_option maxHeartbeats 0
set_option maxRecDepth 100000
set_option tactic.hygienic false

theorem induction_sum_odd (n : ℕ) : (∑ k in Finset.range n, (2 * k + 1)) = n ^ 2 := by
  induction' n with n ih <;> simp [Finset.sum_range_succ, *] <;> ring

#print axioms induction_sum_odd

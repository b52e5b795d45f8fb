import Mathlib
import Aesop
set_option maxHeartbeats 0
set_option maxRecDepth 1000
set_option tactic.hygienic false
open BigOperators Real Nat Topology Rat

lemma round1_h1 (a b c : ℝ):
  a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2) = - (a - b) * (b - c) * (c - a) * (a + b + c) := by
  ring


lemma round5_h_general_XY_ineq (X Y : ℝ) :
    27 * X^2 * Y^2 * (X + Y)^2 ≤ 4 * (X^2 + Y^2 + X * Y)^3 := by
  have h : 4 * (X^2 + Y^2 + X * Y)^3 - 27 * X^2 * Y^2 * (X + Y)^2 = (X - Y)^2 * (2 * X + Y)^2 * (X + 2 * Y)^2 := by
    ring
  have h2 : 0 ≤ (X - Y)^2 * (2 * X + Y)^2 * (X + 2 * Y)^2 := by positivity
  linarith


lemma round6_xy_identity (a b c : ℝ) :
    (a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c) = (3 * (a ^ 2 + b ^ 2 + c ^ 2) - (a + b + c) ^ 2) / 2 := by
  ring


lemma round6_cauchy_schwarz_abc (a b c : ℝ) :
    (a + b + c) ^ 2 ≤ 3 * (a ^ 2 + b ^ 2 + c ^ 2) := by
  nlinarith [sq_nonneg (a - b), sq_nonneg (b - c), sq_nonneg (c - a)]


lemma round1_h1_bda4a420 : ∀ x y : ℝ, 27 * (2 * y + x) ^ 4 ≥ 2048 * y ^ 3 * x := by
  intro x y
  have h2 : 3 * x ^ 2 + 28 * x * y + 108 * y ^ 2 ≥ 0 := by
    nlinarith [sq_nonneg (x + 14 / 3 * y), sq_nonneg y]
  have h3 : (3 * x - 2 * y) ^ 2 ≥ 0 := by nlinarith
  have h4 : (3 * x - 2 * y) ^ 2 * (3 * x ^ 2 + 28 * x * y + 108 * y ^ 2) ≥ 0 := mul_nonneg h3 h2
  have h5 : 27 * (2 * y + x) ^ 4 - 2048 * y ^ 3 * x = (3 * x - 2 * y) ^ 2 * (3 * x ^ 2 + 28 * x * y + 108 * y ^ 2) := by
    ring
  linarith


lemma round9_main_symmetric_inequality (S s2 : ℝ) (hS_pos : 0 < S) (hs2_nonneg : 0 ≤ s2) (hs2_bound : s2 ≤ 3 * S) :
    (4 / 27) * ((3 * S - s2) / 2) ^ 3 * s2 ≤ (81 / 512) * S ^ 4 := by
  have h1 := round1_h1_bda4a420
  have h6 := h1 s2 ((3 * S - s2) / 2)
  have h7 : 2 * ((3 * S - s2) / 2) + s2 = 3 * S := by ring
  rw [h7] at h6
  have h8 : 27 * (3 * S) ^ 4 = 2187 * S ^ 4 := by ring
  rw [h8] at h6
  linarith [h6]


lemma round13_lhs_sq_identity (a b c : ℝ) :
    (a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2)) ^ 2 =
    (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * (a + b + c) ^ 2 := by
  have h1 : a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2) = - (a - b) * (b - c) * (c - a) * (a + b + c) := round1_h1 a b c
  rw [h1]
  ring


lemma round13_rhs_sq_identity (a b c : ℝ) :
    (9 * Real.sqrt 2 / 32 * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2) ^ 2 = (81 / 512) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := by
  have h2 : (Real.sqrt 2) ^ 2 = 2 := by
    rw [Real.sq_sqrt] <;> norm_num
  calc
    (9 * Real.sqrt 2 / 32 * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2) ^ 2
      = (9 * Real.sqrt 2 / 32) ^ 2 * ((a ^ 2 + b ^ 2 + c ^ 2) ^ 2) ^ 2 := by ring
    _ = (9 ^ 2 * (Real.sqrt 2) ^ 2 * (1 / 32) ^ 2) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := by ring
    _ = (81 * 2 * (1 / 1024)) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := by norm_num [h2]
    _ = (81 / 512) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := by ring


lemma round13_s2_bounds (a b c : ℝ) :
    0 ≤ (a + b + c) ^ 2 ∧ (a + b + c) ^ 2 ≤ 3 * (a ^ 2 + b ^ 2 + c ^ 2) := by
  constructor
  · -- Prove 0 ≤ (a + b + c) ^ 2
    exact sq_nonneg (a + b + c)
  · -- Prove (a + b + c) ^ 2 ≤ 3 * (a ^ 2 + b ^ 2 + c ^ 2)
    exact round6_cauchy_schwarz_abc a b c


lemma round13_prod_diff_sq_bound (a b c : ℝ) :
    (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 ≤ (4 / 27) * ((a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c)) ^ 3 := by
  have h52 : c - a = -((a - b) + (b - c)) := by ring
  have h53 : (c - a) ^ 2 = (-((a - b) + (b - c))) ^ 2 := by rw [h52]
  have h54 : (-((a - b) + (b - c))) ^ 2 = ((a - b) + (b - c)) ^ 2 := by ring
  have h5 : (c - a) ^ 2 = ((a - b) + (b - c)) ^ 2 := by linarith
  have h6 : 27 * (a - b) ^ 2 * (b - c) ^ 2 * ((a - b) + (b - c)) ^ 2 ≤ 4 * ((a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c)) ^ 3 := by
    have h7 := round5_h_general_XY_ineq (a - b) (b - c)
    linarith
  have h7 : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 = (a - b) ^ 2 * (b - c) ^ 2 * ((a - b) + (b - c)) ^ 2 := by
    rw [h5]
  have h8 : 27 * ((a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2) ≤ 4 * ((a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c)) ^ 3 := by
    rw [h7]
    linarith
  linarith


lemma round14_main_inequality_reduced (a b c : ℝ) (S s2 : ℝ)
    (hS_def : S = a ^ 2 + b ^ 2 + c ^ 2)
    (hs2_def : s2 = (a + b + c) ^ 2)
    (hS_pos : 0 < S) (hs2_nonneg : 0 ≤ s2) (hs2_bound : s2 ≤ 3 * S) :
    (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * s2 ≤ (81 / 512) * S ^ 4 := by
  have h1 : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 ≤ (4 / 27) * ((a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c)) ^ 3 := by
    exact round13_prod_diff_sq_bound a b c
  have h2 : 0 ≤ s2 := hs2_nonneg
  have h3 : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * s2 ≤ (4 / 27) * ((a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c)) ^ 3 * s2 := by
    have h4 : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * s2 ≤ (4 / 27) * ((a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c)) ^ 3 * s2 := by
      nlinarith
    linarith
  have h4 : (a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c) = (3 * (a ^ 2 + b ^ 2 + c ^ 2) - (a + b + c) ^ 2) / 2 := by
    exact round6_xy_identity a b c
  have h5 : (a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c) = (3 * S - s2) / 2 := by
    rw [h4, hS_def, hs2_def]
  have h6 : (4 / 27) * ((a - b) ^ 2 + (b - c) ^ 2 + (a - b) * (b - c)) ^ 3 * s2 = (4 / 27) * ((3 * S - s2) / 2) ^ 3 * s2 := by
    rw [h5]
  have h7 : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * s2 ≤ (4 / 27) * ((3 * S - s2) / 2) ^ 3 * s2 := by
    linarith [h3, h6]
  have h8 : (4 / 27) * ((3 * S - s2) / 2) ^ 3 * s2 ≤ (81 / 512) * S ^ 4 := by
    exact round9_main_symmetric_inequality S s2 hS_pos hs2_nonneg hs2_bound
  linarith


theorem imo_2006_p6 (a b c : ℝ) :
    a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2) ≤
      9 * Real.sqrt 2 / 32 * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2 := by
  have h_rhs_nonneg : 0 ≤ 9 * Real.sqrt 2 / 32 * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2 := by
    have h1 : 0 ≤ Real.sqrt 2 := Real.sqrt_nonneg 2
    have h2 : 0 ≤ a ^ 2 + b ^ 2 + c ^ 2 := by nlinarith [sq_nonneg a, sq_nonneg b, sq_nonneg c]
    have h3 : 0 ≤ (a ^ 2 + b ^ 2 + c ^ 2) ^ 2 := by positivity
    have h4 : 0 ≤ 9 * Real.sqrt 2 / 32 := by positivity
    have h5 : 0 ≤ (9 * Real.sqrt 2 / 32) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2 := by positivity
    linarith

  by_cases h : (a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2) ≤ 0)
  · -- Case 1: LHS ≤ 0
    linarith [h_rhs_nonneg]

  · -- Case 2: LHS > 0
    have h' : 0 < a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2) := by linarith

    have h_LHS_sq : (a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2)) ^ 2 =
        (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * (a + b + c) ^ 2 := by
      exact round13_lhs_sq_identity a b c

    have h_RHS_sq : (9 * Real.sqrt 2 / 32 * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2) ^ 2 =
        (81 / 512) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := by
      exact round13_rhs_sq_identity a b c

    have h_s2_bounds : 0 ≤ (a + b + c) ^ 2 ∧ (a + b + c) ^ 2 ≤ 3 * (a ^ 2 + b ^ 2 + c ^ 2) := by
      exact round13_s2_bounds a b c

    have h_s2_nonneg : 0 ≤ (a + b + c) ^ 2 := h_s2_bounds.1
    have h_s2_bound : (a + b + c) ^ 2 ≤ 3 * (a ^ 2 + b ^ 2 + c ^ 2) := h_s2_bounds.2

    have h_S_pos : 0 < a ^ 2 + b ^ 2 + c ^ 2 := by
      by_contra h_S_nonpos
      have h_S_nonpos' : a ^ 2 + b ^ 2 + c ^ 2 ≤ 0 := by linarith
      have ha : a = 0 := by nlinarith [sq_nonneg a, sq_nonneg b, sq_nonneg c]
      have hb : b = 0 := by nlinarith [sq_nonneg a, sq_nonneg b, sq_nonneg c]
      have hc : c = 0 := by nlinarith [sq_nonneg a, sq_nonneg b, sq_nonneg c]
      have h_LHS_zero : a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2) = 0 := by
        rw [ha, hb, hc]
        <;> ring
      linarith

    have h_main_ineq : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * (a + b + c) ^ 2 ≤ (81 / 512) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := by
      set S := a ^ 2 + b ^ 2 + c ^ 2 with hS_def'
      set s2 := (a + b + c) ^ 2 with hs2_def'
      have hS_def : S = a ^ 2 + b ^ 2 + c ^ 2 := hS_def'
      have hs2_def : s2 = (a + b + c) ^ 2 := hs2_def'
      have hS_pos' : 0 < S := by
        rw [hS_def]
        exact h_S_pos
      have hs2_nonneg' : 0 ≤ s2 := by
        rw [hs2_def]
        exact h_s2_nonneg
      have hs2_bound' : s2 ≤ 3 * S := by
        rw [hs2_def, hS_def]
        linarith

      have h : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * s2 ≤ (81 / 512) * S ^ 4 := by
        exact round14_main_inequality_reduced a b c S s2 hS_def hs2_def hS_pos' hs2_nonneg' hs2_bound'

      have h2 : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * (a + b + c) ^ 2 = (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * s2 := by
        rw [hs2_def]

      have h3 : (81 / 512) * S ^ 4 = (81 / 512) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := by
        rw [hS_def]

      have h4 : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * (a + b + c) ^ 2 ≤ (81 / 512) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := by
        linarith [h, h2, h3]

      exact h4

    have h_LHS_sq_le_RHS_sq : (a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2)) ^ 2 ≤ (9 * Real.sqrt 2 / 32 * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2) ^ 2 := by
      have h1 : (a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2)) ^ 2 = (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * (a + b + c) ^ 2 := h_LHS_sq
      have h2 : (9 * Real.sqrt 2 / 32 * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2) ^ 2 = (81 / 512) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := h_RHS_sq
      have h3 : (a - b) ^ 2 * (b - c) ^ 2 * (c - a) ^ 2 * (a + b + c) ^ 2 ≤ (81 / 512) * (a ^ 2 + b ^ 2 + c ^ 2) ^ 4 := h_main_ineq
      nlinarith

    have h_LHS_le_RHS : a * b * (a ^ 2 - b ^ 2) + b * c * (b ^ 2 - c ^ 2) + c * a * (c ^ 2 - a ^ 2) ≤ 9 * Real.sqrt 2 / 32 * (a ^ 2 + b ^ 2 + c ^ 2) ^ 2 := by
      nlinarith [h', h_rhs_nonneg, h_LHS_sq_le_RHS_sq]

    exact h_LHS_le_RHS
#print axioms imo_2006_p6
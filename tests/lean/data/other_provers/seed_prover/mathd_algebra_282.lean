import Mathlib
import Aesop
set_option pp.numericTypes true
set_option pp.funBinderTypes true
set_option maxHeartbeats 0
set_option maxRecDepth 1000
set_option tactic.hygienic false
open BigOperators Real Nat Topology Rat Classical Polynomial

lemma round1_h22 : Irrational (-Real.pi) := by
  have h221 : Irrational Real.pi := by
    exact?
  intro h222
  have h2221 : ∃ (q : ℚ), (q : ℝ) = -Real.pi := h222
  rcases h2221 with ⟨q, hq⟩
  have h2222 : Real.pi = (-q : ℝ) := by linarith
  have h2223 : ∃ (r : ℚ), (r : ℝ) = Real.pi := ⟨-q, by simp [h2222]⟩
  have h2224 : ¬ Irrational Real.pi := by
    simp only [Irrational] at *
    <;> tauto
  contradiction

lemma round1_h23 : Int.ceil (-Real.pi) = -3 := by
  have h1 : -4 < -Real.pi := by linarith [Real.pi_lt_four]
  have h2 : -Real.pi < -3 := by linarith [Real.pi_gt_three]
  have h3 : -4 < -Real.pi := h1
  have h4 : -Real.pi ≤ -3 := by linarith
  rw [Int.ceil_eq_iff]
  constructor <;> norm_num at * <;> linarith [Real.pi_gt_three, Real.pi_lt_four]

lemma round1_h24 : Irrational (Real.sqrt 50) := by
  have h50 : Real.sqrt 50 = 5 * Real.sqrt 2 := by
    have h1 : Real.sqrt 50 = Real.sqrt (25 * 2) := by norm_num
    have h2 : Real.sqrt (25 * 2) = Real.sqrt 25 * Real.sqrt 2 := by
      rw [Real.sqrt_mul (by norm_num)]
    have h3 : Real.sqrt 25 = 5 := by
      rw [Real.sqrt_eq_iff_sq_eq] <;> norm_num
    rw [h1, h2, h3]
    <;> ring
  have hsqrt2 : Irrational (Real.sqrt 2) := by
    exact?
  intro h
  have h1 : ∃ (q : ℚ), (q : ℝ) = Real.sqrt 50 := h
  rcases h1 with ⟨q, hq⟩
  have h6 : (q : ℝ) = Real.sqrt 50 := hq
  have h7 : Real.sqrt 50 = 5 * Real.sqrt 2 := h50
  have h8 : (q : ℝ) = 5 * Real.sqrt 2 := by linarith
  have h9 : Real.sqrt 2 = (q : ℝ) / 5 := by linarith
  have h10 : ∃ (r : ℚ), (r : ℝ) = Real.sqrt 2 := by
    refine ⟨q / 5,?_⟩
    simp [h9]
    <;> ring_nf
    <;> field_simp
    <;> ring
  have h11 : ¬ Irrational (Real.sqrt 2) := by
    simp only [Irrational] at *
    <;> tauto
  contradiction

theorem mathd_algebra_282 (f : ℝ → ℝ) (h₀ : ∀ x : ℝ, ¬ (Irrational x) → f x = abs (Int.floor x)) (h₁ : ∀ x, Irrational x → f x = (Int.ceil x) ^ 2) : f (8 ^ (1 / 3 : ℝ)) + f (-Real.pi) + f (Real.sqrt 50) + f (9 / 2) = 79 := by

  have h1 : (8 : ℝ) ^ (1 / 3 : ℝ) = 2 := by
    have h11 : (2 : ℝ) ^ 3 = 8 := by norm_num
    have h12 : (0 : ℝ) < (2 : ℝ) := by norm_num
    have h13 : (2 : ℝ) = (8 : ℝ) ^ (1 / 3 : ℝ) := by
      rw [show (8 : ℝ) = (2 : ℝ) ^ (3 : ℝ) by norm_num]
      rw [← Real.rpow_mul] <;> norm_num
      all_goals linarith
    linarith

  have h21 : ¬ Irrational (2 : ℝ) := by
    intro h21
    have h211 : ∃ (q : ℚ), (q : ℝ) = (2 : ℝ) := ⟨(2 : ℚ), by norm_num⟩
    rcases h211 with ⟨q, hq⟩
    have h212 : ¬ Irrational (2 : ℝ) := by
      simp only [Irrational] at *
      <;> tauto
    contradiction

  have h22 : Irrational (-Real.pi) := by
    exact round1_h22

  have h23 : Int.ceil (-Real.pi) = -3 := by
    exact round1_h23

  have h24 : Irrational (Real.sqrt 50) := by
    exact round1_h24

  have h25 : Int.ceil (Real.sqrt 50) = 8 := by
    have h251 : (7 : ℝ) < Real.sqrt 50 := by
      have h2511 : (7 : ℝ) ^ 2 < (50 : ℝ) := by norm_num
      have h2512 : (7 : ℝ) < Real.sqrt 50 := by
        nlinarith [Real.sqrt_nonneg 50, Real.sq_sqrt (show (0 : ℝ) ≤ (50 : ℝ) by norm_num)]
      linarith
    have h252 : Real.sqrt 50 < (8 : ℝ) := by
      have h2521 : (50 : ℝ) < (8 : ℝ) ^ 2 := by norm_num
      have h2522 : Real.sqrt 50 < (8 : ℝ) := by
        nlinarith [Real.sqrt_nonneg 50, Real.sq_sqrt (show (0 : ℝ) ≤ (50 : ℝ) by norm_num)]
      linarith
    rw [Int.ceil_eq_iff]
    constructor <;> norm_num at * <;>
      (try norm_num) <;>
      (try linarith [Real.sqrt_nonneg 50, Real.sq_sqrt (show (0 : ℝ) ≤ (50 : ℝ) by norm_num)]) <;>
      (try
        {
          simp_all [Int.cast_lt]
          <;> linarith [Real.sqrt_nonneg 50, Real.sq_sqrt (show (0 : ℝ) ≤ (50 : ℝ) by norm_num)]
        }
      ) <;>
      (try
        {
          simp_all [Int.cast_le]
          <;> linarith [Real.sqrt_nonneg 50, Real.sq_sqrt (show (0 : ℝ) ≤ (50 : ℝ) by norm_num)]
        }
      )

  have h26 : ¬ Irrational ((9 / 2 : ℝ)) := by
    intro h26
    have h261 : ∃ (q : ℚ), (q : ℝ) = (9 / 2 : ℝ) := ⟨(9 / 2 : ℚ), by norm_num⟩
    rcases h261 with ⟨q, hq⟩
    have h262 : ¬ Irrational ((9 / 2 : ℝ)) := by
      simp only [Irrational] at *
      <;> tauto
    contradiction

  rw [h1]
  rw [h₀ 2 h21]
  rw [h₁ (-Real.pi) h22]
  rw [h23]
  rw [h₁ (Real.sqrt 50) h24]
  rw [h25]
  rw [h₀ (9 / 2) h26]
  have h27 : Int.floor ((9 / 2 : ℝ)) = 4 := by
    rw [Int.floor_eq_iff]
    norm_num
    <;> norm_num
    <;> linarith
  simp [h27]
  <;> norm_num
  <;> linarith [Real.pi_gt_three, Real.pi_lt_four]

#print axioms mathd_algebra_282

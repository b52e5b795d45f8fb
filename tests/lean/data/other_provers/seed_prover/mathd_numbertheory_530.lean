import Mathlib
import Aesop
set_option maxHeartbeats 0
set_option maxRecDepth 1000
set_option tactic.hygienic false
open BigOperators Real Nat Topology Rat

lemma round1_h_pos_gcd (n k : ℕ)
  (h₀ : 0 < n ∧ 0 < k):
  0 < Nat.gcd n k := by
  have h₂ : 0 < n := h₀.1
  have h₃ : 0 < k := h₀.2
  have h₄ : 0 < Nat.gcd n k := by
    apply Nat.gcd_pos_of_pos_left
    linarith
  exact h₄


lemma round1_h_exists_s (n k : ℕ)
  (h₀ : 0 < n ∧ 0 < k):
  ∃ s : ℕ, k = Nat.gcd n k * s := by
  have h₂ : Nat.gcd n k ∣ k := Nat.gcd_dvd_right n k
  rcases h₂ with ⟨s, hs⟩
  refine' ⟨s, _⟩
  linarith


lemma round1_h_exists_t (n k : ℕ)
  (h₀ : 0 < n ∧ 0 < k):
  ∃ t : ℕ, n = Nat.gcd n k * t := by
  have h₂ : Nat.gcd n k ∣ n := Nat.gcd_dvd_left n k
  rcases h₂ with ⟨t, ht⟩
  refine' ⟨t, _⟩
  linarith


lemma round1_h_s_pos (n k s : ℕ)
  (h₀ : 0 < n ∧ 0 < k)
  (hs : k = Nat.gcd n k * s)
  (h_pos_gcd : 0 < Nat.gcd n k):
  0 < s := by
  by_contra h
  have h₂ : s = 0 := by omega
  rw [h₂] at hs
  have h₃ : k = 0 := by linarith
  have h₄ : 0 < k := h₀.2
  linarith


lemma round1_h_t_ge_5s_plus_1 (s t : ℕ)
  (h_5s_lt_t : 5 * s < t):
  5 * s + 1 ≤ t := by omega


lemma round1_h_t_mul_s_ge_22 (s t : ℕ)
  (h_s_ge_two : 2 ≤ s)
  (h_t_ge_5s_plus_1 : 5 * s + 1 ≤ t):
  t * s ≥ 22 := by
  have h₁ : t * s ≥ (5 * s + 1) * s := by nlinarith
  have h₂ : (5 * s + 1) * s ≥ 22 := by
    have h₃ : s ≥ 2 := h_s_ge_two
    nlinarith
  nlinarith


lemma round1_h_lcm_ge_22_gcd (n k s t : ℕ)
  (h_pos_gcd : 0 < Nat.gcd n k)
  (h_lcm_eq : Nat.lcm n k = Nat.gcd n k * t * s)
  (h_t_mul_s_ge_22 : t * s ≥ 22):
  Nat.lcm n k ≥ 22 * Nat.gcd n k := by
  have h₁ : Nat.lcm n k = Nat.gcd n k * (t * s) := by
    have h₂ : Nat.lcm n k = Nat.gcd n k * t * s := h_lcm_eq
    have h₃ : Nat.gcd n k * t * s = Nat.gcd n k * (t * s) := by ring
    rw [h₂, h₃]
  have h₂ : Nat.gcd n k * (t * s) ≥ Nat.gcd n k * 22 := by nlinarith
  rw [h₁]
  linarith


lemma round1_h_main (n k : ℕ)
  (h_pos_gcd : 0 < Nat.gcd n k)
  (h_lcm_ge_22_gcd : Nat.lcm n k ≥ 22 * Nat.gcd n k):
  Nat.lcm n k / Nat.gcd n k ≥ 22 := by
  have h₁ : Nat.lcm n k ≥ 22 * Nat.gcd n k := h_lcm_ge_22_gcd
  have h₂ : Nat.lcm n k / Nat.gcd n k ≥ (22 * Nat.gcd n k) / Nat.gcd n k := by
    exact Nat.div_le_div_right h₁
  have h₃ : (22 * Nat.gcd n k) / Nat.gcd n k = 22 := by
    have h₄ : 0 < Nat.gcd n k := h_pos_gcd
    field_simp [h₄.ne']
    <;> ring
  rw [h₃] at h₂
  linarith


lemma round1_h_s_ge_two (n k s t : ℕ)
  (h_pos_n_k : 0 < n ∧ 0 < k)
  (h_pos_gcd : 0 < Nat.gcd n k)
  (hs : k = Nat.gcd n k * s)
  (ht : n = Nat.gcd n k * t)
  (h_s_pos : 0 < s)
  (h_nk_lt_6 : (n : ℝ) / k < 6)
  (h_5_lt_nk : (5 : ℝ) < n / k):
  2 ≤ s := by
  by_contra h
  have h₂ : s < 2 := by linarith
  have h₃ : s = 1 := by omega
  have h₄ : (k : ℝ) > 0 := by exact_mod_cast h_pos_n_k.2
  have h₅ : (n : ℝ) < 6 * (k : ℝ) := by
    have h₆ : (n : ℝ) / (k : ℝ) < 6 := h_nk_lt_6
    have h₇ : (n : ℝ) / (k : ℝ) < 6 := h₆
    have h₈ : (n : ℝ) = ((n : ℝ) / (k : ℝ)) * (k : ℝ) := by
      field_simp [h₄.ne'] <;> ring
    have h₉ : ((n : ℝ) / (k : ℝ)) * (k : ℝ) < 6 * (k : ℝ) := by nlinarith
    linarith
  have h₆ : (5 : ℝ) < (n : ℝ) / (k : ℝ) := h_5_lt_nk
  have h₇ : (5 : ℝ) * (k : ℝ) < (n : ℝ) := by
    have h₈ : (5 : ℝ) < (n : ℝ) / (k : ℝ) := h₆
    have h₉ : (5 : ℝ) * (k : ℝ) < (n : ℝ) := by
      calc
        (5 : ℝ) * (k : ℝ) = ((5 : ℝ) * (k : ℝ)) := rfl
        _ < ((n : ℝ) / (k : ℝ)) * (k : ℝ) := by nlinarith
        _ = (n : ℝ) := by
          field_simp [h₄.ne'] <;> ring
    exact h₉
  have h_k_eq_gcd : k = Nat.gcd n k := by
    have h_s_is_1 : s = 1 := h₃
    have h_k_eq_gcd_mul_s : k = Nat.gcd n k * s := hs
    rw [h_s_is_1] at h_k_eq_gcd_mul_s
    linarith
  have h_n_div_k_eq_t : (n : ℝ) / (k : ℝ) = (t : ℝ) := by
    have h_k_cast : (k : ℝ) = (Nat.gcd n k : ℝ) := by exact_mod_cast h_k_eq_gcd
    have h_n_cast : (n : ℝ) = (Nat.gcd n k : ℝ) * (t : ℝ) := by exact_mod_cast ht
    have h_gcd_pos : (0 : ℝ) < (Nat.gcd n k : ℝ) := by exact_mod_cast h_pos_gcd
    rw [h_n_cast, h_k_cast]
    field_simp [h_gcd_pos.ne']
    <;> ring
  have h_5_lt_t : (5 : ℝ) < (t : ℝ) := by
    have h : (5 : ℝ) < (n : ℝ) / (k : ℝ) := h_5_lt_nk
    rw [h_n_div_k_eq_t] at h
    linarith
  have h_t_lt_6 : (t : ℝ) < 6 := by
    have h : (n : ℝ) / (k : ℝ) < 6 := h_nk_lt_6
    rw [h_n_div_k_eq_t] at h
    linarith
  have h_5_lt_t_nat : 5 < t := by exact_mod_cast h_5_lt_t
  have h_t_lt_6_nat : t < 6 := by exact_mod_cast h_t_lt_6
  omega


lemma round1_h_5s_lt_t (n k s t : ℕ)
  (h_pos_gcd : 0 < Nat.gcd n k)
  (hs : k = Nat.gcd n k * s)
  (ht : n = Nat.gcd n k * t)
  (h_pos_n_k : 0 < n ∧ 0 < k)
  (h_5_lt_nk : (5 : ℝ) < n / k)
  (h_s_pos : 0 < s):
  5 * s < t := by
  have h₂ : (k : ℝ) > 0 := by exact_mod_cast h_pos_n_k.2
  have h₃ : (5 : ℝ) < (n : ℝ) / (k : ℝ) := h_5_lt_nk
  have h₄ : (5 : ℝ) * (k : ℝ) < (n : ℝ) := by
    have h₅ : (5 : ℝ) < (n : ℝ) / (k : ℝ) := h₃
    have h₆ : (5 : ℝ) * (k : ℝ) < (n : ℝ) := by
      calc
        (5 : ℝ) * (k : ℝ) = ((5 : ℝ) * (k : ℝ)) := rfl
        _ < ((n : ℝ) / (k : ℝ)) * (k : ℝ) := by nlinarith
        _ = (n : ℝ) := by
          field_simp [h₂.ne'] <;> ring
    exact h₆
  have h₅ : 5 * k < n := by exact_mod_cast h₄
  have h₆ : (k : ℝ) = (Nat.gcd n k : ℝ) * (s : ℝ) := by exact_mod_cast hs
  have h₇ : (n : ℝ) = (Nat.gcd n k : ℝ) * (t : ℝ) := by exact_mod_cast ht
  have h₈ : (5 : ℝ) * ((Nat.gcd n k : ℝ) * (s : ℝ)) < (Nat.gcd n k : ℝ) * (t : ℝ) := by
    have h₉ : (5 : ℝ) * (k : ℝ) < (n : ℝ) := by exact_mod_cast h₅
    rw [h₆, h₇] at h₉
    linarith
  have h₉ : (5 : ℝ) * (s : ℝ) < (t : ℝ) := by nlinarith [show (0 : ℝ) < (Nat.gcd n k : ℝ) by exact_mod_cast h_pos_gcd]
  have h₁₀ : 5 * s < t := by exact_mod_cast h₉
  exact h₁₀


lemma round2_algebra_step_80640362 (g t s : ℕ) : (g * t) * (g * s) = g * (g * t * s) := by
  calc
    (g * t) * (g * s) = g * (t * (g * s)) := by ring
    _ = g * ((t * g) * s) := by ring
    _ = g * ((g * t) * s) := by ring
    _ = g * (g * t * s) := by ring


lemma round3_lcm_gcd_product_806407cc (n k : ℕ) : n * k = Nat.gcd n k * Nat.lcm n k := by
  exact?


lemma round1_h_lcm_eq (n k s t : ℕ)
  (h_pos_gcd : 0 < Nat.gcd n k)
  (hs : k = Nat.gcd n k * s)
  (ht : n = Nat.gcd n k * t):
  Nat.lcm n k = Nat.gcd n k * t * s := by
  have h1 : n * k = Nat.gcd n k * Nat.lcm n k := round3_lcm_gcd_product_806407cc n k
  have h2 : (Nat.gcd n k * t) * (Nat.gcd n k * s) = n * k := by
    calc
      (Nat.gcd n k * t) * (Nat.gcd n k * s) = n * (Nat.gcd n k * s) := by rw [← ht]
      _ = n * k := by rw [← hs]
  have h3 : (Nat.gcd n k * t) * (Nat.gcd n k * s) = Nat.gcd n k * (Nat.gcd n k * t * s) := by
    exact round2_algebra_step_80640362 (Nat.gcd n k) t s
  have h4 : n * k = Nat.gcd n k * (Nat.gcd n k * t * s) := by linarith
  have h5 : Nat.gcd n k * Nat.lcm n k = Nat.gcd n k * (Nat.gcd n k * t * s) := by linarith
  have h6 : Nat.lcm n k = Nat.gcd n k * t * s := by nlinarith
  exact h6


lemma round3_main_proof (n k : ℕ) (h_pos : 0 < n ∧ 0 < k) (h_lt_6 : (n : ℝ) / k < 6) (h_gt_5 : (5 : ℝ) < n / k) : 22 ≤ Nat.lcm n k / Nat.gcd n k := by
  have h_pos_gcd : 0 < Nat.gcd n k := round1_h_pos_gcd n k h_pos
  have h_exists_s : ∃ s : ℕ, k = Nat.gcd n k * s := round1_h_exists_s n k h_pos
  rcases h_exists_s with ⟨s, hs⟩
  have h_s_pos : 0 < s := round1_h_s_pos n k s h_pos hs h_pos_gcd
  have h_exists_t : ∃ t : ℕ, n = Nat.gcd n k * t := round1_h_exists_t n k h_pos
  rcases h_exists_t with ⟨t, ht⟩
  have h_s_ge_two : 2 ≤ s := round1_h_s_ge_two n k s t h_pos h_pos_gcd hs ht h_s_pos h_lt_6 h_gt_5
  have h_5s_lt_t : 5 * s < t := round1_h_5s_lt_t n k s t h_pos_gcd hs ht h_pos h_gt_5 h_s_pos
  have h_t_ge_5s_plus_1 : 5 * s + 1 ≤ t := round1_h_t_ge_5s_plus_1 s t h_5s_lt_t
  have h_t_mul_s_ge_22 : t * s ≥ 22 := round1_h_t_mul_s_ge_22 s t h_s_ge_two h_t_ge_5s_plus_1
  have h_lcm_eq_gcd_mul_t_mul_s : Nat.lcm n k = Nat.gcd n k * t * s := round1_h_lcm_eq n k s t h_pos_gcd hs ht
  have h_lcm_ge_22_gcd : Nat.lcm n k ≥ 22 * Nat.gcd n k := round1_h_lcm_ge_22_gcd n k s t h_pos_gcd h_lcm_eq_gcd_mul_t_mul_s h_t_mul_s_ge_22
  have h_main : Nat.lcm n k / Nat.gcd n k ≥ 22 := round1_h_main n k h_pos_gcd h_lcm_ge_22_gcd
  exact h_main


lemma round4_fixed_theorem (n k : ℕ) (h_pos : 0 < n ∧ 0 < k) (h_lt_6 : (n : ℝ) / k < 6) (h_gt_5 : (5 : ℝ) < n / k) : 22 ≤ Nat.lcm n k / Nat.gcd n k := by
  exact round3_main_proof n k h_pos h_lt_6 h_gt_5


lemma round6_h_pos_k (n k : ℕ) (h₁ : (5 : ℝ) < (n : ℝ) / (k : ℝ)) : 0 < k := by
  by_contra h
  have h₂ : k = 0 := by omega
  have h₃ : (k : ℝ) = 0 := by exact_mod_cast h₂
  have h₄ : (n : ℝ) / (k : ℝ) = 0 := by
    rw [h₃]
    norm_num
  have h₅ : (5 : ℝ) < 0 := by linarith
  linarith


lemma round6_h_pos_n (n k : ℕ) (h₁ : (5 : ℝ) < (n : ℝ) / (k : ℝ)) (hk : 0 < k) : 0 < n := by
  by_contra h
  have h₂ : n = 0 := by omega
  have h₃ : (n : ℝ) = 0 := by exact_mod_cast h₂
  have h₄ : (k : ℝ) > 0 := by exact_mod_cast hk
  have h₅ : (n : ℝ) / (k : ℝ) = 0 := by
    rw [h₃]
    field_simp [h₄.ne']
    <;> ring
  have h₆ : (5 : ℝ) < 0 := by linarith
  linarith


theorem mathd_numbertheory_530 (n k : ℕ) (h₀ : 0 < n ∧ 0 < k) (h₀ : (n : ℝ) / k < 6)
    (h₁ : (5 : ℝ) < n / k) : 22 ≤ Nat.lcm n k / Nat.gcd n k := by
  have hk_pos : 0 < k := round6_h_pos_k n k h₁
  have hn_pos : 0 < n := round6_h_pos_n n k h₁ hk_pos
  have h_pos : 0 < n ∧ 0 < k := And.intro hn_pos hk_pos
  exact round4_fixed_theorem n k h_pos h₀ h₁
#print axioms mathd_numbertheory_530
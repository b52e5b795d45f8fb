import Mathlib
import Aesop
set_option maxHeartbeats 0
set_option maxRecDepth 1000
set_option tactic.hygienic false
open BigOperators Real Nat Topology Rat

lemma round2_k_is_perfect_square (a b k : ℕ) (h₀ : 0 < a ∧ 0 < b) (hk : a ^ 2 + b ^ 2 = (a * b + 1) * k) :
    ∃ x : ℕ, x ^ 2 = k := by
  have h_k_pos : 0 < k := by
    by_contra h
    have h_k_nonpos : k ≤ 0 := by linarith
    have h_k_eq_zero : k = 0 := by omega
    rw [h_k_eq_zero] at hk
    have h₁ : a ^ 2 + b ^ 2 = 0 := by linarith
    have ha : a = 0 := by nlinarith
    have hb : b = 0 := by nlinarith
    have h₂ : ¬0 < a := by linarith
    tauto
  suffices ∀ n : ℕ, ∀ a b : ℕ, a + b = n → (0 < a ∧ 0 < b) → a ^ 2 + b ^ 2 = (a * b + 1) * k → ∃ x : ℕ, x ^ 2 = k by
    exact this (a + b) a b rfl h₀ hk
  intro n
  induction n using Nat.strong_induction_on with
  | h n ih =>
    intro a b h_sum h_pos h_eq
    by_cases h_ab_eq : a = b
    · -- Case 1: a = b
      subst h_ab_eq
      have h1 : a ^ 2 + a ^ 2 = (a * a + 1) * k := by
        linarith
      have h2 : 2 * a ^ 2 = (a ^ 2 + 1) * k := by linarith
      have h3 : k * (a ^ 2 + 1) = 2 * a ^ 2 := by linarith
      have h4 : a ^ 2 + 1 > 0 := by nlinarith [h_pos.1]
      have h5 : k ≤ 2 := by nlinarith
      have h6 : k = 1 ∨ k = 2 := by omega
      cases h6 with
      | inl hk1 =>
        -- k = 1
        refine' ⟨1, _⟩
        linarith
      | inr hk2 =>
        -- k = 2
        rw [hk2] at h2
        have h7 : 2 * a ^ 2 = (a ^ 2 + 1) * 2 := by linarith
        have h8 : a ^ 2 = a ^ 2 + 1 := by linarith
        omega
    · -- Case 2: a ≠ b
      by_cases h_a_gt_b : a > b
      · -- Subcase 2.1: a > b
        have h_kb_ge_a : k * b ≥ a := by
          by_contra h_not_kb_ge_a
          have h_kb_lt_a : k * b < a := by linarith
          have h_kb_plus_1_le_a : k * b + 1 ≤ a := by omega
          nlinarith [h_eq, h_pos.1, h_pos.2, h_kb_plus_1_le_a, h_k_pos]
        set a' : ℕ := k * b - a with ha'_def
        have ha'_val_def : a' = k * b - a := ha'_def
        have h_new_eq : (a') ^ 2 + b ^ 2 = (a' * b + 1) * k := by
          have h1 : ((k : ℤ) * (b : ℤ) - (a : ℤ)) ^ 2 + (b : ℤ) ^ 2 = (((k : ℤ) * (b : ℤ) - (a : ℤ)) * (b : ℤ) + 1) * (k : ℤ) := by
            have h2 : (a : ℤ) ^ 2 + (b : ℤ) ^ 2 = ((a : ℤ) * (b : ℤ) + 1) * (k : ℤ) := by exact_mod_cast h_eq
            have h3 : ((k : ℤ) * (b : ℤ) - (a : ℤ)) = (a' : ℤ) := by exact_mod_cast ha'_val_def
            have h4 : ((k : ℤ) * (b : ℤ) - (a : ℤ)) ^ 2 + (b : ℤ) ^ 2 - (((k : ℤ) * (b : ℤ) - (a : ℤ)) * (b : ℤ) + 1) * (k : ℤ) = 0 := by nlinarith
            nlinarith
          exact_mod_cast h1
        have h_a'_lt_a : a' < a := by
          by_contra h_not_a'_lt_a
          have h_a'_ge_a : a' ≥ a := by linarith
          have h_kb_ge_2a : k * b ≥ 2 * a := by omega
          nlinarith [h_eq, h_pos.1, h_pos.2, h_a_gt_b, h_k_pos, h_kb_ge_2a]
        by_cases h_a'_eq_0 : a' = 0
        · -- a' = 0
          rw [h_a'_eq_0] at h_new_eq
          have h_k_eq_b_sq : k = b ^ 2 := by nlinarith
          refine' ⟨b, _⟩
          linarith
        · -- a' > 0
          have h_a'_pos : 0 < a' := by omega
          have h_sum_lt : a' + b < a + b := by omega
          have ih_apb : a' + b < n := by omega
          have h_ih := ih (a' + b) ih_apb a' b rfl ⟨h_a'_pos, h_pos.2⟩ h_new_eq
          exact h_ih
      · -- Subcase 2.2: b > a (since a ≠ b and not a > b)
        have h_b_gt_a : b > a := by omega
        have h_ka_ge_b : k * a ≥ b := by
          by_contra h_not_ka_ge_b
          have h_ka_lt_b : k * a < b := by linarith
          have h_ka_plus_1_le_b : k * a + 1 ≤ b := by omega
          nlinarith [h_eq, h_pos.1, h_pos.2, h_ka_plus_1_le_b, h_k_pos]
        set b' : ℕ := k * a - b with hb'_def
        have hb'_val_def : b' = k * a - b := hb'_def
        have h_new_eq : (b') ^ 2 + a ^ 2 = (b' * a + 1) * k := by
          have h1 : ((k : ℤ) * (a : ℤ) - (b : ℤ)) ^ 2 + (a : ℤ) ^ 2 = (((k : ℤ) * (a : ℤ) - (b : ℤ)) * (a : ℤ) + 1) * (k : ℤ) := by
            have h2 : (b : ℤ) ^ 2 + (a : ℤ) ^ 2 = ((b : ℤ) * (a : ℤ) + 1) * (k : ℤ) := by
              have h_eq_symm : (b ^ 2 + a ^ 2) = (b * a + 1) * k := by linarith
              exact_mod_cast h_eq_symm
            have h3 : ((k : ℤ) * (a : ℤ) - (b : ℤ)) = (b' : ℤ) := by exact_mod_cast hb'_def
            have h4 : ((k : ℤ) * (a : ℤ) - (b : ℤ)) ^ 2 + (a : ℤ) ^ 2 - (((k : ℤ) * (a : ℤ) - (b : ℤ)) * (a : ℤ) + 1) * (k : ℤ) = 0 := by nlinarith
            nlinarith
          exact_mod_cast h1
        have h_b'_lt_b : b' < b := by
          by_contra h_not_b'_lt_b
          have h_b'_ge_b : b' ≥ b := by linarith
          have h_ka_ge_2b : k * a ≥ 2 * b := by omega
          nlinarith [h_eq, h_pos.1, h_pos.2, h_b_gt_a, h_k_pos, h_ka_ge_2b]
        by_cases h_b'_eq_0 : b' = 0
        · -- b' = 0
          rw [h_b'_eq_0] at h_new_eq
          have h_k_eq_a_sq : k = a ^ 2 := by nlinarith
          refine' ⟨a, _⟩
          linarith
        · -- b' > 0
          have h_b'_pos : 0 < b' := by omega
          have h_sum_lt : a + b' < a + b := by omega
          have ih_abp : a + b' < n := by omega
          have h_new_eq_symm : a ^ 2 + b' ^ 2 = (a * b' + 1) * k := by linarith
          have h_ih := ih (a + b') ih_abp a b' rfl ⟨h_pos.1, h_b'_pos⟩ h_new_eq_symm
          exact h_ih


lemma round1_main (a b k : ℕ)
  (h₀ : 0 < a ∧ 0 < b)
  (hk : a ^ 2 + b ^ 2 = (a * b + 1) * k):
  ∃ x : ℕ, (x ^ 2 : ℝ) = (a ^ 2 + b ^ 2) / (a * b + 1) := by
  have h₃ : 0 < a * b + 1 := by nlinarith
  have h₄ : (a * b + 1 : ℝ) > 0 := by exact_mod_cast h₃
  have h₂ : (a ^ 2 + b ^ 2 : ℝ) = (a * b + 1 : ℝ) * (k : ℝ) := by exact_mod_cast hk
  have h₅ : ((a ^ 2 + b ^ 2 : ℝ) : ℝ) / (a * b + 1 : ℝ) = (k : ℝ) := by
    field_simp [h₄.ne'] <;> linarith
  -- Obtain x such that x ^ 2 = k using the axiom
  obtain ⟨x, hx⟩ : ∃ x : ℕ, x ^ 2 = k := round2_k_is_perfect_square a b k h₀ hk
  refine' ⟨x, _⟩
  have h₆ : (x ^ 2 : ℝ) = (k : ℝ) := by exact_mod_cast hx
  linarith


theorem imo_1988_p6 (a b : ℕ) (h₀ : 0 < a ∧ 0 < b) (h₁ : a * b + 1 ∣ a ^ 2 + b ^ 2) :
    ∃ x : ℕ, (x ^ 2 : ℝ) = (a ^ 2 + b ^ 2) / (a * b + 1) := by
  rcases h₁ with ⟨k, hk⟩
  have h₂ : a ^ 2 + b ^ 2 = (a * b + 1) * k := by linarith
  exact round1_main a b k h₀ h₂
#print axioms imo_1988_p6
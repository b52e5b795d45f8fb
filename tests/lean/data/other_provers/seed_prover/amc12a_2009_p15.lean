import Mathlib
import Aesop
set_option maxHeartbeats 0
set_option maxRecDepth 1000
set_option tactic.hygienic false
open BigOperators Real Nat Topology Rat

lemma round3_pow_4k_I_eq_1_8c14cb42 (k : ℕ) : Complex.I ^ (4 * k) = 1 := by
  induction k with
  | zero =>
    norm_num
  | succ k ih =>
    calc
      Complex.I ^ (4 * (k + 1)) = Complex.I ^ (4 * k + 4) := by ring
      _ = Complex.I ^ (4 * k) * Complex.I ^ 4 := by ring
      _ = 1 * Complex.I ^ 4 := by rw [ih]
      _ = 1 * 1 := by simp [Complex.I_pow_four]
      _ = 1 := by ring


lemma round2_sum_4m_8c14d308 (m : ℕ) :
    ∑ k in Finset.Icc 1 (4 * m), ↑k * Complex.I ^ k = (2 * m : ℂ) - (2 * m : ℂ) * Complex.I := by
  induction m with
  | zero =>
    norm_num
  | succ m ih =>
    have h₁ : ∑ k in Finset.Icc 1 (4 * (m + 1)), ↑k * Complex.I ^ k =
      (∑ k in Finset.Icc 1 (4 * m), ↑k * Complex.I ^ k) +
      (↑(4 * m + 1) : ℂ) * Complex.I ^ (4 * m + 1) +
      (↑(4 * m + 2) : ℂ) * Complex.I ^ (4 * m + 2) +
      (↑(4 * m + 3) : ℂ) * Complex.I ^ (4 * m + 3) +
      (↑(4 * m + 4) : ℂ) * Complex.I ^ (4 * m + 4) := by
      have h₂ : 4 * (m + 1) = 4 * m + 4 := by ring
      have h₃ : Finset.Icc 1 (4 * (m + 1)) = Finset.Icc 1 (4 * m + 4) := by rw [h₂]
      have h₄ : ∑ k in Finset.Icc 1 (4 * m + 4), ↑k * Complex.I ^ k =
        (∑ k in Finset.Icc 1 (4 * m + 3), ↑k * Complex.I ^ k) + (↑(4 * m + 4) : ℂ) * Complex.I ^ (4 * m + 4) := by
        have h₅ : 1 ≤ 4 * m + 4 := by omega
        rw [Finset.sum_Icc_succ_top h₅]
        <;> ring
      have h₅ : ∑ k in Finset.Icc 1 (4 * m + 3), ↑k * Complex.I ^ k =
        (∑ k in Finset.Icc 1 (4 * m + 2), ↑k * Complex.I ^ k) + (↑(4 * m + 3) : ℂ) * Complex.I ^ (4 * m + 3) := by
        have h₆ : 1 ≤ 4 * m + 3 := by omega
        rw [Finset.sum_Icc_succ_top h₆]
        <;> ring
      have h₆ : ∑ k in Finset.Icc 1 (4 * m + 2), ↑k * Complex.I ^ k =
        (∑ k in Finset.Icc 1 (4 * m + 1), ↑k * Complex.I ^ k) + (↑(4 * m + 2) : ℂ) * Complex.I ^ (4 * m + 2) := by
        have h₇ : 1 ≤ 4 * m + 2 := by omega
        rw [Finset.sum_Icc_succ_top h₇]
        <;> ring
      have h₇ : ∑ k in Finset.Icc 1 (4 * m + 1), ↑k * Complex.I ^ k =
        (∑ k in Finset.Icc 1 (4 * m), ↑k * Complex.I ^ k) + (↑(4 * m + 1) : ℂ) * Complex.I ^ (4 * m + 1) := by
        have h₈ : 1 ≤ 4 * m + 1 := by omega
        rw [Finset.sum_Icc_succ_top h₈]
        <;> ring
      rw [h₃, h₄, h₅, h₆, h₇]
      <;> ring
    have h₂ : Complex.I ^ (4 * m + 1) = Complex.I := by
      have h₃ : Complex.I ^ (4 * m + 1) = Complex.I ^ (4 * m) * Complex.I := by ring
      have h₄ : Complex.I ^ (4 * m) = 1 := by
        exact round3_pow_4k_I_eq_1_8c14cb42 m
      rw [h₃, h₄]
      <;> simp
    have h₃ : Complex.I ^ (4 * m + 2) = -1 := by
      have h₄ : Complex.I ^ (4 * m + 2) = Complex.I ^ (4 * m) * Complex.I ^ 2 := by ring
      have h₅ : Complex.I ^ (4 * m) = 1 := by
        exact round3_pow_4k_I_eq_1_8c14cb42 m
      rw [h₄, h₅]
      <;> simp [pow_two] <;> ring
    have h₄ : Complex.I ^ (4 * m + 3) = -Complex.I := by
      have h₅ : Complex.I ^ (4 * m + 3) = Complex.I ^ (4 * m) * Complex.I ^ 3 := by ring
      have h₆ : Complex.I ^ (4 * m) = 1 := by
        exact round3_pow_4k_I_eq_1_8c14cb42 m
      rw [h₅, h₆]
      <;> simp [pow_three] <;> ring
    have h₅ : Complex.I ^ (4 * m + 4) = 1 := by
      have h₆ : Complex.I ^ (4 * m + 4) = Complex.I ^ (4 * m) * Complex.I ^ 4 := by ring
      have h₇ : Complex.I ^ (4 * m) = 1 := by
        exact round3_pow_4k_I_eq_1_8c14cb42 m
      rw [h₆, h₇]
      <;> simp [Complex.I_pow_four] <;> ring
    rw [h₁, ih, h₂, h₃, h₄, h₅]
    <;> simp [Complex.ext_iff] <;> norm_num <;> ring <;> norm_cast <;> linarith


lemma round2_sum_4m_plus_1_8c14d7e0 (m : ℕ) :
    ∑ k in Finset.Icc 1 (4 * m + 1), ↑k * Complex.I ^ k = (2 * m : ℂ) + (2 * m + 1 : ℂ) * Complex.I := by
  have h₁ : ∑ k in Finset.Icc 1 (4 * m + 1), ↑k * Complex.I ^ k =
    (∑ k in Finset.Icc 1 (4 * m), ↑k * Complex.I ^ k) + (↑(4 * m + 1) : ℂ) * Complex.I ^ (4 * m + 1) := by
    have h₂ : 1 ≤ 4 * m + 1 := by omega
    rw [Finset.sum_Icc_succ_top h₂]
    <;> ring
  rw [h₁, round2_sum_4m_8c14d308 m]
  have h₂ : Complex.I ^ (4 * m + 1) = Complex.I := by
    have h₃ : Complex.I ^ (4 * m + 1) = Complex.I ^ (4 * m) * Complex.I := by ring
    have h₄ : Complex.I ^ (4 * m) = 1 := by
      exact round3_pow_4k_I_eq_1_8c14cb42 m
    rw [h₃, h₄]
    <;> simp
  simp [h₂] <;> ring


lemma round2_sum_4m_plus_2_8c14dcea (m : ℕ) :
    ∑ k in Finset.Icc 1 (4 * m + 2), ↑k * Complex.I ^ k = (-2 * m - 2 : ℂ) + (2 * m + 1 : ℂ) * Complex.I := by
  have h₁ : ∑ k in Finset.Icc 1 (4 * m + 2), ↑k * Complex.I ^ k =
    (∑ k in Finset.Icc 1 (4 * m + 1), ↑k * Complex.I ^ k) + (↑(4 * m + 2) : ℂ) * Complex.I ^ (4 * m + 2) := by
    have h₂ : 1 ≤ 4 * m + 2 := by omega
    rw [Finset.sum_Icc_succ_top h₂]
    <;> ring
  rw [h₁, round2_sum_4m_plus_1_8c14d7e0 m]
  have h₂ : Complex.I ^ (4 * m + 2) = -1 := by
    have h₃ : Complex.I ^ (4 * m + 2) = Complex.I ^ (4 * m) * Complex.I ^ 2 := by ring
    have h₄ : Complex.I ^ (4 * m) = 1 := by
      exact round3_pow_4k_I_eq_1_8c14cb42 m
    rw [h₃, h₄]
    <;> simp [pow_two] <;> ring
  simp [h₂] <;> ring


lemma round2_sum_4m_plus_3_8c14e14a (m : ℕ) :
    ∑ k in Finset.Icc 1 (4 * m + 3), ↑k * Complex.I ^ k = (-2 * m - 2 : ℂ) + (-2 * m - 2 : ℂ) * Complex.I := by
  have h₁ : ∑ k in Finset.Icc 1 (4 * m + 3), ↑k * Complex.I ^ k =
    (∑ k in Finset.Icc 1 (4 * m + 2), ↑k * Complex.I ^ k) + (↑(4 * m + 3) : ℂ) * Complex.I ^ (4 * m + 3) := by
    have h₂ : 1 ≤ 4 * m + 3 := by omega
    rw [Finset.sum_Icc_succ_top h₂]
    <;> ring
  rw [h₁, round2_sum_4m_plus_2_8c14dcea m]
  have h₂ : Complex.I ^ (4 * m + 3) = -Complex.I := by
    have h₃ : Complex.I ^ (4 * m + 3) = Complex.I ^ (4 * m) * Complex.I ^ 3 := by ring
    have h₄ : Complex.I ^ (4 * m) = 1 := by
      exact round3_pow_4k_I_eq_1_8c14cb42 m
    rw [h₃, h₄]
    <;> simp [pow_three] <;> ring
  simp [h₂] <;> ring


lemma round2_main_proof (n : ℕ) (h₀ : 0 < n)
    (h₁ : (∑ k in Finset.Icc 1 n, ↑k * Complex.I ^ k) = 48 + 49 * Complex.I) : n = 97 := by
  have h₂ : n % 4 = 0 ∨ n % 4 = 1 ∨ n % 4 = 2 ∨ n % 4 = 3 := by omega
  rcases h₂ with (h₂ | h₂ | h₂ | h₂)
  · -- Case 1: n % 4 = 0
    have h₃ : ∃ m : ℕ, n = 4 * m := by
      use n / 4
      omega
    rcases h₃ with ⟨m, rfl⟩
    have h₄ : ∑ k in Finset.Icc 1 (4 * m), (k : ℂ) * Complex.I ^ k = (2 * m : ℂ) - (2 * m : ℂ) * Complex.I := by
      exact round2_sum_4m_8c14d308 m
    rw [h₄] at h₁
    simp [Complex.ext_iff] at h₁
    norm_num at h₁
    linarith
  · -- Case 2: n % 4 = 1
    have h₃ : ∃ m : ℕ, n = 4 * m + 1 := by
      use n / 4
      omega
    rcases h₃ with ⟨m, rfl⟩
    have h₄ : ∑ k in Finset.Icc 1 (4 * m + 1), (k : ℂ) * Complex.I ^ k = (2 * m : ℂ) + (2 * m + 1 : ℂ) * Complex.I := by
      exact round2_sum_4m_plus_1_8c14d7e0 m
    rw [h₄] at h₁
    simp [Complex.ext_iff] at h₁
    norm_num at h₁
    have h₅ : (m : ℝ) = 24 := by linarith
    have h₆ : m = 24 := by exact_mod_cast h₅
    rw [h₆]
    <;> norm_num
  · -- Case 3: n % 4 = 2
    have h₃ : ∃ m : ℕ, n = 4 * m + 2 := by
      use n / 4
      omega
    rcases h₃ with ⟨m, rfl⟩
    have h₄ : ∑ k in Finset.Icc 1 (4 * m + 2), (k : ℂ) * Complex.I ^ k = (-2 * m - 2 : ℂ) + (2 * m + 1 : ℂ) * Complex.I := by
      exact round2_sum_4m_plus_2_8c14dcea m
    rw [h₄] at h₁
    simp [Complex.ext_iff] at h₁
    norm_num at h₁
    linarith
  · -- Case 4: n % 4 = 3
    have h₃ : ∃ m : ℕ, n = 4 * m + 3 := by
      use n / 4
      omega
    rcases h₃ with ⟨m, rfl⟩
    have h₄ : ∑ k in Finset.Icc 1 (4 * m + 3), (k : ℂ) * Complex.I ^ k = (-2 * m - 2 : ℂ) + (-2 * m - 2 : ℂ) * Complex.I := by
      exact round2_sum_4m_plus_3_8c14e14a m
    rw [h₄] at h₁
    simp [Complex.ext_iff] at h₁
    norm_num at h₁
    linarith


theorem amc12a_2009_p15 (n : ℕ) (h₀ : 0 < n)
    (h₁ : (∑ k in Finset.Icc 1 n, ↑k * Complex.I ^ k) = 48 + 49 * Complex.I) : n = 97 := by
  exact round2_main_proof n h₀ h₁
#print axioms amc12a_2009_p15
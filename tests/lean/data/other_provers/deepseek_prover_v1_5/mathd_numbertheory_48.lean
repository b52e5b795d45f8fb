import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

/-- If $321_{b}$ is equal to the base 10 integer 57, find $b$ given that $b>0$. Show that it is 4.-/
theorem mathd_numbertheory_48 (b : ℕ) (h₀ : 0 < b) (h₁ : 3 * b ^ 2 + 2 * b + 1 = 57) : b = 4 := by
  /- Converting $321_{b}$ to base 10 and setting it equal to 57, we find that  \begin{align*} 3(b^2)+2(b^1)+1(b^0)&=57
  \\ 3b^2+2b+1&=57
  \\\Rightarrow\qquad 3b^2+2b-56&=0
  \\\Rightarrow\qquad (3b+14)(b-4)&=0
  \end{align*}This tells us that $b$ is either $-\frac{14}{3}$ or $4$. We know that $b>0$, so $b=4$.
  -/
  simp_all only [succ.injEq]
  apply le_antisymm
  · nlinarith
  · nlinarith

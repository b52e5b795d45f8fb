import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

/-- Evaluate: $\left( \frac{1}{2} + \frac{1}{3} \right) \left( \frac{1}{2} - \frac{1}{3} \right)$ Show that it is \frac{5}{36}.-/
theorem mathd_algebra_462 : ((1 : ℚ) / 2 + 1 / 3) * (1 / 2 - 1 / 3) = 5 / 36 := by
  /- For any $x$ and $y$, $(x+y)(x-y)=x^2-y^2+xy-xy=x^2-y^2$, so \begin{align*}
  \left( \frac{1}{2} + \frac{1}{3} \right) \left( \frac{1}{2} - \frac{1}{3} \right)&=\left(\frac12\right)^2-\left(\frac13\right)^2\\
  &=\frac14-\frac19\\
  &=\frac{9}{36}-\frac{4}{36}\\
  &=\frac{5}{36}
  \end{align*}
  -/
  simp_all only [one_div]
  norm_num

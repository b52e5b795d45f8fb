import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

/-- Expand the following expression: $7(3y+2)$ Show that it is 21y+14.-/
theorem mathd_algebra_182 (y : ℂ) : 7 * (3 * y + 2) = 21 * y + 14 := by
  /- We apply the distributive property to get\begin{align*}
  7(3y+2) &= 7\cdot 3y+7\cdot 2\\
  &= 21y+14.
  \end{align*}
  -/
  ring

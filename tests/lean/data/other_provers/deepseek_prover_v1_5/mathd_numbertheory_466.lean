import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

/-- What is the remainder when $1 + 2 + 3 + 4 + \dots + 9 + 10$ is divided by 9? Show that it is 1.-/
theorem mathd_numbertheory_466 : (∑ k in Finset.range 11, k) % 9 = 1 := by
  /- Looking at our sum, we can see that the numbers $1$ through $8$ can be paired off to form $9,$ so we may eliminate them. That is, $1 + 8 = 2 + 7 = 3 + 6 = 4 + 5 = 9.$ Therefore, the only remaining terms are $9$ and $10,$ and $9$ is obviously also divisible by $9,$ hence we only need to find the remainder of $10$ when divided by $9,$ which is $1.$
  -/
  apply Eq.refl

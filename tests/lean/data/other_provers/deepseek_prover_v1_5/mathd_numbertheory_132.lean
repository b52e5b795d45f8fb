import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

/-- What is the remainder of 2004 divided by 12? Show that it is 0.-/
theorem mathd_numbertheory_132 : 2004 % 12 = 0 := by
  /- An integer is divisible by 12 if and only if it is divisible by both 3 and 4.  Because $2+0+0+4=6$ is divisible by 3, 2004 is divisible by 3.  Also, the last two digits of 2004 form a multiple of 4, so 2004 is divisible by 4 as well. Therefore, 2004 is divisible by 12 and hence leaves a remainder of $0$ when divided by 12.
  -/
  apply Eq.refl

import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

/-- Find the greatest common factor of 180 and 168. Show that it is 12.-/
theorem mathd_numbertheory_188 : Nat.gcd 180 168 = 12 := by
  /- If a number $d$ divides into both $180$ and $168$, it must also divide into their difference. Thus, $d$ will be divisible by $180 - 168 = 12$. We notice that $12$ divides into both $180$ and $168$, so it follows that $12$ must be the GCF of $180$ and $168$.
  -/
  apply Eq.refl

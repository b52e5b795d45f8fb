/-!
This file contains a private declaration. It's tested in `openPrivate.lean`.
-/
private def secretNumber : Nat := 2

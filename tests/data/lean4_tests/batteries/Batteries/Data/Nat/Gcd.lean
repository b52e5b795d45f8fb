/-
Copyright (c) 2014 Jeremy Avigad. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
Authors: Jeremy Avigad, Leonardo de Moura, Mario Carneiro
-/
module

public import Batteries.Tactic.Alias

@[expose] public section

/-!
# Definitions and properties of `coprime`
-/

namespace Nat

@[deprecated (since := "2025-08-04")]
alias Coprime.mul := Coprime.mul_left

module

public import Batteries.Recycling.MonadSatisfying.Array
public import Batteries.Recycling.MonadSatisfying.Basic
public import Batteries.Recycling.MonadSatisfying.Lean
public import Batteries.Recycling.MonadSatisfying.List
public import Batteries.Recycling.MonadSatisfying.Vector

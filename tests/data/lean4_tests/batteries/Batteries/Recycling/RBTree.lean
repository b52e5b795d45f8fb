module

public import Batteries.Recycling.RBTree.Alter
public import Batteries.Recycling.RBTree.Basic
public import Batteries.Recycling.RBTree.Depth
public import Batteries.Recycling.RBTree.Lemmas
public import Batteries.Recycling.RBTree.WF

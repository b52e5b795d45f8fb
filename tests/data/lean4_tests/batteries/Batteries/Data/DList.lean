module

public import Batteries.Data.DList.Basic
public import Batteries.Data.DList.Lemmas

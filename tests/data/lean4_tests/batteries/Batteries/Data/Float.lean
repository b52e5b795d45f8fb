module

public import Batteries.Data.Float.Basic
public import Batteries.Data.Float.Lemmas
public import Batteries.Data.Float.Rat

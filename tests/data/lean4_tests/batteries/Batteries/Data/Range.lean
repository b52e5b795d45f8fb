module

public import Batteries.Data.Range.Lemmas

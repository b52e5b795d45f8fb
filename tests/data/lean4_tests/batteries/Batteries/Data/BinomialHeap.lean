module

public import Batteries.Data.BinomialHeap.Basic
public import Batteries.Data.BinomialHeap.Lemmas

module

public import Batteries.Data.UnionFind.Basic
public import Batteries.Data.UnionFind.Lemmas

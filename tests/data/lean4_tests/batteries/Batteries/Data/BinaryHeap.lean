module
public import Batteries.Data.BinaryHeap.Basic

module

public import Batteries.Data.HashMap.Basic

module

public import Batteries.Data.Char.AsciiCasing
public import Batteries.Data.Char.Basic

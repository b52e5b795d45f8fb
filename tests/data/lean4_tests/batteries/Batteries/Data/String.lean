module

public import Batteries.Data.String.AsciiCasing
public import Batteries.Data.String.Basic
public import Batteries.Data.String.Legacy
public import Batteries.Data.String.Lemmas
public import Batteries.Data.String.Matcher

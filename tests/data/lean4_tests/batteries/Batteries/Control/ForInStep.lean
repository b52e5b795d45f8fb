module

public import Batteries.Control.ForInStep.Basic
public import Batteries.Control.ForInStep.Lemmas

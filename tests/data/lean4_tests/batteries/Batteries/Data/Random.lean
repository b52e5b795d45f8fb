module

public import Batteries.Data.Random.MersenneTwister

module

public import Batteries.Data.MLList.Basic
public import Batteries.Data.MLList.Heartbeats
public import Batteries.Data.MLList.IO

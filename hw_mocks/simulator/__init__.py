"""`cardtable sim`: the table on a PC, driving the real controller on the fakes."""

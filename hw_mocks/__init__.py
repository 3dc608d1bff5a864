"""Fakes behind the table's ports, built on the hardware libraries' own test
facilities, and the simulator."""

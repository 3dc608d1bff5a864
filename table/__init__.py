"""The table controller: the state machine, its ports, screens, journal, card
registry, configuration and command line. Hardware adapters live in
`table.drivers` and import their libraries lazily, so `import table` works on
any machine."""

"""One module per `cardtable` subcommand."""

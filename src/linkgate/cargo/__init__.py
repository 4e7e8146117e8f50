"""Reading what cargo records: its JSON message stream and its target directory."""

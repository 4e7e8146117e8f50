"""The causal surface of a link: built records, static scan of build scripts, filter check."""

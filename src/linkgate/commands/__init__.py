"""One module per verb; each exposes a click command named ``command``."""

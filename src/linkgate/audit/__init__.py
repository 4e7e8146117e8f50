"""CI audit: which feature sets CI checks but never links, and filters that miss the surface."""

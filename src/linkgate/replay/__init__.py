"""Replay recorded link commands without cargo, and sweep their directives."""

"""Negative controls: mutate, journal, recover, judge, evidence."""

"""`linkgate report html`: one self-contained page over the run history.

Not a reporter in the ``FORMATS`` registry: it renders the whole history
(cost, coverage, verdicts, controls), not one command's result.
"""

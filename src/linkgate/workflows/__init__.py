"""Read GitHub Actions workflows and find what they run, with file and line.

``read`` finds and parses workflow files, ``invocations`` walks jobs, matrix
combinations and steps down to cargo command lines (through ``shell``,
``expr``, ``actions`` and ``indirect``), and ``cargoargs`` reads those lines.
Nothing in a workflow is ever executed.
"""

"""Read GitHub Actions workflows and find what they run, with file and line.

``read`` finds and parses workflow files, ``invocations`` walks jobs, matrix
combinations and steps down to cargo command lines (through ``shell``, bash's
grammar and an abstract evaluator; ``expr``/``ghexpr``, GitHub expressions;
and ``indirect``, the scripts and Makefiles of the repository). Which programs
run cargo, and what a cargo command line means, is ``linkgate.cargo``'s
knowledge (``frontends``, ``cargoargs``, ``features``), shared with the gate.
Nothing in a workflow is ever executed.
"""

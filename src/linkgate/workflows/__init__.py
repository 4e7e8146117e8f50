"""Read GitHub Actions workflows and find what they run, with file and line.

``read`` finds and parses workflow files, ``invocations`` walks jobs, matrix
combinations and steps down to cargo command lines (through ``shell``, bash's
grammar and an abstract evaluator; ``expr``/``ghexpr``, GitHub expressions;
``frontends``, the programs and actions that run cargo; and ``indirect``, the
scripts and Makefiles of the repository), and ``cargoargs`` reads those lines.
Nothing in a workflow is ever executed.
"""

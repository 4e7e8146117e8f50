"""What cargo means and records: its command line (``cargoargs``, ``features``,
``subcommand``, and ``frontends``, the programs that run it), its JSON message
stream, build-script records, fingerprints, manifests and the workspace graph."""

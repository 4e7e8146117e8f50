"""Where one gate's links differ by linker, when every linker linked."""

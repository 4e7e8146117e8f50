"""Link recipes: which branch of a build script each run selected, and which none linked."""

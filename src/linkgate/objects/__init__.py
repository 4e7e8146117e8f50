"""Reading what linkers read: ar archives (static libraries and rlibs) and their members."""

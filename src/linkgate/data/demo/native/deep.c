/* Lives in libdeep.so; libhelper.so depends on it (DT_NEEDED). */
int deep_value(void) { return 42; }

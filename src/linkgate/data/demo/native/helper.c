/* Lives in libhelper.so, linked against libdeep.so. */
int deep_value(void);
int helper_value(void) { return deep_value() + 1; }

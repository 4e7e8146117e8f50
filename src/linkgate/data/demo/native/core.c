/* Lives in libcore.a. Calls into libnutil.a, libhelper.so and, directly,
 * libdeep.so: each must appear after this archive on a GNU ld command line. */
int util_twice(int x);
int helper_value(void);
int deep_value(void);
int core_value(void) { return util_twice(helper_value()) + deep_value(); }

/* Lives in libutil.a. */
int util_twice(int x) { return 2 * x; }

/* Lives in libnutil.a. (Not "libutil": std already links a system libutil.) */
int util_twice(int x) { return 2 * x; }

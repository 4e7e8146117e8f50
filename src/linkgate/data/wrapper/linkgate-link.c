/* linkgate-link: the recording linker wrapper.
 *
 * linkgate sets it as the target linker in its own target directories. It
 * runs the linker rustc would otherwise have run ($LINKGATE_REAL_LINKER, by
 * default cc) with rustc's arguments untouched, then writes one JSON record
 * per invocation into the directory above its own (<target-dir>/linkgate-links).
 *
 * It is C, not Python, because it runs once per link and the goal is under
 * 5 ms of overhead; a Python start-up alone costs more. It only records: a
 * failure to record never changes the link's outcome.
 *
 * rustc deletes its own objects (<crate>.*.rcgu.o and rustcXXXX/symbols.o)
 * right after the linker returns, so they are hard-linked (or copied) next to
 * the record: without them the link could never be replayed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Variables that can change what a link does; the rest of the environment
 * (tokens and secrets included) is never written down. */
static const char *RECORDED_ENV[] = {
    "PATH", "LIBRARY_PATH", "LD_LIBRARY_PATH", "LD_RUN_PATH", "LC_ALL", "LANG",
    "COMPILER_PATH", "GCC_EXEC_PREFIX", "TMPDIR", "SDKROOT",
    "MACOSX_DEPLOYMENT_TARGET", "LINKGATE_REAL_LINKER", NULL,
};

typedef struct { char **v; size_t n, cap; } strvec;

static void push(strvec *s, char *x) {
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v) _exit(70);
    }
    s->v[s->n++] = x;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 >= cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    fclose(f);
    if (!buf) return NULL;
    buf[n] = 0;
    *len = n;
    return buf;
}

/* GCC's response-file syntax (libiberty buildargv): whitespace separates,
 * single and double quotes group, a backslash escapes the next character. */
static void expand(const char *arg, strvec *out, int depth) {
    size_t len;
    char *text = (arg[0] == '@' && depth < 8) ? slurp(arg + 1, &len) : NULL;
    if (!text) { push(out, strdup(arg)); return; }
    char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') p++;
        if (!*p) break;
        char *word = malloc(strlen(p) + 1), *w = word;
        char quote = 0;
        for (; *p; p++) {
            if (*p == '\\' && p[1]) { *w++ = *++p; continue; }
            if (quote) { if (*p == quote) quote = 0; else *w++ = *p; continue; }
            if (*p == '\'' || *p == '"') { quote = *p; continue; }
            if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') break;
            *w++ = *p;
        }
        *w = 0;
        if (word[0] == '@') { expand(word, out, depth + 1); free(word); }
        else push(out, word);
    }
    free(text);
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static char *join(const char *a, const char *b) {
    char *r = malloc(strlen(a) + strlen(b) + 2);
    sprintf(r, "%s/%s", a, b);
    return r;
}

static char *absolute(const char *cwd, const char *p) {
    return p[0] == '/' ? strdup(p) : join(cwd, p);
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* An input rustc deletes after the link: an object file, or anything in
 * its rustcXXXX temporary directory. */
static int is_transient(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    if (ends_with(path, ".o")) return 1;
    const char *slash = strrchr(path, '/');
    if (!slash) return 0;
    const char *dir = slash;
    while (dir > path && dir[-1] != '/') dir--;
    return strncmp(dir, "rustc", 5) == 0;
}

static int copy_file(const char *from, const char *to) {
    int in = open(from, O_RDONLY), out = -1, ok = 0;
    if (in >= 0) out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) {
        char buf[65536];
        ssize_t n;
        ok = 1;
        while ((n = read(in, buf, sizeof buf)) > 0)
            if (write(out, buf, n) != n) { ok = 0; break; }
        if (n < 0) ok = 0;
    }
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    return ok;
}

typedef struct { strvec from, to; char *dir; size_t count; } keep;

static void preserve(keep *k, const char *cwd, const char *path) {
    char *abs = absolute(cwd, path);
    if (!is_transient(abs)) { free(abs); return; }
    for (size_t i = 0; i < k->from.n; i++)
        if (strcmp(k->from.v[i], abs) == 0) { free(abs); return; }
    if (k->count == 0) mkdir(k->dir, 0755);
    const char *base = strrchr(abs, '/') + 1;
    char *name = malloc(strlen(base) + 24);
    sprintf(name, "%zu-%s", k->count++, base);
    char *dest = join(k->dir, name);
    free(name);
    if (link(abs, dest) == 0 || copy_file(abs, dest)) { push(&k->from, abs); push(&k->to, dest); }
    else { free(abs); free(dest); }
}

static void write_list(FILE *f, const char *key, char **v, size_t n) {
    fprintf(f, ",\n  \"%s\": [", key);
    for (size_t i = 0; i < n; i++) { if (i) fputs(", ", f); json_str(f, v[i]); }
    fputc(']', f);
}

static char *links_dir(void) {
    const char *env = getenv("LINKGATE_LINKS_DIR");
    if (env && *env) return strdup(env);
    /* <target-dir>/linkgate-links/bin/linkgate-link -> <target-dir>/linkgate-links */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = 0;
    for (int up = 0; up < 2; up++) { char *s = strrchr(exe, '/'); if (!s) return NULL; *s = 0; }
    return strdup(exe);
}

/* The argument that makes an lld link report archive-order problems
 * (--warn-backrefs: each reference GNU ld would leave undefined because the
 * defining archive comes earlier), or NULL when the link is not lld's or the
 * flag could change its outcome. rustc's default on x86_64 Linux is
 * "-fuse-ld=lld" with rust-lld first on the -B path; a linkgate "lld" adds
 * "-fuse-ld=lld" last (the last -fuse-ld wins). A linker that is itself lld
 * (ld.lld, rust-lld) takes the flag bare. Under --fatal-warnings it would
 * turn a passing link into a failure: never. The same decision is made in
 * Python for replays (linkgate.gate.backrefs.flags). */
static const char *backrefs_flag(const char *real, strvec *flat) {
    const char *fuse = NULL;
    for (size_t i = 0; i < flat->n; i++) {
        const char *a = flat->v[i];
        if (strncmp(a, "-fuse-ld=", 9) == 0) fuse = a + 9;
        if (strstr(a, "--fatal-warnings") || strstr(a, "warn-backrefs")) return NULL;
    }
    if (fuse) {
        size_t n = strlen(fuse);
        return (n >= 3 && strcmp(fuse + n - 3, "lld") == 0) ? "-Wl,--warn-backrefs" : NULL;
    }
    const char *base = strrchr(real, '/');
    base = base ? base + 1 : real;
    if (strcmp(base, "ld.lld") == 0 || strcmp(base, "rust-lld") == 0 || strcmp(base, "lld") == 0)
        return "--warn-backrefs";
    return NULL;
}

/* Like json_str, but every byte above 0x7f as \u00XX: a linker's stderr may
 * hold any bytes (a symbol, a path), and the record must stay valid JSON. */
static void json_bytes(FILE *f, const char *s, size_t n) {
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c < 0x20 || c > 0x7e) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* The linker's stderr kept for the record (rustc drops it on a successful
 * link): at most this many bytes; everything is still passed on. */
#define KEEP_STDERR (1 << 20)

int main(int argc, char **argv) {
    const char *real = getenv("LINKGATE_REAL_LINKER");
    if (!real || !*real) real = "cc";
    strvec flat = {0};
    int had_file = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '@') had_file = 1;
        expand(argv[i], &flat, 0);
    }
    const char *added = backrefs_flag(real, &flat);
    char **child_argv = malloc((argc + 2) * sizeof *child_argv);
    if (!child_argv) _exit(70);
    for (int i = 0; i < argc; i++) child_argv[i] = argv[i];
    child_argv[0] = (char *)real;
    if (added) child_argv[argc++] = (char *)added;
    child_argv[argc] = NULL;
    int pipefd[2];
    int piped = pipe(pipefd) == 0;
    double started = now();
    pid_t pid = fork();
    if (pid == 0) {
        if (piped) { dup2(pipefd[1], 2); close(pipefd[0]); close(pipefd[1]); }
        execvp(real, child_argv);
        fprintf(stderr, "linkgate-link: cannot run the linker %s: %s\n", real, strerror(errno));
        _exit(127);
    }
    if (added) argc--;  /* the record's argv is rustc's, untouched */
    int status = 0;
    if (pid < 0) { perror("linkgate-link: fork"); return 127; }
    char *err = NULL;
    size_t err_n = 0;
    if (piped) {
        close(pipefd[1]);
        err = malloc(KEEP_STDERR);
        char buf[65536];
        for (;;) {
            ssize_t n = read(pipefd[0], buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            for (ssize_t off = 0; off < n;) {
                ssize_t w = write(2, buf + off, n - off);
                if (w < 0 && errno == EINTR) continue;
                if (w <= 0) break;
                off += w;
            }
            if (err && err_n < KEEP_STDERR) {
                size_t take = (size_t)n < KEEP_STDERR - err_n ? (size_t)n : KEEP_STDERR - err_n;
                memcpy(err + err_n, buf, take);
                err_n += take;
            }
        }
        close(pipefd[0]);
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    double ended = now();
    int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);

    char *dir = links_dir();
    char cwd[4096];
    if (dir && getcwd(cwd, sizeof cwd)) {
        char id[96];
        snprintf(id, sizeof id, "%.0f-%d", started * 1e6, (int)getpid());
        char *output = NULL;
        char inputs[128];
        snprintf(inputs, sizeof inputs, "%s.inputs", id);
        keep k = {{0}, {0}, join(dir, inputs), 0};
        for (size_t i = 0; i < flat.n; i++) {
            const char *a = flat.v[i];
            if (strcmp(a, "-o") == 0 && i + 1 < flat.n) { output = absolute(cwd, flat.v[++i]); continue; }
            if (strncmp(a, "-o", 2) == 0 && a[2] && a[2] != '-') { output = absolute(cwd, a + 2); continue; }
            if (a[0] != '-') { preserve(&k, cwd, a); continue; }
            /* -Wl,--version-script=/tmp/rustcX/list and friends */
            char *copy = strdup(a), *save = NULL;
            for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                char *eq = strchr(tok, '=');
                if (tok[0] == '/') preserve(&k, cwd, tok);
                else if (eq && eq[1] == '/') preserve(&k, cwd, eq + 1);
            }
            free(copy);
        }
        char tmp[4200], final[4200];
        snprintf(tmp, sizeof tmp, "%s/.%s.json.tmp", dir, id);
        snprintf(final, sizeof final, "%s/%s.json", dir, id);
        FILE *f = fopen(tmp, "w");
        if (f) {
            fputs("{\n  \"wrapper\": 1,\n  \"id\": ", f);
            json_str(f, id);
            fputs(",\n  \"linker_program\": ", f);
            json_str(f, real);
            fputs(",\n  \"argv\": [", f);
            json_str(f, real);
            for (int i = 1; i < argc; i++) { fputs(", ", f); json_str(f, argv[i]); }
            fputc(']', f);
            if (had_file) write_list(f, "args_expanded", flat.v, flat.n);
            fputs(",\n  \"cwd\": ", f);
            json_str(f, cwd);
            fputs(",\n  \"env\": {", f);
            int first = 1;
            for (const char **e = RECORDED_ENV; *e; e++) {
                const char *v = getenv(*e);
                if (!v) continue;
                fputs(first ? "" : ", ", f);
                first = 0;
                json_str(f, *e); fputs(": ", f); json_str(f, v);
            }
            fprintf(f, "},\n  \"started\": %.6f,\n  \"ended\": %.6f,\n  \"exit_status\": %d,\n  \"output\": ",
                    started, ended, exit_status);
            if (output) json_str(f, output); else fputs("null", f);
            fputs(",\n  \"added_args\": [", f);
            if (added) json_str(f, added);
            fputs("],\n  \"stderr\": ", f);
            if (err) json_bytes(f, err, err_n); else fputs("null", f);
            fputs(",\n  \"preserved\": {", f);
            for (size_t i = 0; i < k.from.n; i++) {
                if (i) fputs(", ", f);
                json_str(f, k.from.v[i]); fputs(": ", f); json_str(f, k.to.v[i]);
            }
            fputs("}\n}\n", f);
            if (fclose(f) == 0) rename(tmp, final);
            else unlink(tmp);
        }
    }
    if (WIFSIGNALED(status)) {
        /* Die the same way, so rustc reports "signal: N" as it would have. */
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return exit_status;
}

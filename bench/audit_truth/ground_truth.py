"""Ground truth for bench/audit_truth.py: what the CI of nine public native-linking crates runs.

Written by hand from each repository's workflows and the scripts they call,
at the commits below (`fetch` them; no code of theirs is kept here). Each
entry is one cargo invocation of one matrix combination: its job, the file
and line of the command, the subcommand, whether it links, its feature sets
(labels as `linkgate audit` prints them), and the matrix values telling the
combination apart. Shell conditions were decided as bash would on GitHub's
runners (`CI` is set, `runner.os` follows `runs-on`). FINDINGS lists, per
repository, the findings judged true: the claim holds on that commit.
"""

from __future__ import annotations

from typing import Any

COMMITS = {
    "rust-lang/libz-sys": "2f7f040bce77b91d72ac29cdac32df48022500e2",
    "alexcrichton/bzip2-rs": "15258feb0cdc1114d6fc6b936254c4f4e1d5730c",
    "sfackler/rust-openssl": "88b06860a52225ead97b281dcc3841acf7493635",
    "rust-rocksdb/rust-rocksdb": "46d7e4f10dd9f8dbb219893592a1cab9bdc109c6",
    "alexcrichton/curl-rust": "e89ad65d109fcc916b7f0b026ed5e59047172155",
    "rust-lang/git2-rs": "da6c126f7733329d82748e710266af1c61591bdd",
    "gyscos/zstd-rs": "87cce797c6da5942c5470efc57709a80d3cb6ea3",
    # Held out: written before linkgate was first run on them.
    "tikv/jemallocator": "c7101ce04fda9652c41a641b35e3f5879751f496",
    "rusqlite/rusqlite": "bc267609a4547e0c7bc156f424662ebaf05a06a7",
}


def inv(job: str, file: str, line: int, sub: str, links: bool, features: list[str],
        matrix: dict[str, Any] | None = None, count: int = 1) -> dict[str, Any]:
    return {"job": job, "file": file, "line": line, "subcommand": sub, "links": links,
            "features": features, "matrix": matrix or {}, "count": count}

# ---- rust-lang/libz-sys
Z = "rust-lang+libz-sys"
W = ".github/workflows/ci.yml"
T = "ci/test.bash"
NG = "zlib-ng-no-cmake-experimental-community-maintained"
SKIP = {"x86_64-unknown-linux-gnu", "i686-unknown-linux-gnu", "aarch64-unknown-linux-gnu",
        "arm-unknown-linux-gnueabihf", "s390x-unknown-linux-gnu"}

def script(job, matrix, skipped):
    out = [inv(job, T, 32, "test", True, ["default"], matrix), inv(job, T, 33, "run", True, ["default"], matrix),
           inv(job, T, 36, "test", True, ["zlib-ng (no default)"], matrix),
           inv(job, T, 37, "run", True, ["zlib-ng"], matrix)]  # systest's default is empty
    if not skipped:  # [[ -z $CI ]] is false on GitHub; the skip list decides
        out += [inv(job, T, 46, "test", True, [f"{NG} (no default)"], matrix), inv(job, T, 47, "run", True, [NG], matrix)]
    out += [inv(job, T, 55, "test", True, ["default"], matrix), inv(job, T, 56, "run", True, ["default"], matrix)]
    # flate2, cloned by the script: its features, labelled with the directory it runs in.
    out += [inv(job, T, 83, "test", True, ["zlib in flate2/ (not in the repository)"], matrix),
            inv(job, T, 84, "test", True, ["zlib-default (no default) in flate2/ (not in the repository)"], matrix),
            inv(job, T, 85, "test", True, ["zlib-ng (no default) in flate2/ (not in the repository)"], matrix),
            inv(job, T, 86, "test", True, ["zlib-ng-compat (no default) in flate2/ (not in the repository)"], matrix)]
    return out

z = []
CH = ["stable", "beta", "nightly"]
for ch in CH:
    for t in ["x86_64-pc-windows-msvc", "x86_64-pc-windows-gnu", "i686-pc-windows-msvc", "i686-pc-windows-gnu"]:
        z += script("windows", {"channel": ch, "target": t}, False)
    z += script("macos", {"channel": ch, "target": "x86_64-apple-darwin"}, False)
    for t in ["aarch64-unknown-linux-gnu", "aarch64-unknown-linux-musl", "arm-unknown-linux-gnueabihf",
              "arm-unknown-linux-musleabihf", "i686-unknown-linux-gnu", "i686-unknown-linux-musl",
              "s390x-unknown-linux-gnu", "x86_64-unknown-linux-gnu", "x86_64-unknown-linux-musl"]:
        z += script("linux", {"channel": ch, "target": t}, t in SKIP)
z += [inv("cc", W, 91, "test", True, ["all features"]), inv("cc", W, 92, "run", True, ["all features"]),
      inv("cc", W, 98, "test", True, [f"{NG} (no default)"]), inv("cc", W, 99, "run", True, [NG])]
z += [inv("package", W, 110, "package", False, ["all features"]),
      inv("package", W, 111, "package", False, [f"{NG} (no default)"]),
      inv("package", W, 112, "package", False, ["zlib-ng (no default)"]),
      inv("package", W, 114, "run", True, ["default"])]
for os in ["windows-2022", "macos-latest", "ubuntu-latest"]:
    m = {"os": os}
    z += [inv("minimal-versions", W, 157, "update", False, ["default"], m),
          inv("minimal-versions", W, 159, "build", False, ["default"], m),  # libz-sys is a library: no link
          inv("minimal-versions", W, 160, "build", False, ["zlib-ng (no default)"], m),
          inv("minimal-versions", W, 161, "build", False, [f"{NG} (no default)"], m)]

# ---- alexcrichton/bzip2-rs
B = ".github/workflows/main.yml"
b = []
for build in ["stable", "beta", "nightly", "msrv", "macos", "win32", "win64", "win32-gnu", "win64-gnu"]:
    b.append(inv("test", B, 53, "test", True, ["default"], {"build": build}))
    if build != "msrv":
        b.append(inv("test", B, 54, "test", True, ["libbz2-rs-sys (no default)"], {"build": build}))
b += [inv("rustfmt", B, 64, "fmt", False, ["default"]), inv("clippy", B, 73, "clippy", False, ["default"])]

# ---- rust-rocksdb/rust-rocksdb
R = ".github/workflows/rust.yml"
r = [inv("fmt", R, 21, "fmt", False, ["default"]), inv("doc-check", R, 38, "rustdoc", False, ["default"]),
     inv("doctest", R, 53, "test", True, ["default"]),
     inv("clippy", R, 74, "clippy", False, ["io-uring,jemalloc,mt_static,multi-threaded-cf,rtti,serde1,valgrind"]),
     inv("audit", R, 92, "audit", False, ["default"])]  # actions-rust-lang/audit runs cargo audit
for build in ["Linux", "macOS", "Windows"]:
    m = {"build": build}
    r += [inv("test", R, 140, "nextest run", True, ["default"], m),
          inv("test", R, 141, "nextest run", True, ["multi-threaded-cf"], m),
          inv("test", R, 146, "clean", False, ["default"], m)]
    if build != "Windows":  # if: runner.os != 'Windows'
        r.append(inv("test", R, 156, "nextest run", True, ["jemalloc"], m))

# ---- sfackler/rust-openssl
O = ".github/workflows/ci.yml"
o = [inv("rustfmt", O, 29, "fmt", False, ["default"]),
     inv("clippy", O, 45, "generate-lockfile", False, ["default"]), inv("clippy", O, 50, "fetch", False, ["default"]),
     inv("clippy", O, 55, "clippy", False, ["default"]),
     inv("min-version", O, 74, "generate-lockfile", False, ["default"]),
     inv("min-version", O, 76, "update", False, ["default"]),
     inv("min-version", O, 81, "fetch", False, ["default"]), inv("min-version", O, 86, "check", False, ["default"])]
for os in [{"runner": "windows-latest", "arch": "x64"}, {"runner": "windows-11-arm", "arch": "arm64"}]:
    m = {"os": os}
    o += [inv("windows-vcpkg", O, 111, "generate-lockfile", False, ["default"], m),
          inv("windows-vcpkg", O, 116, "fetch", False, ["default"], m),
          inv("windows-vcpkg", O, 122, "test", True, ["default"], m),
          inv("windows-vcpkg", O, 123, "test", True, ["default"], m)]
o += [inv("macos-homebrew", O, 139, "generate-lockfile", False, ["default"]),
      inv("macos-homebrew", O, 144, "fetch", False, ["default"]),
      inv("macos-homebrew", O, 145, "run", True, ["default"]),
      inv("macos-homebrew", O, 146, "test", True, ["default"]),
      inv("macos-homebrew", O, 147, "test", True, ["default"])]
libs = [{"name": "aws-lc", "version": "v1.48.2"}, {"name": "aws-lc", "version": "vendored"},
        {"name": "boringssl", "version": "71bae60c26549ce1875f07d8c394b934de4b0f7b"},
        {"name": "openssl", "version": "vendored"}, {"name": "openssl", "version": "3.5.0"},
        {"name": "openssl", "version": "3.4.0"}, {"name": "openssl", "version": "3.3.0"},
        {"name": "openssl", "version": "3.2.0"}, {"name": "openssl", "old": True, "version": "1.1.1w"},
        {"name": "openssl", "version": "1.1.0l", "old": True, "dl-path": "/old/1.1.0"},
        {"name": "openssl", "version": "1.0.2u", "old": True, "dl-path": "/old/1.0.2"},
        {"name": "openssl", "version": "1.0.1u", "old": True, "dl-path": "/old/1.0.1"}]
combos = [(t, bg, lib) for t in ["x86_64-unknown-linux-gnu", "i686-unknown-linux-gnu", "arm-unknown-linux-gnueabihf"]
          for bg in [True, False] for lib in libs]
combos += [("x86_64-unknown-linux-gnu", bg, {"name": "libressl", "version": v})
           for bg in [True, False] for v in ["2.5.5", "3.9.2", "4.0.0", "4.1.0"]]
def label(fs):
    return ",".join(sorted(fs)) or "default"
for t, bg, lib in combos:
    m = {"target": t, "bindgen": bg, "library": lib}
    o += [inv("linux", O, 383, "generate-lockfile", False, ["default"], m), inv("linux", O, 388, "fetch", False, ["default"], m)]
    other = lib["name"] in ("boringssl", "aws-lc")
    if not other:
        fs = (["vendored"] if lib["version"] == "vendored" else []) + (["bindgen"] if bg else [])
        o.append(inv("linux", O, 401, "run", True, [label(fs)], m))
    fs = []
    if lib["name"] == "boringssl" and not bg:
        fs = ["unstable_boringssl"]
    if lib["version"] == "vendored":
        fs = ["aws-lc"] if lib["name"] == "aws-lc" else ["vendored"]
    if bg:
        fs = fs + ["bindgen"]
    o.append(inv("linux", O, 419, "test", True, [label(fs)], m))
    if not other:
        fs = (["openssl-sys/vendored"] if lib["version"] == "vendored" else []) + (["openssl-sys/bindgen"] if bg else [])
        o.append(inv("linux", O, 428, "test", True, [label(fs)], m))


# ---- alexcrichton/curl-rust (ci/run.sh runs on the host, or inside `docker run ... sh ci/run.sh`)
C = ".github/workflows/main.yml"
S = "ci/run.sh"
c = []
combos = [("x86_64", "x86_64-unknown-linux-gnu", True, False), ("x86_64-beta", "x86_64-unknown-linux-gnu", True, False),
          ("x86_64-nightly", "x86_64-unknown-linux-gnu", True, False), ("i686", "i686-unknown-linux-gnu", True, False),
          ("x86_64-musl", "x86_64-unknown-linux-musl", True, False), ("mingw", "x86_64-pc-windows-gnu", True, True),
          ("system-curl", "x86_64-unknown-linux-gnu", True, False), ("ubuntu-lts", "x86_64-unknown-linux-gnu", False, False),
          ("macos", "aarch64-apple-darwin", False, False), ("win32", "i686-pc-windows-msvc", False, False),
          ("win64", "x86_64-pc-windows-msvc", False, False)]
for build, target, docker, no_run in combos:
    m = {"build": build}
    extra = ["static-ssl"] if target == "x86_64-unknown-linux-musl" else []
    def f(*names):
        return [",".join(sorted([*names, *extra])) or "default"]
    if docker:
        c.append(inv("test", C, 84, "generate-lockfile", False, ["default"], m))
    c += [inv("test", S, 19, "test", True, f(), m), inv("test", S, 21, "test", True, f("static-curl"), m)]
    if target not in ("x86_64-pc-windows-gnu", "i686-pc-windows-msvc"):
        c.append(inv("test", S, 33, "test", True, f("rustls", "static-curl"), m))
    c.append(inv("test", S, 36, "test", True, f("static-curl", "protocol-ftp", "ntlm"), m))
    if not no_run:
        c += [inv("test", S, 38, "test", True, f(), m), inv("test", S, 39, "test", True, f("static-curl"), m),
              inv("test", S, 40, "test", True, f("static-curl", "protocol-ftp"), m),
              inv("test", S, 41, "test", True, f("static-curl", "http2"), m),
              inv("test", S, 46, "run", True, f(), m),
              inv("test", S, 48, "run", True, f("curl-sys/static-curl", "curl-sys/protocol-ftp"), m),
              inv("test", S, 50, "doc", False, f(), m), inv("test", S, 51, "doc", False, f(), m)]
c += [inv("rustfmt", C, 110, "fmt", False, ["default"]), inv("publish_docs", C, 126, "doc", False, ["all features"])]

# ---- gyscos/zstd-rs (zstd and zstd-safe are libraries: `cargo build` links nothing)
L, M, WA, WI = (f".github/workflows/{n}.yml" for n in ("linux", "macos", "wasm", "windows"))
zs = [inv("build", L, 22, "build", False, ["default"]), inv("build", L, 24, "test", True, ["default"]),
      inv("build", L, 27, "build", False, ["thin"]), inv("build", L, 29, "test", True, ["thin"]),
      inv("build", L, 32, "build", False, ["seekable"]), inv("build", L, 34, "test", True, ["seekable"]),
      inv("build", L, 36, "build", False, ["seekable,std"]), inv("build", L, 38, "test", True, ["seekable,std"]),
      inv("build", M, 22, "build", False, ["default"]), inv("build", M, 24, "test", True, ["default"]),
      inv("build", WA, 25, "build", False, ["default"]), inv("build", WA, 27, "build", False, ["thin"])]
for t in ["i686-pc-windows-msvc", "x86_64-pc-windows-msvc"]:
    zs += [inv("build", WI, 56, "build", False, ["default"], {"target": t}), inv("build", WI, 58, "test", True, ["default"], {"target": t})]

# ---- rust-lang/git2-rs
G = ".github/workflows/main.yml"
g = []
for build in ["stable", "beta", "nightly", "macos", "windows", "MSRV"]:
    m = {"build": build}
    g += [inv("test", G, 40, "test", True, ["default"], m), inv("test", G, 41, "test", True, ["https,ssh"], m),
          inv("test", G, 44, "test", True, ["unstable-sha256"], m),
          inv("test", G, 45, "test", True, ["https,ssh,unstable-sha256"], m),
          inv("test", G, 46, "test", True, ["default"], m), inv("test", G, 47, "run", True, ["default"], m),
          inv("test", G, 48, "run", True, ["unstable-sha256"], m)]
for build in ["stable", "beta", "windows"]:
    g.append(inv("clippy", G, 76, "clippy", False, ["all features"], {"build": build}))
g.append(inv("rustfmt", G, 85, "fmt", False, ["default"]))
# ci/publish.sh: `publish` is called three times, each behind a workflow_dispatch input.
g.append(inv("publish", "ci/publish.sh", 37, "publish", False, ["default"], count=3))


# ---- tikv/jemallocator (held out; the root is a virtual workspace, so `cargo build` there builds
# test-dylib's binaries and links; ci/run.sh runs under `sh` with the job's env, where TRAVIS is
# unset, so `if [ "$TRAVIS" = "true" ]` (run.sh:14) is false and nothing after it runs twice)
J = ".github/workflows/main.yml"
JR = "ci/run.sh"
OV = "override_allocator_on_supported_platforms"
jm = []
for name, target, nobgt in [("aarch64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", False),
                            ("x86_64-apple-darwin", "x86_64-apple-darwin", False),
                            ("x86_64-unknown-linux-gnu (nightly)", "x86_64-unknown-linux-gnu", False),
                            ("x86_64-unknown-linux-gnu (stable)", "x86_64-unknown-linux-gnu", False),
                            ("x86_64-unknown-linux-musl", "x86_64-unknown-linux-musl", True),
                            ("aarch64-apple-darwin (stable)", "aarch64-apple-darwin", False),
                            ("x86_64-unknown-linux-gnu (msrv)", "x86_64-unknown-linux-gnu", False)]:
    m = {"name": name}
    musl = target.endswith("-musl")  # `case "${TARGET}"` skips jemalloc-ctl and test-dylib on musl
    jm += [inv("test", JR, 27, "build", True, ["default"], m), inv("test", JR, 28, "test", True, ["default"], m),
           inv("test", JR, 29, "test", True, ["profiling"], m), inv("test", JR, 30, "test", True, ["debug"], m),
           inv("test", JR, 31, "test", True, ["stats"], m), inv("test", JR, 32, "test", True, ["debug,profiling"], m),
           inv("test", JR, 34, "test", True, [OV], m),
           inv("test", JR, 36, "test", True, ["no default features"], m),
           inv("test", JR, 37, "test", True, ["background_threads_runtime_support (no default)"], m)]
    if not nobgt:  # [ "${NOBGT}" = "1" ] from env NOBGT: ${{ matrix.nobgt }}
        jm.append(inv("test", JR, 44, "test", True, ["background_threads"], m))
    jm += [inv("test", JR, 47, "test", True, ["default"], m), inv("test", JR, 48, "test", True, ["default"], m),
           inv("test", JR, 49, "test", True, [OV], m)]
    if not musl:
        jm.append(inv("test", JR, 59, "test", True, ["default"], m))  # jemalloc-ctl's default is empty
    jm += [inv("test", JR, 69, "test", True, ["default"], m),
           inv("test", JR, 70, "test", True, ["force_global_jemalloc"], m)]
    if not musl:
        jm.append(inv("test", JR, 86, "run", True, [OV], m))
jm += [inv("test_bench", J, 90, "test", True, ["default"]),
       inv("check", J, 99, "fmt", False, ["default"])]
jm += [inv("check", J, line, "clippy", False, ["default"]) for line in (100, 101, 102, 103)]
jm.append(inv("check", J, 104, "doc", False, ["profiling,stats,use_std"]))

# ---- rusqlite/rusqlite (held out; rusqlite is a library: `cargo build` without targets links nothing)
Q = ".github/workflows/main.yml"
FULL = "buildtime_bindgen,bundled-full,fallible_uint,preupdate_hook,session"
FULL4 = "buildtime_bindgen,bundled-full,preupdate_hook,session"
rq = []
for target, os in [("x86_64-pc-windows-msvc", "windows-latest"), ("x86_64-unknown-linux-gnu", "ubuntu-latest"),
                   ("x86_64-apple-darwin", "macos-latest"), ("x86_64-pc-windows-gnu", "windows-latest")]:
    m = {"target": target}
    rq += [inv("test", Q, 64, "build", True, ["bundled"], m), inv("test", Q, 65, "test", True, ["bundled"], m),
           inv("test", Q, 66, "test", True, ["bundled"], m)]
    if os != "windows-latest":
        rq.append(inv("test", Q, 69, "test", True, ["no default features"], m))
    rq += [inv("test", Q, 75, "test", True, [FULL], m), inv("test", Q, 76, "test", True, [FULL], m),
           inv("test", Q, 80, "build", True, ["functions,loadable_extension,trace"], m),  # a cdylib example
           inv("test", Q, 81, "run", True, ["bundled,functions,load_extension,trace"], m),
           inv("test", Q, 85, "test", True, ["default"], m),
           inv("test", Q, 86, "test", True, ["bundled,rusqlite-macros"], m)]
    if target == "x86_64-pc-windows-msvc":
        rq.append(inv("test", Q, 94, "build", False, ["bundled"], m))
m = {"os": "ubuntu-latest"}
for line, fs in [(116, "bundled-sqlcipher"), (117, "bundled-sqlcipher"),
                 (119, "bundled-sqlcipher,modern-full"), (120, "bundled-sqlcipher,modern-full"),
                 (122, "bundled-sqlcipher-vendored-openssl"), (123, "bundled-sqlcipher-vendored-openssl"),
                 (125, "bundled-sqlcipher-vendored-openssl,modern-full"),
                 (126, "bundled-sqlcipher-vendored-openssl,modern-full"), (132, FULL4), (133, FULL4)]:
    rq.append(inv("test-sqlcipher-bundled", Q, line, "test", True, [fs], m))
# `wasm-pack test --node EXTRA` runs `cargo build --tests --target wasm32-unknown-unknown EXTRA`, then
# `cargo test --target wasm32-unknown-unknown EXTRA` with the wasm-bindgen test runner: two cargo runs
# (rustwasm/wasm-pack src/command/test.rs: step_build_tests, then step_test_node).
rq += [inv("test-sqlite-wasm", Q, 143, "build", True, ["modern-full"]),
       inv("test-sqlite-wasm", Q, 143, "test", True, ["modern-full"])]
rq += [inv("sqlcipher", Q, 155, "build", True, ["sqlcipher"]), inv("sqlcipher", Q, 156, "test", True, ["sqlcipher"]),
       inv("sanitizer", Q, 179, "test", True, [FULL4 + ",with-asan"]),
       inv("msrv", Q, 190, "check", False, ["bundled-full"]),
       inv("direct-minimal-versions", Q, 201, "update", False, ["default"]),
       inv("direct-minimal-versions", Q, 202, "test", True, ["bundled-full"]),
       inv("clippy", Q, 214, "clippy", False, ["bundled"]), inv("clippy", Q, 216, "clippy", False, [FULL4]),
       inv("miri", Q, 229, "miri", False, ["bundled-full"]),  # miri interprets: nothing is linked natively
       inv("fmt", Q, 240, "fmt", False, ["default"]), inv("doc", Q, 251, "doc", False, [FULL]),
       inv("codecov", Q, 268, "test", True, ["default"]), inv("codecov", Q, 269, "test", True, ["bundled-full"]),
       inv("codecov", Q, 270, "test", True, ["buildtime_bindgen,bundled-full,fallible_uint,load_extension,"
                                             "preupdate_hook,session"]),
       inv("codecov", Q, 271, "test", True, ["bundled-sqlcipher-vendored-openssl"])]


FINDINGS: dict[str, list[dict[str, Any]]] = {
    "rust-rocksdb/rust-rocksdb": [
        {"rule": "never-linked", "subject": "io-uring,jemalloc,mt_static,multi-threaded-cf,rtti,serde1,valgrind"}],
    "alexcrichton/curl-rust": [{"rule": "never-linked", "subject": "all features"}],
    "rust-lang/git2-rs": [{"rule": "never-linked", "subject": "all features"}],
    "gyscos/zstd-rs": [{"rule": "no-timeout", "subject": "linux/build"}],
    # cargo doc --features stats,profiling,use_std (main.yml:104) is the only use of that set.
    "tikv/jemallocator": [{"rule": "never-linked", "subject": "profiling,stats,use_std"}],
}

INVOCATIONS: dict[str, list[dict[str, Any]]] = {
    "rust-lang/libz-sys": z,
    "alexcrichton/bzip2-rs": b,
    "rust-rocksdb/rust-rocksdb": r,
    "sfackler/rust-openssl": o,
    "alexcrichton/curl-rust": c,
    "rust-lang/git2-rs": g,
    "gyscos/zstd-rs": zs,
    "tikv/jemallocator": jm,
    "rusqlite/rusqlite": rq,
}

// Builds two static archives and two shared libraries from native/, then
// names them on the link line, the way FFI crates link prebuilt runtimes.
use std::env;
use std::path::Path;
use std::process::Command;

// Order matters to GNU ld: an archive must come before what it needs.
const LINK_ARGS: &[&str] = &[
    "-lcore",
    "-lnutil",
    "-lhelper",
    "-ldeep", // core.c calls deep_value() itself: GNU ld wants it named here
];

fn cc(args: &[&str]) {
    let status = Command::new("cc").args(args).status().expect("cannot run cc");
    assert!(status.success(), "cc {:?} failed", args);
}

fn archive(out: &str, name: &str) {
    let obj = format!("{out}/{name}.o");
    cc(&["-c", "-fPIC", "-O2", &format!("native/{name}.c"), "-o", &obj]);
    let lib = format!("{out}/lib{name}.a");
    let _ = std::fs::remove_file(&lib);
    let status = Command::new("ar").args(["crs", &lib, &obj]).status().expect("cannot run ar");
    assert!(status.success(), "ar failed for {name}");
}

fn main() {
    let out = env::var("OUT_DIR").unwrap();
    assert!(Path::new("native").is_dir());
    cc(&["-shared", "-fPIC", "-O2", "native/deep.c", "-o", &format!("{out}/libdeep.so")]);
    cc(&[
        "-shared", "-fPIC", "-O2", "native/helper.c", "-o", &format!("{out}/libhelper.so"),
        &format!("-L{out}"), "-ldeep", &format!("-Wl,-rpath,{out}"),
    ]);
    archive(&out, "core");
    archive(&out, "nutil");

    println!("cargo:rerun-if-changed=native");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{out}");
    for arg in LINK_ARGS {
        println!("cargo:rustc-link-arg={arg}");
    }
}

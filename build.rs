//! Names the build: the commit it was made from, for `--version` and the `version` field of the
//! JSON reports. A build outside a git checkout (a source archive) says `unknown`.

use std::path::Path;
use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SOLITAIRE_AGENT_COMMIT={commit}");
    // A new commit or checkout moves HEAD or the branch it names (paths that are not there are
    // left out: cargo would run this again on every build).
    let branch = Command::new("git")
        .args(["rev-parse", "--symbolic-full-name", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| format!(".git/{}", String::from_utf8_lossy(&o.stdout).trim()));
    let fixed = [".git/HEAD", ".git/refs/heads", ".git/packed-refs"].map(String::from);
    for path in fixed.into_iter().chain(branch) {
        if Path::new(&path).is_file() || Path::new(&path).is_dir() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}

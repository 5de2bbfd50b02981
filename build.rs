//! Links the app with relocations kept when it is built to be split (`split` feature).
fn main() {
    if std::env::var_os("CARGO_FEATURE_SPLIT").is_some() {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}

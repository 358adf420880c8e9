//! Entry point of the web app (built by trunk for wasm32; see index.html and README.md).

#[cfg(target_arch = "wasm32")]
fn main() {
    mmcsim_web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("mmcsim-web is the browser app: run `make serve` and open http://127.0.0.1:8080.");
    eprintln!(
        "The command-line simulator is `mmcsim` (cargo run --release --bin mmcsim -- --help)."
    );
    std::process::exit(2);
}

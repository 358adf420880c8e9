//! Entry point of the landing (built by trunk without the `full` feature, see index.html): the
//! lesson and "Watch the pipeline" only. Opening the Lab, the sweep or the gallery hands the
//! page over to the whole app, mmcsim-web (`shell::handover`).

#[cfg(target_arch = "wasm32")]
fn main() {
    mmcsim_web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("mmcsim-landing is the web app's first screen: run `make serve` and open http://127.0.0.1:8080.");
    std::process::exit(2);
}

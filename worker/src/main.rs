//! The page's Web Worker (see `fit/src/jobs.rs` for the messages): says it is ready, then
//! answers each message, a job as JSON text, with its reply as JSON text. One job at a time;
//! the page keeps one worker per core busy.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::{closure::Closure, JsCast, JsValue};
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let out = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let job = e.data().as_string().unwrap_or_default();
        // A fit's progress as it goes, then the job's reply.
        mmcsim_fit::jobs::handle_each(&job, &mut |reply| {
            let _ = out.post_message(&JsValue::from_str(&reply));
        });
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(&mmcsim_fit::jobs::ready()));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("mmcsim-worker is the web app's Web Worker (built by trunk for wasm32).");
    std::process::exit(2);
}

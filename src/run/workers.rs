//! The page's Web Workers (`worker/`, loaded from `mmcsim-worker_loader.js`), each with the
//! engine: sweep points and fits run there, off the thread that draws the animation. Messages
//! are JSON text (`mmcsim_fit::jobs`): a job in, a reply out; a worker says `Ready` once loaded.
//!
//! The worker's wasm is fetched and compiled once per page load ([`module`]) and handed to each
//! worker as a compiled `WebAssembly.Module` (its first message, read by
//! `static/mmcsim-worker_loader.js`): two workers, or a second sweep, download nothing again.

use std::cell::RefCell;

use js_sys::{Promise, WebAssembly};
use mmcsim_fit::jobs::{Reply, Request, Response};
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ErrorEvent, MessageEvent, Worker};
use yew::Callback;

/// The worker's loader script, as trunk writes it next to the page.
const LOADER: &str = "./mmcsim-worker_loader.js";
/// The worker's wasm, as trunk writes it next to the page.
const WASM: &str = "./mmcsim-worker_bg.wasm";

thread_local! {
    /// The worker's compiled module, fetched at most once per page load.
    static MODULE: RefCell<Option<Promise>> = const { RefCell::new(None) };
}

/// The worker's wasm compiled (`WebAssembly.compileStreaming`): fetched on the first call, the
/// same promise after.
fn module() -> Promise {
    MODULE.with(|m| {
        m.borrow_mut()
            .get_or_insert_with(|| {
                let fetch = web_sys::window()
                    .map(|w| w.fetch_with_str(WASM))
                    .unwrap_or_else(|| Promise::reject(&JsValue::from_str("no window")));
                WebAssembly::compile_streaming(&fetch)
            })
            .clone()
    })
}
/// Most workers a sweep starts, whatever the machine's core count.
pub const MAX_WORKERS: usize = 8;

/// Workers for this machine: one per core (`navigator.hardwareConcurrency`), at least 1, at most
/// [`MAX_WORKERS`].
pub fn per_core() -> usize {
    let n = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    (n.max(1.0) as usize).min(MAX_WORKERS)
}

struct Slot {
    worker: Worker,
    ready: bool,
    /// The id of the job it runs.
    busy: Option<u64>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// A set of workers. Dropping it stops them (and whatever they run).
pub struct Pool {
    slots: Vec<Slot>,
}

/// What a pool reports: (worker index, its reply). A worker that fails (its script did not load,
/// or it stopped) reports `Reply::Error` with the id of the job it ran (0 if none).
pub type Event = (usize, Response);

impl Pool {
    /// Starts `n` workers; their replies go to `on_event`.
    pub fn new(n: usize, on_event: Callback<Event>) -> Result<Pool, String> {
        let mut slots = Vec::new();
        for i in 0..n {
            let worker = Worker::new(LOADER)
                .map_err(|e| format!("cannot start a worker ({LOADER}): {e:?}"))?;
            let cb = on_event.clone();
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                let text = e.data().as_string().unwrap_or_default();
                let r = serde_json::from_str::<Response>(&text).unwrap_or_else(|err| Response {
                    id: 0,
                    reply: Reply::Error(format!("worker: unreadable reply: {err}")),
                });
                cb.emit((i, r));
            });
            let cb = on_event.clone();
            let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
                e.prevent_default();
                cb.emit((
                    i,
                    Response {
                        id: u64::MAX,
                        reply: Reply::Error(format!("a worker stopped: {}", e.message())),
                    },
                ));
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            hand_module(worker.clone(), i, on_event.clone());
            slots.push(Slot {
                worker,
                ready: false,
                busy: None,
                _on_message: on_message,
                _on_error: on_error,
            });
        }
        Ok(Pool { slots })
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Books a worker's event: readiness, or the end of its job (whose id it returns; a worker
    /// failure ends the job it ran). Returns the event with its job id filled in.
    pub fn note(&mut self, (i, mut r): Event) -> Event {
        if let Some(s) = self.slots.get_mut(i) {
            match r.reply {
                Reply::Ready => s.ready = true,
                // A fit under way: the worker still runs it.
                Reply::Progress { .. } => {}
                _ => {
                    if r.id == u64::MAX {
                        r.id = s.busy.unwrap_or(0);
                    }
                    s.busy = None;
                }
            }
        }
        (i, r)
    }

    /// A loaded worker with nothing to do.
    pub fn idle(&self) -> Option<usize> {
        self.slots.iter().position(|s| s.ready && s.busy.is_none())
    }

    /// Whether any worker runs a job.
    pub fn busy(&self) -> bool {
        self.slots.iter().any(|s| s.busy.is_some())
    }

    /// Sends `req` to worker `i`.
    pub fn send(&mut self, i: usize, req: &Request) -> Result<(), String> {
        let text = serde_json::to_string(req).map_err(|e| e.to_string())?;
        let s = &mut self.slots[i];
        s.worker
            .post_message(&JsValue::from_str(&text))
            .map_err(|e| format!("cannot reach a worker: {e:?}"))?;
        s.busy = Some(req.id);
        Ok(())
    }
}

/// Sends the compiled worker module to worker `i` (its loader waits for it); a module that
/// cannot be fetched or compiled is that worker's error.
fn hand_module(worker: Worker, i: usize, on_event: Callback<Event>) {
    wasm_bindgen_futures::spawn_local(async move {
        let sent = match JsFuture::from(module()).await {
            Ok(m) => worker.post_message(&m),
            Err(e) => Err(e),
        };
        if let Err(e) = sent {
            let text = e.as_string().or_else(|| {
                e.dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
            });
            on_event.emit((
                i,
                Response {
                    id: u64::MAX,
                    reply: Reply::Error(format!(
                        "cannot load the worker ({WASM}): {}",
                        text.unwrap_or_else(|| format!("{e:?}"))
                    )),
                },
            ));
        }
    });
}

impl Drop for Pool {
    fn drop(&mut self) {
        for s in &self.slots {
            s.worker.terminate();
        }
    }
}

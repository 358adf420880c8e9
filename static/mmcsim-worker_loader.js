// The Web Worker's loader (src/shell/workers.rs starts one per core): the worker's JS glue,
// then its first message, the worker's wasm compiled once by the page (a WebAssembly.Module),
// so every worker shares the page's one download. The worker's own main (worker/src/main.rs)
// then takes over the message handler and says it is ready.
importScripts('./mmcsim-worker.js');
self.onmessage = (e) => {
    self.onmessage = null;
    wasm_bindgen({ module_or_path: e.data }).catch((err) => {
        // Thrown outside the promise so the page's onerror sees it.
        setTimeout(() => { throw new Error(`mmcsim worker: ${err}`); });
    });
};

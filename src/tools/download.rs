//! The browser side of exports and imports: files to download (a Blob, an object URL and an
//! `<a download>`), canvases as PNG, the clipboard, and reading a picked file.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

use super::input_limit::{self, PageInput};

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Clicks a temporary `<a download=name href=href>`.
fn click_link(name: &str, href: &str) -> Result<(), String> {
    let doc = document().ok_or("no document")?;
    let a: HtmlAnchorElement = doc
        .create_element("a")
        .map_err(|_| "cannot create a link")?
        .dyn_into()
        .map_err(|_| "not a link")?;
    a.set_href(href);
    a.set_download(name);
    a.set_hidden(true);
    let body = doc.body().ok_or("no body")?;
    body.append_child(&a).map_err(|_| "cannot add the link")?;
    a.click();
    a.remove();
    Ok(())
}

/// Offers `text` as a file named `name` of type `mime`.
pub fn download_text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| "the browser refused to build the file")?;
    offer_blob(name, &blob)
}

/// Offers `bytes` as a file named `name` of type `mime`.
pub fn download_bytes(name: &str, mime: &str, bytes: &[u8]) -> Result<(), String> {
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &opts)
        .map_err(|_| "the browser refused to build the file")?;
    offer_blob(name, &blob)
}

/// Offers `blob` as a download named `name`.
fn offer_blob(name: &str, blob: &Blob) -> Result<(), String> {
    let url = Url::create_object_url_with_blob(blob).map_err(|_| "no object URL")?;
    let r = click_link(name, &url);
    // The download has its own reference to the blob once started; free ours a little later.
    let later = url.clone();
    gloo::timers::callback::Timeout::new(10_000, move || {
        let _ = Url::revoke_object_url(&later);
    })
    .forget();
    r
}

/// Each chart canvas on the page as (file stem from its id, PNG data URL), each picture with a
/// header above the chart: its title (the figure's caption, else its label) and one legend line
/// per side (`sides`: the side's text, e.g. "A: mmcsim --platform=...", and its colour). The
/// canvases are the charts' own (`figure.chart canvas`, `canvas[data-chart]`), so charts added
/// later are included.
pub fn chart_pngs(sides: &[(String, &str)]) -> Vec<(String, String)> {
    let Some(doc) = document() else {
        return Vec::new();
    };
    let Ok(list) = doc.query_selector_all("figure.chart canvas, canvas[data-chart]") else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for i in 0..list.length() {
        let Some(c) = list
            .item(i)
            .and_then(|n| n.dyn_into::<HtmlCanvasElement>().ok())
        else {
            continue;
        };
        // A chart with nothing drawn yet (the live charts before Play) is not saved empty.
        if c.width() == 0
            || c.height() == 0
            || c.get_attribute("data-empty").as_deref() == Some("true")
        {
            continue;
        }
        let id = c.id();
        let stem = if id.is_empty() {
            format!("chart-{i}")
        } else {
            id
        };
        if out.iter().any(|(s, _)| *s == stem) {
            continue;
        }
        let titled = titled(&doc, &c, sides).unwrap_or(c);
        if let Ok(url) = titled.to_data_url_with_type("image/png") {
            out.push((stem, url));
        }
    }
    out
}

/// A chart's title: its figure's caption, else its label, else its id.
fn chart_title(c: &HtmlCanvasElement) -> String {
    let caption = c
        .closest("figure")
        .ok()
        .flatten()
        .and_then(|f| f.query_selector("figcaption").ok().flatten())
        .and_then(|f| f.text_content());
    caption
        .or_else(|| c.get_attribute("aria-label"))
        .unwrap_or_else(|| c.id())
}

/// `c` drawn under a header: its title and a legend line per side.
fn titled(
    doc: &web_sys::Document,
    c: &HtmlCanvasElement,
    sides: &[(String, &str)],
) -> Option<HtmlCanvasElement> {
    let out: HtmlCanvasElement = doc.create_element("canvas").ok()?.dyn_into().ok()?;
    let head = 34 + 20 * sides.len() as u32;
    out.set_width(c.width());
    out.set_height(c.height() + head);
    let g: web_sys::CanvasRenderingContext2d = out.get_context("2d").ok()??.dyn_into().ok()?;
    g.set_fill_style_str("#ffffff");
    g.fill_rect(0.0, 0.0, out.width() as f64, out.height() as f64);
    g.set_fill_style_str("#0f172a");
    g.set_font("bold 16px sans-serif");
    g.fill_text(&chart_title(c), 12.0, 22.0).ok()?;
    g.set_font("12px ui-monospace, monospace");
    // About 7 px a character: the line cut to the picture's width.
    let fit = ((c.width() as usize).saturating_sub(40) / 7).max(10);
    for (k, (text, colour)) in sides.iter().enumerate() {
        let y = 42.0 + 20.0 * k as f64;
        g.set_fill_style_str(colour);
        g.fill_rect(12.0, y - 10.0, 12.0, 12.0);
        g.set_fill_style_str("#334155");
        let line: String = if text.chars().count() > fit {
            text.chars().take(fit - 1).chain(['…']).collect()
        } else {
            text.clone()
        };
        g.fill_text(&line, 30.0, y).ok()?;
    }
    g.draw_image_with_html_canvas_element(c, 0.0, head as f64)
        .ok()?;
    Some(out)
}

/// Saves a data URL (a canvas' PNG) as `name`.
pub fn download_data_url(name: &str, url: &str) -> Result<(), String> {
    click_link(name, url)
}

/// Writes `text` to the clipboard; Err when the Clipboard API is missing (an insecure page) or
/// refuses (no permission), and the caller falls back to selecting the text.
pub async fn copy_to_clipboard(text: &str) -> Result<(), ()> {
    let window = web_sys::window().ok_or(())?;
    let nav = window.navigator();
    let has = js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard"))
        .map(|v| !v.is_undefined() && !v.is_null())
        .unwrap_or(false);
    if !has {
        return Err(());
    }
    let promise = nav.clipboard().write_text(text);
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|_| ())
}

/// Reads a picked file as text and calls `done` with it (or with the browser's complaint, or
/// the page's refusal of a file larger than it reads as `kind`, before any of it is read).
/// The reader lives until it calls back.
pub fn read_text_file(
    file: web_sys::File,
    kind: PageInput,
    done: impl FnOnce(Result<String, String>) + 'static,
) {
    // Echoed in messages as the CLI echoes a name: cut, control characters escaped.
    let name = input_limit::shown_name(&file.name());
    if let Err(e) = input_limit::check(kind, &name, file.size() as u64) {
        done(Err(e));
        return;
    }
    let file = gloo::file::File::from(file);
    let slot: Rc<RefCell<Option<gloo::file::callbacks::FileReader>>> = Rc::default();
    let keep = slot.clone();
    let reader = gloo::file::callbacks::read_as_text(&file, move |r| {
        done(r.map_err(|e| format!("{name}: the file could not be read: {e}")));
        // Not dropped inside its own callback: a moment later.
        gloo::timers::callback::Timeout::new(0, move || drop(keep.borrow_mut().take())).forget();
    });
    *slot.borrow_mut() = Some(reader);
}

/// Reads the files picked or dropped together as bytes (name and bytes each, in the order
/// given: a binary blktrace run's per-CPU files), after the size check of each and of all of
/// them together; `done` is called once, with them all or the first refusal.
pub fn read_bytes_files(
    files: Vec<web_sys::File>,
    kind: PageInput,
    done: impl FnOnce(Result<Vec<(String, Vec<u8>)>, String>) + 'static,
) {
    let n = files.len();
    let total: u64 = files.iter().map(|f| f.size() as u64).sum();
    if n > 1 {
        if let Err(e) = input_limit::check(kind, &format!("{n} files together"), total) {
            done(Err(e));
            return;
        }
    }
    type Got = Vec<Option<(String, Vec<u8>)>>;
    let got: Rc<RefCell<Got>> = Rc::new(RefCell::new(vec![None; n]));
    let done = Rc::new(RefCell::new(Some(done)));
    for (i, f) in files.into_iter().enumerate() {
        let name = f.name();
        let (got, done) = (got.clone(), done.clone());
        read_bytes_file(f, kind, move |r| {
            let all = r.map(|bytes| {
                let mut g = got.borrow_mut();
                g[i] = Some((name, bytes));
                g.iter()
                    .all(Option::is_some)
                    .then(|| g.drain(..).flatten().collect())
            });
            let d = match all {
                Ok(None) => return,
                Ok(Some(all)) => Ok(all),
                Err(e) => Err(e),
            };
            if let Some(f) = done.borrow_mut().take() {
                f(d);
            }
        });
    }
}

/// Reads a picked or dropped file as bytes (a trace may be binary: Perfetto, blktrace), after
/// the same size check as [`read_text_file`].
pub fn read_bytes_file(
    file: web_sys::File,
    kind: PageInput,
    done: impl FnOnce(Result<Vec<u8>, String>) + 'static,
) {
    // Echoed in messages as the CLI echoes a name: cut, control characters escaped.
    let name = input_limit::shown_name(&file.name());
    if let Err(e) = input_limit::check(kind, &name, file.size() as u64) {
        done(Err(e));
        return;
    }
    let file = gloo::file::File::from(file);
    let slot: Rc<RefCell<Option<gloo::file::callbacks::FileReader>>> = Rc::default();
    let keep = slot.clone();
    let reader = gloo::file::callbacks::read_as_bytes(&file, move |r| {
        done(r.map_err(|e| format!("{name}: the file could not be read: {e}")));
        gloo::timers::callback::Timeout::new(0, move || drop(keep.borrow_mut().take())).forget();
    });
    *slot.borrow_mut() = Some(reader);
}

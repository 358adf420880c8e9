//! plotters' canvas backend, with text measured by the canvas itself.
//!
//! `plotters_canvas::CanvasBackend` leaves text size to plotters' default, which on wasm
//! appends a `<span>` to the page and reads its `offsetHeight`: a forced layout of the whole
//! page for every label measured, dozens per chart redraw. On the landing that was the largest
//! share of a chart frame (CPU profile of the landing at 200 µs/s: `offsetHeight` 3.7 % of
//! the main thread, more than the engine). Here the size comes from the 2D context's
//! `measureText`, which lays nothing out; everything else is the canvas backend's.

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

type Error = DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>;

/// The canvas backend with [`DrawingBackend::estimate_text_size`] from `measureText`.
pub struct Canvas {
    inner: CanvasBackend,
    ctx: CanvasRenderingContext2d,
}

impl Canvas {
    /// The backend of `canvas` (None: it has no 2D context).
    pub fn new(canvas: HtmlCanvasElement) -> Option<Canvas> {
        let ctx = canvas
            .get_context("2d")
            .ok()
            .flatten()?
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Canvas { inner, ctx })
    }
}

/// The line height plotters' own measure found (a `<span>`'s, `line-height: normal`), as a
/// share of the font size: the sans-serif fonts of the page's charts.
const LINE_HEIGHT: f64 = 1.2;

impl DrawingBackend for Canvas {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), Error> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), Error> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Error> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Error> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Error> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), Error> {
        // The font as the canvas backend sets it to draw the text.
        self.ctx.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        ));
        let width = self
            .ctx
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(0.0);
        Ok((
            width.ceil() as u32,
            (style.size() * LINE_HEIGHT).ceil() as u32,
        ))
    }
}

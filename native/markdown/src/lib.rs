//! `parse(source, mdx)`: a page body → mdast as JSON, the shape mdast-util-from-markdown gives.
//! MDX pages get MDX constructs (JSX, expressions, import/export) plus GFM; .md pages get
//! CommonMark with raw HTML plus GFM. Both get math (`$…$`, `$$…$$`), as the platform's renderer
//! reads it. Expressions are not validated as JavaScript here: the renderer reads literal values
//! itself and never executes anything.
use markdown::{mdast::Node, message::Message, Constructs, ParseOptions};
use napi::{Error, Result};
use napi_derive::napi;

fn options(mdx: bool) -> ParseOptions {
    let gfm = Constructs::gfm();
    if !mdx {
        let constructs = Constructs { math_flow: true, math_text: true, ..gfm };
        return ParseOptions { constructs, ..ParseOptions::gfm() };
    }
    let mut options = ParseOptions::mdx();
    options.constructs = Constructs {
        gfm_autolink_literal: gfm.gfm_autolink_literal,
        gfm_footnote_definition: gfm.gfm_footnote_definition,
        gfm_label_start_footnote: gfm.gfm_label_start_footnote,
        gfm_strikethrough: gfm.gfm_strikethrough,
        gfm_table: gfm.gfm_table,
        gfm_task_list_item: gfm.gfm_task_list_item,
        math_flow: true,
        math_text: true,
        ..Constructs::mdx()
    };
    // import/export lines are recognized as ESM (their text is parsed by the renderer).
    options.mdx_esm_parse = Some(Box::new(|_| markdown::MdxSignal::Ok));
    options
}

/// "line:column: reason", so the caller can name the place of a syntax error.
fn describe(message: Message) -> String {
    let place = match message.place.as_deref() {
        Some(markdown::message::Place::Point(point)) => format!("{}:{}", point.line, point.column),
        Some(markdown::message::Place::Position(position)) => format!("{}:{}", position.start.line, position.start.column),
        None => String::from("0:0"),
    };
    format!("{}: {}", place, message.reason)
}

/// Set on the error of a parse that panicked: markdown-rs has inputs it panics on ("* <!--\n2."
/// in markdown-rs 1.0.0), and a panic crossing into Node would abort the whole process.
const PANICKED: &str = "panicked: ";

#[napi]
pub fn parse(source: String, mdx: bool) -> Result<String> {
    let parsed = std::panic::catch_unwind(|| markdown::to_mdast(&source, &options(mdx)))
        .map_err(|panic| Error::from_reason(format!("{}{}", PANICKED, panic_text(&panic))))?;
    let tree: Node = parsed.map_err(|message| Error::from_reason(describe(message)))?;
    serde_json::to_string(&tree).map_err(|error| Error::from_reason(error.to_string()))
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

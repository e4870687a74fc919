//! `parse(source, mdx)`: a page body → mdast as JSON, the shape mdast-util-from-markdown gives.
//! MDX pages get MDX constructs (JSX, expressions, import/export) plus GFM; .md pages get
//! CommonMark with raw HTML plus GFM. Expressions are not validated as JavaScript here: the
//! renderer reads literal values itself and never executes anything.
use markdown::{mdast::Node, message::Message, Constructs, ParseOptions};
use napi::{Error, Result};
use napi_derive::napi;

fn options(mdx: bool) -> ParseOptions {
    let gfm = Constructs::gfm();
    if !mdx {
        return ParseOptions { constructs: gfm, ..ParseOptions::gfm() };
    }
    let mut options = ParseOptions::mdx();
    options.constructs = Constructs {
        gfm_autolink_literal: gfm.gfm_autolink_literal,
        gfm_footnote_definition: gfm.gfm_footnote_definition,
        gfm_label_start_footnote: gfm.gfm_label_start_footnote,
        gfm_strikethrough: gfm.gfm_strikethrough,
        gfm_table: gfm.gfm_table,
        gfm_task_list_item: gfm.gfm_task_list_item,
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

#[napi]
pub fn parse(source: String, mdx: bool) -> Result<String> {
    let tree: Node = markdown::to_mdast(&source, &options(mdx)).map_err(|message| Error::from_reason(describe(message)))?;
    serde_json::to_string(&tree).map_err(|error| Error::from_reason(error.to_string()))
}

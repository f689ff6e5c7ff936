//! Why a document is left to html5ever.

/// Why a document was left to html5ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bail {
    /// A NUL character, or a tag so wide `wide_tags` would thin it.
    Input,
    /// A template, frameset, `<plaintext>` or MathML, or a table whose start
    /// depends on a quirks mode this path does not work out.
    Element,
    /// A start tag inside SVG that leaves it, or HTML inside an SVG
    /// integration point, or a CDATA section.
    Foreign,
    /// The adoption agency would move nodes across a landmark, or into a
    /// table or template; or the active formatting list is deeper than this
    /// path keeps.
    Formatting,
    /// A `</form>` closing a form that is not the current node, or an element
    /// removed from the middle of the stack.
    Misnested,
    /// Content a table would move out of itself (foster parenting).
    Foster,
    /// Deeper than this path follows (Chromium's depth rule is near).
    Deep,
    /// `<!--` in a script, or input that ends inside a tag, comment or
    /// raw text.
    Tokenizer,
    /// A character reference this path does not decode.
    CharRef,
}

//! An error and its causes in one line, for reports and messages that keep
//! the text ("cannot read x.html: Permission denied").

/// `err`'s text, then each cause's after ": ".
pub fn error_text(err: &dyn std::error::Error) -> String {
    let mut out = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        out.push_str(": ");
        out.push_str(&cause.to_string());
        source = cause.source();
    }
    out
}

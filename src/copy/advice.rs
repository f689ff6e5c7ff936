//! What to do about a failed load.

/// What to do about a failed load, when its message does not already say.
pub fn load_error_advice(message: &str) -> Option<&'static str> {
    let advice = [
        (
            "DNS",
            "Check the host name. To inspect a saved copy of the page instead, enter the path of its .html file.",
        ),
        (
            "connect",
            "The server refused or dropped the connection: check the address and port, and that the site is up.",
        ),
        (
            "TLS",
            "The secure connection failed: check the certificate, or try the http:// address.",
        ),
        (
            "timeout",
            "The server did not answer in time: try again, or check the address.",
        ),
        (
            "too many redirects",
            "The site redirects too often: open it in a browser to see where it ends.",
        ),
        (
            "redirect loop",
            "The site redirects in a circle: open it in a browser to see where it goes.",
        ),
        (
            "the connection broke",
            "The server closed the connection in the middle of the page: try again, or save the \
             page from a browser and open the file.",
        ),
        (
            "bad redirect",
            "The site redirects to an address that is not a web page.",
        ),
        (
            "not HTML",
            "This address is not a web page: enter the URL of the page that links to it.",
        ),
        (
            "only http and https",
            "Enter an http:// or https:// address, a host name, or the path of a saved page.",
        ),
        (
            "cannot read",
            "Check the path: the file must exist and be readable.",
        ),
    ];
    if message.contains("base URL field") {
        // The message already says what to do.
        return None;
    }
    advice
        .iter()
        .find(|(prefix, _)| message.starts_with(prefix))
        .map(|(_, advice)| *advice)
}

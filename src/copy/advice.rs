//! What to do about a failed load, chosen from the error's kind.

use crate::archive::ArchiveError;
use crate::archive::wacz::WaczError;
pub use crate::error_text::error_text;
use crate::fetch::FetchError;
use crate::fetch::local::{FileError, FileKind};
use crate::fetch::local_write::WriteError;
use crate::load::{LoadError, TargetError};

/// Where the advice is read: some of it names a field or an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Front {
    Cli,
    Window,
}

const CHECK_THE_PATH: &str = "Check the path: the file must exist and be readable.";
const NOT_HTTP_WINDOW: &str =
    "Enter an http:// or https:// address, a host name, or the path of a saved page.";
const NOT_HTTP_CLI: &str =
    "Give an http:// or https:// address, a host name, or the path of a saved page.";
const NOT_A_URL: &str = "Check the address: a URL looks like https://acme.com/contact.";

/// What to do about `err`, when its message does not already say; every kind
/// is named, so a new one cannot go without a decision.
pub fn load_advice(err: &LoadError, front: Front) -> Option<&'static str> {
    let window = front == Front::Window;
    match err {
        LoadError::Target(target) => Some(match target {
            TargetError::BadUrl { .. } | TargetError::NotAHost { .. } => NOT_A_URL,
            TargetError::Scheme { .. } if window => NOT_HTTP_WINDOW,
            TargetError::Scheme { .. } => NOT_HTTP_CLI,
            TargetError::NoSuchFile(_) if window => {
                "Check the path, or enter a URL or a host name such as acme.com."
            }
            TargetError::NoSuchFile(_) => {
                "Check the path, or give a URL or a host name such as acme.com."
            }
            TargetError::NotAPageUrl(_) if window => {
                "Enter the page's original URL in the Base URL field, e.g. https://acme.com/."
            }
            TargetError::NotAPageUrl(_) => {
                "Give the page's original URL, e.g. --base-url https://acme.com/."
            }
        }),
        LoadError::Read { .. } => Some(CHECK_THE_PATH),
        LoadError::File(file) => Some(file_advice(file, front)),
        LoadError::NoPageUrl { .. } if window => {
            Some("Enter the page's original URL in the Base URL field.")
        }
        LoadError::NoPageUrl { .. } => Some("Pass its original URL with --base-url URL."),
        LoadError::Fetch(fetch) => fetch_advice(fetch, front),
        LoadError::Archive(archive) => Some(archive_advice(archive)),
    }
}

/// What to do about a local file that cannot be read as a page.
pub fn file_advice(err: &FileError, front: Front) -> &'static str {
    match err {
        FileError::NotAFile {
            kind: FileKind::Directory,
            ..
        } => CHECK_THE_PATH,
        FileError::NotAFile { .. } if front == Front::Window => {
            "Enter the path of a regular file: a folder, a pipe or a device cannot be read \
             (reading one may never end)."
        }
        FileError::NotAFile { .. } => {
            "Give the path of a regular file: a folder, a pipe or a device cannot be read \
             (reading one may never end)."
        }
        FileError::SymlinkLoop { .. } => {
            "Fix or remove the link: it leads back to itself, so no file is behind it."
        }
        FileError::TooLarge { .. } => {
            "Check that this is the right file: settings, profile exports and manifests are \
             a few KB."
        }
        FileError::NotUtf8 { .. } => "Save the file as UTF-8 text.",
        FileError::Io { .. } => CHECK_THE_PATH,
    }
}

pub fn archive_advice(err: &ArchiveError) -> &'static str {
    match err {
        ArchiveError::Read { .. } => CHECK_THE_PATH,
        ArchiveError::Write { source, .. } => write_advice(source),
        ArchiveError::NotWarc { .. } => {
            "Open a WARC (.warc, .warc.gz), an ARC (.arc, .arc.gz) or a WACZ package, as the \
             inspector, wget --warc-file, a crawler or a browser's archiving tool writes it."
        }
        ArchiveError::DraftWarc { .. } => {
            "Convert the file to WARC 1.0 with the tool that wrote it (a draft is read only \
             where its records are laid out as 1.0's), or ask for a WARC 1.0 copy."
        }
        ArchiveError::Package(package) => package_advice(package),
        ArchiveError::ZipNotWarc { .. } => {
            "A package inside a package is not read: open the inner package on its own."
        }
        ArchiveError::Damaged { .. } => {
            "The archive is damaged (cut short or corrupted): copy it again from where it came \
             from; a corpus run reads the records that are intact."
        }
        ArchiveError::BadInspectionRecord { .. } => {
            "The archive was written by another version of the inspector, or edited: give \
             --base-url URL to open a page of it as another tool's archive."
        }
        ArchiveError::SettingsOverLimit { .. } => {
            "No real settings list comes near the limits: the archive was edited or is not a \
             real run's; ask for the archive again."
        }
        ArchiveError::NothingFetched => {
            "Load the page from its URL first: only fetched pages can be saved for a ticket."
        }
        ArchiveError::NothingToOpen { .. } => {
            "The archive holds no web page: open one saved by the inspector, or run a corpus \
             over it."
        }
    }
}

/// What to do about a WACZ package that cannot be read, by why.
pub fn package_advice(err: &WaczError) -> &'static str {
    match err {
        WaczError::Read { .. } => CHECK_THE_PATH,
        WaczError::NotZip { .. } | WaczError::EntryOutside { .. } | WaczError::SizesLie { .. } => {
            "The package is cut short or damaged: copy it again from where it came from, or \
             ask for it again (ArchiveWeb.page and Browsertrix export WACZ)."
        }
        WaczError::UnsafeName { .. } => {
            "The package names a file outside itself, as no WACZ writer does: it is not read. \
             Ask for the capture again from the tool that made it."
        }
        WaczError::UnsupportedEntry { .. } => {
            "Pack the files again with plain ZIP compression (wacz create writes it), or open \
             the WARC inside it on its own."
        }
        WaczError::NoWarc { .. } => {
            "A WACZ keeps its captures under archive/: open a package made by ArchiveWeb.page, \
             Browsertrix or wacz create, or the WARC itself."
        }
        WaczError::NoIndex { .. }
        | WaczError::HitMissingWarc { .. }
        | WaczError::HitPastEnd { .. } => {
            "The package's index does not match its WARCs: make it again with wacz create, or \
             open the WARC inside it on its own."
        }
    }
}

/// What to do about a file that could not be written, by why.
pub fn write_advice(err: &WriteError) -> &'static str {
    match err {
        WriteError::NotAFile { .. } | WriteError::Symlink { .. } => {
            "Give a new file's name or a regular file's: a folder, a symbolic link or a device \
             is not replaced and a link is not followed (a named pipe or /dev/null is written \
             into)."
        }
        WriteError::NoReader => "Start the program that reads the pipe first, or give a file.",
        WriteError::CreateTemp { .. }
        | WriteError::Temp { .. }
        | WriteError::Rename { .. }
        | WriteError::Stream(_) => {
            "Check that the folder exists and is writable, and that the disk is not full."
        }
    }
}

fn fetch_advice(err: &FetchError, front: Front) -> Option<&'static str> {
    let window = front == Front::Window;
    Some(match err {
        FetchError::Dns { .. } if window => {
            "Check the host name. To inspect a saved copy of the page instead, enter the path \
             of its .html file."
        }
        FetchError::Dns { .. } => {
            "Check the host name. To inspect a saved copy of the page instead, give the path \
             of its .html file."
        }
        FetchError::Connect { .. } => {
            "The server refused or dropped the connection: check the address and port, and \
             that the site is up."
        }
        FetchError::Tls { .. } => {
            "The secure connection failed: check the certificate, or try the http:// address."
        }
        FetchError::Timeout { .. } => {
            "The server did not answer in time: try again, or check the address."
        }
        FetchError::TooManyRedirects { .. } => {
            "The site redirects too often: open it in a browser to see where it ends."
        }
        FetchError::RedirectLoop { .. } => {
            "The site redirects in a circle: open it in a browser to see where it goes."
        }
        FetchError::Body { .. } => {
            "The server closed the connection in the middle of the page: try again, or save \
             the page from a browser and open the file."
        }
        FetchError::BadEncoding { .. } => {
            "The server sent a compressed page that does not decompress: try again later, or \
             save the page from a browser and open the file."
        }
        FetchError::BadRedirect { .. } => {
            "The site redirects to an address that is not a web page."
        }
        FetchError::NotHtml { .. } => {
            "This address is not a web page: enter the URL of the page that links to it."
        }
        FetchError::Scheme { .. } if window => NOT_HTTP_WINDOW,
        FetchError::Scheme { .. } => NOT_HTTP_CLI,
        FetchError::Http { .. } => {
            "The request failed before the server answered: check the address, or try again."
        }
        FetchError::NotInArchive { .. } => {
            "The archive holds no copy of this page: it was not fetched when the archive was \
             written. Inspect the live site to see it."
        }
        FetchError::BadArchiveRecord { .. } | FetchError::RevisitWithoutOriginal { .. } => {
            "The archive holds this page in a record the inspector cannot read: inspect the \
             live site, or an archive written by another tool."
        }
        FetchError::Archived { .. } => {
            "This page had already failed when the archive was written; the error is the one \
             seen then."
        }
        FetchError::Browser { .. } if window => {
            "The browser failed: try again, or untick Rendered to read the HTML the server \
             sends."
        }
        FetchError::Browser { .. } => {
            "The browser failed: try again, or leave out --render to read the HTML the server \
             sends."
        }
        FetchError::Navigation { .. } => {
            "The browser could not open the page: check the address, and that the site is up."
        }
        FetchError::ClientRedirectLoop { .. } if window => {
            "The page's scripts or meta refresh send the browser on and on: open it in a \
             browser to see where it goes, or untick Rendered to read the HTML the server sends."
        }
        FetchError::ClientRedirectLoop { .. } => {
            "The page's scripts or meta refresh send the browser on and on: open it in a \
             browser to see where it goes, or leave out --render to read the HTML the server \
             sends."
        }
        FetchError::PrivateRedirect { .. } if window => {
            "A public site redirects into a private network, which the inspector does not \
             follow: inspect the private address itself if you mean to."
        }
        FetchError::PrivateRedirect { .. } => {
            "A public site redirects into a private network, which the inspector does not \
             follow: inspect the private address itself, or pass --allow-private-network."
        }
        // Its message says how to install one.
        FetchError::NoBrowser { .. } | FetchError::Cancelled => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;

    #[test]
    fn the_kind_not_the_text_chooses_the_advice() {
        // A refused connection to a host whose name says "tls" is a connect error.
        let refused = LoadError::Fetch(FetchError::Connect {
            detail: "tls-certificate.test: connection refused".into(),
        });
        assert!(
            load_advice(&refused, Front::Cli).is_some_and(|a| a.starts_with("The server refused"))
        );
        let scheme = LoadError::Target(TargetError::Scheme {
            raw: "ftp://x".into(),
            scheme: "ftp".into(),
        });
        assert_eq!(load_advice(&scheme, Front::Window), Some(NOT_HTTP_WINDOW));
        let unreadable = LoadError::Read {
            path: PathBuf::from("page.html"),
            source: Arc::new(std::io::Error::from(std::io::ErrorKind::PermissionDenied)),
        };
        assert_eq!(
            load_advice(&unreadable, Front::Window),
            Some(CHECK_THE_PATH)
        );
        assert!(error_text(&unreadable).starts_with("cannot read page.html: "));
        let no_url = LoadError::NoPageUrl {
            path: PathBuf::from("saved.html"),
            source: crate::inspect::NoPageUrl,
        };
        assert!(load_advice(&no_url, Front::Cli).is_some_and(|a| a.contains("--base-url")));
        assert!(load_advice(&no_url, Front::Window).is_some_and(|a| a.contains("Base URL field")));
        let no_browser = LoadError::Fetch(FetchError::NoBrowser { path: None });
        assert_eq!(load_advice(&no_browser, Front::Window), None);
    }
}

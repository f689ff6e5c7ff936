//! A small HTTP/1.1 server on 127.0.0.1 that serves several fake host names
//! (routed by the Host header), for tests that must never reach the internet.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// How a route misbehaves while sending its body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Sending {
    /// The whole body at once.
    #[default]
    AtOnce,
    /// One byte per interval.
    Drip(Duration),
    /// The connection is reset after this many bytes of the body.
    ResetAfter(usize),
    /// The request is read and never answered.
    Silent,
    /// The body is sent this many times over (Content-Length says so).
    Repeated(usize),
}

#[derive(Clone)]
pub struct Route {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub delay: Duration,
    pub sending: Sending,
}

impl Route {
    pub fn html(body: &str) -> Route {
        Route {
            status: 200,
            headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
            body: body.as_bytes().to_vec(),
            delay: Duration::ZERO,
            sending: Sending::AtOnce,
        }
    }

    pub fn redirect(status: u16, location: &str) -> Route {
        Route {
            status,
            headers: vec![("Location".into(), location.into())],
            body: Vec::new(),
            delay: Duration::ZERO,
            sending: Sending::AtOnce,
        }
    }

    pub fn status(mut self, status: u16) -> Route {
        self.status = status;
        self
    }

    pub fn header(mut self, name: &str, value: &str) -> Route {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn bytes(mut self, body: Vec<u8>) -> Route {
        self.body = body;
        self
    }

    pub fn delay(mut self, delay: Duration) -> Route {
        self.delay = delay;
        self
    }

    pub fn sending(mut self, sending: Sending) -> Route {
        self.sending = sending;
        self
    }
}

pub struct Server {
    pub port: u16,
    hits: Arc<Mutex<HashMap<String, usize>>>,
}

impl Server {
    /// Serves the routes `site(port)` builds, keyed by `host/path` (path with
    /// query). Every response waits `delay_all` plus the route's own delay.
    pub fn start(site: impl FnOnce(u16) -> HashMap<String, Route>, delay_all: Duration) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let routes = Arc::new(site(port));
        let hits = Arc::new(Mutex::new(HashMap::new()));
        let server_hits = Arc::clone(&hits);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let routes = Arc::clone(&routes);
                let hits = Arc::clone(&server_hits);
                thread::spawn(move || serve(stream, &routes, &hits, delay_all));
            }
        });
        Server { port, hits }
    }

    /// How often `host/path` was requested.
    pub fn hits(&self, key: &str) -> usize {
        self.hits.lock().unwrap().get(key).copied().unwrap_or(0)
    }

    pub fn all_hits(&self) -> HashMap<String, usize> {
        self.hits.lock().unwrap().clone()
    }

    /// `--resolve` arguments pointing `hosts` at this server.
    pub fn resolve_args(&self, hosts: &[&str]) -> Vec<String> {
        hosts
            .iter()
            .flat_map(|h| {
                [
                    "--resolve".to_owned(),
                    format!("{h}:{}:127.0.0.1", self.port),
                ]
            })
            .collect()
    }
}

fn serve(
    stream: TcpStream,
    routes: &HashMap<String, Route>,
    hits: &Mutex<HashMap<String, usize>>,
    delay_all: Duration,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let target = request_line.split_whitespace().nth(1).unwrap_or("/");
    // A proxy's client (wget with http_proxy) asks for the absolute URL.
    let path = match target.strip_prefix("http://") {
        Some(rest) => rest.find('/').map_or("/", |at| &rest[at..]).to_owned(),
        None => target.to_owned(),
    };
    let mut host = String::new();
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => {
                if let Some((name, value)) = line.split_once(':')
                    && name.eq_ignore_ascii_case("host")
                {
                    let value = value.trim();
                    host = value.rsplit_once(':').map_or(value, |(h, _)| h).to_owned();
                }
            }
        }
    }
    let key = format!("{host}{path}");
    *hits.lock().unwrap().entry(key.clone()).or_default() += 1;
    // A route without a query also answers it with one (`/r?0.123`).
    let route = routes
        .get(&key)
        .or_else(|| routes.get(key.split('?').next().unwrap_or_default()))
        .cloned()
        .unwrap_or_else(|| Route::html("<h1>Not found</h1>").status(404));
    thread::sleep(delay_all + route.delay);
    let mut out = stream;
    if route.sending == Sending::Silent {
        // Holds the connection open until the client gives up.
        let mut rest = Vec::new();
        let _ = out.set_read_timeout(Some(Duration::from_secs(120)));
        let _ = std::io::Read::read_to_end(&mut out, &mut rest);
        return;
    }
    let length = match route.sending {
        Sending::Repeated(times) => route.body.len() * times,
        _ => route.body.len(),
    };
    let mut head = format!("HTTP/1.1 {} X\r\n", route.status);
    for (name, value) in &route.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {length}\r\nConnection: close\r\n\r\n"
    ));
    let _ = out.write_all(head.as_bytes());
    match route.sending {
        Sending::AtOnce | Sending::Silent => {
            let _ = out.write_all(&route.body);
        }
        Sending::Drip(every) => {
            for byte in &route.body {
                if out.write_all(&[*byte]).and_then(|()| out.flush()).is_err() {
                    return;
                }
                thread::sleep(every);
            }
        }
        Sending::ResetAfter(n) => {
            let _ = out.write_all(&route.body[..n.min(route.body.len())]);
            let _ = out.flush();
            let _ = reset_on_close(&out);
            return;
        }
        Sending::Repeated(times) => {
            for _ in 0..times {
                if out.write_all(&route.body).is_err() {
                    return;
                }
            }
        }
    }
    let _ = out.flush();
}

/// A zero linger time makes closing `stream` send RST instead of FIN.
fn reset_on_close(stream: &TcpStream) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: a valid socket descriptor and a correctly sized linger value.
    let rc = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&raw const linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

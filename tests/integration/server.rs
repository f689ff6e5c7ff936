//! A small HTTP/1.1 server on 127.0.0.1 that serves several fake host names
//! (routed by the Host header), for tests that must never reach the internet.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

#[derive(Clone)]
pub struct Route {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub delay: Duration,
}

impl Route {
    pub fn html(body: &str) -> Route {
        Route {
            status: 200,
            headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
            body: body.as_bytes().to_vec(),
            delay: Duration::ZERO,
        }
    }

    pub fn redirect(status: u16, location: &str) -> Route {
        Route {
            status,
            headers: vec![("Location".into(), location.into())],
            body: Vec::new(),
            delay: Duration::ZERO,
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
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_owned();
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
    let route = routes
        .get(&key)
        .cloned()
        .unwrap_or_else(|| Route::html("<h1>Not found</h1>").status(404));
    thread::sleep(delay_all + route.delay);
    let mut out = stream;
    let mut head = format!("HTTP/1.1 {} X\r\n", route.status);
    for (name, value) in &route.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        route.body.len()
    ));
    let _ = out.write_all(head.as_bytes());
    let _ = out.write_all(&route.body);
    let _ = out.flush();
}

//! Which addresses a public page may not make us reach: loopback, link-local
//! and private ones (a page's scripts or redirects aiming at the inspector's
//! own machine or network). Judged by the URL's host as written: a public
//! name whose DNS answer is private is not caught (see docs/guide.md, Rendered mode).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

use super::Resolve;

/// Whether `host` names a loopback, link-local or private address
/// (`localhost` and `*.localhost` included).
pub fn is_private_host(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        Host::Ipv4(ip) => is_private_v4(*ip),
        Host::Ipv6(ip) => is_private_v6(*ip),
    }
}

fn is_private_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        // Carrier-grade NAT, 100.64.0.0/10.
        || (a == 100 && (64..128).contains(&b))
}

fn is_private_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_private_v4(v4);
    }
    let first = ip.segments()[0];
    ip.is_loopback()
        || ip.is_unspecified()
        // Unique local fc00::/7 and link-local fe80::/10.
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
}

/// What one fetch may reach: everything public, plus the private hosts the
/// user chose (the URL asked for, when it is private, and `--resolve` hosts
/// mapped to a private address), or everything with `--allow-private-network`.
#[derive(Clone, Debug, Default)]
pub struct PrivateNetwork {
    allow_all: bool,
    /// A host, on one port (a `--resolve` mapping maps only its port) or on
    /// any (the private start URL's host).
    allowed_hosts: Vec<(String, Option<u16>)>,
}

impl PrivateNetwork {
    /// The rule for a fetch of `start`.
    pub fn for_start(start: &Url, resolve: &[Resolve], allow_all: bool) -> Self {
        let mut allowed_hosts: Vec<(String, Option<u16>)> = resolve
            .iter()
            .filter(|r| is_private_ip(r.addr.ip()))
            .map(|r| (r.host.clone(), Some(r.addr.port())))
            .collect();
        if let Some(host) = start.host()
            && is_private_host(&host)
        {
            allowed_hosts.push((host.to_string().to_ascii_lowercase(), None));
        }
        Self {
            allow_all,
            allowed_hosts,
        }
    }

    /// Whether a request to `url` may go out.
    pub fn allows(&self, url: &Url) -> bool {
        if self.allow_all {
            return true;
        }
        match url.host() {
            Some(host) if is_private_host(&host) => {
                let name = host.to_string().to_ascii_lowercase();
                let port = url.port_or_known_default();
                self.allowed_hosts
                    .iter()
                    .any(|(h, p)| *h == name && p.is_none_or(|p| Some(p) == port))
            }
            _ => true,
        }
    }
}

fn is_private_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_private_v4(v4),
        IpAddr::V6(v6) => is_private_v6(v6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn loopback_link_local_and_private_addresses_are_private() {
        for private in [
            "http://127.0.0.1:81/",
            "http://127.8.9.1/",
            "http://localhost/",
            "http://api.localhost./",
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/",
            "http://0.0.0.0/",
            "http://[::1]/",
            "http://[fe80::1]/",
            "http://[fd00::1]/",
            "http://[::ffff:127.0.0.1]/",
        ] {
            let u = url(private);
            assert!(is_private_host(&u.host().unwrap()), "{private}");
        }
        for public in [
            "http://acme.com/",
            "http://8.8.8.8/",
            "http://[2001:db8::1]/",
            "http://172.32.0.1/",
        ] {
            let u = url(public);
            assert!(!is_private_host(&u.host().unwrap()), "{public}");
        }
    }

    #[test]
    fn a_private_start_or_resolve_host_is_allowed_and_nothing_else_private() {
        let resolve: Vec<Resolve> = vec!["acme.test:8080:127.0.0.1".parse().unwrap()];
        let rule = PrivateNetwork::for_start(&url("http://acme.test:8080/"), &resolve, false);
        assert!(rule.allows(&url("http://acme.test:8080/x")));
        assert!(rule.allows(&url("https://cdn.example.com/x.js")));
        assert!(!rule.allows(&url("http://127.0.0.1:9999/")));
        assert!(!rule.allows(&url("http://localhost:9999/")));
        let mapped: Vec<Resolve> = vec!["localhost:18180:127.0.0.1".parse().unwrap()];
        let rule = PrivateNetwork::for_start(&url("https://acme.com/"), &mapped, false);
        assert!(rule.allows(&url("http://localhost:18180/x")));
        assert!(!rule.allows(&url("http://localhost:18181/x")));
        let local = PrivateNetwork::for_start(&url("http://127.0.0.1:8080/"), &[], false);
        assert!(local.allows(&url("http://127.0.0.1:9000/")));
        assert!(!local.allows(&url("http://10.0.0.1/")));
        let all = PrivateNetwork::for_start(&url("https://acme.com/"), &[], true);
        assert!(all.allows(&url("http://127.0.0.1:9999/")));
    }
}

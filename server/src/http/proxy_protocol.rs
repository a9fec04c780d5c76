//! HAProxy's PROXY protocol, versions 1 (a text line) and 2 (binary): the header a proxy
//! sends first on each connection (`send-proxy`, `send-proxy-v2`) to say whose connection it
//! forwards. Only the client's address is read; the rest (destination, TLVs) is skipped.
//!
//! Only connections from a trusted proxy are read this way ([`super::addresses`]); anyone else
//! could claim any address. The read is bounded (a v1 line is at most 107 bytes, a v2 address
//! block at most [`MAX_V2_BLOCK`]) and the caller puts a deadline on it. [`parse`] is a pure
//! function over the bytes received so far, so every input can be tested without a socket.
//!
//! Reference: <https://www.haproxy.org/download/2.8/doc/proxy-protocol.txt>.

use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use tokio::io::{AsyncRead, AsyncReadExt};

/// What a v2 header starts with: chosen by HAProxy never to begin any other protocol.
const V2_SIGNATURE: [u8; 12] = *b"\r\n\r\n\0\r\nQUIT\n";
const V1_PREFIX: &[u8] = b"PROXY ";
/// The longest v1 line, CRLF included (the specification's figure).
pub const MAX_V1_LINE: usize = 107;
/// The largest v2 address block accepted: an IPv6 pair is 36 bytes, a Unix pair 216; the rest
/// would be TLVs, which HAProxy adds only when told to.
pub const MAX_V2_BLOCK: usize = 1024;

/// A PROXY header read off the start of a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProxyHeader {
    /// The client's address; `None` when the proxy speaks for itself (v2 `LOCAL`, a health
    /// check) or names no internet address (v1 `UNKNOWN`, a Unix socket): the connection then
    /// counts as the proxy's own.
    pub client: Option<SocketAddr>,
    /// Bytes the header took; what follows is the client's own stream.
    pub len: usize,
}

/// Why a connection from a trusted proxy was not served: it did not start with a well-formed
/// PROXY header. Never on the wire (the connection is closed); logged for the operator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProxyHeaderError {
    #[error("the connection does not start with a PROXY protocol header")]
    Missing,
    #[error("the PROXY v1 line has no CRLF within {MAX_V1_LINE} bytes")]
    LineTooLong,
    #[error("malformed PROXY v1 line: {0}")]
    BadLine(&'static str),
    #[error("PROXY v2 header of version {0}, not 2")]
    Version(u8),
    #[error("PROXY v2 header with the unknown command {0}")]
    Command(u8),
    #[error("PROXY v2 address block of {0} bytes is too short for its address family")]
    ShortBlock(usize),
    #[error("PROXY v2 address block of {0} bytes is longer than {MAX_V2_BLOCK}")]
    BlockTooLong(usize),
    #[error("the connection ended inside its PROXY header")]
    Truncated,
    #[error("no whole PROXY header within the header-read deadline")]
    Late,
    #[error("reading the PROXY header failed: {0}")]
    Io(io::ErrorKind),
}

/// Reads a PROXY header off `stream`: the header, and the bytes read past it (the start of
/// the client's own stream, to be handed on). Put a deadline around it.
pub async fn read<R: AsyncRead + Unpin>(
    stream: &mut R,
) -> Result<(ProxyHeader, Vec<u8>), ProxyHeaderError> {
    // Enough for any header with addresses and a little more; it grows to a v2 header's
    // announced length at most.
    let mut buf = Vec::with_capacity(256);
    let mut chunk = [0u8; 256];
    loop {
        if let Some(header) = parse(&buf)? {
            let rest = buf.split_off(header.len);
            return Ok((header, rest));
        }
        // `parse` refuses a header longer than its bounds before asking for more, so the
        // buffer stays below 16 + MAX_V2_BLOCK + one chunk.
        let n = stream
            .read(&mut chunk)
            .await
            .map_err(|e| ProxyHeaderError::Io(e.kind()))?;
        if n == 0 {
            return Err(ProxyHeaderError::Truncated);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// Parses the header at the start of `buf`: `Ok(None)` while more bytes are needed. Refuses
/// at once a start that can be neither version.
pub fn parse(buf: &[u8]) -> Result<Option<ProxyHeader>, ProxyHeaderError> {
    if buf.is_empty() {
        return Ok(None);
    }
    if starts_like(buf, &V2_SIGNATURE) {
        return if buf.len() < V2_SIGNATURE.len() {
            Ok(None)
        } else {
            parse_v2(buf)
        };
    }
    if starts_like(buf, V1_PREFIX) {
        return if buf.len() < V1_PREFIX.len() {
            Ok(None)
        } else {
            parse_v1(buf)
        };
    }
    Err(ProxyHeaderError::Missing)
}

/// Whether `buf` and `prefix` agree as far as both go.
fn starts_like(buf: &[u8], prefix: &[u8]) -> bool {
    let n = buf.len().min(prefix.len());
    buf[..n] == prefix[..n]
}

/// `PROXY TCP4 192.0.2.1 198.51.100.1 56324 443\r\n`, `PROXY TCP6 …`, `PROXY UNKNOWN …\r\n`.
fn parse_v1(buf: &[u8]) -> Result<Option<ProxyHeader>, ProxyHeaderError> {
    let window = &buf[..buf.len().min(MAX_V1_LINE)];
    let Some(end) = window.windows(2).position(|w| w == b"\r\n") else {
        return if buf.len() >= MAX_V1_LINE {
            Err(ProxyHeaderError::LineTooLong)
        } else {
            Ok(None)
        };
    };
    let line = std::str::from_utf8(&buf[..end])
        .map_err(|_| ProxyHeaderError::BadLine("not ASCII text"))?;
    let len = end + 2;
    let mut words = line.split(' ');
    words.next(); // "PROXY", checked by the caller
    let client = match words.next() {
        // Whatever follows UNKNOWN is to be ignored.
        Some("UNKNOWN") => None,
        Some(family @ ("TCP4" | "TCP6")) => {
            let fields: Vec<&str> = words.collect();
            let [source, destination, source_port, destination_port] = fields[..] else {
                return Err(ProxyHeaderError::BadLine(
                    "expected two addresses and two ports",
                ));
            };
            let v4 = family == "TCP4";
            let source = parse_ip(source, v4)?;
            parse_ip(destination, v4)?;
            let port = parse_port(source_port)?;
            parse_port(destination_port)?;
            Some(SocketAddr::new(source, port))
        }
        _ => return Err(ProxyHeaderError::BadLine("unknown protocol")),
    };
    Ok(Some(ProxyHeader { client, len }))
}

fn parse_ip(text: &str, v4: bool) -> Result<IpAddr, ProxyHeaderError> {
    let parsed = if v4 {
        text.parse::<Ipv4Addr>().map(IpAddr::V4)
    } else {
        text.parse::<Ipv6Addr>().map(IpAddr::V6)
    };
    parsed.map_err(|_| ProxyHeaderError::BadLine("bad address for its family"))
}

fn parse_port(text: &str) -> Result<u16, ProxyHeaderError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ProxyHeaderError::BadLine("bad port"));
    }
    text.parse()
        .map_err(|_| ProxyHeaderError::BadLine("bad port"))
}

/// The 16-byte header (signature, version and command, family, length) and the address block.
fn parse_v2(buf: &[u8]) -> Result<Option<ProxyHeader>, ProxyHeaderError> {
    const FIXED: usize = 16;
    if buf.len() < FIXED {
        return Ok(None);
    }
    let version = buf[12] >> 4;
    let command = buf[12] & 0x0f;
    if version != 2 {
        return Err(ProxyHeaderError::Version(version));
    }
    let block_len = u16::from_be_bytes([buf[14], buf[15]]) as usize;
    if block_len > MAX_V2_BLOCK {
        return Err(ProxyHeaderError::BlockTooLong(block_len));
    }
    let len = FIXED + block_len;
    if buf.len() < len {
        return Ok(None);
    }
    let block = &buf[FIXED..len];
    let client = match command {
        // LOCAL: the proxy's own connection (a health check); the block is to be skipped.
        0 => None,
        1 => match buf[13] >> 4 {
            // AF_INET, AF_INET6: source, destination, source port, destination port.
            1 => Some(source::<4>(block, block_len)?),
            2 => Some(source::<16>(block, block_len)?),
            // AF_UNSPEC or AF_UNIX: no internet address to count by.
            _ => None,
        },
        other => return Err(ProxyHeaderError::Command(other)),
    };
    Ok(Some(ProxyHeader { client, len }))
}

/// The source address of a v2 address block whose addresses are `N` bytes long: the source
/// address first, then the destination, then the source port.
fn source<const N: usize>(block: &[u8], block_len: usize) -> Result<SocketAddr, ProxyHeaderError>
where
    IpAddr: From<[u8; N]>,
{
    let short = || ProxyHeaderError::ShortBlock(block_len);
    let addr: [u8; N] = block
        .get(..N)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(short)?;
    let port = block.get(2 * N..2 * N + 2).ok_or_else(short)?;
    Ok(SocketAddr::new(
        IpAddr::from(addr),
        u16::from_be_bytes([port[0], port[1]]),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v2(command: u8, family: u8, block: &[u8]) -> Vec<u8> {
        let mut bytes = V2_SIGNATURE.to_vec();
        bytes.push(0x20 | command);
        bytes.push(family);
        bytes.extend_from_slice(&(block.len() as u16).to_be_bytes());
        bytes.extend_from_slice(block);
        bytes
    }

    fn v2_inet(client: [u8; 4], port: u16) -> Vec<u8> {
        let mut block = client.to_vec();
        block.extend_from_slice(&[10, 0, 0, 1]);
        block.extend_from_slice(&port.to_be_bytes());
        block.extend_from_slice(&443u16.to_be_bytes());
        v2(1, 0x11, &block)
    }

    #[test]
    fn a_v1_line_carries_the_clients_address_and_its_length() {
        let line = b"PROXY TCP4 203.0.113.7 10.0.0.1 56324 443\r\nGET / HTTP/1.1\r\n";
        let header = parse(line).unwrap().unwrap();
        assert_eq!(header.client, Some("203.0.113.7:56324".parse().unwrap()));
        assert_eq!(&line[header.len..header.len + 3], b"GET");
        let six = b"PROXY TCP6 2001:db8::7 2001:db8::1 1 2\r\n";
        assert_eq!(
            parse(six).unwrap().unwrap().client,
            Some("[2001:db8::7]:1".parse().unwrap())
        );
    }

    #[test]
    fn a_v1_unknown_line_names_nobody() {
        let header = parse(b"PROXY UNKNOWN whatever\r\n").unwrap().unwrap();
        assert_eq!(
            header,
            ProxyHeader {
                client: None,
                len: 24
            }
        );
        assert_eq!(parse(b"PROXY UNKNOWN\r\n").unwrap().unwrap().len, 15);
    }

    #[test]
    fn malformed_v1_lines_are_refused_by_name() {
        let cases: [(&[u8], ProxyHeaderError); 6] = [
            (
                b"PROXY TCP4 203.0.113.7 10.0.0.1 56324\r\n",
                ProxyHeaderError::BadLine("expected two addresses and two ports"),
            ),
            (
                b"PROXY TCP4 2001:db8::7 10.0.0.1 1 2\r\n",
                ProxyHeaderError::BadLine("bad address for its family"),
            ),
            (
                b"PROXY TCP4 203.0.113.7 10.0.0.1 70000 2\r\n",
                ProxyHeaderError::BadLine("bad port"),
            ),
            (
                b"PROXY TCP4 203.0.113.7 10.0.0.1 +1 2\r\n",
                ProxyHeaderError::BadLine("bad port"),
            ),
            (
                b"PROXY UDP4 203.0.113.7 10.0.0.1 1 2\r\n",
                ProxyHeaderError::BadLine("unknown protocol"),
            ),
            (
                &[b'P', b'R', b'O', b'X', b'Y', b' ', 0xff, b'\r', b'\n'],
                ProxyHeaderError::BadLine("not ASCII text"),
            ),
        ];
        for (bytes, error) in cases {
            assert_eq!(
                parse(bytes),
                Err(error),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
        let long = [b"PROXY TCP4 ".as_slice(), &[b'1'; 120]].concat();
        assert_eq!(parse(&long), Err(ProxyHeaderError::LineTooLong));
    }

    #[test]
    fn a_v2_header_carries_an_ipv4_or_ipv6_client_and_local_names_nobody() {
        let mut bytes = v2_inet([203, 0, 113, 7], 56324);
        let len = bytes.len();
        bytes.extend_from_slice(b"GET");
        let header = parse(&bytes).unwrap().unwrap();
        assert_eq!(header.client, Some("203.0.113.7:56324".parse().unwrap()));
        assert_eq!(header.len, len);

        let mut block = "2001:db8::7".parse::<Ipv6Addr>().unwrap().octets().to_vec();
        block.extend_from_slice(&[0; 16]);
        block.extend_from_slice(&[0, 9, 1, 187]);
        block.extend_from_slice(&[0x04, 0, 1, b'x']); // a TLV, skipped
        let header = parse(&v2(1, 0x21, &block)).unwrap().unwrap();
        assert_eq!(header.client, Some("[2001:db8::7]:9".parse().unwrap()));

        let local = parse(&v2(0, 0x00, &[])).unwrap().unwrap();
        assert_eq!(
            local,
            ProxyHeader {
                client: None,
                len: 16
            }
        );
        let unix = parse(&v2(1, 0x31, &[0; 216])).unwrap().unwrap();
        assert_eq!(unix.client, None);
    }

    #[test]
    fn malformed_v2_headers_are_refused_by_name() {
        let mut wrong_version = v2_inet([1, 2, 3, 4], 1);
        wrong_version[12] = 0x11;
        assert_eq!(parse(&wrong_version), Err(ProxyHeaderError::Version(1)));
        assert_eq!(
            parse(&v2(2, 0x11, &[0; 12])),
            Err(ProxyHeaderError::Command(2))
        );
        assert_eq!(
            parse(&v2(1, 0x11, &[0; 8])),
            Err(ProxyHeaderError::ShortBlock(8))
        );
        assert_eq!(
            parse(&v2(1, 0x21, &[0; 20])),
            Err(ProxyHeaderError::ShortBlock(20))
        );
        let mut huge = V2_SIGNATURE.to_vec();
        huge.extend_from_slice(&[0x21, 0x11, 0xff, 0xff]);
        assert_eq!(parse(&huge), Err(ProxyHeaderError::BlockTooLong(65535)));
    }

    #[test]
    fn anything_else_is_refused_at_its_first_wrong_byte() {
        assert_eq!(parse(b"G"), Err(ProxyHeaderError::Missing));
        assert_eq!(parse(b"GET / HTTP/1.1\r\n"), Err(ProxyHeaderError::Missing));
        assert_eq!(parse(b"\r\n\r\nX"), Err(ProxyHeaderError::Missing));
        assert_eq!(parse(b"PROX"), Ok(None));
        assert_eq!(parse(b"\r\n\r\n\0"), Ok(None));
    }

    #[test]
    fn every_prefix_of_a_header_asks_for_more() {
        let headers = [
            b"PROXY TCP4 203.0.113.7 10.0.0.1 56324 443\r\n".to_vec(),
            v2_inet([203, 0, 113, 7], 56324),
        ];
        for header in headers {
            for cut in 0..header.len() {
                assert_eq!(parse(&header[..cut]), Ok(None), "cut at {cut}");
            }
        }
    }

    /// A small xorshift generator: the test is seeded and repeatable without a dependency.
    struct Xorshift(u64);

    impl Xorshift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Random bytes, valid headers cut anywhere and valid headers with a byte flipped: the
    /// parser answers each without panicking, never claims more bytes than it was given, and
    /// never asks for more once a header could not be shorter than its bounds.
    #[test]
    fn no_input_makes_the_parser_panic_or_read_past_its_bounds() {
        let mut rng = Xorshift(0x5eed_cafe_f00d_d00d);
        let valid = [
            b"PROXY TCP4 203.0.113.7 10.0.0.1 56324 443\r\n".to_vec(),
            b"PROXY TCP6 2001:db8::7 2001:db8::1 1 2\r\n".to_vec(),
            b"PROXY UNKNOWN\r\n".to_vec(),
            v2_inet([203, 0, 113, 7], 56324),
            v2(0, 0, &[]),
            v2(1, 0x21, &[7; 36]),
        ];
        for round in 0..200_000u32 {
            let bytes = match round % 3 {
                0 => {
                    // Often start like a header, so the deeper paths are reached too.
                    let start: &[u8] = match rng.next() % 3 {
                        0 => &V2_SIGNATURE,
                        1 => V1_PREFIX,
                        _ => &[],
                    };
                    let len = (rng.next() % 300) as usize;
                    let mut bytes = start.to_vec();
                    bytes.extend((0..len).map(|_| rng.next() as u8));
                    bytes
                }
                1 => {
                    let header = &valid[(rng.next() % valid.len() as u64) as usize];
                    header[..(rng.next() % (header.len() as u64 + 1)) as usize].to_vec()
                }
                _ => {
                    let mut header = valid[(rng.next() % valid.len() as u64) as usize].clone();
                    let at = (rng.next() % header.len() as u64) as usize;
                    header[at] = rng.next() as u8;
                    header
                }
            };
            match parse(&bytes) {
                Ok(Some(header)) => assert!(header.len <= bytes.len()),
                Ok(None) => assert!(bytes.len() < 16 + MAX_V2_BLOCK, "{bytes:?}"),
                Err(_) => {}
            }
        }
    }

    #[tokio::test]
    async fn reading_hands_on_the_bytes_after_the_header() {
        let mut bytes = v2_inet([203, 0, 113, 7], 56324);
        bytes.extend_from_slice(b"GET / HTTP/1.1\r\n");
        let (header, rest) = read(&mut bytes.as_slice()).await.unwrap();
        assert_eq!(header.client, Some("203.0.113.7:56324".parse().unwrap()));
        assert_eq!(rest, b"GET / HTTP/1.1\r\n");
        let cut = b"PROXY TCP4 203.0.113.7".as_slice();
        assert_eq!(
            read(&mut &cut[..]).await.unwrap_err(),
            ProxyHeaderError::Truncated
        );
    }
}

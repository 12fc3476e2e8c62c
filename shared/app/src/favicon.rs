//! dochiya's icon: an old Korean coin (엽전, a disc with a square hole) on a green
//! rounded square, as a 32×32 `/favicon.ico` drawn here pixel by pixel (no image file,
//! the same bytes every build), as the SVG data URI of `serverInfo.icons`, and as the
//! SVG itself at `/icon.svg` (the icon `server.json` names; `docs/icon.svg` is a copy).

use std::sync::OnceLock;

use bytes::Bytes;

/// Side of the drawn icon, in pixels.
const SIDE: u32 = 32;
/// The background green (#2E7D5B) and the coin's white, as BGRA.
const GREEN: [u8; 4] = [0x5B, 0x7D, 0x2E, 0xFF];
const WHITE: [u8; 4] = [0xFF, 0xFF, 0xFF, 0xFF];
const CLEAR: [u8; 4] = [0, 0, 0, 0];

/// The same drawing as SVG (what clients that render vector icons show).
pub const SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\"><rect width=\"32\" height=\"32\" rx=\"6\" fill=\"#2e7d5b\"/><circle cx=\"16\" cy=\"16\" r=\"11\" fill=\"#fff\"/><rect x=\"12\" y=\"12\" width=\"8\" height=\"8\" fill=\"#2e7d5b\"/></svg>";

/// The SVG as a `data:` URI (percent-encoded, so it needs no base64).
pub fn svg_data_uri() -> String {
    let mut uri = String::from("data:image/svg+xml,");
    for b in SVG.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b':'
            | b'='
            | b',' => uri.push(char::from(b)),
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri
}

/// The colour of pixel (x, y), y from the top, sampled at its centre.
fn pixel(x: u32, y: u32) -> [u8; 4] {
    // Coordinates doubled so the centre (x + 0.5) stays an integer: no floats.
    let (cx, cy) = (2 * i64::from(x) + 1, 2 * i64::from(y) + 1);
    let side = 2 * i64::from(SIDE);
    // Rounded square, corner radius 6 px.
    let r = 12;
    let nx = cx.clamp(r, side - r);
    let ny = cy.clamp(r, side - r);
    if (cx - nx).pow(2) + (cy - ny).pow(2) > r * r {
        return CLEAR;
    }
    // Square hole 8 px wide in the middle, then the coin of radius 11 px.
    if (24..=40).contains(&cx) && (24..=40).contains(&cy) {
        return GREEN;
    }
    if (cx - 32).pow(2) + (cy - 32).pow(2) <= 22 * 22 {
        return WHITE;
    }
    GREEN
}

/// The ICO file: one 32×32 32-bit image (BMP header, bottom-up BGRA rows, an AND mask).
pub fn ico() -> Vec<u8> {
    let pixels = (SIDE * SIDE * 4) as usize;
    // The AND mask: one bit per pixel, rows padded to 4 bytes; all 0 (alpha decides).
    let mask = (SIDE / 8).div_ceil(4) as usize * 4 * SIDE as usize;
    let image = 40 + pixels + mask;
    let mut out = Vec::with_capacity(6 + 16 + image);
    // ICONDIR: reserved, type 1 (icon), one image.
    out.extend_from_slice(&[0, 0, 1, 0, 1, 0]);
    // ICONDIRENTRY: 32×32, no palette, 1 plane, 32 bpp, size, offset 22.
    out.extend_from_slice(&[SIDE as u8, SIDE as u8, 0, 0, 1, 0, 32, 0]);
    out.extend_from_slice(&(image as u32).to_le_bytes());
    out.extend_from_slice(&22u32.to_le_bytes());
    // BITMAPINFOHEADER: height doubled (image + mask), as ICO wants.
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&SIDE.to_le_bytes());
    out.extend_from_slice(&(2 * SIDE).to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&32u16.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // no compression
    out.extend_from_slice(&((pixels + mask) as u32).to_le_bytes());
    out.extend_from_slice(&[0; 16]); // resolution and palette counts
    for y in (0..SIDE).rev() {
        for x in 0..SIDE {
            out.extend_from_slice(&pixel(x, y));
        }
    }
    out.resize(out.len() + mask, 0);
    out
}

/// `GET /favicon.ico`: the icon, cacheable for a day.
pub fn response() -> http::Response<Bytes> {
    static ICO: OnceLock<Bytes> = OnceLock::new();
    let body = ICO.get_or_init(|| Bytes::from(ico())).clone();
    let mut response = http::Response::new(body);
    let headers = response.headers_mut();
    headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("image/x-icon"),
    );
    headers.insert(
        http::header::CACHE_CONTROL,
        http::HeaderValue::from_static("public, max-age=86400"),
    );
    response
}

/// `GET /icon.svg`: the same drawing as SVG, cacheable for a day; the drawing
/// `server.json`'s icon names (`docs/icon.svg`), served from every deployment's own
/// origin. An SVG opened on its own is a document, so it also says: no sniffing, and
/// nothing to load or run.
pub fn svg_response() -> http::Response<Bytes> {
    let mut response = http::Response::new(Bytes::from_static(SVG.as_bytes()));
    let headers = response.headers_mut();
    headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("image/svg+xml"),
    );
    headers.insert(
        http::header::CACHE_CONTROL,
        http::HeaderValue::from_static("public, max-age=86400"),
    );
    headers.insert(
        http::header::X_CONTENT_TYPE_OPTIONS,
        http::HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        http::header::CONTENT_SECURITY_POLICY,
        http::HeaderValue::from_static("default-src 'none'"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ico_is_one_32_pixel_image_with_its_declared_sizes() {
        let ico = ico();
        assert_eq!(ico.len(), 6 + 16 + 40 + 32 * 32 * 4 + 4 * 32);
        assert_eq!(&ico[..6], &[0, 0, 1, 0, 1, 0]);
        assert_eq!(&ico[6..8], &[32, 32]);
        let size = u32::from_le_bytes([ico[14], ico[15], ico[16], ico[17]]) as usize;
        let offset = u32::from_le_bytes([ico[18], ico[19], ico[20], ico[21]]) as usize;
        assert_eq!((offset, offset + size), (22, ico.len()));
        // The same bytes every time.
        assert_eq!(ico, super::ico());
    }

    #[test]
    fn the_drawing_has_its_corners_clear_a_coin_and_a_hole() {
        assert_eq!(pixel(0, 0), CLEAR);
        assert_eq!(pixel(16, 2), GREEN);
        assert_eq!(pixel(16, 7), WHITE);
        assert_eq!(pixel(16, 16), GREEN);
        assert_eq!(pixel(8, 16), WHITE);
    }

    #[test]
    fn the_svg_travels_as_a_data_uri() {
        let uri = svg_data_uri();
        assert!(uri.starts_with("data:image/svg+xml,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22"));
        assert!(!uri.contains(['<', '>', '"', '#', ' ']));
    }
}

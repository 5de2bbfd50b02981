//! Gzip framing (RFC 1952) around miniz_oxide's deflate, for share links.
//!
//! Only the framing is ours: a 10-byte header (plus the optional fields other encoders write), the
//! deflate stream, then the CRC-32 and length of the data. flate2 does the same with `io` adapters
//! and crc32fast's 16 KB of tables, which cost about twice as much wasm; this keeps the codec at
//! about 20 KB gzipped in the bundle.

use miniz_oxide::inflate::TINFLStatus;

const MAGIC: [u8; 2] = [0x1f, 0x8b];
const DEFLATE: u8 = 8;
const FHCRC: u8 = 0x02;
const FEXTRA: u8 = 0x04;
const FNAME: u8 = 0x08;
const FCOMMENT: u8 = 0x10;
const RESERVED: u8 = 0xe0;
/// Best compression: share links should be short.
const LEVEL: u8 = 9;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GzipError {
    #[error("not gzip data ({0})")]
    NotGzip(&'static str),
    #[error("the compressed data is damaged ({0:?})")]
    Damaged(TINFLStatus),
    #[error("the data is larger than {limit} bytes once unpacked")]
    TooLarge { limit: usize },
    #[error("the data does not match its checksum (altered or cut short)")]
    Checksum,
}

/// `data` as one gzip member.
pub fn compress(data: &[u8]) -> Vec<u8> {
    // No mtime (reproducible links), XFL 2 = best compression, OS 255 = unknown.
    let mut packed = vec![MAGIC[0], MAGIC[1], DEFLATE, 0, 0, 0, 0, 0, 2, 255];
    packed.extend(miniz_oxide::deflate::compress_to_vec(data, LEVEL));
    packed.extend(crc32(data).to_le_bytes());
    packed.extend((data.len() as u32).to_le_bytes());
    packed
}

/// The data of a gzip member, refusing more than `limit` bytes of output.
pub fn decompress(packed: &[u8], limit: usize) -> Result<Vec<u8>, GzipError> {
    let body_start = header_len(packed)?;
    let trailer_start = packed
        .len()
        .checked_sub(8)
        .filter(|&start| start >= body_start)
        .ok_or(GzipError::NotGzip("too short"))?;
    let data = miniz_oxide::inflate::decompress_to_vec_with_limit(
        &packed[body_start..trailer_start],
        limit,
    )
    .map_err(|error| match error.status {
        TINFLStatus::HasMoreOutput => GzipError::TooLarge { limit },
        status => GzipError::Damaged(status),
    })?;
    let trailer = &packed[trailer_start..];
    let expected_crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
    let expected_len = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
    if crc32(&data) != expected_crc || data.len() as u32 != expected_len {
        return Err(GzipError::Checksum);
    }
    Ok(data)
}

/// Where the deflate stream starts, after the fixed header and the optional fields its flags announce.
fn header_len(packed: &[u8]) -> Result<usize, GzipError> {
    if packed.len() < 10 || packed[..2] != MAGIC {
        return Err(GzipError::NotGzip("no gzip header"));
    }
    if packed[2] != DEFLATE {
        return Err(GzipError::NotGzip("unknown compression method"));
    }
    let flags = packed[3];
    if flags & RESERVED != 0 {
        return Err(GzipError::NotGzip("reserved header flags set"));
    }
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let extra = packed
            .get(at..at + 2)
            .ok_or(GzipError::NotGzip("truncated header"))?;
        at += 2 + usize::from(u16::from_le_bytes([extra[0], extra[1]]));
    }
    for field in [FNAME, FCOMMENT] {
        if flags & field != 0 {
            let end = packed
                .get(at..)
                .and_then(|rest| rest.iter().position(|&byte| byte == 0));
            at += end.ok_or(GzipError::NotGzip("truncated header"))? + 1;
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    if at > packed.len() {
        return Err(GzipError::NotGzip("truncated header"));
    }
    Ok(at)
}

/// CRC-32 (IEEE, reflected), as gzip stores it.
fn crc32(data: &[u8]) -> u32 {
    !data.iter().fold(!0u32, |crc, &byte| {
        CRC_TABLE[usize::from((crc as u8) ^ byte)] ^ (crc >> 8)
    })
}

const CRC_TABLE: [u32; 256] = crc_table();

const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut index = 0;
    while index < 256 {
        let mut crc = index as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[index] = crc;
        index += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn a_compressed_text_comes_back_unchanged() {
        let text = "Députés ".repeat(500);
        let packed = compress(text.as_bytes());
        assert!(packed.len() < 200);
        assert_eq!(decompress(&packed, 1 << 20).unwrap(), text.as_bytes());
    }

    #[test]
    fn a_header_with_a_file_name_comment_extra_field_and_header_crc_is_skipped() {
        let body = &compress(b"hello")[10..];
        let mut packed = vec![
            0x1f,
            0x8b,
            8,
            FEXTRA | FNAME | FCOMMENT | FHCRC,
            0,
            0,
            0,
            0,
            0,
            3,
        ];
        packed.extend([3, 0, b'a', b'b', b'c']);
        packed.extend(b"skill.json\0a comment\0");
        packed.extend([0xaa, 0xbb]);
        packed.extend(body);
        assert_eq!(decompress(&packed, 100).unwrap(), b"hello");
    }

    #[test]
    fn damaged_cut_and_oversized_data_are_refused() {
        let packed = compress(&[b'x'; 1000]);
        assert_eq!(
            decompress(&packed, 999),
            Err(GzipError::TooLarge { limit: 999 })
        );
        assert!(decompress(&packed[..packed.len() - 3], 2000).is_err());
        let mut altered = packed.clone();
        let last = altered.len() - 5;
        altered[last] ^= 1;
        assert_eq!(decompress(&altered, 2000), Err(GzipError::Checksum));
        assert_eq!(
            decompress(b"hello world", 100),
            Err(GzipError::NotGzip("no gzip header"))
        );
    }
}

#!/usr/bin/env python3
"""Independent WARC/1.1 checker for topicrawl output (used by store_test).

Written against the spec, not against our C++ reader: every gzip member must
hold exactly one record (WARC/1.1 Annex D.2), each record is a version line,
header fields, an empty line, exactly Content-Length bytes and CRLF CRLF
(section 4); WARC-Block-Digest / WARC-Payload-Digest (sha1, base32) are
recomputed with hashlib. Usage: warc_verify.py FILE...; prints one line per
file "FILE records=N types=t1,t2,..." and exits 1 on the first problem.
"""
import base64
import hashlib
import sys
import zlib


def digest(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def check_record(data, where):
    head_end = data.find(b"\r\n\r\n")
    if head_end < 0:
        raise ValueError(f"{where}: no end of WARC header")
    lines = data[:head_end].decode("utf-8").split("\r\n")
    if lines[0] not in ("WARC/1.1", "WARC/1.0"):
        raise ValueError(f"{where}: bad version line {lines[0]!r}")
    fields = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"{where}: bad header line {line!r}")
        fields.setdefault(name.strip().lower(), value.strip())
    for name in ("warc-type", "warc-record-id", "warc-date", "content-length"):
        if name not in fields:
            raise ValueError(f"{where}: missing {name}")
    if not (fields["warc-record-id"].startswith("<urn:uuid:") and
            fields["warc-record-id"].endswith(">")):
        raise ValueError(f"{where}: bad WARC-Record-ID")
    length = int(fields["content-length"])
    block = data[head_end + 4:head_end + 4 + length]
    if len(block) != length:
        raise ValueError(f"{where}: block shorter than Content-Length")
    if data[head_end + 4 + length:] != b"\r\n\r\n":
        raise ValueError(f"{where}: record not followed by exactly CRLF CRLF")
    if "warc-block-digest" in fields and fields["warc-block-digest"] != digest(block):
        raise ValueError(f"{where}: WARC-Block-Digest mismatch")
    if "warc-payload-digest" in fields:
        payload = block[block.find(b"\r\n\r\n") + 4:]
        if fields["warc-payload-digest"] != digest(payload):
            raise ValueError(f"{where}: WARC-Payload-Digest mismatch")
    return fields["warc-type"]


def check_file(path):
    raw = open(path, "rb").read()
    offset, types = 0, []
    while offset < len(raw):
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        data = d.decompress(raw[offset:])
        if not d.eof:
            raise ValueError(f"{path}@{offset}: truncated gzip member")
        types.append(check_record(data, f"{path}@{offset}"))
        offset = len(raw) - len(d.unused_data)
    if types and types[0] != "warcinfo":
        raise ValueError(f"{path}: first record is not warcinfo")
    return types


def main():
    for path in sys.argv[1:]:
        try:
            types = check_file(path)
        except (ValueError, UnicodeDecodeError, zlib.error) as e:
            print(f"FAIL {e}")
            return 1
        print(f"{path} records={len(types)} types={','.join(sorted(set(types)))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

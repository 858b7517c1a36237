#include "crawl/state_blob.h"

#include <cstring>

#include <zstd.h>

namespace topicrawl {

// ---- StateWriter ------------------------------------------------------------

void StateWriter::Section(std::string_view tag, uint32_t version) {
  Str(tag);
  U32(version);
}

void StateWriter::U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }

void StateWriter::U32(uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void StateWriter::U64(uint64_t v) {
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void StateWriter::F64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  U64(bits);
}

void StateWriter::Str(std::string_view s) {
  U64(s.size());
  out_.append(s);
}

void StateWriter::F64s(const std::vector<double>& v) {
  U64(v.size());
  for (double x : v) F64(x);
}

void StateWriter::Bools(const std::vector<bool>& v) {
  U64(v.size());
  for (bool x : v) Bool(x);
}

void StateWriter::Var(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void StateWriter::Packed(std::string_view raw) {
  std::string z(ZSTD_compressBound(raw.size()), '\0');
  // Level 3 (zstd's default): ~100+ MB/s here, which keeps a checkpoint of a
  // large state short; higher levels gained little on crawl states.
  const size_t n = ZSTD_compress(z.data(), z.size(), raw.data(), raw.size(), 3);
  // Compression cannot fail into a buffer of ZSTD_compressBound bytes; if it
  // ever did, an empty frame is written and the reader reports it.
  z.resize(ZSTD_isError(n) ? 0 : n);
  U64(raw.size());
  Str(z);
}

// ---- StateReader ------------------------------------------------------------

bool StateReader::Fail(const std::string& message) {
  if (status_.ok()) status_ = Status::Error("section '" + section_ + "': " + message);
  return false;
}

bool StateReader::Take(size_t n, const char* what, std::string_view* out) {
  if (!status_.ok()) return false;
  if (in_.size() - pos_ < n) return Fail(std::string("truncated at '") + what + "'");
  *out = in_.substr(pos_, n);
  pos_ += n;
  return true;
}

bool StateReader::U8(uint8_t* v, const char* what) {
  std::string_view b;
  if (!Take(1, what, &b)) return false;
  *v = static_cast<uint8_t>(b[0]);
  return true;
}

bool StateReader::U32(uint32_t* v, const char* what) {
  std::string_view b;
  if (!Take(4, what, &b)) return false;
  uint32_t x = 0;
  for (int i = 0; i < 4; ++i) x |= static_cast<uint32_t>(static_cast<uint8_t>(b[i])) << (8 * i);
  *v = x;
  return true;
}

bool StateReader::U64(uint64_t* v, const char* what) {
  std::string_view b;
  if (!Take(8, what, &b)) return false;
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x |= static_cast<uint64_t>(static_cast<uint8_t>(b[i])) << (8 * i);
  *v = x;
  return true;
}

bool StateReader::I64(int64_t* v, const char* what) {
  uint64_t x;
  if (!U64(&x, what)) return false;
  *v = static_cast<int64_t>(x);
  return true;
}

bool StateReader::F64(double* v, const char* what) {
  uint64_t bits;
  if (!U64(&bits, what)) return false;
  std::memcpy(v, &bits, sizeof bits);
  return true;
}

bool StateReader::Bool(bool* v, const char* what) {
  uint8_t x;
  if (!U8(&x, what)) return false;
  if (x > 1) return Fail(std::string("'") + what + "' is not a boolean");
  *v = x == 1;
  return true;
}

bool StateReader::Count(uint64_t* n, size_t min_item_bytes, const char* what) {
  if (!U64(n, what)) return false;
  if (min_item_bytes > 0 && *n > remaining() / min_item_bytes) {
    return Fail(std::string("truncated: count of '") + what + "' (" + std::to_string(*n) +
                ") exceeds the data left");
  }
  return true;
}

bool StateReader::Str(std::string* s, const char* what) {
  uint64_t n;
  if (!Count(&n, 1, what)) return false;
  std::string_view b;
  if (!Take(static_cast<size_t>(n), what, &b)) return false;
  s->assign(b);
  return true;
}

bool StateReader::F64s(std::vector<double>* v, const char* what) {
  uint64_t n;
  if (!Count(&n, 8, what)) return false;
  v->resize(n);
  for (double& x : *v) {
    if (!F64(&x, what)) return false;
  }
  return true;
}

bool StateReader::Bools(std::vector<bool>* v, const char* what) {
  uint64_t n;
  if (!Count(&n, 1, what)) return false;
  v->assign(n, false);
  for (uint64_t i = 0; i < n; ++i) {
    bool b;
    if (!Bool(&b, what)) return false;
    (*v)[i] = b;
  }
  return true;
}

bool StateReader::Var(uint64_t* v, const char* what) {
  uint64_t x = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b;
    if (!U8(&b, what)) return false;
    if (shift == 63 && b > 1) break;
    x |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      return true;
    }
  }
  return Fail(std::string("'") + what + "' is not a valid varint");
}

bool StateReader::ZigZag(int64_t* v, const char* what) {
  uint64_t u;
  if (!Var(&u, what)) return false;
  *v = static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
  return true;
}

bool StateReader::Packed(std::string* raw, const char* what, uint64_t max_raw) {
  uint64_t size;
  std::string z;
  if (!U64(&size, what) || !Str(&z, what)) return false;
  if (size > max_raw) {
    return Fail(std::string("'") + what + "': packed size " + std::to_string(size) +
                " exceeds the limit");
  }
  const unsigned long long framed = ZSTD_getFrameContentSize(z.data(), z.size());
  if (framed != size) return Fail(std::string("'") + what + "': damaged zstd frame");
  raw->resize(static_cast<size_t>(size));
  const size_t n = ZSTD_decompress(raw->data(), raw->size(), z.data(), z.size());
  if (ZSTD_isError(n) || n != size) {
    raw->clear();
    return Fail(std::string("'") + what + "': damaged zstd frame");
  }
  return true;
}

Status StateReader::Section(std::string_view tag, uint32_t max_version, uint32_t* version) {
  std::string got;
  uint32_t v = 0;
  if (!Str(&got, "section tag") || !U32(&v, "section version")) return status_;
  if (got != tag) {
    Fail("expected section '" + std::string(tag) + "', found '" + got + "'");
    return status_;
  }
  section_ = std::string(tag);
  if (v < 1 || v > max_version) {
    Fail("version " + std::to_string(v) + " not readable by this build (reads 1.." +
         std::to_string(max_version) + ")");
    return status_;
  }
  *version = v;
  return Status::Ok();
}

}  // namespace topicrawl

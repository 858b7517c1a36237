// StateWriter / StateReader: the binary encoding of a strategy's saved
// state (StrategyLearner::SaveState / RestoreState). Little-endian fixed-width
// integers, IEEE doubles, length-prefixed strings; a blob is a sequence of
// sections, each opened by Section(tag, version) so that a reader can say
// which part of which version it does not understand.
//
// The reader never reads past its input: every getter returns false after
// the first short or malformed read and status() then names the section and
// the field. Strategies write their containers in a canonical order (sorted
// keys), so that save -> restore -> save gives the same bytes.
#ifndef TOPICRAWL_CRAWL_STATE_BLOB_H_
#define TOPICRAWL_CRAWL_STATE_BLOB_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace topicrawl {

class StateWriter {
 public:
  // A section header: tag (e.g. "topic", "wang-landau") and format version.
  void Section(std::string_view tag, uint32_t version);
  void U8(uint8_t v);
  void U32(uint32_t v);
  void U64(uint64_t v);
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void F64(double v);
  void Bool(bool v) { U8(v ? 1 : 0); }
  void Str(std::string_view s);
  void F64s(const std::vector<double>& v);
  void Bools(const std::vector<bool>& v);
  // LEB128 varint (1 byte below 128), and ZigZag for signed deltas.
  void Var(uint64_t v);
  void ZigZag(int64_t v) { Var((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  // `raw` compressed with zstd (level 3): u64 raw size, then Str(compressed).
  // For bulky, repetitive parts of a state (URLs, anchors, edge lists).
  void Packed(std::string_view raw);

  const std::string& data() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class StateReader {
 public:
  explicit StateReader(std::string_view data) : in_(data) {}

  // Reads a section header and checks its tag; `version` gets the saved
  // version, which must be in 1..max_version. Errors name both.
  Status Section(std::string_view tag, uint32_t max_version, uint32_t* version);
  // The getters: false (and status() set) on a short or malformed input.
  // `what` names the field in the error message.
  bool U8(uint8_t* v, const char* what);
  bool U32(uint32_t* v, const char* what);
  bool U64(uint64_t* v, const char* what);
  bool I64(int64_t* v, const char* what);
  bool F64(double* v, const char* what);
  bool Bool(bool* v, const char* what);
  bool Str(std::string* s, const char* what);
  bool F64s(std::vector<double>* v, const char* what);
  bool Bools(std::vector<bool>* v, const char* what);
  bool Var(uint64_t* v, const char* what);  // false on > 10 bytes or overflow
  bool ZigZag(int64_t* v, const char* what);
  // Packed()'s bytes back. False on a damaged frame, a size other than the
  // recorded one, or a recorded size above `max_raw` (allocation guard).
  bool Packed(std::string* raw, const char* what, uint64_t max_raw = uint64_t{1} << 34);
  // A count of items that each take at least `min_item_bytes`: guards
  // against absurd allocations from a damaged count.
  bool Count(uint64_t* n, size_t min_item_bytes, const char* what);

  bool AtEnd() const { return pos_ == in_.size(); }
  size_t remaining() const { return in_.size() - pos_; }
  // Ok, or the first error ("section 'x': truncated at field 'y'").
  const Status& status() const { return status_; }
  // Records an error of the caller's (a value out of range); the first wins.
  bool Fail(const std::string& message);

 private:
  bool Take(size_t n, const char* what, std::string_view* out);

  std::string_view in_;
  size_t pos_ = 0;
  std::string section_ = "header";
  Status status_ = Status::Ok();
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CRAWL_STATE_BLOB_H_

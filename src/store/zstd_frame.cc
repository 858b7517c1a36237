#include "store/zstd_frame.h"

#include <zdict.h>
#include <zstd.h>

#include <cstdio>
#include <memory>

namespace topicrawl {
namespace {

uint32_t FrameLe32(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void PutFrameLe32(uint32_t v, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// Bounds a dictionary read from a file: zstd's own trainer never makes one
// near this size.
constexpr uint32_t kMaxDictBytes = 16u << 20;

}  // namespace

std::string WarcZstdDictFrame(std::string_view dict) {
  std::string frame;
  frame.reserve(8 + dict.size());
  PutFrameLe32(kWarcZstdDictMagic, &frame);
  PutFrameLe32(static_cast<uint32_t>(dict.size()), &frame);
  frame.append(dict);
  return frame;
}

StatusOr<std::string> TrainWarcDictionary(const std::vector<std::string>& samples,
                                          size_t max_bytes) {
  std::string all;
  std::vector<size_t> sizes;
  for (const std::string& s : samples) {
    all += s;
    sizes.push_back(s.size());
  }
  std::string dict(max_bytes, '\0');
  const size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), all.data(), sizes.data(),
                                         static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(n)) {
    return Status::Error(std::string("zstd dictionary training failed: ") +
                         ZDICT_getErrorName(n));
  }
  dict.resize(n);
  return dict;
}

std::string ReadWarcZstdDictionary(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return "";
  unsigned char head[8];
  if (std::fread(head, 1, 8, f.get()) != 8 || FrameLe32(head) != kWarcZstdDictMagic) return "";
  const uint32_t size = FrameLe32(head + 4);
  if (size > kMaxDictBytes) return "";
  std::string dict(size, '\0');
  if (std::fread(dict.data(), 1, size, f.get()) != size) return "";
  if (size >= 4 && FrameLe32(reinterpret_cast<const unsigned char*>(dict.data())) == ZSTD_MAGICNUMBER) {
    const unsigned long long raw = ZSTD_getFrameContentSize(dict.data(), dict.size());
    if (raw == ZSTD_CONTENTSIZE_ERROR || raw == ZSTD_CONTENTSIZE_UNKNOWN || raw > kMaxDictBytes) {
      return "";
    }
    std::string out(raw, '\0');
    const size_t rc = ZSTD_decompress(out.data(), out.size(), dict.data(), dict.size());
    if (ZSTD_isError(rc)) return "";
    out.resize(rc);
    return out;
  }
  return dict;
}

ZstdFrameWriter::ZstdFrameWriter(int level) : level_(level), cctx_(ZSTD_createCCtx()) {
  ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level_);
  ZSTD_CCtx_setParameter(cctx_, ZSTD_c_contentSizeFlag, 1);
}

ZstdFrameWriter::~ZstdFrameWriter() {
  ZSTD_freeCDict(cdict_);
  ZSTD_freeCCtx(cctx_);
}

Status ZstdFrameWriter::SetDictionary(std::string_view dict) {
  ZSTD_freeCDict(cdict_);
  cdict_ = nullptr;
  if (!dict.empty()) {
    cdict_ = ZSTD_createCDict(dict.data(), dict.size(), level_);
    if (cdict_ == nullptr) return Status::Error("zstd: unusable dictionary");
  }
  // A CDict carries the level it was made with; without one the
  // parameter set in the constructor applies.
  const size_t rc = ZSTD_CCtx_refCDict(cctx_, cdict_);
  if (ZSTD_isError(rc)) return Status::Error(std::string("zstd: ") + ZSTD_getErrorName(rc));
  return Status::Ok();
}

Status ZstdFrameWriter::Append(std::span<const std::string_view> pieces, ByteBuffer* out) {
  size_t total = 0;
  for (std::string_view p : pieces) total += p.size();
  const size_t before = out->size();
  ZSTD_CCtx_reset(cctx_, ZSTD_reset_session_only);
  ZSTD_CCtx_setPledgedSrcSize(cctx_, total);
  // With room for ZSTD_compressBound() every call consumes its input.
  const size_t bound = ZSTD_compressBound(total);
  ZSTD_outBuffer o{out->Reserve(bound), bound, 0};
  auto fail = [&](const char* why) {
    out->Truncate(before);
    return Status::Error(std::string("zstd compression failed: ") + why);
  };
  for (std::string_view p : pieces) {
    ZSTD_inBuffer in{p.data(), p.size(), 0};
    while (in.pos < in.size) {
      const size_t rc = ZSTD_compressStream2(cctx_, &o, &in, ZSTD_e_continue);
      if (ZSTD_isError(rc)) return fail(ZSTD_getErrorName(rc));
      if (o.pos == o.size) return fail("output bound reached");
    }
  }
  ZSTD_inBuffer none{nullptr, 0, 0};
  while (true) {
    const size_t rc = ZSTD_compressStream2(cctx_, &o, &none, ZSTD_e_end);
    if (ZSTD_isError(rc)) return fail(ZSTD_getErrorName(rc));
    if (rc == 0) break;
    if (o.pos == o.size) return fail("output bound reached");
  }
  out->Commit(o.pos);
  return Status::Ok();
}

}  // namespace topicrawl

#include "export/wacz.h"

#include <openssl/evp.h>
#include <zip.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "export/cdxj.h"
#include "export/export_pages.h"
#include "export/page_optout.h"
#include "export/warc_gzip_copy.h"
#include "nlohmann/json.hpp"
#include "store/crawl_db_reader.h"
#include "store/warc_reader.h"
#include "store/warc_writer.h"

namespace topicrawl {
namespace {

namespace fs = std::filesystem;

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

// Removes the staging directory however WriteWacz ends.
struct StagingDir {
  std::string path;
  ~StagingDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// One zip entry: where it comes from and its name in the archive.
struct Entry {
  std::string source;
  std::string name;
  bool stored = false;  // WARC files: no deflate
};

Status CopyRange(FILE* from, uint64_t offset, uint64_t length, FILE* to, const std::string& src) {
  if (fseeko(from, static_cast<off_t>(offset), SEEK_SET) != 0) {
    return Status::Error("cannot seek in " + src);
  }
  char buf[1 << 16];
  while (length > 0) {
    const size_t want = length < sizeof(buf) ? static_cast<size_t>(length) : sizeof(buf);
    const size_t got = std::fread(buf, 1, want, from);
    if (got == 0) {
      return Status::Error(src + ": ends before offset " + std::to_string(offset) +
                           " + length: the WARC file is truncated");
    }
    if (std::fwrite(buf, 1, got, to) != got) return Status::Error("write failed");
    length -= got;
  }
  return Status::Ok();
}

// Where CopyRelevantRecords writes one source file's records: byte ranges
// of a gzip WARC copied as they are, records of a zstd WARC re-encoded as
// gzip members (export/warc_gzip_copy.h).
struct RecordCopy {
  std::string src;
  File in, out;
  std::unique_ptr<GzipRecordSink> gzip;  // set for a zstd source

  Status Open(const std::string& source, const std::string& archive_dir, std::string* dst) {
    src = source;
    *dst = archive_dir + "/" + GzipWarcName(fs::path(src).filename().string());
    in.reset(std::fopen(src.c_str(), "rb"));
    out.reset(std::fopen(dst->c_str(), "wb"));
    if (!in || !out) {
      return Status::Error("cannot copy " + src + " to " + *dst + ": " + std::strerror(errno));
    }
    gzip.reset(IsZstdWarcName(src) ? new GzipRecordSink(out.get()) : nullptr);
    return Status::Ok();
  }
  Status Copy(uint64_t offset, uint64_t length) {
    if (gzip) return RecompressWarcRange(src, offset, offset + length, gzip.get());
    return CopyRange(in.get(), offset, length, out.get(), src);
  }
};

// Rewrites each WARC file holding a relevant page into staging/archive/
// with its warcinfo member and the relevant pages' record groups.
StatusOr<std::vector<std::string>> CopyRelevantRecords(CrawlDbReader& db,
                                                       const std::string& crawl_dir,
                                                       const ExportFilter& filter,
                                                       const std::string& archive_dir) {
  std::vector<std::string> written;
  std::string current;
  RecordCopy copy;
  Status error;
  Status s = ForEachExportPage(db, filter, [&](const ExportPage& p) {
    if (p.warc_file.find("..") != std::string::npos || p.warc_file[0] == '/') {
      error = Status::Error("suspicious WARC file name " + p.warc_file);
      return false;
    }
    const std::string src = crawl_dir + "/" + p.warc_file;
    if (p.warc_file != current) {
      current = p.warc_file;
      StatusOr<ParsedWarcRecord> info = ReadWarcRecordAt(src, 0);
      if (!info.ok()) {
        error = info.status();
        return false;
      }
      std::string dst;
      error = copy.Open(src, archive_dir, &dst);
      if (!error.ok()) return false;
      written.push_back(dst);
      if (info->Header("WARC-Type") == "warcinfo") {
        // A zstd file's dictionary frame stays behind: the copy is gzip.
        error = copy.gzip ? copy.gzip->Write(*info)
                          : CopyRange(copy.in.get(), 0, info->offset + info->length,
                                      copy.out.get(), src);
      }
    }
    if (error.ok()) error = copy.Copy(p.warc_offset, p.warc_length);
    return error.ok();
  });
  if (!error.ok()) return error;
  if (!s.ok()) return s;
  if (copy.out && std::fflush(copy.out.get()) != 0) {
    return Status::Error("write failed in " + archive_dir);
  }
  return written;
}

// The page's opt-out signals as pages.jsonl fields: "optout" (the list,
// when there is any) and "optout_reserved" (a signal reserves the page), or
// "optout_error" when its response record cannot be read.
void AddOptOutFields(const std::string& crawl_dir, const ExportPage& p, const HostOptOut& hosts,
                     nlohmann::ordered_json* j) {
  StatusOr<OptOutSignals> optout =
      StoredPageOptOut(crawl_dir, {p.url, p.content_type, p.warc_file, p.warc_offset}, hosts);
  if (!optout.ok()) {
    (*j)["optout_error"] = optout.status().message();
    return;
  }
  if (optout->signals.empty()) return;
  (*j)["optout"] = optout->signals;
  (*j)["optout_reserved"] = optout->reserved;
}

StatusOr<int64_t> WritePagesJsonl(CrawlDbReader& db, const std::string& crawl_dir,
                                  const ExportFilter& filter, const HostOptOut& hosts,
                                  const std::string& path, nlohmann::ordered_json* main_page) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << R"({"format": "json-pages-1.0", "id": "pages", "title": "All Pages"})" << '\n';
  int64_t n = 0;
  Status s = ForEachExportPage(db, filter, [&](const ExportPage& p) {
    nlohmann::ordered_json j;
    j["id"] = std::to_string(p.id);
    j["url"] = p.url;
    j["ts"] = WarcDate(p.fetched_at);
    j["title"] = p.title;
    j["relevance"] = p.relevance ? nlohmann::ordered_json(*p.relevance) : nullptr;
    j["link_score"] = p.link_score;
    j["depth"] = p.depth;
    nlohmann::ordered_json why = nlohmann::ordered_json::parse(p.explanation, nullptr, false);
    j["why"] = why.is_discarded() ? nlohmann::ordered_json(p.explanation) : why;
    AddOptOutFields(crawl_dir, p, hosts, &j);
    if (n == 0) *main_page = j;
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    ++n;
    return static_cast<bool>(out);
  });
  out.close();
  if (!s.ok()) return s;
  if (!out) return Status::Error("cannot write " + path);
  return n;
}

std::string NowIso() {
  return WarcDate(static_cast<int64_t>(std::time(nullptr)) * 1000);
}

StatusOr<nlohmann::ordered_json> DataPackage(const std::vector<Entry>& entries,
                                             const WaczOptions& options, const std::string& title,
                                             const nlohmann::ordered_json& main_page) {
  nlohmann::ordered_json resources = nlohmann::ordered_json::array();
  for (const Entry& e : entries) {
    StatusOr<std::string> hash = Sha256File(e.source);
    if (!hash.ok()) return hash.status();
    std::error_code ec;
    const uintmax_t bytes = fs::file_size(e.source, ec);
    if (ec) return Status::Error("cannot stat " + e.source + ": " + ec.message());
    resources.push_back({{"name", fs::path(e.name).filename().string()},
                         {"path", e.name},
                         {"hash", *hash},
                         {"bytes", bytes}});
  }
  nlohmann::ordered_json dp;
  dp["profile"] = "data-package";
  dp["resources"] = std::move(resources);
  dp["wacz_version"] = "1.1.1";
  dp["title"] = title;
  dp["software"] = options.software;
  dp["created"] = NowIso();
  if (!main_page.is_null()) {
    dp["mainPageUrl"] = main_page["url"];
    dp["mainPageDate"] = main_page["ts"];
  }
  return dp;
}

Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return out ? Status::Ok() : Status::Error("cannot write " + path);
}

std::string ZipError(zip_t* za) { return zip_strerror(za); }

// Adds the entries and closes the zip (libzip writes a temporary file and
// renames it over `out_path` in zip_close).
Status WriteZip(const std::string& out_path, const std::vector<Entry>& entries) {
  int err = 0;
  zip_t* za = zip_open(out_path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  if (za == nullptr) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, err);
    std::string msg = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    return Status::Error("cannot create " + out_path + ": " + msg);
  }
  for (const Entry& e : entries) {
    zip_source_t* src = zip_source_file(za, e.source.c_str(), 0, -1);
    if (src == nullptr) {
      Status s = Status::Error("cannot add " + e.source + ": " + ZipError(za));
      zip_discard(za);
      return s;
    }
    const zip_int64_t idx = zip_file_add(za, e.name.c_str(), src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (idx < 0 ||
        zip_set_file_compression(za, static_cast<zip_uint64_t>(idx),
                                 e.stored ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 0) != 0) {
      Status s = Status::Error("cannot add " + e.name + ": " + ZipError(za));
      if (idx < 0) zip_source_free(src);
      zip_discard(za);
      return s;
    }
  }
  if (zip_close(za) != 0) {
    Status s = Status::Error("cannot write " + out_path + ": " + ZipError(za));
    zip_discard(za);
    return s;
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::string> Sha256File(const std::string& path) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) return Status::Error("cannot open " + path + ": " + std::strerror(errno));
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<char> buf(1 << 20);
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0) {
    EVP_DigestUpdate(ctx.get(), buf.data(), n);
  }
  if (std::ferror(f.get())) return Status::Error("read error in " + path);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  static const char kHex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(kHex[md[i] >> 4]);
    out.push_back(kHex[md[i] & 15]);
  }
  return out;
}

StatusOr<WaczStats> WriteWacz(const std::string& crawl_dir, const std::string& out_path,
                              const WaczOptions& options) {
  auto db = CrawlDbReader::Open(crawl_dir);
  if (!db.ok()) return db.status();
  if (Status s = CheckExportSchema(**db); !s.ok()) return s;
  ExportFilter filter;
  filter.relevant_only = options.relevant_only;
  filter.beta = ExportBeta(**db, options.beta);

  StagingDir staging{out_path + ".parts.tmp"};
  std::error_code ec;
  fs::remove_all(staging.path, ec);
  fs::create_directories(staging.path + "/archive", ec);
  if (ec) return Status::Error("cannot create " + staging.path + ": " + ec.message());

  std::vector<std::string> warcs;
  if (options.relevant_only) {
    ExportFilter by_position = filter;
    by_position.by_warc_position = true;
    auto copied = CopyRelevantRecords(**db, crawl_dir, by_position, staging.path + "/archive");
    if (!copied.ok()) return copied.status();
    warcs = std::move(*copied);
  } else {
    auto files = CrawlWarcFiles(crawl_dir);
    if (!files.ok()) return files.status();
    for (const std::string& f : *files) {
      const std::string name = fs::path(f).filename().string();
      if (!IsZstdWarcName(name)) {
        warcs.push_back(f);
        continue;
      }
      const std::string gz = staging.path + "/archive/" + GzipWarcName(name);
      if (Status s = RecompressWarcFile(f, gz); !s.ok()) return s;
      warcs.push_back(gz);
    }
  }
  WaczStats stats;
  const std::string cdxj = staging.path + "/index.cdxj";
  auto indexed = WriteCdxjIndex(warcs, cdxj);
  if (!indexed.ok()) return indexed.status();
  stats.cdxj_lines = indexed->lines;
  stats.warc_files = static_cast<int64_t>(warcs.size());

  const std::string pages = staging.path + "/pages.jsonl";
  nlohmann::ordered_json main_page;
  HostOptOut hosts(options.robots_agent);
  if (Status s = hosts.Load(**db); !s.ok()) return s;
  auto n = WritePagesJsonl(**db, crawl_dir, filter, hosts, pages, &main_page);
  if (!n.ok()) return n.status();
  stats.pages = *n;

  std::vector<Entry> entries;
  for (const std::string& w : warcs) {
    entries.push_back({w, "archive/" + fs::path(w).filename().string(), true});
    stats.warc_bytes += fs::file_size(w, ec);
  }
  entries.push_back({cdxj, "indexes/index.cdxj", false});
  entries.push_back({pages, "pages/pages.jsonl", false});
  const std::string title =
      options.title.empty() ? fs::path(crawl_dir).lexically_normal().filename().string()
                            : options.title;
  auto dp = DataPackage(entries, options, title, main_page);
  if (!dp.ok()) return dp.status();
  const std::string dp_path = staging.path + "/datapackage.json";
  if (Status s = WriteText(dp_path, dp->dump(2)); !s.ok()) return s;
  auto dp_hash = Sha256File(dp_path);
  if (!dp_hash.ok()) return dp_hash.status();
  nlohmann::ordered_json digest;
  digest["path"] = "datapackage.json";
  digest["hash"] = *dp_hash;
  const std::string digest_path = staging.path + "/datapackage-digest.json";
  if (Status s = WriteText(digest_path, digest.dump(2)); !s.ok()) return s;
  entries.push_back({dp_path, "datapackage.json", false});
  entries.push_back({digest_path, "datapackage-digest.json", false});
  if (Status s = WriteZip(out_path, entries); !s.ok()) return s;
  return stats;
}

}  // namespace topicrawl

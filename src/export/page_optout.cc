#include "export/page_optout.h"

#include "fetch/charset.h"
#include "parse/main_content.h"
#include "store/warc_reader.h"

namespace topicrawl {

StatusOr<OptOutSignals> StoredPageOptOut(const std::string& crawl_dir, const StoredPageRef& page,
                                         const HostOptOut& hosts) {
  if (page.warc_file.empty() || page.warc_file.find("..") != std::string::npos ||
      page.warc_file[0] == '/') {
    return Status::Error("suspicious WARC file name '" + page.warc_file + "'");
  }
  StatusOr<ParsedWarcRecord> rec =
      ReadWarcRecordAt(crawl_dir + "/" + page.warc_file, static_cast<uint64_t>(page.warc_offset));
  if (!rec.ok()) return rec.status();
  std::string_view head, body;
  if (rec->Header("WARC-Type") != "response" || !SplitHttpBlock(rec->block, &head, &body)) {
    return Status::Error(page.warc_file + " at " + std::to_string(page.warc_offset) +
                         ": not a response record");
  }
  std::vector<std::pair<std::string, std::string>> meta;
  if (page.content_type.empty() || page.content_type.find("html") != std::string::npos) {
    meta = ExtractOptOutMeta(DecodeToUtf8(body, page.content_type).utf8);
  }
  OptOutSignals out = DetectOptOut(head, meta);
  hosts.Apply(page.url, &out);
  return out;
}

}  // namespace topicrawl

#include "search/page_text.h"

#include "fetch/charset.h"
#include "parse/html_parser.h"
#include "store/warc_reader.h"

namespace topicrawl {

StatusOr<PageText> ReadStoredPageText(const std::string& crawl_dir, const std::string& warc_file,
                                      int64_t offset, const std::string& content_type,
                                      const std::string& url) {
  if (warc_file.empty()) return Status::Error("no WARC record");
  if (warc_file.find("..") != std::string::npos || warc_file[0] == '/') {
    return Status::Error("suspicious WARC file name " + warc_file);
  }
  auto rec = ReadWarcRecordAt(crawl_dir + "/" + warc_file, static_cast<uint64_t>(offset));
  if (!rec.ok()) return rec.status();
  if (rec->Header("WARC-Type") != "response") {
    return Status::Error("the record at the offset is not a response");
  }
  std::string_view head, body;
  if (!SplitHttpBlock(rec->block, &head, &body)) return Status::Error("no HTTP head");
  DecodedText decoded = DecodeToUtf8(body, content_type);
  ParseOptions options;
  options.context_window_words = 0;  // only the text is needed
  options.dom_delta = 0;
  options.keep_raw_href = false;
  ParsedPage page = ParseHtml(decoded.utf8, url, options);
  PageText out;
  out.title = std::move(page.title);
  out.text = std::move(page.text);
  return out;
}

}  // namespace topicrawl

#include "store/page_warc.h"

#include <charconv>
#include <strings.h>

namespace topicrawl {
namespace {

bool HeaderNameIs(std::string_view line, std::string_view name) {
  return line.size() > name.size() && line[name.size()] == ':' &&
         strncasecmp(line.data(), name.data(), name.size()) == 0;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Splits a head into lines without their line endings (CRLF or LF), keeping
// only the last block of non-empty lines.
std::vector<std::string_view> LastHeadBlock(std::string_view head) {
  std::vector<std::string_view> lines;
  bool block_ended = false;
  while (!head.empty()) {
    size_t nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    head = nl == std::string_view::npos ? std::string_view() : head.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      block_ended = !lines.empty();
      continue;
    }
    if (block_ended) {
      lines.clear();
      block_ended = false;
    }
    lines.push_back(line);
  }
  return lines;
}

void AddField(std::string* block, std::string_view name, std::string_view value) {
  block->append(name);
  block->append(": ");
  for (char c : value) block->push_back(c == '\r' || c == '\n' ? ' ' : c);
  block->append("\r\n");
}

}  // namespace

std::string FormatDouble(double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  return ec == std::errc() ? std::string(buf, end) : "nan";
}

std::string NormalizeHttpHead(std::string_view head) {
  std::string out;
  for (std::string_view line : LastHeadBlock(head)) {
    out.append(line);
    out.append("\r\n");
  }
  if (!out.empty()) out.append("\r\n");
  return out;
}

std::string RewriteResponseHead(std::string_view head, size_t body_size,
                                std::vector<WarcField>* dropped) {
  static constexpr std::pair<std::string_view, std::string_view> kDropped[] = {
      {"Content-Encoding", "original-content-encoding"},
      {"Transfer-Encoding", "original-transfer-encoding"},
      {"Content-Length", "original-content-length"},
  };
  std::string out;
  for (std::string_view line : LastHeadBlock(head)) {
    bool drop = false;
    for (const auto& [header, field] : kDropped) {
      if (HeaderNameIs(line, header)) {
        drop = true;
        if (dropped != nullptr) {
          dropped->push_back({std::string(field),
                              std::string(Trim(line.substr(header.size() + 1)))});
        }
      }
    }
    if (drop) continue;
    out.append(line);
    out.append("\r\n");
  }
  if (out.empty()) return out;
  out.append("Content-Length: ");
  out.append(std::to_string(body_size));
  out.append("\r\n\r\n");
  return out;
}

std::vector<WarcRecord> BuildPageWarcRecords(const PageRecord& page, PageId id,
                                             std::mt19937_64& rng) {
  std::vector<WarcRecord> records;
  std::vector<WarcField> dropped;
  std::string head = RewriteResponseHead(page.response_head, page.body.size(),
                                         &dropped);
  if (head.empty()) return records;
  const std::string& target = page.final_url.empty() ? page.url : page.final_url;

  WarcRecord response;
  response.type = "response";
  response.record_id = NewWarcRecordId(rng);
  response.date_unix_ms = page.fetched_at;
  response.target_uri = target;
  response.content_type = "application/http; msgtype=response";
  if (!page.remote_ip.empty()) {
    response.headers.push_back({"WARC-IP-Address", page.remote_ip});
  }
  if (page.status == FetchStatus::kTooLarge && !page.body.empty()) {
    response.headers.push_back({"WARC-Truncated", "length"});
  }
  response.block = std::move(head);
  response.block_suffix = page.body;
  response.suffix_is_payload = true;
  const std::string response_id = response.record_id;
  records.push_back(std::move(response));

  std::string request_head = NormalizeHttpHead(page.request_head);
  if (!request_head.empty()) {
    WarcRecord request;
    request.type = "request";
    request.date_unix_ms = page.fetched_at;
    request.target_uri = target;
    request.content_type = "application/http; msgtype=request";
    request.headers.push_back({"WARC-Concurrent-To", response_id});
    if (!page.remote_ip.empty()) {
      request.headers.push_back({"WARC-IP-Address", page.remote_ip});
    }
    request.block = std::move(request_head);
    records.push_back(std::move(request));
  }

  WarcRecord metadata;
  metadata.type = "metadata";
  metadata.date_unix_ms = page.fetched_at;
  metadata.target_uri = target;
  metadata.content_type = "application/warc-fields";
  metadata.headers.push_back({"WARC-Concurrent-To", response_id});
  std::string& b = metadata.block;
  AddField(&b, "topicrawl-page-id", std::to_string(id));
  if (target != page.url) AddField(&b, "via", page.url);
  AddField(&b, "status", FetchStatusName(page.status));
  AddField(&b, "http-code", std::to_string(page.http_code));
  if (page.relevance) AddField(&b, "relevance", FormatDouble(*page.relevance));
  AddField(&b, "link-score", FormatDouble(page.link_score));
  AddField(&b, "depth", std::to_string(page.depth));
  AddField(&b, "parent-page-id", std::to_string(page.parent_id));
  if (!page.charset.empty()) AddField(&b, "charset", page.charset);
  AddField(&b, "outlinks", std::to_string(page.links.size()));
  AddField(&b, "admitted", std::to_string(page.admitted.size()));
  for (const WarcField& f : dropped) AddField(&b, f.name, f.value);
  if (!page.error.empty()) AddField(&b, "fetch-error", page.error);
  if (!page.render_note.empty()) AddField(&b, "render", page.render_note);
  records.push_back(std::move(metadata));

  if (!page.rendered_html.empty()) {
    // WARC/1.1 section 6.8: a conversion is an alternative version of the
    // response's content, here the DOM after the page's scripts ran.
    WarcRecord conversion;
    conversion.type = "conversion";
    conversion.date_unix_ms = page.fetched_at;
    conversion.target_uri = target;
    conversion.content_type = "text/html; charset=utf-8";
    conversion.headers.push_back({"WARC-Refers-To", response_id});
    conversion.block_suffix = page.rendered_html;
    conversion.suffix_is_payload = true;
    records.push_back(std::move(conversion));
  }
  return records;
}

}  // namespace topicrawl

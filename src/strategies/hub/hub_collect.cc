#include "strategies/hub/hub_collect.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "fetch/charset.h"
#include "parse/html_parser.h"
#include "store/crawl_db_reader.h"
#include "text/utf8_util.h"
#include "url/url.h"

namespace topicrawl::hub {
namespace {

// The decoded HTML body of the response record at `offset`, or an error.
StatusOr<std::string> ReadBody(const std::string& crawl_dir, const std::string& warc_file,
                               int64_t offset, const std::string& content_type) {
  auto body = ReadStoredResponseBody(crawl_dir, warc_file, offset);
  if (!body.ok()) return body.status();
  return DecodeToUtf8(*body, content_type).utf8;
}

bool IsPunct(char32_t c) {
  if (c < 0x80) return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) ||
                       (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
  return (c >= 0x2010 && c <= 0x2027) || (c >= 0x3000 && c <= 0x303F) ||
         (c >= 0xFF01 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20) ||
         (c >= 0xFF3B && c <= 0xFF40) || (c >= 0xFF5B && c <= 0xFF65);
}

int64_t NonSpaceCodePoints(std::string_view s, int64_t* punct) {
  size_t pos = 0;
  int64_t n = 0;
  while (pos < s.size()) {
    char32_t c = NextCodePoint(s, &pos);
    if (IsSpaceCodePoint(c)) continue;
    ++n;
    if (punct && IsPunct(c)) ++*punct;
  }
  return n;
}

int64_t CountListItems(std::string_view html) {
  int64_t n = 0;
  for (size_t p = html.find('<'); p != std::string_view::npos; p = html.find('<', p + 1)) {
    if (p + 3 < html.size() && (html[p + 1] == 'l' || html[p + 1] == 'L') &&
        (html[p + 2] == 'i' || html[p + 2] == 'I')) {
      char c = html[p + 3];
      if (c == '>' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/') ++n;
    }
  }
  return n;
}

}  // namespace

namespace {

ParsedPage ParseForCounts(std::string_view html, std::string_view page_url) {
  ParseOptions po;
  po.context_window_words = 0;
  po.dom_delta = 0;
  po.keep_raw_href = false;
  return ParseHtml(html, page_url, po);
}

void CountParsed(std::string_view html, const ParsedPage& page, std::string_view page_url,
                 HubExample* e) {
  e->punct = 0;
  e->text_chars = NonSpaceCodePoints(page.text, &e->punct);
  e->anchor_chars = 0;
  e->links = 0;
  e->same_site_links = 0;
  const std::string host = UrlHost(page_url);
  for (const auto& l : page.links) {
    if (l.url.empty()) continue;
    ++e->links;
    e->anchor_chars += NonSpaceCodePoints(l.anchor, nullptr);
    if (UrlHost(l.url) == host) ++e->same_site_links;
  }
  e->anchor_chars = std::min(e->anchor_chars, e->text_chars);
  e->list_items = CountListItems(html);
  e->blocks = static_cast<int64_t>(page.text_blocks.size());
}

}  // namespace

void CountContent(std::string_view html, std::string_view page_url, HubExample* e) {
  CountParsed(html, ParseForCounts(html, page_url), page_url, e);
}

StatusOr<std::vector<HubExample>> CollectHubsStructural(const std::string& crawl_dir,
                                                        const CollectOptions& o,
                                                        CollectSummary* summary) {
  return CollectHubsLabelled(crawl_dir, o, nullptr, summary);
}

namespace {

// A page stored ok, in crawl order, with where its body is.
struct HubSourcePage {
  HubExample e;
  std::string effective, content_type, warc_file;
  int64_t offset = 0;
};

StatusOr<std::vector<HubSourcePage>> ReadHubSourcePages(const std::string& crawl_dir) {
  auto db = CrawlDbReader::Open(crawl_dir);
  if (!db.ok()) return db.status();
  std::vector<HubSourcePage> rows;
  Status s = (*db)->Query(
      "SELECT url, coalesce(nullif(final_url, ''), url), coalesce(depth, 0), "
      "coalesce(anchor, ''), coalesce(size, -1), coalesce(content_type, ''), "
      "coalesce(warc_file, ''), coalesce(warc_offset, 0) FROM pages WHERE status = 'ok' "
      "ORDER BY id",
      {}, [&](const DbRow& row) {
        HubSourcePage r;
        r.e.url = row.Text(0);
        r.effective = row.Text(1);
        r.e.crawl_depth = row.Int(2);
        r.e.anchor = row.Text(3);
        r.e.page_size = row.Int(4);
        r.content_type = row.Text(5);
        r.warc_file = row.Text(6);
        r.offset = row.Int(7);
        r.e.host = UrlHost(r.e.url);
        rows.push_back(std::move(r));
        return true;
      });
  if (!s.ok()) return s;
  return rows;
}

// The readable pages, each once (a page reached twice through redirects
// counts once), with their content counts and same-host outlinks.
struct CountedPages {
  std::vector<HubExample> kept;
  std::vector<std::vector<std::string>> targets;  // same-host outlink URLs per kept row
  std::vector<std::string> finals;                // final URL per kept row
  std::unordered_map<std::string, size_t> index;  // effective and requested URL -> kept row
};

CountedPages CountHubSourcePages(const std::string& crawl_dir, std::vector<HubSourcePage>& rows,
                              CollectSummary* sum) {
  CountedPages c;
  for (auto& r : rows) {
    auto html = ReadBody(crawl_dir, r.warc_file, r.offset, r.content_type);
    if (!html.ok()) {
      ++sum->unreadable;
      continue;
    }
    if (c.index.count(r.effective)) continue;
    ParsedPage page = ParseForCounts(*html, r.effective);
    CountParsed(*html, page, r.effective, &r.e);
    std::set<std::string> t;
    for (const auto& l : page.links) {
      if (!l.url.empty() && l.url != r.effective && UrlHost(l.url) == r.e.host) t.insert(l.url);
    }
    c.index[r.effective] = c.kept.size();
    c.index.emplace(r.e.url, c.kept.size());
    c.targets.emplace_back(t.begin(), t.end());
    c.finals.push_back(r.effective);
    c.kept.push_back(std::move(r.e));
  }
  return c;
}

// The same-host link graph between kept pages (each edge once, no loops).
std::vector<std::vector<size_t>> KeptLinkGraph(const CountedPages& c) {
  std::vector<std::vector<size_t>> out(c.kept.size());
  for (size_t i = 0; i < c.kept.size(); ++i) {
    std::set<size_t> seen;
    for (const auto& u : c.targets[i]) {
      auto it = c.index.find(u);
      if (it != c.index.end() && it->second != i && seen.insert(it->second).second) {
        out[i].push_back(it->second);
      }
    }
  }
  return out;
}

// Labels and the host split into the examples, and their counts into *sum.
void ApplyLabelsAndSplit(const std::vector<int>& labels, const CollectOptions& o, std::vector<HubExample>* kept,
                         CollectSummary* sum) {
  std::vector<bool> test = SplitByHost(*kept, o.train_fraction, o.seed);
  std::set<std::string> train_hosts, test_hosts;
  for (size_t i = 0; i < kept->size(); ++i) {
    (*kept)[i].label = labels[i];
    (*kept)[i].test = test[i];
    sum->hubs += labels[i];
    (test[i] ? sum->test : sum->train) += 1;
    (test[i] ? test_hosts : train_hosts).insert((*kept)[i].host);
  }
  sum->pages = static_cast<int64_t>(kept->size());
  sum->hosts_train = static_cast<int64_t>(train_hosts.size());
  sum->hosts_test = static_cast<int64_t>(test_hosts.size());
}

}  // namespace

StatusOr<std::vector<HubExample>> CollectHubsLabelled(const std::string& crawl_dir,
                                                      const CollectOptions& o,
                                                      const HubLabeler& label,
                                                      CollectSummary* summary) {
  auto rows = ReadHubSourcePages(crawl_dir);
  if (!rows.ok()) return rows.status();
  CollectSummary sum;
  CountedPages c = CountHubSourcePages(crawl_dir, *rows, &sum);
  std::vector<std::string> hosts;
  for (const HubExample& e : c.kept) hosts.push_back(e.host);
  std::vector<std::vector<size_t>> out = KeptLinkGraph(c);
  DropTemplateLinks(hosts, o.template_share, &out);
  std::vector<int> labels;
  if (label) {
    for (size_t i = 0; i < c.kept.size(); ++i) labels.push_back(label(c.kept[i].url, c.finals[i]) ? 1 : 0);
  } else {
    labels = StructuralLabels(hosts, out, o);
  }
  ApplyLabelsAndSplit(labels, o, &c.kept, &sum);
  if (summary) *summary = sum;
  return std::move(c.kept);
}

}  // namespace topicrawl::hub

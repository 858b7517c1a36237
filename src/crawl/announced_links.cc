#include "crawl/announced_links.h"

#include <cmath>
#include <map>

#include "crawl/dedup.h"

namespace topicrawl {
namespace {

bool IsWordByte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsPageExtension(std::string_view w) {
  static constexpr std::string_view kExt[] = {"html", "htm", "php",   "asp",
                                              "aspx", "jsp", "shtml", "xml"};
  for (std::string_view e : kExt) {
    if (w == e) return true;
  }
  return false;
}

// Path and query of a URL ("" when it has no path), percent escapes decoded.
std::string DecodedPathAndQuery(std::string_view url) {
  size_t start = url.find("://");
  start = start == std::string_view::npos ? 0 : url.find('/', start + 3);
  if (start == std::string_view::npos) return {};
  std::string_view rest = url.substr(start);
  rest = rest.substr(0, rest.find('#'));
  std::string out;
  out.reserve(rest.size());
  for (size_t i = 0; i < rest.size(); ++i) {
    int hi = 0, lo = 0;
    if (rest[i] == '%' && i + 2 < rest.size() && (hi = HexValue(rest[i + 1])) >= 0 &&
        (lo = HexValue(rest[i + 2])) >= 0) {
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += rest[i];
    }
  }
  return out;
}

}  // namespace

std::string UrlWords(std::string_view url) {
  const std::string path = DecodedPathAndQuery(url);
  std::string out;
  size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && !IsWordByte(static_cast<unsigned char>(path[i]))) ++i;
    size_t j = i;
    while (j < path.size() && IsWordByte(static_cast<unsigned char>(path[j]))) ++j;
    if (j == i) break;
    std::string_view word(path.data() + i, j - i);
    // An extension: a word right after a '.' that ends its path segment.
    const bool extension = i > 0 && path[i - 1] == '.' &&
                           (j == path.size() || path[j] == '/' || path[j] == '?') &&
                           IsPageExtension(word);
    if (!extension) {
      if (!out.empty()) out += ' ';
      out.append(word);
    }
    i = j;
  }
  return out;
}

std::vector<PageAssessment::Link> ScoreAnnouncedLinks(PageJudge& judge,
                                                      const std::vector<AnnouncedLink>& links,
                                                      bool ignore_scheme) {
  std::vector<PageAssessment::Link> out(links.size());
  std::map<std::string, std::vector<size_t>> by_document;
  std::vector<const std::string*> order;
  for (size_t i = 0; i < links.size(); ++i) {
    auto [it, inserted] = by_document.try_emplace(links[i].document);
    if (inserted) order.push_back(&it->first);
    it->second.push_back(i);
  }
  for (const std::string* document : order) {
    const std::vector<size_t>& members = by_document[*document];
    CrawlTask task;
    task.url = *document;
    task.url_id = DedupId(*document, ignore_scheme);
    ParsedPage page;
    page.base_url = *document;
    page.links.reserve(members.size());
    for (size_t i : members) {
      Outlink link;
      link.url = links[i].url;
      link.raw_href = links[i].url;
      link.anchor = links[i].title.empty() ? UrlWords(links[i].url) : links[i].title;
      page.links.push_back(std::move(link));
    }
    PageAssessment assessment;
    judge.Assess(task, page, &assessment);
    for (size_t k = 0; k < members.size() && k < assessment.links.size(); ++k) {
      out[members[k]] = std::move(assessment.links[k]);
    }
  }
  return out;
}

double AnnouncedPriority(double floor, double score) {
  if (floor < 0) return score;
  if (std::isnan(score)) score = 0;
  if (std::isinf(score)) score = score > 0 ? 1e300 : -1e300;
  // (0, 1), strictly increasing: 0.5 + 0.5 s / (1 + |s|).
  return floor + 0.5 + 0.5 * score / (1.0 + std::fabs(score));
}

}  // namespace topicrawl

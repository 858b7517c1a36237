#include "web/html_links.h"

#include <cctype>
#include <cstring>

#include "url/path_encoding.h"
#include "url/url.h"

namespace topicrawl::web {
namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

bool StartsWithNoCase(std::string_view s, size_t pos, std::string_view prefix) {
  if (pos + prefix.size() > s.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (Lower(s[pos + i]) != prefix[i]) return false;
  }
  return true;
}

size_t FindNoCase(std::string_view s, std::string_view needle, size_t from) {
  for (size_t i = from; i + needle.size() <= s.size(); ++i) {
    if (StartsWithNoCase(s, i, needle)) return i;
  }
  return std::string_view::npos;
}

// The few entities that occur in URLs.
std::string DecodeEntities(std::string_view v) {
  if (v.find('&') == std::string_view::npos) return std::string(v);
  static constexpr std::pair<std::string_view, char> kNamed[] = {
      {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}, {"&lt;", '<'}, {"&gt;", '>'},
      {"&#38;", '&'}, {"&#39;", '\''}, {"&#x26;", '&'}, {"&#34;", '"'}};
  std::string out;
  for (size_t i = 0; i < v.size();) {
    bool done = false;
    if (v[i] == '&') {
      for (const auto& [name, c] : kNamed) {
        if (StartsWithNoCase(v, i, name)) {
          out.push_back(c);
          i += name.size();
          done = true;
          break;
        }
      }
    }
    if (!done) out.push_back(v[i++]);
  }
  return out;
}

struct Tag {
  std::string name;  // lower-case; empty for end tags, comments, doctype
  bool end_tag = false;
  size_t begin = 0, end = 0;  // '<' .. one past '>'
};

// Calls on_attr(tag_name, attr_name, attr_begin, attr_end, value) for each
// attribute of each start tag and on_tag(tag) for each tag.
template <typename OnTag, typename OnAttr>
void ScanTags(std::string_view html, OnTag on_tag, OnAttr on_attr) {
  size_t i = 0;
  const size_t n = html.size();
  while (i < n) {
    size_t lt = html.find('<', i);
    if (lt == std::string_view::npos) return;
    if (html.compare(lt, 4, "<!--") == 0) {
      size_t close = html.find("-->", lt + 4);
      if (close == std::string_view::npos) return;
      i = close + 3;
      continue;
    }
    size_t p = lt + 1;
    Tag tag;
    tag.begin = lt;
    if (p < n && html[p] == '/') {
      tag.end_tag = true;
      ++p;
    }
    if (p >= n || !std::isalpha(static_cast<unsigned char>(html[p]))) {
      // "<!doctype", "< ", "<3": skip to '>' for declarations, else text.
      if (p < n && (html[p] == '!' || html[p] == '?')) {
        size_t gt = html.find('>', p);
        if (gt == std::string_view::npos) return;
        i = gt + 1;
      } else {
        i = lt + 1;
      }
      continue;
    }
    size_t name_begin = p;
    while (p < n && !IsSpace(html[p]) && html[p] != '>' && html[p] != '/') ++p;
    for (size_t k = name_begin; k < p; ++k) tag.name.push_back(Lower(html[k]));
    // Attributes.
    while (p < n && html[p] != '>') {
      if (IsSpace(html[p]) || html[p] == '/') {
        ++p;
        continue;
      }
      size_t attr_begin = p;
      std::string attr;
      while (p < n && !IsSpace(html[p]) && html[p] != '>' && html[p] != '=' &&
             !(html[p] == '/' && p + 1 < n && html[p + 1] == '>')) {
        attr.push_back(Lower(html[p]));
        ++p;
      }
      if (attr.empty()) {  // stray '='
        ++p;
        continue;
      }
      size_t q = p;
      while (q < n && IsSpace(html[q])) ++q;
      std::string_view value;
      size_t attr_end = p;
      if (q < n && html[q] == '=') {
        ++q;
        while (q < n && IsSpace(html[q])) ++q;
        if (q < n && (html[q] == '"' || html[q] == '\'')) {
          char quote = html[q];
          size_t close = html.find(quote, q + 1);
          if (close == std::string_view::npos) return;  // unterminated: stop
          value = html.substr(q + 1, close - q - 1);
          attr_end = close + 1;
        } else {
          size_t v = q;
          while (q < n && !IsSpace(html[q]) && html[q] != '>') ++q;
          value = html.substr(v, q - v);
          attr_end = q;
        }
        p = attr_end;
      }
      if (!tag.end_tag) on_attr(tag.name, attr, attr_begin, attr_end, value);
    }
    if (p >= n) return;
    tag.end = p + 1;
    on_tag(tag);
    i = p + 1;
    if (!tag.end_tag && (tag.name == "script" || tag.name == "style" || tag.name == "textarea" ||
                         tag.name == "title")) {
      size_t close = FindNoCase(html, "</" + tag.name, i);
      if (close == std::string_view::npos) return;
      i = close;
    }
  }
}

bool IsLinkAttribute(const std::string& tag, const std::string& attr) {
  if (attr == "href") return tag == "a" || tag == "area" || tag == "link";
  if (attr == "src") return tag == "frame" || tag == "iframe";
  return false;
}

std::string FoldSpaces(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (IsSpace(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

ScannedLinks ScanLinks(std::string_view html) {
  ScannedLinks out;
  ScanTags(
      html, [](const Tag&) {},
      [&](const std::string& tag, const std::string& attr, size_t b, size_t e,
          std::string_view value) {
        if (tag == "base" && attr == "href") {
          if (out.base_href.empty()) out.base_href = DecodeEntities(value);
          return;
        }
        if (IsLinkAttribute(tag, attr)) out.links.push_back({b, e, DecodeEntities(value)});
      });
  return out;
}

std::string ResolveLabelUrl(std::string_view base, std::string_view href) {
  // Trim the whitespace browsers strip.
  while (!href.empty() && IsSpace(href.front())) href.remove_prefix(1);
  while (!href.empty() && IsSpace(href.back())) href.remove_suffix(1);
  UrlParseResult r = ParseUrl(href, base);
  if (!r.ok) return {};
  std::string_view u = r.href;
  size_t colon = u.find("://");
  if (colon == std::string_view::npos) return {};
  std::string scheme;
  for (char c : u.substr(0, colon)) scheme.push_back(Lower(c));
  if (scheme != "http" && scheme != "https") return {};
  size_t auth_begin = colon + 3;
  size_t auth_end = u.find_first_of("/?#", auth_begin);
  if (auth_end == std::string_view::npos) auth_end = u.size();
  std::string_view authority = u.substr(auth_begin, auth_end - auth_begin);
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
  if (!authority.empty() && authority.front() != '[') {
    if (size_t port = authority.rfind(':'); port != std::string_view::npos) {
      authority = authority.substr(0, port);
    }
  }
  std::string out = "http://";
  for (char c : authority) out.push_back(Lower(c));
  size_t path_end = u.find_first_of("?#", auth_end);
  if (path_end == std::string_view::npos) path_end = u.size();
  std::string path = PercentEncodePath(PercentDecode(u.substr(auth_end, path_end - auth_end)));
  if (path.empty() || path.back() == '/') path += path.empty() ? "/index.html" : "index.html";
  out += path;
  return out;
}

std::vector<std::string> PageLinks(std::string_view html, std::string_view page_url) {
  ScannedLinks scanned = ScanLinks(html);
  std::string base(page_url);
  if (!scanned.base_href.empty()) {
    std::string resolved = ResolveLabelUrl(page_url, scanned.base_href);
    if (!resolved.empty()) base = resolved;
  }
  std::vector<std::string> out;
  out.reserve(scanned.links.size());
  for (const LinkAttribute& a : scanned.links) {
    std::string target = ResolveLabelUrl(base, a.value);
    if (!target.empty()) out.push_back(std::move(target));
  }
  return out;
}

std::vector<std::string> TextBlocks(std::string_view html, size_t min_chars) {
  std::vector<std::string> out;
  size_t open_end = std::string_view::npos;  // end of the current <p ...> tag
  std::string text;
  auto flush = [&](size_t upto) {
    if (open_end == std::string_view::npos) return;
    // Strip tags from html[open_end, upto).
    std::string_view inner = html.substr(open_end, upto - open_end);
    std::string plain;
    bool in_tag = false;
    for (char c : inner) {
      if (c == '<') in_tag = true;
      else if (c == '>') { in_tag = false; plain.push_back(' '); }
      else if (!in_tag) plain.push_back(c);
    }
    std::string folded = FoldSpaces(plain);
    if (folded.size() >= min_chars) out.push_back(std::move(folded));
    open_end = std::string_view::npos;
  };
  ScanTags(
      html,
      [&](const Tag& tag) {
        if (tag.name == "p") {
          flush(tag.begin);
          if (!tag.end_tag) open_end = tag.end;
        }
      },
      [](const std::string&, const std::string&, size_t, size_t, std::string_view) {});
  return out;
}

std::vector<std::pair<size_t, size_t>> LinklessParagraphs(std::string_view html) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t open = std::string_view::npos;
  bool has_link = false;
  ScanTags(
      html,
      [&](const Tag& tag) {
        if (tag.name == "p" && !tag.end_tag) {
          open = tag.begin;
          has_link = false;
        } else if (tag.end_tag && tag.name == "p") {
          if (open != std::string_view::npos && !has_link) out.emplace_back(open, tag.end);
          open = std::string_view::npos;
        } else if (!tag.end_tag && open != std::string_view::npos) {
          if (tag.name == "a" || tag.name == "area" || tag.name == "link" ||
              tag.name == "frame" || tag.name == "iframe" || tag.name == "base" ||
              tag.name == "div" || tag.name == "table" || tag.name == "script") {
            has_link = true;  // also: blocks that would leave unbalanced markup
          }
        }
      },
      [](const std::string&, const std::string&, size_t, size_t, std::string_view) {});
  return out;
}

size_t CountParagraphEnds(std::string_view html) {
  size_t count = 0;
  for (size_t i = FindNoCase(html, "</p>", 0); i != std::string_view::npos;
       i = FindNoCase(html, "</p>", i + 4)) {
    ++count;
  }
  return count;
}

size_t InsertionPoint(std::string_view html, size_t slot) {
  size_t count = 0, last = std::string_view::npos;
  for (size_t i = FindNoCase(html, "</p>", 0); i != std::string_view::npos;
       i = FindNoCase(html, "</p>", i + 4)) {
    last = i + 4;
    if (++count == slot) return last;
  }
  if (last != std::string_view::npos) return last;
  size_t body = FindNoCase(html, "</body", 0);
  return body != std::string_view::npos ? body : html.size();
}

}  // namespace topicrawl::web

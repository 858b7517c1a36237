#include "sitemap/feed_links.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "url/url.h"

namespace topicrawl {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool StartsWithTag(std::string_view s, size_t i, std::string_view tag) {
  if (i + 1 + tag.size() > s.size() || s[i] != '<') return false;
  for (size_t k = 0; k < tag.size(); ++k) {
    if (std::tolower(static_cast<unsigned char>(s[i + 1 + k])) != tag[k]) return false;
  }
  size_t after = i + 1 + tag.size();
  return after == s.size() || IsSpace(s[after]) || s[after] == '>' || s[after] == '/';
}

struct LinkTag {
  std::string rel, type, href;
};

// Reads the attributes of a start tag from `i` (just after its name) to its
// '>'; returns the position after the tag.
size_t ReadAttributes(std::string_view s, size_t i, LinkTag* tag) {
  while (i < s.size() && s[i] != '>') {
    while (i < s.size() && (IsSpace(s[i]) || s[i] == '/')) ++i;
    size_t name_start = i;
    while (i < s.size() && !IsSpace(s[i]) && s[i] != '=' && s[i] != '>' && s[i] != '/') ++i;
    std::string name = Lower(s.substr(name_start, i - name_start));
    while (i < s.size() && IsSpace(s[i])) ++i;
    std::string value;
    if (i < s.size() && s[i] == '=') {
      ++i;
      while (i < s.size() && IsSpace(s[i])) ++i;
      if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
        char q = s[i++];
        size_t end = s.find(q, i);
        if (end == std::string_view::npos) end = s.size();
        value = std::string(s.substr(i, end - i));
        i = std::min(s.size(), end + 1);
      } else {
        size_t start = i;
        while (i < s.size() && !IsSpace(s[i]) && s[i] != '>') ++i;
        value = std::string(s.substr(start, i - start));
      }
    }
    if (name == "rel") tag->rel = Lower(value);
    if (name == "type") tag->type = Lower(value);
    if (name == "href") tag->href = value;
    if (name.empty() && value.empty() && i < s.size() && s[i] != '>') ++i;
  }
  return std::min(s.size(), i + 1);
}

bool HasToken(std::string_view list, std::string_view token) {
  size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && IsSpace(list[i])) ++i;
    size_t start = i;
    while (i < list.size() && !IsSpace(list[i])) ++i;
    if (list.substr(start, i - start) == token) return true;
  }
  return false;
}

bool IsFeedType(std::string_view type) {
  size_t semi = type.find(';');
  std::string_view t = type.substr(0, semi);
  while (!t.empty() && IsSpace(t.back())) t.remove_suffix(1);
  return t == "application/rss+xml" || t == "application/atom+xml";
}

}  // namespace

std::vector<std::string> FindFeedLinks(std::string_view html, std::string_view page_url,
                                       size_t max_bytes) {
  std::string_view s = html.substr(0, std::min(html.size(), max_bytes));
  std::vector<std::string> out;
  size_t i = 0;
  while ((i = s.find('<', i)) != std::string_view::npos) {
    if (s.substr(i, 4) == "<!--") {
      size_t end = s.find("-->", i + 4);
      if (end == std::string_view::npos) break;
      i = end + 3;
      continue;
    }
    if (StartsWithTag(s, i, "body")) break;
    if (!StartsWithTag(s, i, "link")) {
      ++i;
      continue;
    }
    LinkTag tag;
    i = ReadAttributes(s, i + 5, &tag);
    if (!HasToken(tag.rel, "alternate") || !IsFeedType(tag.type) || tag.href.empty()) continue;
    std::optional<std::string> url = ResolveLink(page_url, tag.href);
    if (url && std::find(out.begin(), out.end(), *url) == out.end()) out.push_back(*url);
  }
  return out;
}

}  // namespace topicrawl

#include "parse/depth_limiter.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace topicrawl {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool OneOf(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// Elements that never hold children (HTML §13.1.2 void elements, plus frame).
bool IsVoid(std::string_view n) {
  return OneOf(n, {"area", "base", "br", "col", "embed", "hr", "img", "input",
                   "link", "meta", "param", "source", "track", "wbr", "keygen",
                   "frame", "basefont", "bgsound", "image"});
}

// Elements whose content the tokenizer reads as text up to their end tag.
bool IsRawText(std::string_view n) {
  return OneOf(n, {"script", "style", "xmp", "iframe", "noembed", "noframes",
                   "textarea", "title"});
}

// Start tags that close an open <p> (HTML §13.2.6.4.7, "in body").
bool ClosesP(std::string_view n) {
  return OneOf(n, {"address", "article", "aside", "blockquote", "center",
                   "details", "dialog", "dir", "div", "dl", "fieldset",
                   "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
                   "h4", "h5", "h6", "header", "hgroup", "hr", "main", "menu",
                   "nav", "ol", "p", "pre", "section", "summary", "table", "ul",
                   "li", "dd", "dt", "listing", "plaintext"});
}

// Moves past a tag's attributes following the tokenizer's attribute states
// (quoted values may contain '>'). Returns the index just past '>', or
// html.size() when the tag is unterminated.
size_t SkipAttributes(std::string_view html, size_t p) {
  const size_t n = html.size();
  while (p < n) {
    while (p < n && (IsSpace(html[p]) || html[p] == '/')) ++p;
    if (p >= n) return n;
    if (html[p] == '>') return p + 1;
    // Attribute name (a leading '=' is part of the name).
    ++p;
    while (p < n && !IsSpace(html[p]) && html[p] != '/' && html[p] != '>' &&
           html[p] != '=') {
      ++p;
    }
    while (p < n && IsSpace(html[p])) ++p;
    if (p < n && html[p] == '=') {
      ++p;
      while (p < n && IsSpace(html[p])) ++p;
      if (p < n && (html[p] == '"' || html[p] == '\'')) {
        const void* q = std::memchr(html.data() + p + 1, html[p], n - p - 1);
        if (q == nullptr) return n;
        p = static_cast<size_t>(static_cast<const char*>(q) - html.data()) + 1;
      } else {
        while (p < n && !IsSpace(html[p]) && html[p] != '>') ++p;
      }
    }
  }
  return n;
}

// Finds the end tag `</name` (case-insensitive, followed by space, '/' or
// '>') at or after p; returns its index or npos.
size_t FindEndTag(std::string_view html, size_t p, std::string_view name) {
  const size_t n = html.size();
  while (p < n) {
    const void* lt = std::memchr(html.data() + p, '<', n - p);
    if (lt == nullptr) return std::string_view::npos;
    p = static_cast<size_t>(static_cast<const char*>(lt) - html.data());
    if (p + 2 + name.size() <= n && html[p + 1] == '/') {
      bool match = true;
      for (size_t i = 0; i < name.size(); ++i) {
        if (Lower(html[p + 2 + i]) != name[i]) {
          match = false;
          break;
        }
      }
      size_t after = p + 2 + name.size();
      if (match && (after == n || IsSpace(html[after]) || html[after] == '/' ||
                    html[after] == '>')) {
        return p;
      }
    }
    ++p;
  }
  return std::string_view::npos;
}

class DepthModel {
 public:
  static constexpr int kLinkSlack = 16;

  explicit DepthModel(int max_depth) : max_depth_(max_depth) {}

  // Returns false when the start tag must be dropped.
  bool Start(const std::string& name) {
    if (name == "html" || name == "head" || name == "body") return true;
    ApplyImpliedEndTags(name);
    // Links are what the crawler is after: an <a> past the cap is kept
    // (within a small slack) so a deep link survives flattening. A new <a>
    // closes an open one, so <a> chains cannot deepen the tree.
    const int limit = name == "a" ? max_depth_ + kLinkSlack : max_depth_;
    if (static_cast<int>(stack_.size()) >= limit) {
      ++dropped_open_[name];
      ++dropped_total_;
      max_seen_ = std::max<int>(max_seen_, static_cast<int>(stack_.size()) + 1);
      return false;
    }
    stack_.push_back(name);
    max_seen_ = std::max<int>(max_seen_, static_cast<int>(stack_.size()));
    return true;
  }

  // Returns false when the end tag belongs to a dropped start tag.
  bool End(const std::string& name) {
    if (dropped_total_ > 0) {
      auto it = dropped_open_.find(name);
      if (it != dropped_open_.end() && it->second > 0) {
        --it->second;
        --dropped_total_;
        return false;
      }
    }
    PopThrough(name, stack_.size());
    return true;
  }

  int max_seen() const { return max_seen_; }

 private:
  // Pops up to and including the topmost `name` found within `limit` entries
  // from the top, unless a `barrier` element is met first.
  bool PopThrough(std::string_view name, size_t limit,
                  std::initializer_list<std::string_view> barrier = {}) {
    size_t lo = stack_.size() > limit ? stack_.size() - limit : 0;
    for (size_t i = stack_.size(); i > lo; --i) {
      const std::string& open = stack_[i - 1];
      if (open == name) {
        stack_.resize(i - 1);
        return true;
      }
      if (OneOf(open, barrier)) return false;
    }
    return false;
  }

  void ApplyImpliedEndTags(const std::string& n) {
    if (ClosesP(n) && !stack_.empty() && stack_.back() == "p") stack_.pop_back();
    if (n == "li") {
      PopThrough("li", stack_.size(), {"ul", "ol", "menu", "table"});
    } else if (n == "dt" || n == "dd") {
      if (!PopThrough("dd", stack_.size(), {"dl", "table"})) {
        PopThrough("dt", stack_.size(), {"dl", "table"});
      }
    } else if (n == "option" || n == "optgroup") {
      if (!stack_.empty() && stack_.back() == "option") stack_.pop_back();
      if (n == "optgroup" && !stack_.empty() && stack_.back() == "optgroup") {
        stack_.pop_back();
      }
    } else if (n == "tr") {
      PopThrough("tr", stack_.size(), {"table", "tbody", "thead", "tfoot"});
    } else if (n == "td" || n == "th") {
      if (!PopThrough("td", stack_.size(), {"tr", "table"})) {
        PopThrough("th", stack_.size(), {"tr", "table"});
      }
    } else if (n == "tbody" || n == "thead" || n == "tfoot") {
      PopThrough("tbody", stack_.size(), {"table"});
      PopThrough("thead", stack_.size(), {"table"});
      PopThrough("tfoot", stack_.size(), {"table"});
    } else if (n == "a") {
      // The adoption agency closes an open <a> before opening a new one.
      PopThrough("a", 4);
    }
  }

  int max_depth_;
  int max_seen_ = 0;
  std::vector<std::string> stack_;
  std::unordered_map<std::string, size_t> dropped_open_;
  size_t dropped_total_ = 0;
};

}  // namespace

DepthLimitResult LimitNestingDepth(std::string_view html, int max_depth,
                                   std::string* out) {
  DepthLimitResult result;
  DepthModel model(std::max(1, max_depth));
  std::vector<std::pair<size_t, size_t>> drops;  // [begin, end) of tags
  const size_t n = html.size();
  size_t p = 0;
  std::string name;
  while (p < n) {
    const void* lt = std::memchr(html.data() + p, '<', n - p);
    if (lt == nullptr) break;
    p = static_cast<size_t>(static_cast<const char*>(lt) - html.data());
    const size_t tag_begin = p;
    if (p + 1 >= n) break;
    char c = html[p + 1];
    if (c == '!') {
      if (html.substr(p, 4) == "<!--") {
        size_t end = html.find("-->", p + 2);
        if (end == std::string_view::npos) break;
        p = end + 3;
      } else {
        size_t end = html.find('>', p + 2);
        if (end == std::string_view::npos) break;
        p = end + 1;
      }
      continue;
    }
    if (c == '?') {
      size_t end = html.find('>', p + 2);
      if (end == std::string_view::npos) break;
      p = end + 1;
      continue;
    }
    bool is_end = c == '/';
    size_t q = p + (is_end ? 2 : 1);
    if (q >= n || !IsAlpha(html[q])) {
      p += 1;
      continue;
    }
    name.clear();
    while (q < n && !IsSpace(html[q]) && html[q] != '/' && html[q] != '>') {
      name.push_back(Lower(html[q]));
      ++q;
    }
    p = SkipAttributes(html, q);
    if (is_end) {
      if (!model.End(name)) drops.emplace_back(tag_begin, p);
      continue;
    }
    if (name == "plaintext") break;  // the rest of the document is text
    if (IsVoid(name)) continue;
    if (IsRawText(name)) {
      size_t end = FindEndTag(html, p, name);
      if (end == std::string_view::npos) break;
      p = end;  // the end tag is processed (and ignored) on the next turn
      continue;
    }
    if (!model.Start(name)) drops.emplace_back(tag_begin, p);
  }
  result.max_depth_seen = model.max_seen();
  if (drops.empty()) return result;
  result.changed = true;
  result.dropped_tags = drops.size();
  out->clear();
  out->reserve(html.size());
  size_t copied = 0;
  for (const auto& [b, e] : drops) {
    out->append(html.data() + copied, b - copied);
    out->push_back(' ');
    copied = e;
  }
  out->append(html.data() + copied, n - copied);
  return result;
}

}  // namespace topicrawl

#include "parse/depth_limiter.h"

#include <algorithm>
#include <array>
#include <cstdint>
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
constexpr char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Tag names are compared as 64-bit keys: names of up to 8 characters are
// packed (lower-cased) into the key, longer ones hashed with the top bit set.
// The model runs over every tag of every page, so integer compares matter.
// Lower-casing here (not in a copy of the name) keeps the tokenizer loop
// free of string building.
using TagKey = uint64_t;

constexpr TagKey KeyOf(std::string_view name) {
  if (name.size() <= 8) {
    TagKey k = 0;
    for (char c : name) k = (k << 8) | static_cast<unsigned char>(Lower(c));
    return k;
  }
  TagKey h = 1469598103934665603ULL;  // FNV-1a
  for (char c : name) h = (h ^ static_cast<unsigned char>(Lower(c))) * 1099511628211ULL;
  return h | (1ULL << 63);
}

template <size_t N>
constexpr bool In(TagKey k, const TagKey (&set)[N]) {
  for (TagKey s : set) {
    if (s == k) return true;
  }
  return false;
}

constexpr TagKey kA = KeyOf("a"), kP = KeyOf("p"), kLi = KeyOf("li"),
                 kDt = KeyOf("dt"), kDd = KeyOf("dd"), kOption = KeyOf("option"),
                 kOptgroup = KeyOf("optgroup"), kTr = KeyOf("tr"), kTd = KeyOf("td"),
                 kTh = KeyOf("th"), kTbody = KeyOf("tbody"), kThead = KeyOf("thead"),
                 kTfoot = KeyOf("tfoot"), kTable = KeyOf("table"), kHtml = KeyOf("html"),
                 kHead = KeyOf("head"), kBody = KeyOf("body"),
                 kPlaintext = KeyOf("plaintext"), kBase = KeyOf("base");

// Elements that never hold children (HTML §13.1.2 void elements, plus frame).
constexpr TagKey kVoid[] = {
    KeyOf("area"), KeyOf("base"), KeyOf("br"), KeyOf("col"), KeyOf("embed"),
    KeyOf("hr"), KeyOf("img"), KeyOf("input"), KeyOf("link"), KeyOf("meta"),
    KeyOf("param"), KeyOf("source"), KeyOf("track"), KeyOf("wbr"),
    KeyOf("keygen"), KeyOf("frame"), KeyOf("basefont"), KeyOf("bgsound"),
    KeyOf("image")};

// Elements whose content the tokenizer reads as text up to their end tag.
constexpr TagKey kRawText[] = {KeyOf("script"), KeyOf("style"), KeyOf("xmp"),
                               KeyOf("iframe"), KeyOf("noembed"), KeyOf("noframes"),
                               KeyOf("textarea"), KeyOf("title")};

// Start tags that close an open <p> (HTML §13.2.6.4.7, "in body").
constexpr TagKey kClosesP[] = {
    KeyOf("address"), KeyOf("article"), KeyOf("aside"), KeyOf("blockquote"),
    KeyOf("center"), KeyOf("details"), KeyOf("dialog"), KeyOf("dir"),
    KeyOf("div"), KeyOf("dl"), KeyOf("fieldset"), KeyOf("figcaption"),
    KeyOf("figure"), KeyOf("footer"), KeyOf("form"), KeyOf("h1"), KeyOf("h2"),
    KeyOf("h3"), KeyOf("h4"), KeyOf("h5"), KeyOf("h6"), KeyOf("header"),
    KeyOf("hgroup"), KeyOf("hr"), KeyOf("main"), KeyOf("menu"), KeyOf("nav"),
    KeyOf("ol"), KeyOf("p"), KeyOf("pre"), KeyOf("section"), KeyOf("summary"),
    KeyOf("table"), KeyOf("ul"), KeyOf("li"), KeyOf("dd"), KeyOf("dt"),
    KeyOf("listing"), KeyOf("plaintext")};

// Per-tag classes, built at compile time from the three lists above into
// one table sorted by key, and looked up once per tag by binary search
// instead of scanning the lists.
enum TagClass : uint8_t { kIsVoid = 1, kIsRawText = 2, kIsClosesP = 4 };

struct TagClassEntry {
  TagKey key;
  uint8_t classes;
};

constexpr auto kTagClasses = [] {
  constexpr size_t kSize = std::size(kVoid) + std::size(kRawText) + std::size(kClosesP);
  std::array<TagClassEntry, kSize> table{};
  size_t used = 0;
  auto add = [&](TagKey key, uint8_t cls) {
    for (size_t i = 0; i < used; ++i) {
      if (table[i].key == key) {
        table[i].classes |= cls;
        return;
      }
    }
    table[used++] = {key, cls};
  };
  for (TagKey k : kVoid) add(k, kIsVoid);
  for (TagKey k : kRawText) add(k, kIsRawText);
  for (TagKey k : kClosesP) add(k, kIsClosesP);
  // Slots left by tags in two lists: no class, sorted last.
  for (size_t i = used; i < kSize; ++i) table[i] = {~TagKey{0}, 0};
  std::sort(table.begin(), table.end(),
            [](const TagClassEntry& a, const TagClassEntry& b) { return a.key < b.key; });
  return table;
}();

uint8_t TagClassOf(TagKey k) {
  auto it = std::lower_bound(kTagClasses.begin(), kTagClasses.end(), k,
                             [](const TagClassEntry& e, TagKey key) { return e.key < key; });
  return it != kTagClasses.end() && it->key == k ? it->classes : 0;
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
  bool Start(TagKey tag) {
    if (tag == kHtml || tag == kHead || tag == kBody) return true;
    ApplyImpliedEndTags(tag);
    // Links are what the crawler is after: an <a> past the cap is kept
    // (within a small slack) so a deep link survives flattening. A new <a>
    // closes an open one, so <a> chains cannot deepen the tree.
    const int limit = tag == kA ? max_depth_ + kLinkSlack : max_depth_;
    if (static_cast<int>(stack_.size()) >= limit) {
      ++dropped_open_[tag];
      ++dropped_total_;
      max_seen_ = std::max<int>(max_seen_, static_cast<int>(stack_.size()) + 1);
      return false;
    }
    stack_.push_back(tag);
    max_seen_ = std::max<int>(max_seen_, static_cast<int>(stack_.size()));
    return true;
  }

  // Returns false when the end tag belongs to a dropped start tag.
  bool End(TagKey tag) {
    if (dropped_total_ > 0) {
      auto it = dropped_open_.find(tag);
      if (it != dropped_open_.end() && it->second > 0) {
        --it->second;
        --dropped_total_;
        return false;
      }
    }
    PopThrough(tag, stack_.size());
    return true;
  }

  int max_seen() const { return max_seen_; }

 private:
  // Pops up to and including the topmost `tag` found within `limit` entries
  // from the top, unless a `barrier` element is met first.
  template <size_t N = 1>
  bool PopThrough(TagKey tag, size_t limit, const TagKey (&barrier)[N] = {0}) {
    size_t lo = stack_.size() > limit ? stack_.size() - limit : 0;
    for (size_t i = stack_.size(); i > lo; --i) {
      TagKey open = stack_[i - 1];
      if (open == tag) {
        stack_.resize(i - 1);
        return true;
      }
      if (In(open, barrier)) return false;
    }
    return false;
  }

  void ApplyImpliedEndTags(TagKey n) {
    static constexpr TagKey kListScope[] = {KeyOf("ul"), KeyOf("ol"), KeyOf("menu"), kTable};
    static constexpr TagKey kDlScope[] = {KeyOf("dl"), kTable};
    static constexpr TagKey kTableScope[] = {kTable, kTbody, kThead, kTfoot};
    static constexpr TagKey kRowScope[] = {kTr, kTable};
    static constexpr TagKey kTableOnly[] = {kTable};
    if (!stack_.empty() && stack_.back() == kP && (TagClassOf(n) & kIsClosesP)) {
      stack_.pop_back();
    }
    if (n == kLi) {
      PopThrough(kLi, stack_.size(), kListScope);
    } else if (n == kDt || n == kDd) {
      if (!PopThrough(kDd, stack_.size(), kDlScope)) PopThrough(kDt, stack_.size(), kDlScope);
    } else if (n == kOption || n == kOptgroup) {
      if (!stack_.empty() && stack_.back() == kOption) stack_.pop_back();
      if (n == kOptgroup && !stack_.empty() && stack_.back() == kOptgroup) stack_.pop_back();
    } else if (n == kTr) {
      PopThrough(kTr, stack_.size(), kTableScope);
    } else if (n == kTd || n == kTh) {
      if (!PopThrough(kTd, stack_.size(), kRowScope)) PopThrough(kTh, stack_.size(), kRowScope);
    } else if (n == kTbody || n == kThead || n == kTfoot) {
      PopThrough(kTbody, stack_.size(), kTableOnly);
      PopThrough(kThead, stack_.size(), kTableOnly);
      PopThrough(kTfoot, stack_.size(), kTableOnly);
    } else if (n == kA) {
      // The adoption agency closes an open <a> before opening a new one.
      PopThrough(kA, 4);
    }
  }

  int max_depth_;
  int max_seen_ = 0;
  std::vector<TagKey> stack_;
  std::unordered_map<TagKey, size_t> dropped_open_;
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
    const size_t name_begin = q;
    while (q < n && !IsSpace(html[q]) && html[q] != '/' && html[q] != '>') ++q;
    const std::string_view raw_name = html.substr(name_begin, q - name_begin);
    const TagKey tag = KeyOf(raw_name);
    p = SkipAttributes(html, q);
    if (is_end) {
      if (!model.End(tag)) drops.emplace_back(tag_begin, p);
      continue;
    }
    if (tag == kPlaintext) break;  // the rest of the document is text
    const uint8_t tag_class = TagClassOf(tag);
    if (tag_class & kIsVoid) {
      if (tag == kBase) result.has_base_tag = true;
      continue;
    }
    if (tag_class & kIsRawText) {
      // Raw-text names are at most 8 letters: lower-case them on the stack.
      char lower[8];
      for (size_t i = 0; i < raw_name.size(); ++i) lower[i] = Lower(raw_name[i]);
      size_t end = FindEndTag(html, p, std::string_view(lower, raw_name.size()));
      if (end == std::string_view::npos) break;
      p = end;  // the end tag is processed (and ignored) on the next turn
      continue;
    }
    if (!model.Start(tag)) drops.emplace_back(tag_begin, p);
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

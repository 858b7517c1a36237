// The element index of <body> (main_content_internal.h): one walk over the
// parsed tree that records each element's own facts (Readability's hidden
// and unlikely candidates, class weights, text counts).
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parse/main_content_internal.h"

namespace topicrawl::main_content_internal {
namespace {

// Readability.js REGEXPS, as substrings of the lower-cased "class id".
constexpr std::string_view kUnlikely[] = {
    "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap",
    "disqus", "extra", "footer", "gdpr", "header", "legends", "menu", "related", "remark",
    "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social", "sponsor", "supplemental",
    "ad-break", "agegate", "pagination", "pager", "popup", "yom-remote",
    "cookie", "consent"};  // cookie notes: ours
constexpr std::string_view kMaybe[] = {"and", "article", "body", "column", "content",
                                       "main", "mathjax", "shadow"};
constexpr std::string_view kPositive[] = {"article", "body", "content", "entry", "hentry",
                                          "h-entry", "main", "page", "pagination", "post",
                                          "text", "blog", "story"};
constexpr std::string_view kNegative[] = {
    "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr",
    "masthead", "media", "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox",
    "sidebar", "skyscraper", "sponsor", "shopping", "tags", "widget"};
constexpr std::string_view kUnlikelyRoles[] = {"menu", "menubar", "complementary", "navigation",
                                               "alert", "alertdialog", "dialog", "banner",
                                               "contentinfo", "search"};

template <size_t N>
bool ContainsAny(std::string_view s, const std::string_view (&needles)[N]) {
  for (std::string_view n : needles) {
    if (s.find(n) != std::string_view::npos) return true;
  }
  return false;
}

int WeightOf(std::string_view lower) {
  if (lower.empty()) return 0;
  int w = 0;
  if (ContainsAny(lower, kNegative)) w -= 25;
  if (ContainsAny(lower, kPositive)) w += 25;
  return w;
}

bool IsHiddenTag(myhtml_tag_id_t t) {
  switch (t) {
    case MyHTML_TAG_SCRIPT: case MyHTML_TAG_STYLE: case MyHTML_TAG_NOSCRIPT:
    case MyHTML_TAG_TEMPLATE: case MyHTML_TAG_SVG: case MyHTML_TAG_MATH:
    case MyHTML_TAG_IFRAME: case MyHTML_TAG_HEAD: case MyHTML_TAG_OBJECT:
    case MyHTML_TAG_EMBED: case MyHTML_TAG_CANVAS: case MyHTML_TAG_BUTTON:
    case MyHTML_TAG_SELECT: case MyHTML_TAG_TEXTAREA: case MyHTML_TAG_INPUT:
    case MyHTML_TAG_NAV: case MyHTML_TAG_ASIDE: case MyHTML_TAG_FOOTER:
    case MyHTML_TAG_DIALOG: case MyHTML_TAG_LINK: case MyHTML_TAG_META:
      return true;
    default:
      return false;
  }
}

// Readability's REGEXPS.commas beyond ASCII: U+060C, U+FE50, U+FE10,
// U+FE11, U+2E41, U+2E34, U+2E32, U+FF0C (UTF-8 at t[i]).
bool IsCommaAt(std::string_view t, size_t i) {
  static constexpr std::string_view kCommas[] = {"\u060C", "\uFE50", "\uFE10", "\uFE11",
                                                 "\u2E41", "\u2E34", "\u2E32", "\uFF0C"};
  for (std::string_view c : kCommas) {
    if (t.compare(i, c.size(), c) == 0) return true;
  }
  return false;
}

// Code points and commas (Readability's set) of a text.
void CountText(std::string_view t, uint32_t* chars, uint32_t* commas) {
  bool space = true;
  for (size_t i = 0; i < t.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    const bool is_space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
    if (is_space && space) continue;  // runs count once
    space = is_space;
    ++*chars;
    if (c == ',') {
      ++*commas;
    } else if (c >= 0xC0) {
      *commas += IsCommaAt(t, i);
    }
  }
}

bool IsHeadingTag(myhtml_tag_id_t t) { return t >= MyHTML_TAG_H1 && t <= MyHTML_TAG_H6; }

// What the class, id, style, role and hidden attributes of an element say,
// read in one pass over its attributes.
struct NodeAttrs {
  std::string_view cls, id, style, role;
  bool hidden = false;
};

NodeAttrs ReadAttrs(myhtml_tree_node_t* node) {
  NodeAttrs a;
  for (myhtml_tree_attr_t* at = myhtml_node_attribute_first(node); at != nullptr;
       at = myhtml_attribute_next(at)) {
    size_t klen = 0;
    const char* k = myhtml_attribute_key(at, &klen);
    if (k == nullptr) continue;
    const std::string_view key(k, klen);
    size_t vlen = 0;
    const char* v = myhtml_attribute_value(at, &vlen);
    const std::string_view value = v == nullptr ? std::string_view() : std::string_view(v, vlen);
    if (key == "class") a.cls = value;
    else if (key == "id") a.id = value;
    else if (key == "style") a.style = value;
    else if (key == "role") a.role = value;
    else if (key == "hidden") a.hidden = true;
    else if (key == "aria-hidden" && value == "true") a.hidden = true;
  }
  return a;
}

bool IsInvisible(const NodeAttrs& a) {
  if (a.hidden) return true;
  if (a.style.empty()) return false;
  const std::string style = LowerAscii(a.style);
  return style.find("display:none") != std::string::npos ||
         style.find("display: none") != std::string::npos ||
         style.find("visibility:hidden") != std::string::npos ||
         style.find("visibility: hidden") != std::string::npos;
}

// The class/id patterns of one (class, id) pair; pages repeat the same
// pairs many times, so they are looked up once a page.
struct ClassFacts {
  int weight = 0;
  bool unlikely = false;  // an unlikely pattern and no "maybe" pattern
};

class ClassCache {
 public:
  void clear() { facts_.clear(); }
  const ClassFacts& Get(std::string_view cls, std::string_view id) {
    key_.assign(cls);
    key_.push_back('\x01');
    key_.append(id);
    auto [it, added] = facts_.try_emplace(key_);
    if (added) {
      const std::string c = LowerAscii(cls), i = LowerAscii(id);
      const std::string both = c + " " + i;
      it->second.weight = WeightOf(c) + WeightOf(i);
      it->second.unlikely = ContainsAny(both, kUnlikely) && !ContainsAny(both, kMaybe);
    }
    return it->second;
  }

 private:
  std::string key_;
  std::unordered_map<std::string, ClassFacts> facts_;
};

// Builds the element index of <body> in one walk: the tree below it minus
// hidden subtrees, with each element's own facts.
class Indexer {
 public:
  Indexer(std::vector<Element>* out, ClassCache* classes) : out_(*out), classes_(*classes) {}

  void Run(myhtml_tree_node_t* body) {
    Visit(body, -1);
    myhtml_tree_node_t* node = myhtml_node_child(body);
    while (node != nullptr) {
      myhtml_tree_node_t* child = Enter(node) ? myhtml_node_child(node) : nullptr;
      if (child != nullptr) {
        node = child;
        continue;
      }
      for (;;) {
        Leave(node);
        if (myhtml_tree_node_t* next = myhtml_node_next(node)) {
          node = next;
          break;
        }
        node = myhtml_node_parent(node);
        if (node == nullptr || node == body) {
          node = nullptr;
          break;
        }
      }
    }
  }

 private:
  // Adds `node` as an element; returns whether to descend into it.
  bool Visit(myhtml_tree_node_t* node, int parent) {
    Element e;
    e.node = node;
    e.parent = parent;
    e.tag = myhtml_node_tag_id(node);
    const NodeAttrs attrs = ReadAttrs(node);
    const ClassFacts& facts = classes_.Get(attrs.cls, attrs.id);
    e.own_weight = facts.weight;
    if (parent >= 0) {
      e.hidden = Hidden(node, e.tag, attrs);
      e.unlikely = !e.hidden && Unlikely(e.tag, attrs, facts);
    }
    const int index = static_cast<int>(out_.size());
    myhtml_node_set_data(node, reinterpret_cast<void*>(static_cast<intptr_t>(index + 1)));
    if (parent >= 0) {
      Element& p = out_[parent];
      if (p.first_child < 0) {
        p.first_child = index;
      } else {
        out_[last_child_[parent]].next_sibling = index;
      }
      last_child_[parent] = index;
    }
    out_.push_back(e);
    last_child_.push_back(-1);
    if (e.hidden) return false;
    stack_.push_back(index);
    if (e.tag == MyHTML_TAG_ARTICLE || e.tag == MyHTML_TAG_MAIN) ++in_article_;
    if (e.tag == MyHTML_TAG_A) ++in_link_;
    if (IsHeadingTag(e.tag)) ++in_heading_;
    if (e.tag == MyHTML_TAG_TABLE) ++in_table_;
    if (e.tag == MyHTML_TAG_CODE || e.tag == MyHTML_TAG_PRE) ++in_code_;
    return true;
  }

  static bool Hidden(myhtml_tree_node_t* node, myhtml_tag_id_t tag, const NodeAttrs& attrs) {
    if (myhtml_node_namespace(node) != MyHTML_NAMESPACE_HTML) return tag != MyHTML_TAG_SVG;
    return IsHiddenTag(tag) || IsInvisible(attrs);
  }

  // Readability's unlikely candidates (FLAG_STRIP_UNLIKELYS), plus a header
  // outside article/main.
  bool Unlikely(myhtml_tag_id_t tag, const NodeAttrs& attrs, const ClassFacts& facts) const {
    if (tag == MyHTML_TAG_HEADER && in_article_ == 0) return true;
    if (!attrs.role.empty() && ContainsAny(LowerAscii(attrs.role), kUnlikelyRoles)) return true;
    if (tag == MyHTML_TAG_A || tag == MyHTML_TAG_BODY || in_table_ > 0 || in_code_ > 0) {
      return false;
    }
    return facts.unlikely;
  }

  bool Enter(myhtml_tree_node_t* node) {
    const myhtml_tag_id_t tag = myhtml_node_tag_id(node);
    if (tag == MyHTML_TAG__TEXT) {
      OnText(node);
      return false;
    }
    if (tag == MyHTML_TAG__COMMENT || stack_.empty()) return false;
    return Visit(node, stack_.back());
  }

  void Leave(myhtml_tree_node_t* node) {
    const int index = IndexOf(node);
    if (index <= 0 || stack_.empty() || stack_.back() != index) return;
    stack_.pop_back();
    const myhtml_tag_id_t tag = out_[index].tag;
    if (tag == MyHTML_TAG_A) --in_link_;
    if (IsHeadingTag(tag)) --in_heading_;
    if (tag == MyHTML_TAG_TABLE) --in_table_;
    if (tag == MyHTML_TAG_CODE || tag == MyHTML_TAG_PRE) --in_code_;
    if (tag == MyHTML_TAG_ARTICLE || tag == MyHTML_TAG_MAIN) --in_article_;
  }

  void OnText(myhtml_tree_node_t* node) {
    if (stack_.empty()) return;
    size_t len = 0;
    const char* t = myhtml_node_text(node, &len);
    if (t == nullptr) return;
    Element& e = out_[stack_.back()];
    uint32_t chars = 0;
    CountText(std::string_view(t, len), &chars, &e.own_commas);
    e.own_chars += chars;
    if (in_link_ > 0) e.own_link_chars += chars;
    if (in_heading_ > 0) e.own_heading_chars += chars;
  }

  std::vector<Element>& out_;
  ClassCache& classes_;
  std::vector<int> stack_;
  std::vector<int> last_child_;  // by element: its last child so far
  int in_link_ = 0, in_heading_ = 0, in_table_ = 0, in_code_ = 0, in_article_ = 0;
};

bool IsDivToPElement(myhtml_tag_id_t t) {
  switch (t) {
    case MyHTML_TAG_BLOCKQUOTE: case MyHTML_TAG_DL: case MyHTML_TAG_DIV: case MyHTML_TAG_IMG:
    case MyHTML_TAG_OL: case MyHTML_TAG_P: case MyHTML_TAG_PRE: case MyHTML_TAG_TABLE:
    case MyHTML_TAG_UL:
      return true;
    default:
      return false;
  }
}

// Element::has_block_child of every element (backward: children first).
void MarkBlockDescendants(std::vector<Element>& el) {
  for (size_t i = el.size(); i-- > 1;) {
    const Element& e = el[i];
    if (IsDivToPElement(e.tag) || e.has_block_child) el[e.parent].has_block_child = true;
  }
}

}  // namespace

void IndexBody(myhtml_tree_node_t* body, std::vector<Element>* elements) {
  thread_local ClassCache classes;
  classes.clear();
  Indexer(elements, &classes).Run(body);
  MarkBlockDescendants(*elements);
}

}  // namespace topicrawl::main_content_internal

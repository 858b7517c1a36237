#include "parse/main_content.h"

#include <strings.h>

#include <algorithm>
#include <array>
#include <unordered_map>

#include "parse/depth_limiter.h"
#include "parse/html_text.h"
#include "parse/main_content_internal.h"

namespace topicrawl {
namespace main_content_internal {
namespace {

// One myhtml engine and tree per thread, reused across pages.
class TreeHolder {
 public:
  TreeHolder() {
    myhtml_ = myhtml_create();
    ok_ = myhtml_ != nullptr &&
          myhtml_init(myhtml_, MyHTML_OPTIONS_PARSE_MODE_SINGLE, 1, 0) == MyHTML_STATUS_OK;
    if (ok_) {
      tree_ = myhtml_tree_create();
      ok_ = tree_ != nullptr && myhtml_tree_init(tree_, myhtml_) == MyHTML_STATUS_OK;
    }
  }
  ~TreeHolder() {
    if (tree_ != nullptr) myhtml_tree_destroy(tree_);
    if (myhtml_ != nullptr) myhtml_destroy(myhtml_);
  }
  myhtml_tree_t* Parse(std::string_view html) {
    if (!ok_) return nullptr;
    myhtml_tree_clean(tree_);
    if (myhtml_parse(tree_, MyENCODING_UTF_8, html.data(), html.size()) != MyHTML_STATUS_OK) {
      return nullptr;
    }
    return tree_;
  }

 private:
  myhtml_t* myhtml_ = nullptr;
  myhtml_tree_t* tree_ = nullptr;
  bool ok_ = false;
};

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

std::string_view Attr(myhtml_tree_node_t* node, std::string_view key) {
  myhtml_tree_attr_t* attr = myhtml_attribute_by_key(node, key.data(), key.size());
  if (attr == nullptr) return {};
  size_t len = 0;
  const char* v = myhtml_attribute_value(attr, &len);
  return v == nullptr ? std::string_view() : std::string_view(v, len);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
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
  const std::string style = Lower(a.style);
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
      const std::string c = Lower(cls), i = Lower(id);
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
    if (!attrs.role.empty() && ContainsAny(Lower(attrs.role), kUnlikelyRoles)) return true;
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

// Sets the per-pass fields of every element: what `pass` drops (with its
// subtree), the class weights it uses, and the counts over what is left
// (children come after their parent: a backward sweep adds each element
// into its parent).
void PrepareForPass(std::vector<Element>& el, const Pass& pass) {
  for (size_t i = 0; i < el.size(); ++i) {
    Element& e = el[i];
    e.dropped = e.parent >= 0 &&
                (e.hidden || (pass.strip_unlikely && e.unlikely) || el[e.parent].dropped);
    e.class_weight = pass.weight_classes ? e.own_weight : 0;
    e.chars = e.own_chars;
    e.link_chars = e.own_link_chars;
    e.heading_chars = e.own_heading_chars;
    e.commas = e.own_commas;
    e.p = e.img = e.li = e.input = e.embeds = e.rows = e.cells = e.th = e.list_chars = 0;
    e.scored = false;
    e.score = 0;
  }
  for (size_t i = el.size(); i-- > 1;) {
    const Element& e = el[i];
    if (e.dropped || e.parent < 0) continue;
    Element& p = el[e.parent];
    p.chars += e.chars;
    p.link_chars += e.link_chars;
    p.heading_chars += e.heading_chars;
    p.commas += e.commas;
    p.list_chars += e.tag == MyHTML_TAG_UL || e.tag == MyHTML_TAG_OL ? e.chars : e.list_chars;
    p.p += e.p + (e.tag == MyHTML_TAG_P);
    p.img += e.img + (e.tag == MyHTML_TAG_IMG);
    p.li += e.li + (e.tag == MyHTML_TAG_LI);
    p.input += e.input + (e.tag == MyHTML_TAG_INPUT);
    p.embeds += e.embeds + (e.tag == MyHTML_TAG_EMBED || e.tag == MyHTML_TAG_OBJECT);
    p.rows += e.rows + (e.tag == MyHTML_TAG_TR);
    p.cells += e.cells + (e.tag == MyHTML_TAG_TD || e.tag == MyHTML_TAG_TH);
    p.th += e.th + (e.tag == MyHTML_TAG_TH || e.tag == MyHTML_TAG_CAPTION ||
                    e.tag == MyHTML_TAG_THEAD);
  }
}

int TagBaseScore(myhtml_tag_id_t t) {
  switch (t) {
    case MyHTML_TAG_DIV: return 5;
    case MyHTML_TAG_PRE: case MyHTML_TAG_TD: case MyHTML_TAG_BLOCKQUOTE: return 3;
    case MyHTML_TAG_ADDRESS: case MyHTML_TAG_OL: case MyHTML_TAG_UL: case MyHTML_TAG_DL:
    case MyHTML_TAG_DD: case MyHTML_TAG_DT: case MyHTML_TAG_LI: case MyHTML_TAG_FORM:
      return -3;
    case MyHTML_TAG_H1: case MyHTML_TAG_H2: case MyHTML_TAG_H3: case MyHTML_TAG_H4:
    case MyHTML_TAG_H5: case MyHTML_TAG_H6: case MyHTML_TAG_TH:
      return -5;
    default: return 0;
  }
}

bool IsScorable(const Element& e) {
  switch (e.tag) {
    case MyHTML_TAG_P: case MyHTML_TAG_PRE: case MyHTML_TAG_TD: case MyHTML_TAG_SECTION:
    case MyHTML_TAG_H2: case MyHTML_TAG_H3: case MyHTML_TAG_H4: case MyHTML_TAG_H5:
    case MyHTML_TAG_H6:
      return true;
    case MyHTML_TAG_DIV:
      return !e.has_block_child;
    default:
      return false;
  }
}

// Readability's paragraph scores, propagated to 5 ancestors.
void ScoreParagraphs(std::vector<Element>& el) {
  for (size_t i = 1; i < el.size(); ++i) {
    const Element& e = el[i];
    if (e.dropped || !IsScorable(e) || e.chars < 25) continue;
    const double score = 1.0 + e.commas + std::min(e.chars / 100u, 3u);
    int a = e.parent;
    for (int level = 0; a >= 0 && level < 5; ++level, a = el[a].parent) {
      Element& anc = el[a];
      if (!anc.scored) {
        anc.scored = true;
        anc.score = TagBaseScore(anc.tag) + anc.class_weight;
      }
      anc.score += level == 0 ? score : level == 1 ? score / 2 : score / (level * 3);
    }
  }
}

// Ends with a sentence: ". " or "." at the end (Readability's test for
// short link-free sibling paragraphs).
bool HasSentenceEnd(myhtml_tree_node_t* node) {
  for (auto* c = myhtml_node_child(node); c != nullptr; c = myhtml_node_next(c)) {
    if (myhtml_node_tag_id(c) != MyHTML_TAG__TEXT) continue;
    size_t len = 0;
    const char* t = myhtml_node_text(c, &len);
    std::string_view s(t == nullptr ? "" : t, t == nullptr ? 0 : len);
    for (size_t p = s.find('.'); p != std::string_view::npos; p = s.find('.', p + 1)) {
      if (p + 1 == s.size() || s[p + 1] == ' ') return true;
    }
    if (s.find("。") != std::string_view::npos) return true;
  }
  return false;
}

// The candidates with the highest scores (link density applied), best
// first: Readability keeps 5.
std::vector<int> TopCandidates(std::vector<Element>& el, size_t n) {
  std::vector<int> top;
  for (size_t i = 0; i < el.size(); ++i) {
    Element& e = el[i];
    if (!e.scored || e.dropped) continue;
    e.score *= 1.0 - e.LinkDensity();
    auto at = std::find_if(top.begin(), top.end(), [&](int t) { return e.score > el[t].score; });
    if (static_cast<size_t>(at - top.begin()) >= n) continue;
    top.insert(at, static_cast<int>(i));
    if (top.size() > n) top.pop_back();
  }
  return top;
}

bool IsAncestor(const std::vector<Element>& el, int ancestor, int node) {
  for (int a = el[node].parent; a >= 0; a = el[a].parent) {
    if (a == ancestor) return true;
  }
  return false;
}

int ElementChildren(const std::vector<Element>& el, int i) {
  int n = 0;
  for (int c = el[i].first_child; c >= 0; c = el[c].next_sibling) n += !el[c].dropped;
  return n;
}

// Readability's moves from the best candidate to a better container: the
// nearest ancestor holding 3 of the other top candidates scoring >= 0.75 of
// it; then up while an ancestor scores more (stopping below a third); then
// up while it is an only child. Element 0 is <body>, never chosen here.
int BetterContainer(std::vector<Element>& el, const std::vector<int>& top) {
  int best = top[0];
  const double best_score = el[best].score;
  std::vector<int> close;
  for (size_t k = 1; k < top.size(); ++k) {
    if (best_score > 0 && el[top[k]].score / best_score >= 0.75) close.push_back(top[k]);
  }
  if (close.size() >= 3) {
    for (int a = el[best].parent; a > 0; a = el[a].parent) {
      int holds = 0;
      for (int c : close) holds += IsAncestor(el, a, c);
      if (holds >= 3) {
        best = a;
        break;
      }
    }
  }
  if (!el[best].scored) {
    el[best].scored = true;
    el[best].score = TagBaseScore(el[best].tag) + el[best].class_weight;
  }
  double last = el[best].score;
  const double floor = last / 3;
  for (int a = el[best].parent; a > 0; a = el[a].parent) {
    if (!el[a].scored) continue;
    if (el[a].score < floor) break;
    if (el[a].score > last) {
      best = a;
      break;
    }
    last = el[a].score;
  }
  while (el[best].parent > 0 && ElementChildren(el, el[best].parent) == 1) best = el[best].parent;
  return best;
}

// The article: the best candidate and the siblings that join it.
std::vector<int> ChooseArticle(std::vector<Element>& el) {
  const std::vector<int> candidates = TopCandidates(el, 5);
  if (candidates.empty() || candidates[0] <= 0) return {0};  // the whole body
  const int top = BetterContainer(el, candidates);
  const double best = el[top].score;
  const int parent = el[top].parent;
  if (parent < 0) return {top};
  const double threshold = std::max(10.0, best * 0.2);
  const std::string top_class(Attr(el[top].node, "class"));
  std::vector<int> roots;
  for (int s = el[parent].first_child; s >= 0; s = el[s].next_sibling) {
    const Element& e = el[s];
    if (e.dropped) continue;
    bool join = s == top;
    if (!join) {
      double bonus = 0;
      if (!top_class.empty() && Attr(e.node, "class") == top_class) bonus = best * 0.2;
      join = e.scored && e.score + bonus >= threshold;
    }
    if (!join && e.tag == MyHTML_TAG_P) {
      const double ld = e.LinkDensity();
      join = (e.chars > 80 && ld < 0.25) ||
             (e.chars > 0 && e.chars <= 80 && ld == 0 && HasSentenceEnd(e.node));
    }
    if (join) roots.push_back(s);
  }
  return roots;
}

std::string LangOf(myhtml_tree_t* tree, std::string_view text) {
  myhtml_tree_node_t* html = myhtml_tree_get_node_html(tree);
  if (html != nullptr) {
    std::string lang = Lower(Attr(html, "lang"));
    lang = lang.substr(0, lang.find_first_of("-_ "));
    if (!lang.empty()) return lang;
  }
  size_t han = 0, latin = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ++latin;
    if (c >= 0xE4 && c <= 0xE9) ++han;  // U+4000..U+9FFF lead bytes
  }
  if (han * 4 > latin && han > 0) return "zh";
  return latin > 0 ? "en" : "";
}

std::string TitleOf(myhtml_tree_t* tree) {
  mystatus_t status = MyHTML_STATUS_OK;
  myhtml_collection_t* titles =
      myhtml_get_nodes_by_tag_id(tree, nullptr, MyHTML_TAG_TITLE, &status);
  std::string out;
  if (titles != nullptr && titles->length > 0) {
    FoldedText t;
    for (auto* c = myhtml_node_child(titles->list[0]); c != nullptr; c = myhtml_node_next(c)) {
      size_t len = 0;
      const char* s = myhtml_node_text(c, &len);
      if (s != nullptr) t.Append(std::string_view(s, len));
    }
    out = t.str();
  }
  if (titles != nullptr) myhtml_collection_destroy(titles);
  return out;
}

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Readability's attempts (Pass): the first whose text has 500 characters,
// else the longest. Returns the text's code points.
size_t ExtractArticle(myhtml_tree_node_t* body, std::string_view page_url, MainContent* out) {
  constexpr size_t kEnough = 500;
  constexpr Pass kPasses[] = {{true, true, true}, {false, true, true}, {false, false, true},
                              {false, false, false}};
  thread_local std::vector<Element> elements;
  thread_local ClassCache classes;
  elements.clear();
  classes.clear();
  Indexer(&elements, &classes).Run(body);
  MarkBlockDescendants(elements);
  std::string text, markdown;
  size_t best = 0;
  bool have = false;
  for (const Pass& pass : kPasses) {
    PrepareForPass(elements, pass);
    ScoreParagraphs(elements);
    const std::vector<int> roots = ChooseArticle(elements);
    text.clear();
    markdown.clear();
    RenderContent(elements, roots, page_url, pass.clean_conditionally, &text, &markdown);
    const size_t chars = CodePoints(text);
    if (!have || chars > best) {
      best = chars;
      have = true;
      out->text.swap(text);
      out->markdown.swap(markdown);
    }
    if (chars >= kEnough) break;
  }
  return best;
}

void OptOutMeta(myhtml_tree_t* tree, std::vector<std::pair<std::string, std::string>>* out) {
  mystatus_t status = MyHTML_STATUS_OK;
  myhtml_collection_t* metas = myhtml_get_nodes_by_tag_id(tree, nullptr, MyHTML_TAG_META, &status);
  if (metas == nullptr) return;
  for (size_t i = 0; i < metas->length && out->size() < 32; ++i) {
    const std::string name = Lower(Attr(metas->list[i], "name"));
    const bool bot = name.size() > 3 && name.compare(name.size() - 3, 3, "bot") == 0;
    if (name == "robots" || bot || name == "tdm-reservation" || name == "tdm-policy") {
      out->emplace_back(name, FoldWhitespace(Attr(metas->list[i], "content")));
    }
  }
  myhtml_collection_destroy(metas);
}

}  // namespace
}  // namespace main_content_internal

using main_content_internal::Element;

std::vector<std::pair<std::string, std::string>> ExtractOptOutMeta(
    std::string_view utf8_html, const MainContentOptions& options) {
  thread_local main_content_internal::TreeHolder holder;
  std::vector<std::pair<std::string, std::string>> out;
  if (utf8_html.size() > options.max_bytes) utf8_html = Utf8Prefix(utf8_html, options.max_bytes);
  // The head ends at the first "</head" in any case; ASCII-only search.
  for (size_t at = utf8_html.find("</"); at != std::string_view::npos;
       at = utf8_html.find("</", at + 2)) {
    if (at + 6 <= utf8_html.size() && strncasecmp(utf8_html.data() + at + 2, "head", 4) == 0) {
      utf8_html = utf8_html.substr(0, at);
      break;
    }
  }
  std::string limited;
  if (LimitNestingDepth(utf8_html, options.max_depth, &limited).changed) utf8_html = limited;
  myhtml_tree_t* tree = holder.Parse(utf8_html);
  if (tree != nullptr) main_content_internal::OptOutMeta(tree, &out);
  return out;
}

MainContent ExtractMainContent(std::string_view utf8_html, std::string_view page_url,
                               const MainContentOptions& options) {
  thread_local main_content_internal::TreeHolder holder;
  MainContent out;
  if (utf8_html.size() > options.max_bytes) {
    utf8_html = Utf8Prefix(utf8_html, options.max_bytes);
    out.truncated = true;
  }
  std::string limited;
  if (LimitNestingDepth(utf8_html, options.max_depth, &limited).changed) utf8_html = limited;
  myhtml_tree_t* tree = holder.Parse(utf8_html);
  if (tree == nullptr) {
    out.reason = "the HTML parser failed";
    return out;
  }
  out.title = main_content_internal::TitleOf(tree);
  main_content_internal::OptOutMeta(tree, &out.opt_out_meta);
  myhtml_tree_node_t* body = myhtml_tree_get_node_body(tree);
  if (body == nullptr) {
    out.reason = "no main content: the page has no body";
    out.lang = main_content_internal::LangOf(tree, out.title);
    return out;
  }
  const size_t chars = main_content_internal::ExtractArticle(body, page_url, &out);
  out.lang = main_content_internal::LangOf(tree, out.text.empty() ? out.title : out.text);
  if (chars < options.min_chars) {
    out.reason = "no main content (" + std::to_string(chars) + " characters of text)";
    out.text.clear();
    out.markdown.clear();
    return out;
  }
  out.found = true;
  if (out.truncated) {
    out.reason = "input cut at " + std::to_string(options.max_bytes) + " bytes";
  }
  return out;
}

}  // namespace topicrawl

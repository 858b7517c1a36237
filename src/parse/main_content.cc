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

bool HasAttr(myhtml_tree_node_t* node, std::string_view key) {
  return myhtml_attribute_by_key(node, key.data(), key.size()) != nullptr;
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

bool IsInvisible(myhtml_tree_node_t* node) {
  if (HasAttr(node, "hidden") || Attr(node, "aria-hidden") == "true") return true;
  const std::string style = Lower(Attr(node, "style"));
  return style.find("display:none") != std::string::npos ||
         style.find("display: none") != std::string::npos ||
         style.find("visibility:hidden") != std::string::npos ||
         style.find("visibility: hidden") != std::string::npos;
}

// Code points and commas (ASCII, CJK full-width and ideographic) of a text.
void CountText(std::string_view t, uint32_t* chars, uint32_t* commas) {
  bool space = true;
  for (size_t i = 0; i < t.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    const bool is_space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
    if (is_space && space) continue;  // runs count once
    space = is_space;
    ++*chars;
    if (c == ',') ++*commas;
    if (c == 0xEF && i + 2 < t.size() && (unsigned char)t[i + 1] == 0xBC &&
        (unsigned char)t[i + 2] == 0x8C) {
      ++*commas;  // U+FF0C
    }
    if (c == 0xE3 && i + 2 < t.size() && (unsigned char)t[i + 1] == 0x80 &&
        (unsigned char)t[i + 2] == 0x81) {
      ++*commas;  // U+3001
    }
  }
}

bool IsHeadingTag(myhtml_tag_id_t t) { return t >= MyHTML_TAG_H1 && t <= MyHTML_TAG_H6; }

// Builds the element index of <body> in one walk.
class Indexer {
 public:
  explicit Indexer(std::vector<Element>* out) : out_(*out) {}

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
    for (size_t i = out_.size(); i-- > 1;) Aggregate(static_cast<int>(i));
  }

 private:
  // Adds `node` as an element; returns whether to descend into it.
  bool Visit(myhtml_tree_node_t* node, int parent) {
    Element e;
    e.node = node;
    e.parent = parent;
    e.tag = myhtml_node_tag_id(node);
    const std::string cls = Lower(Attr(node, "class"));
    const std::string id = Lower(Attr(node, "id"));
    e.class_weight = WeightOf(cls) + WeightOf(id);
    e.dropped = parent >= 0 && Unlikely(node, e.tag, cls + " " + id);
    const int index = static_cast<int>(out_.size());
    myhtml_node_set_data(node, reinterpret_cast<void*>(static_cast<intptr_t>(index + 1)));
    if (parent >= 0) {
      Element& p = out_[parent];
      if (IsBlockTag(e.tag) && !e.dropped) p.has_block_child = true;
      if (p.first_child < 0) {
        p.first_child = index;
      } else {
        out_[last_child_[parent]].next_sibling = index;
      }
      last_child_[parent] = index;
    }
    out_.push_back(e);
    if (e.dropped) return false;
    stack_.push_back(index);
    if (e.tag == MyHTML_TAG_ARTICLE || e.tag == MyHTML_TAG_MAIN) ++in_article_;
    if (e.tag == MyHTML_TAG_A) ++in_link_;
    if (IsHeadingTag(e.tag)) ++in_heading_;
    if (e.tag == MyHTML_TAG_TABLE) ++in_table_;
    if (e.tag == MyHTML_TAG_CODE || e.tag == MyHTML_TAG_PRE) ++in_code_;
    return true;
  }

  bool Unlikely(myhtml_tree_node_t* node, myhtml_tag_id_t tag, const std::string& class_id) {
    if (myhtml_node_namespace(node) != MyHTML_NAMESPACE_HTML) return tag != MyHTML_TAG_SVG;
    if (IsHiddenTag(tag) || IsInvisible(node)) return true;
    if (tag == MyHTML_TAG_HEADER && in_article_ == 0) return true;
    const std::string role = Lower(Attr(node, "role"));
    if (!role.empty() && ContainsAny(role, kUnlikelyRoles)) return true;
    if (tag == MyHTML_TAG_A || tag == MyHTML_TAG_BODY || in_table_ > 0 || in_code_ > 0) {
      return false;
    }
    if (ContainsAny(class_id, kUnlikely) && !ContainsAny(class_id, kMaybe)) return true;
    return false;
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
    CountText(std::string_view(t, len), &chars, &e.commas);
    e.chars += chars;
    if (in_link_ > 0) e.link_chars += chars;
    if (in_heading_ > 0) e.heading_chars += chars;
  }

  // Children come after their parent: walking backwards adds each finished
  // element into its parent.
  void Aggregate(int i) {
    const Element& e = out_[i];
    if (e.dropped || e.parent < 0) return;
    Element& p = out_[e.parent];
    p.chars += e.chars;
    p.link_chars += e.link_chars;
    p.heading_chars += e.heading_chars;
    p.commas += e.commas;
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

  std::vector<Element>& out_;
  std::vector<int> stack_;
  std::unordered_map<int, int> last_child_;
  int in_link_ = 0, in_heading_ = 0, in_table_ = 0, in_code_ = 0, in_article_ = 0;
};

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

// The article: the best candidate and the siblings that join it.
std::vector<int> ChooseArticle(std::vector<Element>& el) {
  int top = -1;
  double best = 0;
  for (size_t i = 0; i < el.size(); ++i) {
    Element& e = el[i];
    if (!e.scored || e.dropped) continue;
    e.score *= 1.0 - e.LinkDensity();
    if (top < 0 || e.score > best) {
      top = static_cast<int>(i);
      best = e.score;
    }
  }
  if (top <= 0) return {0};  // nothing scored: the whole body
  const int parent = el[top].parent;
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
  std::vector<Element> elements;
  if (body != nullptr) {
    main_content_internal::Indexer(&elements).Run(body);
  }
  if (elements.empty()) {
    out.reason = "no main content: the page has no body";
    out.lang = main_content_internal::LangOf(tree, out.title);
    return out;
  }
  main_content_internal::ScoreParagraphs(elements);
  const std::vector<int> roots = main_content_internal::ChooseArticle(elements);
  main_content_internal::RenderContent(elements, roots, page_url, &out.text, &out.markdown);
  out.lang = main_content_internal::LangOf(tree, out.text.empty() ? out.title : out.text);
  size_t chars = 0;
  for (unsigned char c : out.text) chars += (c & 0xC0) != 0x80;
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

#include "parse/html_parser.h"

#include <myhtml/api.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "parse/depth_limiter.h"
#include "parse/html_text.h"
#include "parse/link_block.h"
#include "parse/link_context.h"
#include "url/url.h"

namespace topicrawl {
namespace {

using html_walk::CompactNode;
using html_walk::DomContextScratch;
using html_walk::VisibleText;
using html_walk::WalkedLink;

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point t0) {
  return std::chrono::duration<double>(SteadyClock::now() - t0).count();
}

// One myhtml engine + tree per thread. myhtml_t holds the tokenizer/tree
// builder state and is not thread-safe; keeping one per thread avoids a lock
// and the ~100 us set-up per page. A tree that grew for a huge page is
// recreated so an idle parse thread does not pin tens of MB.
class ThreadParser {
 public:
  ThreadParser() {
    myhtml_ = myhtml_create();
    ok_ = myhtml_ != nullptr &&
          myhtml_init(myhtml_, MyHTML_OPTIONS_PARSE_MODE_SINGLE, 1, 0) ==
              MyHTML_STATUS_OK;
    if (ok_) ok_ = NewTree();
  }
  ~ThreadParser() {
    if (tree_ != nullptr) myhtml_tree_destroy(tree_);
    if (myhtml_ != nullptr) myhtml_destroy(myhtml_);
  }
  ThreadParser(const ThreadParser&) = delete;
  ThreadParser& operator=(const ThreadParser&) = delete;

  // Returns the tree holding `html`, or null when myhtml failed.
  myhtml_tree_t* Parse(std::string_view html) {
    if (!ok_) return nullptr;
    myhtml_tree_clean(tree_);
    if (myhtml_parse(tree_, MyENCODING_UTF_8, html.data(), html.size()) !=
        MyHTML_STATUS_OK) {
      return nullptr;
    }
    last_size_ = html.size();
    return tree_;
  }

  // Called when the caller is done with the tree of the last Parse().
  void Release() {
    constexpr size_t kRecreateAbove = 4 * 1024 * 1024;
    if (last_size_ > kRecreateAbove) {
      myhtml_tree_destroy(tree_);
      tree_ = nullptr;
      ok_ = NewTree();
    }
  }

 private:
  bool NewTree() {
    tree_ = myhtml_tree_create();
    if (tree_ == nullptr) return false;
    if (myhtml_tree_init(tree_, myhtml_) != MyHTML_STATUS_OK) {
      myhtml_tree_destroy(tree_);
      tree_ = nullptr;
      return false;
    }
    return true;
  }

  myhtml_t* myhtml_ = nullptr;
  myhtml_tree_t* tree_ = nullptr;
  bool ok_ = false;
  size_t last_size_ = 0;
};

// The value of attribute `key` (lower case), nullopt when absent.
std::optional<std::string_view> Attr(myhtml_tree_node_t* node, std::string_view key) {
  myhtml_tree_attr_t* attr = myhtml_attribute_by_key(node, key.data(), key.size());
  if (attr == nullptr) return std::nullopt;
  size_t len = 0;
  const char* v = myhtml_attribute_value(attr, &len);
  return v == nullptr ? std::string_view() : std::string_view(v, len);
}

std::string_view AttrValue(myhtml_tree_node_t* node, std::string_view key) {
  return Attr(node, key).value_or(std::string_view());
}

bool EqualsNoCase(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

// Hrefs that carry characters never written in a real URL: script source
// leaked into markup, e.g. Django's `releases/" + base + "`. A browser would
// percent-encode them and fetch a 404; a crawler drops them.
bool LooksLikeJunk(std::string_view href) {
  for (char c : href) {
    if (c == '"' || c == '<' || c == '>') return true;
  }
  return false;
}

// Elements after which / before which visible text starts a new block.
bool IsBlock(myhtml_tag_id_t t) {
  switch (t) {
    case MyHTML_TAG_ADDRESS: case MyHTML_TAG_ARTICLE: case MyHTML_TAG_ASIDE:
    case MyHTML_TAG_BLOCKQUOTE: case MyHTML_TAG_BODY: case MyHTML_TAG_BR:
    case MyHTML_TAG_BUTTON: case MyHTML_TAG_CAPTION: case MyHTML_TAG_CENTER:
    case MyHTML_TAG_DD: case MyHTML_TAG_DETAILS: case MyHTML_TAG_DIALOG:
    case MyHTML_TAG_DIR: case MyHTML_TAG_DIV: case MyHTML_TAG_DL:
    case MyHTML_TAG_DT: case MyHTML_TAG_FIELDSET: case MyHTML_TAG_FIGCAPTION:
    case MyHTML_TAG_FIGURE: case MyHTML_TAG_FOOTER: case MyHTML_TAG_FORM:
    case MyHTML_TAG_FRAMESET: case MyHTML_TAG_H1: case MyHTML_TAG_H2:
    case MyHTML_TAG_H3: case MyHTML_TAG_H4: case MyHTML_TAG_H5:
    case MyHTML_TAG_H6: case MyHTML_TAG_HEADER: case MyHTML_TAG_HGROUP:
    case MyHTML_TAG_HR: case MyHTML_TAG_HTML: case MyHTML_TAG_LEGEND:
    case MyHTML_TAG_LI: case MyHTML_TAG_LISTING: case MyHTML_TAG_MAIN:
    case MyHTML_TAG_MENU: case MyHTML_TAG_NAV: case MyHTML_TAG_OL:
    case MyHTML_TAG_OPTION: case MyHTML_TAG_P: case MyHTML_TAG_PLAINTEXT:
    case MyHTML_TAG_PRE: case MyHTML_TAG_SECTION: case MyHTML_TAG_SELECT:
    case MyHTML_TAG_SUMMARY: case MyHTML_TAG_TABLE: case MyHTML_TAG_TBODY:
    case MyHTML_TAG_TD: case MyHTML_TAG_TEXTAREA: case MyHTML_TAG_TFOOT:
    case MyHTML_TAG_TH: case MyHTML_TAG_THEAD: case MyHTML_TAG_TR:
    case MyHTML_TAG_UL: case MyHTML_TAG_XMP:
      return true;
    default:
      return false;
  }
}

// Elements whose content is never visible text (nor links).
bool IsHidden(myhtml_tag_id_t t) {
  switch (t) {
    case MyHTML_TAG_SCRIPT: case MyHTML_TAG_STYLE: case MyHTML_TAG_TEMPLATE:
    case MyHTML_TAG_NOSCRIPT: case MyHTML_TAG_IFRAME: case MyHTML_TAG_NOEMBED:
    case MyHTML_TAG_NOFRAMES: case MyHTML_TAG_SVG: case MyHTML_TAG_MATH:
    case MyHTML_TAG__COMMENT:
      return true;
    default:
      return false;
  }
}

// Emphasis (seed 002's "强调型" tags, eq. 8 tag factor).
bool IsEmphasis(myhtml_tag_id_t t) {
  return t == MyHTML_TAG_STRONG || t == MyHTML_TAG_EM || t == MyHTML_TAG_B;
}

bool IsHeading(myhtml_tag_id_t t) {
  return t == MyHTML_TAG_H1 || t == MyHTML_TAG_H2 || t == MyHTML_TAG_H3 ||
         t == MyHTML_TAG_H4 || t == MyHTML_TAG_H5 || t == MyHTML_TAG_H6;
}

// Per-thread buffers reused across pages: allocating them afresh for every
// page made the kernel zero new pages for ~20% of the parse time.
struct Scratch {
  FoldedText stream;
  std::vector<std::pair<uint32_t, uint32_t>> pieces;
  std::vector<WordSpan> words;
  std::vector<WalkedLink> links;
  std::vector<CompactNode> cnodes;
  DomContextScratch dom;

  void Reset() {
    stream.Clear();
    pieces.clear();
    words.clear();
    links.clear();
    cnodes.clear();
  }
  // After a huge page, give the memory back rather than pin it per thread.
  void Trim() {
    constexpr size_t kKeep = 8 * 1024 * 1024;
    stream.ShrinkIfAbove(kKeep);
    if (pieces.capacity() * sizeof(pieces[0]) > kKeep) decltype(pieces)().swap(pieces);
    if (words.capacity() * sizeof(words[0]) > kKeep) decltype(words)().swap(words);
    if (links.capacity() > 65536) decltype(links)().swap(links);
    if (cnodes.capacity() * sizeof(cnodes[0]) > kKeep) decltype(cnodes)().swap(cnodes);
  }
};

Scratch& ThreadScratch() {
  thread_local Scratch scratch;
  return scratch;
}

class Extractor {
 public:
  Extractor(const ParseOptions& options, std::string_view page_url,
            bool has_base_tag, SteadyClock::time_point start, ParsedPage* page,
            ParseStats* stats)
      : scratch_(ThreadScratch()),
        stream_(scratch_.stream),
        pieces_(scratch_.pieces),
        links_(scratch_.links),
        cnodes_(scratch_.cnodes),
        options_(options),
        options_has_base_(has_base_tag),
        dom_(options.dom_delta > 0),
        page_url_(page_url),
        start_(start),
        page_(page),
        stats_(stats) {
    scratch_.Reset();
  }
  ~Extractor() { scratch_.Trim(); }
  Extractor(const Extractor&) = delete;
  Extractor& operator=(const Extractor&) = delete;

  void Run(myhtml_tree_t* tree);

 private:
  void FindBase(myhtml_tree_t* tree);
  void Walk(myhtml_tree_t* tree);
  bool Enter(myhtml_tree_node_t* node);  // returns whether to descend
  void Leave(myhtml_tree_node_t* node);
  void OnText(myhtml_tree_node_t* node);
  void OnMeta(myhtml_tree_node_t* node);
  void OnLinkElement(myhtml_tree_node_t* node);
  void OnTitle(myhtml_tree_node_t* node);
  void FlushBlock();
  // Adds a link when `href` resolves; returns its index or -1.
  int AddLink(std::string_view href, LinkKind kind, myhtml_tree_node_t* node);
  void Warn(const std::string& why);
  bool OutOfTime();
  void AttachTextContexts();
  void AttachDomContexts();
  // Appends a CompactNode under the innermost open element; returns its index.
  int32_t AddCompactNode(int32_t piece);

  Scratch& scratch_;
  FoldedText& stream_;                                  // all visible text, blocks space-separated
  std::vector<std::pair<uint32_t, uint32_t>>& pieces_;  // visible text nodes
  std::vector<WalkedLink>& links_;
  std::vector<CompactNode>& cnodes_;
  const ParseOptions& options_;
  bool options_has_base_;
  // Whether the seed-004 DOM context is wanted: without it the walk builds
  // no CompactNode tree.
  bool dom_;
  std::string_view page_url_;
  SteadyClock::time_point start_;
  ParsedPage* page_;
  ParseStats* stats_;

  std::string base_;             // effective base URL
  size_t block_begin_ = 0;       // stream offset where the open block began
  std::vector<int> open_anchors_;   // links_ index per open <a> (-1: none)
  std::vector<size_t> open_headings_;
  std::vector<size_t> open_emphasis_;
  int head_depth_ = 0;
  bool title_done_ = false;
  bool stopped_ = false;
  bool link_cap_warned_ = false;
  size_t nodes_ = 0;
  // Open elements that have a CompactNode: (myhtml node, index).
  std::vector<std::pair<myhtml_tree_node_t*, int32_t>> open_cnodes_;
};

int32_t Extractor::AddCompactNode(int32_t piece) {
  const auto idx = static_cast<int32_t>(cnodes_.size());
  CompactNode& c = cnodes_.emplace_back();
  c.piece = piece;
  if (!open_cnodes_.empty()) {
    int32_t parent = open_cnodes_.back().second;
    c.parent = parent;
    CompactNode& p = cnodes_[parent];
    if (p.last_child >= 0) {
      cnodes_[p.last_child].next = idx;
      c.prev = p.last_child;
    } else {
      p.first_child = idx;
    }
    p.last_child = idx;
  }
  return idx;
}

void Extractor::Warn(const std::string& why) {
  page_->truncated = true;
  if (page_->warning.find(why) != std::string::npos) return;
  if (!page_->warning.empty()) page_->warning += "; ";
  page_->warning += why;
}

bool Extractor::OutOfTime() {
  if (SecondsSince(start_) <= options_.time_budget_s) return false;
  Warn("time budget exceeded");
  return true;
}

void Extractor::FindBase(myhtml_tree_t* tree) {
  base_ = std::string(page_url_);
  if (!options_has_base_) return;  // the tokenizer pass saw no <base> tag
  mystatus_t status = MyHTML_STATUS_OK;
  myhtml_collection_t* bases =
      myhtml_get_nodes_by_tag_id(tree, nullptr, MyHTML_TAG_BASE, &status);
  if (bases == nullptr) return;
  // HTML §4.2.3: the first <base> with an href attribute, resolved against
  // the document URL, is the document base URL.
  for (size_t i = 0; i < bases->length; ++i) {
    myhtml_tree_node_t* b = bases->list[i];
    auto href = Attr(b, "href");
    if (myhtml_node_namespace(b) != MyHTML_NAMESPACE_HTML || !href) continue;
    std::optional<std::string> resolved = ResolveLink(page_url_, *href);
    if (resolved) base_ = std::move(*resolved);
    break;
  }
  myhtml_collection_destroy(bases);
}

void Extractor::Run(myhtml_tree_t* tree) {
  FindBase(tree);
  page_->base_url = base_;
  Walk(tree);
  const std::string& text = stream_.str();
  // Close whatever the walk left open (time budget, or end of document).
  for (int idx : open_anchors_) {
    if (idx >= 0) links_[idx].text_end = text.size();
  }
  FlushBlock();
  AttachTextContexts();
  AttachDomContexts();
  page_->links.reserve(links_.size());
  for (WalkedLink& r : links_) {
    if (r.has_position && r.node != nullptr &&
        myhtml_node_tag_id(r.node) == MyHTML_TAG_A) {
      r.link.anchor = std::string(TrimSpaces(
          std::string_view(text).substr(r.text_begin, r.text_end - r.text_begin)));
    }
    if (page_->nofollow) r.link.nofollow = true;
    page_->links.push_back(std::move(r.link));
  }
  page_->text.clear();
  for (size_t i = 0; i < page_->text_blocks.size(); ++i) {
    if (i > 0) page_->text.push_back('\n');
    page_->text += page_->text_blocks[i];
  }
  if (stats_ != nullptr) stats_->nodes = nodes_;
}

void Extractor::Walk(myhtml_tree_t* tree) {
  myhtml_tree_node_t* root = myhtml_tree_get_document(tree);
  if (root == nullptr) return;
  myhtml_tree_node_t* node = myhtml_node_child(root);
  while (node != nullptr) {
    if ((++nodes_ & 255) == 0 && OutOfTime()) {
      stopped_ = true;
      return;
    }
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
      if (node == nullptr || node == root) {
        node = nullptr;
        break;
      }
    }
  }
}

void Extractor::FlushBlock() {
  const std::string& s = stream_.str();
  std::string_view block =
      TrimSpaces(std::string_view(s).substr(std::min(block_begin_, s.size())));
  if (!block.empty()) page_->text_blocks.emplace_back(block);
  stream_.Break();
  block_begin_ = s.size();
}

void Extractor::OnText(myhtml_tree_node_t* node) {
  if (head_depth_ > 0) return;
  size_t len = 0;
  const char* t = myhtml_node_text(node, &len);
  if (t == nullptr || len == 0) return;
  size_t before = stream_.size();
  stream_.Append(std::string_view(t, len));
  if (stream_.size() == before) return;  // whitespace only
  std::string_view added =
      TrimSpaces(std::string_view(stream_.str()).substr(before));
  uint32_t begin = static_cast<uint32_t>(stream_.size() - added.size());
  pieces_.emplace_back(begin, static_cast<uint32_t>(stream_.size()));
  if (dom_) AddCompactNode(static_cast<int32_t>(pieces_.size() - 1));
}

void Extractor::OnTitle(myhtml_tree_node_t* node) {
  if (title_done_ || myhtml_node_namespace(node) != MyHTML_NAMESPACE_HTML) return;
  title_done_ = true;
  FoldedText title;
  for (auto* c = myhtml_node_child(node); c != nullptr; c = myhtml_node_next(c)) {
    size_t len = 0;
    const char* t = myhtml_node_text(c, &len);
    if (t != nullptr) title.Append(std::string_view(t, len));
  }
  page_->title = title.str();
}

void Extractor::OnMeta(myhtml_tree_node_t* node) {
  std::string_view name = AttrValue(node, "name");
  std::string_view content = AttrValue(node, "content");
  if (!name.empty()) {
    if (EqualsNoCase(name, "description") && page_->description.empty()) {
      page_->description = FoldWhitespace(content);
    } else if (EqualsNoCase(name, "keywords") && page_->keywords.empty()) {
      page_->keywords = FoldWhitespace(content);
    } else if (EqualsNoCase(name, "robots")) {
      // Robots meta tag: comma-separated, case-insensitive directives.
      std::string list(content);
      std::replace(list.begin(), list.end(), ',', ' ');
      bool none = HasToken(list, "none");
      if (none || HasToken(list, "noindex")) page_->noindex = true;
      if (none || HasToken(list, "nofollow")) page_->nofollow = true;
    }
    return;
  }
  if (EqualsNoCase(AttrValue(node, "http-equiv"), "refresh")) {
    if (std::optional<std::string> url = MetaRefreshUrl(content)) {
      AddLink(*url, LinkKind::kMetaRefresh, nullptr);
    }
  }
}

void Extractor::OnLinkElement(myhtml_tree_node_t* node) {
  auto href = Attr(node, "href");
  if (!href || !HasToken(AttrValue(node, "rel"), "canonical")) return;
  int idx = AddLink(*href, LinkKind::kCanonical, nullptr);
  if (idx >= 0 && page_->canonical.empty()) {
    page_->canonical = links_[idx].link.url;
  }
}

int Extractor::AddLink(std::string_view href, LinkKind kind,
                       myhtml_tree_node_t* node) {
  if (links_.size() >= options_.max_links) {
    if (!link_cap_warned_) Warn("link cap reached");
    link_cap_warned_ = true;
    return -1;
  }
  std::optional<std::string> url;
  if (!LooksLikeJunk(href)) url = ResolveLink(base_, href);
  if (!url) {
    if (stats_ != nullptr) ++stats_->links_unresolved;
    return -1;
  }
  WalkedLink r;
  r.link.url = std::move(*url);
  if (options_.keep_raw_href) r.link.raw_href = std::string(href);
  r.link.kind = kind;
  r.node = node;
  r.has_position = node != nullptr;
  if (node != nullptr && dom_) r.cnode = AddCompactNode(-1);
  if (node != nullptr && options_.link_blocks) r.link.block = LinkBlock(node);
  r.text_begin = r.text_end = stream_.size();
  links_.push_back(std::move(r));
  return static_cast<int>(links_.size()) - 1;
}

bool Extractor::Enter(myhtml_tree_node_t* node) {
  const myhtml_tag_id_t tag = myhtml_node_tag_id(node);
  if (tag == MyHTML_TAG__TEXT) {
    OnText(node);
    return false;
  }
  if (IsHidden(tag)) {
    if (tag == MyHTML_TAG_IFRAME) {
      if (auto src = Attr(node, "src")) AddLink(*src, LinkKind::kFrame, node);
    }
    return false;
  }
  if (myhtml_node_namespace(node) != MyHTML_NAMESPACE_HTML) return true;
  if (IsBlock(tag)) FlushBlock();
  switch (tag) {
    case MyHTML_TAG_HEAD:
      ++head_depth_;
      break;
    case MyHTML_TAG_TITLE:
      OnTitle(node);
      return false;
    case MyHTML_TAG_META:
      OnMeta(node);
      break;
    case MyHTML_TAG_LINK:
      OnLinkElement(node);
      break;
    case MyHTML_TAG_A: {
      int idx = -1;
      if (auto href = Attr(node, "href")) {
        idx = AddLink(*href, LinkKind::kAnchor, node);
        if (idx >= 0) {
          links_[idx].link.nofollow = HasToken(AttrValue(node, "rel"), "nofollow");
        }
      }
      open_anchors_.push_back(idx);
      break;
    }
    case MyHTML_TAG_AREA:
      if (auto href = Attr(node, "href")) {
        int idx = AddLink(*href, LinkKind::kArea, node);
        if (idx >= 0) {
          links_[idx].link.anchor = FoldWhitespace(AttrValue(node, "alt"));
          links_[idx].link.nofollow = HasToken(AttrValue(node, "rel"), "nofollow");
        }
      }
      break;
    case MyHTML_TAG_FRAME:
      if (auto src = Attr(node, "src")) AddLink(*src, LinkKind::kFrame, node);
      break;
    case MyHTML_TAG_IMG:
      // Inside a link the alt text is the anchor (as text browsers show it).
      if (!open_anchors_.empty() && head_depth_ == 0) {
        stream_.Break();
        stream_.Append(AttrValue(node, "alt"));
        stream_.Break();
      }
      break;
    default:
      break;
  }
  if (IsHeading(tag)) open_headings_.push_back(stream_.size());
  if (IsEmphasis(tag) && head_depth_ == 0) open_emphasis_.push_back(stream_.size());
  if (head_depth_ == 0 && dom_) {
    int32_t idx = -1;
    // An <a> already got its node in AddLink.
    if (tag == MyHTML_TAG_A && !links_.empty() && links_.back().node == node) {
      idx = links_.back().cnode;
    } else {
      idx = AddCompactNode(-1);
    }
    open_cnodes_.emplace_back(node, idx);
  }
  return true;
}

void Extractor::Leave(myhtml_tree_node_t* node) {
  if (!open_cnodes_.empty() && open_cnodes_.back().first == node) open_cnodes_.pop_back();
  const myhtml_tag_id_t tag = myhtml_node_tag_id(node);
  if (tag == MyHTML_TAG__TEXT || IsHidden(tag) ||
      myhtml_node_namespace(node) != MyHTML_NAMESPACE_HTML) {
    return;
  }
  if (tag == MyHTML_TAG_HEAD) {
    --head_depth_;
  } else if (tag == MyHTML_TAG_A && !open_anchors_.empty()) {
    int idx = open_anchors_.back();
    open_anchors_.pop_back();
    if (idx >= 0) links_[idx].text_end = stream_.size();
  } else if (IsHeading(tag) && !open_headings_.empty()) {
    size_t begin = open_headings_.back();
    open_headings_.pop_back();
    std::string_view h = TrimSpaces(std::string_view(stream_.str()).substr(begin));
    if (!h.empty()) page_->headings.emplace_back(h);
  } else if (IsEmphasis(tag) && !open_emphasis_.empty()) {
    size_t begin = open_emphasis_.back();
    open_emphasis_.pop_back();
    // Only the outermost element: <b><em>x</em></b> is one piece of text.
    std::string_view e = TrimSpaces(std::string_view(stream_.str()).substr(begin));
    if (open_emphasis_.empty() && !e.empty()) page_->emphasis.emplace_back(e);
  }
  if (IsBlock(tag)) FlushBlock();
}

// The contexts themselves are parse/link_context.cc's: the walk only
// recorded what they need.
void Extractor::AttachTextContexts() {
  html_walk::AttachTextContexts(stream_.str(), options_.context_window_words,
                                options_.max_context_bytes, [this] { return OutOfTime(); },
                                &scratch_.words, &links_);
}

void Extractor::AttachDomContexts() {
  if (!dom_) return;
  const VisibleText visible{stream_.str(), &pieces_};
  for (size_t i = 0; i < links_.size(); ++i) {
    WalkedLink& r = links_[i];
    if (r.cnode < 0) continue;
    if ((i & 255) == 255 && OutOfTime()) return;
    r.link.dom_context = html_walk::DomContext(cnodes_, visible, r.cnode, options_.dom_delta,
                                    options_.max_context_bytes, &scratch_.dom);
  }
}

}  // namespace

ParsedPage ParseHtml(std::string_view utf8_html, std::string_view page_url,
                     const ParseOptions& options, ParseStats* stats) {
  const auto start = SteadyClock::now();
  ParsedPage page;
  ParseStats local_stats;
  if (stats == nullptr) stats = &local_stats;
  *stats = ParseStats();
  stats->input_bytes = utf8_html.size();
  if (utf8_html.size() > options.max_bytes) {
    utf8_html = Utf8Prefix(utf8_html, options.max_bytes);
    page.truncated = true;
    page.warning = "input cut at " + std::to_string(options.max_bytes) + " bytes";
  }
  std::string flattened;
  DepthLimitResult depth =
      LimitNestingDepth(utf8_html, std::max(1, options.max_depth), &flattened);
  if (depth.changed) {
    utf8_html = flattened;
    stats->depth_tags_dropped = depth.dropped_tags;
    page.truncated = true;
    if (!page.warning.empty()) page.warning += "; ";
    page.warning += "nesting deeper than " + std::to_string(options.max_depth) +
                    " flattened (" + std::to_string(depth.dropped_tags) + " tags)";
  }
  thread_local ThreadParser parser;
  myhtml_tree_t* tree = parser.Parse(utf8_html);
  stats->parse_seconds = SecondsSince(start);
  if (tree == nullptr) {
    page.base_url = std::string(page_url);
    page.truncated = true;
    if (!page.warning.empty()) page.warning += "; ";
    page.warning += "HTML parser failed";
    return page;
  }
  Extractor extractor(options, page_url, depth.has_base_tag, start, &page, stats);
  extractor.Run(tree);
  parser.Release();
  stats->extract_seconds = SecondsSince(start) - stats->parse_seconds;
  return page;
}

}  // namespace topicrawl

#include "parse/main_content.h"

#include <strings.h>

#include <string>
#include <utility>
#include <vector>

#include "parse/depth_limiter.h"
#include "parse/html_text.h"
#include "parse/main_content_internal.h"

namespace topicrawl {
namespace main_content_internal {

std::string_view AttrOf(myhtml_tree_node_t* node, std::string_view key) {
  myhtml_tree_attr_t* attr = myhtml_attribute_by_key(node, key.data(), key.size());
  if (attr == nullptr) return {};
  size_t len = 0;
  const char* v = myhtml_attribute_value(attr, &len);
  return v == nullptr ? std::string_view() : std::string_view(v, len);
}

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

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

std::string LangOf(myhtml_tree_t* tree, std::string_view text) {
  myhtml_tree_node_t* html = myhtml_tree_get_node_html(tree);
  if (html != nullptr) {
    std::string lang = LowerAscii(AttrOf(html, "lang"));
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
    const std::string name = LowerAscii(AttrOf(metas->list[i], "name"));
    const bool bot = name.size() > 3 && name.compare(name.size() - 3, 3, "bot") == 0;
    if (name == "robots" || bot || name == "tdm-reservation" || name == "tdm-policy") {
      out->emplace_back(name, FoldWhitespace(AttrOf(metas->list[i], "content")));
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

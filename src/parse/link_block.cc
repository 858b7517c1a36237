#include "parse/link_block.h"

#include <myhtml/api.h>

#include <string>
#include <string_view>
#include <utility>

#include "parse/main_content_internal.h"

namespace topicrawl {
namespace {

namespace mci = main_content_internal;

constexpr int kContainerLevels = 6;
constexpr size_t kMaxContainerBytes = 40;
// The walk up for the landmark stops here: ParseHtml flattens deeper nesting.
constexpr int kBlockMaxLevels = 512;

std::string_view BlockFirstToken(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  size_t b = 0;
  while (b < s.size() && is_space(s[b])) ++b;
  size_t e = b;
  while (e < s.size() && !is_space(s[e])) ++e;
  return s.substr(b, e - b);
}

// The landmark name of an element, or empty when it is none.
std::string_view BlockLandmark(myhtml_tree_node_t* node) {
  switch (myhtml_node_tag_id(node)) {
    case MyHTML_TAG_NAV: return "nav";
    case MyHTML_TAG_HEADER: return "header";
    case MyHTML_TAG_FOOTER: return "footer";
    case MyHTML_TAG_ASIDE: return "aside";
    case MyHTML_TAG_MAIN: return "main";
    default: break;
  }
  const std::string_view role = BlockFirstToken(mci::AttrOf(node, "role"));
  if (role.empty()) return {};
  const std::string lower_role = mci::LowerAscii(role);
  static constexpr std::pair<std::string_view, std::string_view> kRoles[] = {
      {"navigation", "nav"}, {"banner", "header"}, {"contentinfo", "footer"},
      {"complementary", "aside"}, {"main", "main"}};
  for (const auto& [r, name] : kRoles) {
    if (lower_role == r) return name;
  }
  return {};
}

std::string BlockTagName(myhtml_tree_node_t* node) {
  size_t len = 0;
  const char* name =
      myhtml_tag_name_by_id(myhtml_node_tree(node), myhtml_node_tag_id(node), &len);
  return name == nullptr ? std::string("?") : std::string(name, len);
}

// "tag.class" or "tag#id" when the element has either, else empty.
std::string BlockContainer(myhtml_tree_node_t* node) {
  std::string_view mark = ".";
  std::string_view value = BlockFirstToken(mci::AttrOf(node, "class"));
  if (value.empty()) {
    mark = "#";
    value = BlockFirstToken(mci::AttrOf(node, "id"));
  }
  if (value.empty()) return {};
  std::string out = BlockTagName(node);
  out.append(mark);
  out.append(value);
  return out;
}

}  // namespace

std::string LinkBlock(myhtml_tree_node* anchor) {
  myhtml_tree_node_t* parent = anchor == nullptr ? nullptr : myhtml_node_parent(anchor);
  if (parent == nullptr) return {};
  std::string container;
  std::string_view landmark;
  int level = 0;
  for (myhtml_tree_node_t* n = parent; n != nullptr && level < kBlockMaxLevels;
       n = myhtml_node_parent(n), ++level) {
    const myhtml_tag_id_t tag = myhtml_node_tag_id(n);
    // The document node (no tag), <html> and <body> hold every link alike.
    if (tag == MyHTML_TAG__UNDEF || tag == MyHTML_TAG_HTML || tag == MyHTML_TAG_BODY) break;
    if (container.empty() && level < kContainerLevels) container = BlockContainer(n);
    landmark = BlockLandmark(n);
    if (!landmark.empty()) break;
  }
  if (container.empty()) container = BlockTagName(parent);
  if (container.size() > kMaxContainerBytes) container.resize(kMaxContainerBytes);
  container = mci::LowerAscii(container);
  std::string out(landmark.empty() ? std::string_view("body") : landmark);
  out.push_back('|');
  out.append(container);
  return out;
}

}  // namespace topicrawl

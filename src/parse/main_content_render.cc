// Rendering of the chosen article (main_content.h) to text and Markdown.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "parse/html_text.h"
#include "parse/main_content.h"
#include "parse/main_content_internal.h"
#include "url/url.h"

namespace topicrawl {
namespace main_content_internal {
namespace {

// Inline text with whitespace runs folded to one space (ASCII whitespace,
// U+00A0, U+3000), plus markup taken verbatim: opening markup writes a
// pending space before itself, closing markup leaves it pending (so
// "[a ](u)" comes out as "[a](u) ").
class Inline {
 public:
  void Text(std::string_view t) {
    for (size_t i = 0; i < t.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(t[i]);
      size_t space = (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f') ? 1 : 0;
      if (c == 0xC2 && i + 1 < t.size() && (unsigned char)t[i + 1] == 0xA0) space = 2;
      if (c == 0xE3 && i + 2 < t.size() && (unsigned char)t[i + 1] == 0x80 &&
          (unsigned char)t[i + 2] == 0x80) {
        space = 3;
      }
      if (space > 0) {
        pending_space_ = !s_.empty();
        i += space - 1;
        continue;
      }
      FlushSpace();
      s_.push_back(static_cast<char>(c));
    }
  }
  void Open(std::string_view m) {
    FlushSpace();
    s_.append(m);
  }
  void Close(std::string_view m) { s_.append(m); }
  void Break() { pending_space_ = !s_.empty(); }
  size_t size() const { return s_.size(); }
  std::string_view str() const { return s_; }
  void Truncate(size_t n) {
    s_.resize(n);
    pending_space_ = false;
  }
  void Clear() { Truncate(0); }

 private:
  void FlushSpace() {
    if (pending_space_) s_.push_back(' ');
    pending_space_ = false;
  }
  std::string s_;
  bool pending_space_ = false;
};

std::string RawText(myhtml_tree_node_t* node) {
  std::string out;
  std::vector<myhtml_tree_node_t*> stack{node};
  while (!stack.empty()) {
    myhtml_tree_node_t* n = stack.back();
    stack.pop_back();
    if (myhtml_node_tag_id(n) == MyHTML_TAG__TEXT) {
      size_t len = 0;
      const char* t = myhtml_node_text(n, &len);
      if (t != nullptr) out.append(t, len);
      continue;
    }
    if (myhtml_node_tag_id(n) == MyHTML_TAG_BR) out.push_back('\n');
    std::vector<myhtml_tree_node_t*> children;
    for (auto* c = myhtml_node_child(n); c != nullptr; c = myhtml_node_next(c)) {
      children.push_back(c);
    }
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
  return out;
}

std::string CodeLanguage(myhtml_tree_node_t* node) {
  for (myhtml_tree_node_t* n : {node, myhtml_node_child(node)}) {
    if (n == nullptr) continue;
    std::string_view cls = AttrOf(n, "class");
    for (std::string_view prefix : {"language-", "lang-"}) {
      const size_t at = cls.find(prefix);
      if (at == std::string_view::npos) continue;
      std::string_view lang = cls.substr(at + prefix.size());
      return std::string(lang.substr(0, lang.find(' ')));
    }
  }
  return {};
}

std::string EscapeMarkdown(std::string_view t, bool in_cell) {
  std::string out;
  out.reserve(t.size());
  for (char c : t) {
    if (c == '\\' || c == '*' || c == '`' || c == '[' || c == ']' || (in_cell && c == '|')) {
      out.push_back('\\');
    }
    out.push_back(c);
  }
  return out;
}

bool IsDataTable(const Element& e) {
  if (AttrOf(e.node, "role") == "presentation") return false;
  const uint32_t columns = e.rows == 0 ? 0 : e.cells / e.rows;
  return e.th > 0 || e.rows >= 10 || columns > 4 || e.cells > 10;
}

class Renderer {
 public:
  Renderer(const std::vector<Element>& el, std::string_view page_url, bool clean,
           std::string* text, std::string* md)
      : el_(el), page_url_(page_url), clean_(clean), text_(*text), md_(*md) {}

  void RenderRoot(int index) {
    Node(el_[index].node, /*root=*/true);
    Flush();
  }

 private:
  // Readability's _cleanConditionally for form, fieldset, table, ul, div.
  bool CleanedAway(const Element& e) const {
    switch (e.tag) {
      case MyHTML_TAG_FORM: case MyHTML_TAG_FIELDSET: case MyHTML_TAG_TABLE:
      case MyHTML_TAG_UL: case MyHTML_TAG_DIV:
        break;
      default:
        return false;
    }
    if (e.tag == MyHTML_TAG_TABLE && IsDataTable(e)) return false;
    if (InCodeOrDataTable(e)) return false;
    std::string cls(AttrOf(e.node, "class"));
    cls += " ";
    cls += AttrOf(e.node, "id");
    if (cls.find("share") != std::string::npos && e.chars < 500) return true;
    const int weight = e.class_weight;
    if (weight + (e.scored ? e.score : 0) < 0) return true;
    if (e.commas >= 10) return false;
    // A list, or an element whose text is over 90 % lists.
    const bool is_list = e.tag == MyHTML_TAG_UL || e.tag == MyHTML_TAG_OL ||
                         (e.chars > 0 && e.list_chars > 0.9 * e.chars);
    const double p = e.p, img = e.img, li = double(e.li) - 100, input = e.input;
    const double ld = e.LinkDensity();
    const double heading_density = e.chars == 0 ? 0 : double(e.heading_chars) / e.chars;
    return (img > 1 && p / img < 0.5) || (!is_list && li > p) || input > int(p / 3) ||
           (!is_list && heading_density < 0.9 && e.chars < 25 && (img == 0 || img > 2) &&
            ld > 0) ||
           (!is_list && weight < 25 && ld > 0.2) || (weight >= 25 && ld > 0.5) ||
           (e.embeds == 1 && e.chars < 75) || e.embeds > 1;
  }

  // Readability keeps everything inside code and data tables.
  bool InCodeOrDataTable(const Element& e) const {
    for (int a = e.parent; a >= 0; a = el_[a].parent) {
      const Element& anc = el_[a];
      if (anc.tag == MyHTML_TAG_CODE || anc.tag == MyHTML_TAG_PRE) return true;
      if (anc.tag == MyHTML_TAG_TABLE && IsDataTable(anc)) return true;
    }
    return false;
  }

  void Children(myhtml_tree_node_t* node) {
    for (auto* c = myhtml_node_child(node); c != nullptr; c = myhtml_node_next(c)) {
      Node(c, false);
    }
  }

  void Node(myhtml_tree_node_t* node, bool root) {
    const myhtml_tag_id_t tag = myhtml_node_tag_id(node);
    if (tag == MyHTML_TAG__TEXT) {
      size_t len = 0;
      const char* t = myhtml_node_text(node, &len);
      if (t == nullptr) return;
      md_inline_.Text(EscapeMarkdown(std::string_view(t, len), cell_ > 0));
      text_inline_.Text(std::string_view(t, len));
      return;
    }
    if (tag == MyHTML_TAG__COMMENT) return;
    const int index = IndexOf(node);
    if (index < 0 || el_[index].dropped) return;
    if (!root && clean_ && CleanedAway(el_[index])) return;
    RenderElement(node, tag, index);
  }

  void RenderElement(myhtml_tree_node_t* node, myhtml_tag_id_t tag, int index) {
    switch (tag) {
      case MyHTML_TAG_H1: case MyHTML_TAG_H2: case MyHTML_TAG_H3:
      case MyHTML_TAG_H4: case MyHTML_TAG_H5: case MyHTML_TAG_H6:
        Flush();
        Children(node);
        Flush(std::string(tag - MyHTML_TAG_H1 + 1, '#') + " ");
        return;
      case MyHTML_TAG_PRE: return Pre(node);
      case MyHTML_TAG_UL: case MyHTML_TAG_OL: return List(node, tag == MyHTML_TAG_OL);
      case MyHTML_TAG_LI: return Item(node);
      case MyHTML_TAG_TABLE: return Table(node, index);
      case MyHTML_TAG_BLOCKQUOTE:
        Flush();
        ++quote_;
        Children(node);
        Flush();
        --quote_;
        return;
      case MyHTML_TAG_A: return Link(node);
      case MyHTML_TAG_CODE: case MyHTML_TAG_KBD: case MyHTML_TAG_SAMP: return Code(node);
      case MyHTML_TAG_STRONG: case MyHTML_TAG_B: return Wrapped(node, "**");
      case MyHTML_TAG_EM: case MyHTML_TAG_I: return Wrapped(node, "*");
      case MyHTML_TAG_IMG: return Image(node);
      case MyHTML_TAG_BR: return Flush();
      case MyHTML_TAG_HR:
        Flush();
        if (cell_ == 0) md_ += "---\n\n";
        return;
      default:
        break;
    }
    const bool block = IsBlockTag(tag);
    if (block) Flush();
    Children(node);
    if (block) Flush();
  }

  void Pre(myhtml_tree_node_t* node) {
    Flush();
    std::string code = RawText(node);
    if (!code.empty() && code.front() == '\n') code.erase(0, 1);
    while (!code.empty() && (code.back() == '\n' || code.back() == ' ')) code.pop_back();
    if (code.empty()) return;
    if (cell_ > 0) {
      md_inline_.Text(EscapeMarkdown(code, true));
      text_inline_.Text(code);
      return;
    }
    const std::string fence = code.find("```") == std::string::npos ? "```" : "~~~~";
    md_ += fence + CodeLanguage(node) + "\n" + code + "\n" + fence + "\n\n";
    text_ += code + "\n";
  }

  void List(myhtml_tree_node_t* node, bool ordered) {
    Flush();
    lists_.push_back({ordered, 1});
    Children(node);
    Flush();
    lists_.pop_back();
    if (lists_.empty() && !md_.empty() && md_.back() == '\n' && cell_ == 0) md_ += "\n";
  }

  void Item(myhtml_tree_node_t* node) {
    Flush();
    if (!lists_.empty()) {
      ListLevel& l = lists_.back();
      marker_ = l.ordered ? std::to_string(l.next++) + ". " : "- ";
    }
    Children(node);
    Flush();
    marker_.clear();
  }

  void Link(myhtml_tree_node_t* node) {
    const size_t md_before = md_inline_.size(), text_before = text_inline_.size();
    std::optional<std::string> url;
    if (std::string_view href = AttrOf(node, "href"); !href.empty()) {
      url = ResolveLink(page_url_, href);
    }
    if (url) md_inline_.Open("[");
    const size_t md_open = md_inline_.size();
    Children(node);
    if (!url) return;
    if (text_inline_.size() == text_before && md_inline_.size() == md_open) {
      md_inline_.Truncate(md_before);  // nothing to link
      return;
    }
    md_inline_.Close("](" + *url + ")");
  }

  void Code(myhtml_tree_node_t* node) {
    const std::string code = RawText(node);
    if (code.empty()) return;
    const std::string tick = code.find('`') == std::string::npos ? "`" : "``";
    md_inline_.Open(tick);
    md_inline_.Text(code);
    md_inline_.Close(tick);
    text_inline_.Text(code);
  }

  void Wrapped(myhtml_tree_node_t* node, std::string_view mark) {
    const size_t before = md_inline_.size();
    md_inline_.Open(mark);
    const size_t open = md_inline_.size();
    Children(node);
    if (md_inline_.size() == open) {
      md_inline_.Truncate(before);
      return;
    }
    md_inline_.Close(mark);
  }

  void Image(myhtml_tree_node_t* node) {
    std::string_view src = AttrOf(node, "src");
    if (src.empty()) return;
    std::optional<std::string> url = ResolveLink(page_url_, src);
    if (!url) return;
    md_inline_.Open("![" + EscapeMarkdown(FoldWhitespace(AttrOf(node, "alt")), cell_ > 0) +
                      "](" + *url + ")");
  }

  struct Row {
    std::vector<std::string> md, text;
  };

  void Table(myhtml_tree_node_t* node, int index) {
    Flush();
    if (!IsDataTable(el_[index]) || cell_ > 0) {
      Children(node);  // a layout table: its cells are blocks
      Flush();
      return;
    }
    std::vector<Row> rows;
    CollectRows(node, &rows);
    size_t columns = 0;
    for (const Row& r : rows) columns = std::max(columns, r.md.size());
    if (columns == 0) return;
    for (size_t i = 0; i < rows.size(); ++i) {
      rows[i].md.resize(columns);
      md_ += "|";
      for (const std::string& c : rows[i].md) md_ += " " + c + " |";
      md_ += "\n";
      if (i == 0) {
        md_ += "|";
        for (size_t c = 0; c < columns; ++c) md_ += " --- |";
        md_ += "\n";
      }
      std::string line;
      for (const std::string& c : rows[i].text) line += (line.empty() ? "" : "\t") + c;
      text_ += line + "\n";
    }
    md_ += "\n";
  }

  void CollectRows(myhtml_tree_node_t* node, std::vector<Row>* rows) {
    for (auto* c = myhtml_node_child(node); c != nullptr; c = myhtml_node_next(c)) {
      const myhtml_tag_id_t tag = myhtml_node_tag_id(c);
      if (tag == MyHTML_TAG_THEAD || tag == MyHTML_TAG_TBODY || tag == MyHTML_TAG_TFOOT) {
        CollectRows(c, rows);
      } else if (tag == MyHTML_TAG_CAPTION) {
        Children(c);
        Flush();
      } else if (tag == MyHTML_TAG_TR) {
        Row row;
        for (auto* cell = myhtml_node_child(c); cell != nullptr; cell = myhtml_node_next(cell)) {
          const myhtml_tag_id_t t = myhtml_node_tag_id(cell);
          if (t != MyHTML_TAG_TD && t != MyHTML_TAG_TH) continue;
          ++cell_;
          Children(cell);
          --cell_;
          row.md.emplace_back(md_inline_.str());
          row.text.emplace_back(text_inline_.str());
          md_inline_.Clear();
          text_inline_.Clear();
        }
        if (!row.md.empty()) rows->push_back(std::move(row));
      }
    }
  }

  // Ends the current block: one Markdown line (with its list marker or
  // indentation and quote prefix) and one text line.
  void Flush(const std::string& heading = {}) {
    if (cell_ > 0) {
      md_inline_.Break();
      text_inline_.Break();
      return;
    }
    const std::string_view md = md_inline_.str();
    if (md.empty()) {
      md_inline_.Clear();
      text_inline_.Clear();
      return;
    }
    std::string prefix;
    for (int i = 0; i < quote_; ++i) prefix += "> ";
    if (!lists_.empty()) {
      prefix += std::string(2 * (lists_.size() - 1), ' ');
      prefix += marker_.empty() ? "  " : marker_;
      marker_.clear();
    }
    md_ += prefix + heading;
    md_.append(md);
    md_ += lists_.empty() ? "\n\n" : "\n";
    text_.append(text_inline_.str());
    text_ += "\n";
    md_inline_.Clear();
    text_inline_.Clear();
  }

  struct ListLevel {
    bool ordered;
    int next;
  };

  const std::vector<Element>& el_;
  std::string_view page_url_;
  bool clean_;
  std::string& text_;
  std::string& md_;
  Inline md_inline_, text_inline_;
  std::vector<ListLevel> lists_;
  std::string marker_;
  int quote_ = 0;
  int cell_ = 0;
};

}  // namespace

bool IsBlockTag(myhtml_tag_id_t t) {
  switch (t) {
    case MyHTML_TAG_ADDRESS: case MyHTML_TAG_ARTICLE: case MyHTML_TAG_ASIDE:
    case MyHTML_TAG_BLOCKQUOTE: case MyHTML_TAG_BODY: case MyHTML_TAG_BR:
    case MyHTML_TAG_CAPTION: case MyHTML_TAG_CENTER: case MyHTML_TAG_DD:
    case MyHTML_TAG_DETAILS: case MyHTML_TAG_DIV: case MyHTML_TAG_DL: case MyHTML_TAG_DT:
    case MyHTML_TAG_FIELDSET: case MyHTML_TAG_FIGCAPTION: case MyHTML_TAG_FIGURE:
    case MyHTML_TAG_FOOTER: case MyHTML_TAG_FORM: case MyHTML_TAG_H1: case MyHTML_TAG_H2:
    case MyHTML_TAG_H3: case MyHTML_TAG_H4: case MyHTML_TAG_H5: case MyHTML_TAG_H6:
    case MyHTML_TAG_HEADER: case MyHTML_TAG_HR: case MyHTML_TAG_LI: case MyHTML_TAG_MAIN:
    case MyHTML_TAG_NAV: case MyHTML_TAG_OL: case MyHTML_TAG_P: case MyHTML_TAG_PRE:
    case MyHTML_TAG_SECTION: case MyHTML_TAG_SUMMARY: case MyHTML_TAG_TABLE:
    case MyHTML_TAG_TBODY: case MyHTML_TAG_TD: case MyHTML_TAG_TFOOT: case MyHTML_TAG_TH:
    case MyHTML_TAG_THEAD: case MyHTML_TAG_TR: case MyHTML_TAG_UL:
      return true;
    default:
      return false;
  }
}

void RenderContent(const std::vector<Element>& elements, const std::vector<int>& roots,
                   std::string_view page_url, bool clean_conditionally, std::string* text,
                   std::string* markdown) {
  Renderer r(elements, page_url, clean_conditionally, text, markdown);
  for (int root : roots) r.RenderRoot(root);
  while (!markdown->empty() && markdown->back() == '\n') markdown->pop_back();
  if (!markdown->empty()) markdown->push_back('\n');
  while (!text->empty() && text->back() == '\n') text->pop_back();
}

}  // namespace main_content_internal

namespace {

bool IsCjk(uint32_t cp) {
  return (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
         (cp >= 0xF900 && cp <= 0xFAFF);
}

// Next code point of `s` at *i (advances); invalid bytes read as U+FFFD.
uint32_t NextCodePoint(std::string_view s, size_t* i) {
  const unsigned char c = static_cast<unsigned char>(s[(*i)++]);
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  uint32_t cp = extra == 0 ? c : c & (0x3F >> extra);
  for (; extra > 0 && *i < s.size(); --extra) cp = (cp << 6) | (s[(*i)++] & 0x3F);
  return cp;
}

std::unordered_map<std::string, int> Tokens(std::string_view s, int* total) {
  std::unordered_map<std::string, int> counts;
  std::string word;
  *total = 0;
  auto end_word = [&] {
    if (!word.empty()) {
      ++counts[word];
      ++*total;
      word.clear();
    }
  };
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    const uint32_t cp = NextCodePoint(s, &i);
    if (IsCjk(cp)) {
      end_word();
      ++counts[std::string(s.substr(start, i - start))];
      ++*total;
    } else if ((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || cp >= 0xC0) {
      word.append(s.substr(start, i - start));
    } else if (cp >= 'A' && cp <= 'Z') {
      word.push_back(static_cast<char>(cp - 'A' + 'a'));
    } else {
      end_word();
    }
  }
  end_word();
  return counts;
}

}  // namespace

double TokenF1(std::string_view candidate, std::string_view reference) {
  int nc = 0, nr = 0;
  const auto c = Tokens(candidate, &nc);
  const auto r = Tokens(reference, &nr);
  if (nc == 0 && nr == 0) return 1.0;
  if (nc == 0 || nr == 0) return 0.0;
  int common = 0;
  for (const auto& [token, n] : c) {
    auto it = r.find(token);
    if (it != r.end()) common += std::min(n, it->second);
  }
  if (common == 0) return 0.0;
  const double precision = double(common) / nc, recall = double(common) / nr;
  return 2 * precision * recall / (precision + recall);
}

}  // namespace topicrawl

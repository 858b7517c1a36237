#include "render/shell_evidence.h"

#include <strings.h>

#include <cctype>
#include <cstdio>

namespace topicrawl {
namespace {

// The ids (and one element name) the common frameworks mount into:
// create-react-app and Vite templates (root, app), Vue (app), Next.js
// (__next), Nuxt (__nuxt), Gatsby (___gatsby), Svelte's template (svelte),
// Angular (<app-root>).
constexpr std::string_view kRootIds[] = {"app", "root", "__next", "__nuxt", "___gatsby",
                                         "svelte", "react-root", "app-root"};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

bool EqualsCi(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

size_t FindCi(std::string_view hay, std::string_view needle, size_t from) {
  if (needle.empty() || hay.size() < needle.size()) return std::string_view::npos;
  for (size_t i = from; i + needle.size() <= hay.size(); ++i) {
    if (strncasecmp(hay.data() + i, needle.data(), needle.size()) == 0) return i;
  }
  return std::string_view::npos;
}

// One start tag: its name and the text of its attributes.
struct Tag {
  std::string_view name, attrs;
  size_t end = 0;  // just past '>'
};

// The start tag at html[lt] == '<' (name begins with a letter), or none.
bool ReadTag(std::string_view html, size_t lt, Tag* tag) {
  size_t i = lt + 1;
  if (i >= html.size() || !std::isalpha(static_cast<unsigned char>(html[i]))) return false;
  while (i < html.size() && (std::isalnum(static_cast<unsigned char>(html[i])) || html[i] == '-')) {
    ++i;
  }
  tag->name = html.substr(lt + 1, i - lt - 1);
  const size_t attrs = i;
  char quote = 0;
  for (; i < html.size(); ++i) {
    const char c = html[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      break;
    }
  }
  tag->attrs = html.substr(attrs, i - attrs);
  tag->end = i < html.size() ? i + 1 : html.size();
  return true;
}

// The value of attribute `name` ("" when absent or empty).
std::string_view Attr(std::string_view attrs, std::string_view name) {
  for (size_t at = FindCi(attrs, name, 0); at != std::string_view::npos;
       at = FindCi(attrs, name, at + 1)) {
    if (at > 0 && !IsSpace(attrs[at - 1]) && attrs[at - 1] != '/') continue;
    size_t i = at + name.size();
    while (i < attrs.size() && IsSpace(attrs[i])) ++i;
    if (i >= attrs.size() || attrs[i] != '=') {
      if (i >= attrs.size() || IsSpace(attrs[at + name.size()]) || attrs[i] == '/') return "";
      continue;  // a longer name that starts with `name`
    }
    ++i;
    while (i < attrs.size() && IsSpace(attrs[i])) ++i;
    if (i < attrs.size() && (attrs[i] == '"' || attrs[i] == '\'')) {
      const size_t close = attrs.find(attrs[i], i + 1);
      return attrs.substr(i + 1, (close == std::string_view::npos ? attrs.size() : close) - i - 1);
    }
    size_t end = i;
    while (end < attrs.size() && !IsSpace(attrs[end])) ++end;
    return attrs.substr(i, end - i);
  }
  return "";
}

bool HasAttr(std::string_view attrs, std::string_view name) {
  for (size_t at = FindCi(attrs, name, 0); at != std::string_view::npos;
       at = FindCi(attrs, name, at + 1)) {
    const size_t after = at + name.size();
    if ((at == 0 || IsSpace(attrs[at - 1])) &&
        (after == attrs.size() || IsSpace(attrs[after]) || attrs[after] == '=')) {
      return true;
    }
  }
  return false;
}

// Text outside tags of `html` mentions `word` (ASCII case-insensitive).
bool TextMentions(std::string_view html, std::string_view word) {
  std::string text;
  bool in_tag = false;
  for (char c : html) {
    if (c == '<') in_tag = true;
    if (!in_tag) text += c;
    if (c == '>') in_tag = false;
  }
  return FindCi(text, word, 0) != std::string_view::npos;
}

bool AnyOf(std::string_view body, std::initializer_list<std::string_view> needles) {
  for (std::string_view n : needles) {
    if (body.find(n) != std::string_view::npos) return true;
  }
  return false;
}

// The element's content up to its first tag is empty or a placeholder of at
// most 3 words, and that tag closes an element.
bool EmptyElement(std::string_view html, size_t content) {
  const size_t lt = html.find('<', content);
  if (lt == std::string_view::npos || lt + 1 >= html.size() || html[lt + 1] != '/') return false;
  int words = 0;
  bool in_word = false;
  for (size_t i = content; i < lt; ++i) {
    const bool space = IsSpace(html[i]);
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words <= 3;
}

class Scanner {
 public:
  Scanner(std::string_view html, ShellEvidence* e) : html_(html), e_(e) {}
  void Run();

 private:
  // The body of a raw-text element from `from` to its end tag; returns the
  // position after the end tag.
  size_t RawBody(std::string_view name, size_t from, std::string_view* body) const;
  void Script(const Tag& tag, std::string_view body);
  void Element(const Tag& tag);

  std::string_view html_;
  ShellEvidence* e_;
};

size_t Scanner::RawBody(std::string_view name, size_t from, std::string_view* body) const {
  const std::string close = "</" + std::string(name);
  const size_t at = FindCi(html_, close, from);
  if (at == std::string_view::npos) {
    *body = html_.substr(from);
    return html_.size();
  }
  *body = html_.substr(from, at - from);
  const size_t gt = html_.find('>', at);
  return gt == std::string_view::npos ? html_.size() : gt + 1;
}

void Scanner::Script(const Tag& tag, std::string_view body) {
  e_->scripted = true;
  if (HasAttr(tag.attrs, "src")) {
    ++e_->script_files;
    return;
  }
  const std::string_view type = Attr(tag.attrs, "type");
  if (FindCi(type, "ld+json", 0) != std::string_view::npos) return;  // metadata
  if (FindCi(type, "json", 0) != std::string_view::npos || EqualsCi(type, "text/template") ||
      EqualsCi(type, "text/x-template")) {
    e_->island_bytes += body.size();
    return;
  }
  if (!type.empty() && FindCi(type, "javascript", 0) == std::string_view::npos &&
      !EqualsCi(type, "module")) {
    return;  // not run by the browser (a config block, a shader, ...)
  }
  e_->inline_script_bytes += body.size();
  if (AnyOf(body, {"fetch(", "XMLHttpRequest", "getJSON", "axios"}) &&
      AnyOf(body, {"innerHTML", "appendChild", "insertAdjacentHTML"})) {
    e_->fetch_and_dom = true;
  }
}

void Scanner::Element(const Tag& tag) {
  if (EqualsCi(tag.name, "meta")) {
    if (EqualsCi(Attr(tag.attrs, "http-equiv"), "refresh")) e_->refresh = true;
    return;
  }
  if (!e_->empty_root.empty()) return;
  std::string root;
  if (EqualsCi(tag.name, "app-root")) {
    root = "<app-root>";
  } else {
    const std::string_view id = Attr(tag.attrs, "id");
    for (std::string_view r : kRootIds) {
      if (EqualsCi(id, r)) root = "#" + std::string(id);
    }
  }
  if (!root.empty() && EmptyElement(html_, tag.end)) e_->empty_root = root;
}

void Scanner::Run() {
  size_t i = html_.find('<');
  while (i != std::string_view::npos && i < html_.size()) {
    if (html_.compare(i, 4, "<!--") == 0) {
      const size_t close = html_.find("-->", i + 4);
      if (close == std::string_view::npos) return;
      i = html_.find('<', close + 3);
      continue;
    }
    Tag tag;
    if (!ReadTag(html_, i, &tag)) {
      i = html_.find('<', i + 1);
      continue;
    }
    size_t next = tag.end;
    std::string_view body;
    if (EqualsCi(tag.name, "script")) {
      next = RawBody("script", tag.end, &body);
      Script(tag, body);
    } else if (EqualsCi(tag.name, "style")) {
      next = RawBody("style", tag.end, &body);
    } else if (EqualsCi(tag.name, "template")) {
      next = RawBody("template", tag.end, &body);
      e_->island_bytes += body.size();
    } else if (EqualsCi(tag.name, "noscript")) {
      next = RawBody("noscript", tag.end, &body);
      if (TextMentions(body, "javascript")) e_->noscript_notice = true;
    } else {
      Element(tag);
    }
    i = html_.find('<', next);
  }
}

}  // namespace

bool LooksScripted(std::string_view html) {
  constexpr std::string_view kTag = "<script";
  for (size_t i = html.find('<'); i != std::string_view::npos; i = html.find('<', i + 1)) {
    if (html.size() - i >= kTag.size() &&
        strncasecmp(html.data() + i, kTag.data(), kTag.size()) == 0) {
      const char next = html.size() > i + kTag.size() ? html[i + kTag.size()] : '>';
      if (next == '>' || IsSpace(next) || next == '/') return true;
    }
  }
  return false;
}

ShellEvidence ReadShellEvidence(std::string_view html, const StaticCounts& counts) {
  ShellEvidence e;
  e.counts = counts;
  if (!LooksScripted(html)) return e;
  Scanner(html, &e).Run();
  e.scripted = true;
  return e;
}

bool ShellEvidence::Strong() const {
  return !empty_root.empty() || island_bytes > counts.text_bytes ||
         (counts.words < kNoticeWords && (noscript_notice || fetch_and_dom));
}

bool ShellEvidence::Thin() const {
  return counts.words < kThinWords && counts.links < kContentLinks &&
         (script_files > 0 || inline_script_bytes > counts.text_bytes);
}

std::string ShellEvidence::Describe() const {
  if (!scripted) return "no script";
  if (refresh) return "redirects itself (meta refresh)";
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  if (!empty_root.empty()) add("empty app root " + empty_root);
  if (island_bytes > counts.text_bytes) {
    add("data island " + std::to_string(island_bytes) + " bytes > text " +
        std::to_string(counts.text_bytes));
  }
  if (counts.words < kNoticeWords && noscript_notice) add("noscript asks for JavaScript");
  if (counts.words < kNoticeWords && fetch_and_dom) add("inline script fetches and writes the DOM");
  char buf[160];
  std::snprintf(buf, sizeof(buf), "%zu words, %zu links, %d script files, %zu inline script bytes",
                counts.words, counts.links, script_files, inline_script_bytes);
  if (Thin()) add(std::string("thin page (") + buf + ")");
  if (out.empty()) return std::string("content (") + buf + ")";
  return out;
}

}  // namespace topicrawl

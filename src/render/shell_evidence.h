// ShellEvidence: what a page's static HTML says about whether its scripts
// build its content (--render auto). Read before any render: a page whose
// static parse already holds its content is never sampled, so a web of
// ordinary sites costs no browser time at all.
//
// An application shell (a single-page application's document, a page whose
// list or article a script inserts) shows itself in the HTML the server
// sends, in one of these forms (the common SPA frameworks' documents, and
// the script styles of the synthetic JS web, src/web/synthetic_js.h):
//   empty app root   an element the framework mounts into, still empty
//                    or a placeholder of <= 3 words: id app, root, __next,
//                    __nuxt, ___gatsby, svelte, react-root, app-root, or an
//                    <app-root> element (Angular);
//   data island      the content travels as data: <script type=
//                    "application/json"> (not ld+json metadata), text/
//                    template, text/x-template or <template> bodies
//                    larger than the page's visible text;
//   noscript notice  a <noscript> that asks for JavaScript on a page of
//                    fewer than 150 words;
//   fetch + DOM      an inline script that fetches (fetch(, XMLHttpRequest,
//                    getJSON, axios) and writes the DOM (innerHTML,
//                    appendChild, insertAdjacentHTML) on a page of fewer
//                    than 150 words;
//   thin page        fewer than 60 words and 10 links in the static parse
//                    while the page loads a script file or holds more
//                    inline script than visible text (the weak form: a
//                    small page with a script is often just small).
// A page that redirects itself (<meta http-equiv=refresh>) is no shell:
// its content is elsewhere. A page with none of these forms is content:
// rendering it may add a widget, not the page's links or text.
#ifndef TOPICRAWL_RENDER_SHELL_EVIDENCE_H_
#define TOPICRAWL_RENDER_SHELL_EVIDENCE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace topicrawl {

// The static parse's figures for the page.
struct StaticCounts {
  size_t words = 0;       // of the visible text
  size_t links = 0;       // outlinks
  size_t text_bytes = 0;  // of the visible text
};

struct ShellEvidence {
  StaticCounts counts;
  bool scripted = false;           // has a <script> element
  int script_files = 0;            // <script src=...>
  size_t inline_script_bytes = 0;  // bodies of executable inline scripts
  size_t island_bytes = 0;         // JSON / template data bodies
  std::string empty_root;          // "#app", "<app-root>", ... or ""
  bool noscript_notice = false;
  bool fetch_and_dom = false;
  bool refresh = false;

  // Thresholds of the rule (the header comment).
  static constexpr size_t kThinWords = 60;
  static constexpr size_t kContentLinks = 10;
  static constexpr size_t kNoticeWords = 150;

  // A strong form (all but the thin page) is present.
  bool Strong() const;
  // The thin-page form is present.
  bool Thin() const;
  // The page may need rendering: scripted, not redirecting, and a form.
  bool Shell() const { return scripted && !refresh && (Strong() || Thin()); }
  // The forms found, e.g. "empty app root #app; thin page (1 words, 0 links,
  // 1 script file)", or why the page is content.
  std::string Describe() const;
};

// Reads `html` (UTF-8) once; `counts` come from the page's static parse.
ShellEvidence ReadShellEvidence(std::string_view html, const StaticCounts& counts);

// True when `html` contains a <script element (ASCII case-insensitive).
bool LooksScripted(std::string_view html);

}  // namespace topicrawl

#endif  // TOPICRAWL_RENDER_SHELL_EVIDENCE_H_
